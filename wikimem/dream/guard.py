"""What a model may do to the wiki in one chunk, and how its claims are folded in (docs/memory.md).

Contract (`ChunkGuard`, one per chunk of one project's events):
  - `check(op)` refuses, with a reason the model is shown in its correction round: a write
    outside the chunk's project, `profile/`, `general/` and `tools/`; any write to a session
    digest (wikimem writes those); an `upsert` or `delete` of an existing note the model was not
    shown whole (it would lose what it never saw: `claim`/`retract` are the way to change such a
    note); an `upsert` body holding two current claims on one subject.
  - `apply_claim` / `apply_retract` carry out the claim operations on the dream's overlay: the
    claim is folded in with its provenance (the client and day of the session that supports it,
    linked to that session's digest), replacing the claim it supersedes there and in the other
    living notes of its scope.
  - `digest_of(source)` is the digest path of a session of the chunk, the same one the digests
    written after the model's operations get.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from wikimem.dream import claims, digest, subjects, supersession
from wikimem.dream.base import Prompt, SessionEvents
from wikimem.dream.dates import parse_day
from wikimem.dream.ops import About, ClaimOp, Delete, Move, Operation, Retract, Upsert
from wikimem.dream.placement import Placement, scope_paths
from wikimem.wiki.notes import default_kind, new_note
from wikimem.wiki.origins import strip_imitations

if TYPE_CHECKING:
    from wikimem.wiki.notes import Note

SHARED_TOPS = ("profile/", "general/", "tools/")


class OverlayLike(Protocol):
    """What the guard needs of the dream's overlay."""

    def change(self, path: str, note: Note | None) -> None: ...

    def note(self, path: str) -> Note | None: ...

    def under(self, prefix: str) -> list[str]: ...


@dataclass
class ChunkGuard:
    project: str
    sessions: Sequence[SessionEvents]
    read: Callable[[str], str | None]
    under: Callable[[str], list[str]]
    prompt: Prompt | None = None
    digests: dict[str, str] = field(default_factory=dict)  # source -> digest path
    # Notes this chunk's operations already wrote: the model knows what it put there.
    touched: set[str] = field(default_factory=set)

    # source -> the day the session last spoke in this chunk: a claim is dated when it was
    # said, not when the dream ran (a batch dream may run days later)
    said_on: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for s in self.sessions:
            found = digest.find_digest(
                self.under(f"projects/{s.project}/sessions/"), s.project, s.session
            )
            day = str(s.events[0].get("ts", ""))[:10] if s.events else ""
            last = str(s.events[-1].get("ts", ""))[:10] if s.events else ""
            if parse_day(last) is not None:
                self.said_on[s.source] = last
            self.digests[s.source] = found or digest.digest_path(
                s.project, day or "0000-00-00", s.session
            )

    # -- what may be done ----------------------------------------------------------------------

    def _outside(self, path: str) -> str | None:
        if path.startswith(SHARED_TOPS) or path.startswith(f"projects/{self.project}/"):
            if "/sessions/" in path:
                return (
                    f"{path}: session digests are written by wikimem; put what the session "
                    "taught in living notes with claim operations"
                )
            return None
        return (
            f"{path}: outside this chunk's project ({self.project}); write only under "
            f"projects/{self.project}/, profile/, general/ or tools/"
        )

    def about_target(self, op: About) -> SessionEvents | str:
        """The session an `about` names, or why it names no turn of this chunk worth one."""
        named = [
            s
            for s in self.sessions
            if op.session in (s.session, f"{s.client}:{s.session}")
            or (op.session == s.source and sum(t.source == s.source for t in self.sessions) == 1)
        ]
        if len(named) != 1:
            return "names no session of this chunk (give the session's id from its header)"
        session = named[0]
        if op.turn not in {t.number for t in digest.turns_of(session.events) if t.number}:
            return f"session {session.source} has no turn {op.turn} with anything in it"
        return session

    def check(self, op: Operation) -> str | None:
        if isinstance(op, About):
            found = self.about_target(op)
            return found if isinstance(found, str) else None
        paths = [op.from_path, op.to_path] if isinstance(op, Move) else [op.path]
        for path in paths:
            why = self._outside(path)
            if why:
                return why
        shown = self.prompt.shown if self.prompt is not None else frozenset()
        clipped = self.prompt.clipped if self.prompt is not None else frozenset()
        if isinstance(op, Upsert | Delete | Move):
            target = op.from_path if isinstance(op, Move) else op.path
            if self.read(target) is not None and target not in shown | self.touched:
                if isinstance(op, Upsert):
                    how = "clipped" if target in clipped else "not shown"
                    return (
                        f"{target} exists and was {how} to you: an upsert would replace what you "
                        "did not see; add to it with claim operations (and retract what is no "
                        "longer true) instead"
                    )
                return f"{target} exists and was not shown to you whole; leave it as it is"
        if isinstance(op, Upsert) and op.kind != "session":
            pair = conflicting_claims(op.body)
            if pair:
                return (
                    f"the body holds two current claims on one subject: {pair[0]!r} and "
                    f"{pair[1]!r}; keep only the one in force"
                )
        return None

    # -- applying claim operations -------------------------------------------------------------

    def provenance(self, sources: Sequence[str], today: str) -> claims.Provenance:
        for source in sources:
            key = source.strip().lower()
            for known, path in self.digests.items():
                if key == known or (len(key) >= 4 and known.startswith(key)):
                    day = self.said_on.get(known, today)
                    return claims.Provenance(known.split(":", 1)[0], day, path[:-3])
        if len(self.sessions) == 1:
            only = self.sessions[0]
            day = self.said_on.get(only.source, today)
            return claims.Provenance(only.client, day, self.digests[only.source][:-3])
        return claims.Provenance("dream", today)

    def apply_claim(self, overlay: OverlayLike, op: ClaimOp, stamp: str) -> None:
        provenance = self.provenance(op.sources, stamp[:10])
        today = provenance.date or stamp[:10]
        # "(remember 2026-12-01)" in a model's text says nothing of who said it (that is
        # recorded, `wikimem.wiki.origins`), and must not mislead whoever reads the note
        text = strip_imitations(op.text).strip()
        claim = claims.Claim(text, op.subject or subjects.subject_label(text), provenance)
        kind = default_kind(op.path)
        place = Placement(op.path, op.title, kind)
        project = self.project if op.path.startswith("projects/") else None
        for other in scope_paths(overlay.under, place, project):
            if other == op.path:
                continue
            note = overlay.note(other)
            if note is None:
                continue
            body, removed = claims.remove_superseded(note.body, claim)
            if removed:
                overlay.change(other, note.with_changes(body=body, updated=stamp))
        existing = overlay.note(op.path)
        body = existing.body if existing is not None else ""
        folded = claims.fold(body, claim, today=today)
        folded = replace(folded, body=claims.hold_new(folded.body, body))
        if existing is None:
            title = op.title or op.path.rsplit("/", 1)[-1][:-3].replace("-", " ").capitalize()
            overlay.change(
                op.path, new_note(op.path, title, folded.body, kind=kind, sources=op.sources)
            )
        elif folded.changed:
            sources = tuple(dict.fromkeys([*existing.sources, *op.sources]))[-12:]
            overlay.change(
                op.path, existing.with_changes(body=folded.body, updated=stamp, sources=sources)
            )

    def apply_retract(self, overlay: OverlayLike, op: Retract, stamp: str) -> str | None:
        existing = overlay.note(op.path)
        if existing is None:
            return f"retract {op.path}: no such note"
        body, removed = claims.retract(existing.body, op.text, stamp[:10])
        if not removed:
            return f"retract {op.path}: no claim there matches {op.text!r}"
        overlay.change(op.path, existing.with_changes(body=body, updated=stamp))
        return None


def conflicting_claims(body: str) -> tuple[str, str] | None:
    """Two claims of `body` on one subject (the first such pair), or None."""
    found = [c for _, c in claims.claims_in(body)]
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            same_label = bool(a.subject) and a.subject.lower() == b.subject.lower()
            if same_label or supersession.supersedes(b.text, a.text):
                if subjects.strip_history(a.text) == subjects.strip_history(b.text):
                    continue
                return a.text, b.text
    return None
