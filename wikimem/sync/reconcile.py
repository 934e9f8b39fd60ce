"""Settling the notes a sync flagged `conflict: true`, in the next dream.

Contract: `reconcile_flagged(memory_dir, read, backend, today, stamp)` is called by the dream
runner before any events are consolidated. It finds the flagged notes (`wikimem.sync.health.flagged_paths`,
by `git grep`, so a plain `git pull` with the merge driver counts too) and returns, per note, the
settled `Note` (no markers, no flag) for the dream's single commit, what was decided (for the
commit message: which side's claim won), and what it could not settle. The rule, the same for
notes a person wrote (both sides are theirs) as for any other:
  - each conflicted part (between `<<<<<<<` and `>>>>>>>`, `wikimem.sync.markers`) is settled
    claim by claim: lines on one side only are kept; two claims about the same subject (the
    same bold subject, the same statement, or one superseding the other by the dream's rules)
    are one claim, and the newer stands, the other kept in it as "(was … until …)" and in the
    note's history. Newer is decided by the full time each side of the note was changed (the
    markers say it), then by the claims' dates, then by the text, so every machine settles a
    conflict the same way. Then, in the whole note, one claim per subject stands (a subject
    both machines claimed in different places, flagged without markers, settles so too);
  - a model backend (`needs_prompt`) is asked to reconcile the note first; its version is
    taken only when it holds no markers and keeps every line outside the conflicted parts
    (or a claim about the same subject), else the rule above settles it;
  - a note flagged but with nothing left to settle (a person removed the markers) has only its
    flag removed; markers that are malformed are left for a person, and said so.
Which notes still hold a conflict is `wikimem.sync.health`'s question (what `status` and
`doctor` report: a stale flag is no conflict).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from wikimem.dream.base import Backend, DreamRequest, Prompt
from wikimem.dream.ops import Upsert
from wikimem.sync import markers
from wikimem.sync.claims import Settled, parse_claim, same_subject, settle_claims
from wikimem.sync.health import flagged_paths
from wikimem.sync.merge import flagged, needs_settling, with_flag
from wikimem.wiki.notes import Note, NoteError, parse_note, project_of

ReadNote = Callable[[str], str | None]


# -- settling -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """Two claims about one subject: the one kept, the one it replaced, and where each was."""

    kept: str
    kept_from: str  # a marker's label ("laptop 2026-11-30T10:02:11Z"), or "" outside a part
    replaced: str
    replaced_from: str
    day: str = ""  # when the kept one took over

    def describe(self) -> str:
        def side(text: str, where: str) -> str:
            short = text if len(text) <= 100 else text[:99] + "…"
            return f'"{short}"' + (f" ({where})" if where else "")

        return (
            f"kept {side(self.kept, self.kept_from)}, newer than "
            f"{side(self.replaced, self.replaced_from)}"
        )


@dataclass
class SettledBody:
    body: str
    decisions: list[Decision] = field(default_factory=list)


def _claim_text(line: str) -> str:
    claim = parse_claim(line)
    return claim.text if claim is not None else line.strip()


def settle_region(region: markers.Region, today: str = "") -> tuple[list[str], list[Decision]]:
    """One list of lines from both sides of a conflicted part, and the claims decided."""
    first, second = region.sides
    stamps = [markers.parse_label(lbl)[1] for lbl in region.labels]
    ranks = None
    if all(stamps):
        ranks = [stamps[0]] * len(first) + [stamps[1]] * len(second)
    lines = [*first, *second]
    settled = settle_claims(lines, ranks=ranks, today=today, dedupe_other=True)

    def label(i: int) -> str:
        return region.labels[0 if i < len(first) else 1]

    decisions = [
        Decision(
            _claim_text(lines[w]),
            label(w),
            _claim_text(lines[lo]),
            label(lo),
            max(markers.parse_label(label(w))[1][:10] if ranks else "", _day(lines[w])) or today,
        )
        for w, lo in settled.decided
    ]
    tidy: list[str] = []
    for line in settled.lines:
        if line.strip() or (tidy and tidy[-1].strip()):
            tidy.append(line)
    while tidy and not tidy[-1].strip():
        tidy.pop()
    return tidy, decisions


def settle_note_body(body: str, today: str = "") -> SettledBody | None:
    """The body with every conflict settled by the rule; None when its markers are malformed."""
    parts = markers.split(body)
    if parts is None:
        return None
    lines: list[str] = []
    decisions: list[Decision] = []
    for part in parts:
        if isinstance(part, markers.Region):
            settled, decided = settle_region(part, today)
            lines.extend(settled)
            decisions.extend(decided)
        else:
            lines.append(part)
    whole: Settled = settle_claims(lines, today=today)
    decisions += [
        Decision(_claim_text(lines[w]), "", _claim_text(lines[lo]), "", _day(lines[w]) or today)
        for w, lo in whole.decided
    ]
    text = "\n".join(whole.lines)
    text = text + "\n" if text else ""
    if decisions:
        from wikimem.dream.claims import record_past
        from wikimem.dream.subjects import strip_history

        # what no longer holds, hidden in the note: recall then leaves out a session digest
        # that still says it (as for any claim a dream replaces)
        for d in decisions:
            text = record_past(text, [strip_history(d.replaced)], d.day)
    return SettledBody(text, decisions)


def _day(line: str) -> str:
    claim = parse_claim(line)
    return claim.date if claim is not None else ""


def settle_body(body: str) -> str | None:
    """`settle_note_body`'s text (None when the markers are malformed)."""
    settled = settle_note_body(body)
    return None if settled is None else settled.body


def kept_outside(before: str, after: str) -> bool:
    """Whether `after` keeps every line of `before` that is outside its conflicted parts (or,
    for a claim, a claim about the same subject): what settling a conflict may not lose."""
    parts = markers.split(before)
    if parts is None:
        return False
    outside = [p for p in parts if isinstance(p, str) and p.strip()]
    now = {ln.strip() for ln in after.split("\n") if ln.strip()}
    claims = [c for c in map(parse_claim, after.split("\n")) if c is not None]
    for line in outside:
        if line.strip() in now:
            continue
        claim = parse_claim(line)
        if claim is None or not any(same_subject(claim, c) for c in claims):
            return False
    return True


# -- the dream's entry point --------------------------------------------------------------------


@dataclass
class Reconciled:
    notes: list[Note] = field(default_factory=list)
    unsettled: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    decisions: dict[str, list[str]] = field(default_factory=dict)  # path -> what was decided


RECONCILE_INSTRUCTION = """\
## A note to reconcile

`wikimem sync` merged two machines' versions of this note and could not merge every part: both
versions of those parts are kept between conflict markers (`<<<<<<< machine time`, `=======`,
`>>>>>>> machine time`, the time saying when that machine's version was changed). Reconcile it:
call apply_operations with ONE upsert of `{path}` whose body keeps everything outside the
markers as it is, everything still true from both sides, one current claim per subject (when
the two sides disagree, the side changed later wins, and the other value is kept in the winning
claim as "(was OLD until DATE)"; keep provenance links as they are), and no conflict markers.
Keep its title and kind unless they are wrong.
"""


def _prompt(path: str, text: str, system: str) -> Prompt:
    user = (
        RECONCILE_INSTRUCTION.format(path=path)
        + f"\n### {path}\n```markdown\n{text.rstrip()}\n```\n"
    )
    return Prompt(system=system, user=user)


def _from_model(backend: Backend, note: Note, text: str, today: str, read: ReadNote) -> Note | None:
    from wikimem.dream.prompt import SYSTEM_PROMPT

    request = DreamRequest(
        project=project_of(note.path) or "reconcile",
        sessions=(),
        today=today,
        prompt=_prompt(note.path, text, SYSTEM_PROMPT),
    )
    try:
        proposal = backend.propose(request, read)
    except Exception:  # a failing model must not stop the offline rules from settling it
        return None
    for op in proposal.operations:
        if (
            isinstance(op, Upsert)
            and op.path == note.path
            and not markers.has_markers(op.body)
            and kept_outside(note.body, op.body)  # nobody's lines lost along the way
        ):
            return note.with_changes(
                title=op.title, kind=op.kind, body=op.body, tags=op.tags or note.tags
            )
    return None


def reconcile_flagged(
    memory_dir: str, read: ReadNote, backend: Backend | None, today: str, stamp: str
) -> Reconciled:
    out = Reconciled()
    for path in flagged_paths(memory_dir):
        text = read(path)
        if text is None:
            continue
        try:
            note = parse_note(path, text)
        except NoteError as exc:
            out.unsettled.append((path, str(exc)))
            continue
        if not flagged(note):
            continue  # "conflict: true" in the body, not the front matter
        if not needs_settling(note.body):
            # settled by hand (the markers are gone): only the flag is left to remove
            out.notes.append(with_flag(note, False))
            out.decisions[path] = ["the conflict was settled by hand; its flag removed"]
            continue
        settled: Note | None = None
        if backend is not None and backend.needs_prompt:
            settled = _from_model(backend, note, text, today, read)
            if settled is not None:
                out.decisions[path] = [f"settled by the {backend.name} backend"]
        if settled is None:
            result = settle_note_body(note.body, today)
            if result is None:
                out.unsettled.append(
                    (path, "its conflict markers are malformed; resolve it by hand")
                )
                continue
            settled = note.with_changes(body=result.body)
            out.decisions[path] = [d.describe() for d in result.decisions] or [
                "both sides kept (no claim about one subject differed)"
            ]
        out.notes.append(with_flag(settled, False).with_changes(updated=stamp))
    return out
