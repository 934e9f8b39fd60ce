"""Note operations a dream backend proposes, and their validation.

Contract: `upsert(path, title, kind, tags, body, sources)`, `delete(path, reason)`,
`move(from, to)`, and two operations on the claims of a living note, which never lose what the
model was not shown: `claim(path, text, subject, sources)` folds one standalone claim into the
note (replacing the claim it supersedes) and `retract(path, text)` removes the claims
it names. `parse_operations(data)` turns untrusted JSON (a model's tool input) into
operations, returning the invalid ones with a reason instead of raising: invalid operations are
rejected and reported, the rest applied. `OPERATIONS_SCHEMA` is the JSON schema a model is given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from wikimem.capture.redact import scrub
from wikimem.wiki.notes import KINDS, NoteError, validate_path
from wikimem.wiki.pathecho import echo_path, echo_reason

MAX_BODY_CHARS = 16000


@dataclass(frozen=True)
class Upsert:
    path: str
    title: str
    kind: str
    body: str
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    pinned: bool | None = None
    op: str = "upsert"
    # Who brought the lines this body adds, where the writer knows (`wikimem.wiki.origins`):
    # the offline rules declare each claim's; a model's answer never sets it.
    origins: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Delete:
    path: str
    reason: str
    op: str = "delete"


@dataclass(frozen=True)
class Move:
    from_path: str
    to_path: str
    op: str = "move"


@dataclass(frozen=True)
class ClaimOp:
    path: str
    text: str
    subject: str = ""
    title: str = ""
    sources: tuple[str, ...] = ()
    op: str = "claim"


@dataclass(frozen=True)
class Retract:
    path: str
    text: str
    op: str = "retract"


@dataclass(frozen=True)
class About:
    """What one turn of a session is about, for finding it again: the people, places, things
    and projects it names (in full), and the absolute dates it speaks of. Written into that
    turn of the session's digest by wikimem, never a note of its own."""

    session: str  # as the prompt's session header gives it: client:session-id-prefix
    turn: int  # the prompt's `(turn N)`, counted from 1 in the session's events shown
    about: tuple[str, ...] = ()
    when: tuple[str, ...] = ()
    op: str = "about"


Operation = Upsert | Delete | Move | ClaimOp | Retract | About
MAX_CLAIM_CHARS = 600
MAX_ABOUT = 8  # names per turn: enough to find it, never a transcript
MAX_ABOUT_CHARS = 60
MAX_WHEN = 4


@dataclass(frozen=True)
class Rejected:
    raw: Any
    reason: str

    @property
    def path(self) -> str:
        """The path the operation named, safe to echo (see `wikimem.capture.redact.scrub`)."""
        if isinstance(self.raw, dict):
            return echo_path(self.raw.get("path") or self.raw.get("from") or "?")
        return "?"


OPERATIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "operations": {
            "type": "array",
            "description": "Changes to the wiki, applied in order. Empty when nothing durable was learned.",
            "items": {
                "type": "object",
                "properties": {
                    "op": {
                        "type": "string",
                        "enum": ["claim", "retract", "upsert", "delete", "move", "about"],
                    },
                    "session": {
                        "type": "string",
                        "description": "about: the session as its header gives it "
                        "(client:session-id-prefix).",
                    },
                    "turn": {
                        "type": "integer",
                        "description": "about: the N of the user's `(turn N)` in that session.",
                    },
                    "about": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": f"about: up to {MAX_ABOUT} people, places, things or "
                        "projects the turn is about, each named in full (a few words).",
                    },
                    "when": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": f"about: up to {MAX_WHEN} absolute dates (YYYY-MM-DD, "
                        "YYYY-MM or YYYY) the turn speaks of, resolved from the session's date.",
                    },
                    "path": {
                        "type": "string",
                        "description": "Note path relative to memory/, lower-case kebab-case, ending in .md, "
                        "under profile/, projects/<slug>/, tools/<tool>/ or general/ (upsert, delete).",
                    },
                    "text": {
                        "type": "string",
                        "description": "claim: ONE standalone statement (absolute dates, no "
                        "requests); retract: the claim (or its subject) to remove.",
                    },
                    "subject": {
                        "type": "string",
                        "description": "claim: what the statement is about, a few words "
                        "(e.g. 'Metrics collector port', 'JS package manager').",
                    },
                    "title": {
                        "type": "string",
                        "description": "upsert: the note's title; claim: the title of a note "
                        "that does not exist yet.",
                    },
                    "kind": {"type": "string", "enum": list(KINDS), "description": "upsert"},
                    "tags": {"type": "array", "items": {"type": "string"}, "description": "upsert"},
                    "body": {
                        "type": "string",
                        "description": "upsert: the COMPLETE new markdown body (no front matter). "
                        "It replaces the old body: merge what the note already said with the new evidence.",
                    },
                    "sources": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "upsert, claim: sessions supporting the change, as "
                        "client:session-id-prefix.",
                    },
                    "reason": {
                        "type": "string",
                        "description": "delete: why the note is stale or wrong.",
                    },
                    "from": {"type": "string", "description": "move: current path."},
                    "to": {"type": "string", "description": "move: new path."},
                },
                "required": ["op"],
            },
        }
    },
    "required": ["operations"],
}


def _str_list(value: Any, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"`{name}` must be a list of strings")
    return tuple(v.strip() for v in value if v.strip())


def _path(value: Any, name: str = "path") -> str:
    if not isinstance(value, str):
        raise ValueError(f"`{name}` must be a string")
    try:
        return validate_path(value.strip())
    except NoteError as exc:
        raise ValueError(echo_reason(str(exc), value.strip())) from None


def parse_operation(raw: Any) -> Operation:
    if not isinstance(raw, dict):
        raise ValueError("an operation must be an object")
    op = raw.get("op")
    if op == "upsert":
        title, kind, body = raw.get("title"), raw.get("kind"), raw.get("body")
        if not isinstance(title, str) or not title.strip():
            raise ValueError("upsert needs a non-empty `title`")
        if kind not in KINDS:
            raise ValueError(f"upsert `kind` must be one of {', '.join(KINDS)}")
        if not isinstance(body, str) or not body.strip():
            raise ValueError("upsert needs a non-empty `body`")
        if len(body) > MAX_BODY_CHARS:
            raise ValueError(f"upsert body is {len(body)} characters (at most {MAX_BODY_CHARS})")
        if body.lstrip().startswith("---"):
            raise ValueError("upsert `body` must not contain front matter")
        pinned = raw.get("pinned")
        if pinned is not None and not isinstance(pinned, bool):
            raise ValueError("`pinned` must be true or false")
        return Upsert(
            path=_path(raw.get("path")),
            title=title.strip(),
            kind=kind,
            body=body if body.endswith("\n") else body + "\n",
            tags=_str_list(raw.get("tags"), "tags"),
            sources=_str_list(raw.get("sources"), "sources"),
            pinned=pinned,
        )
    if op == "claim":
        text, subject, title = raw.get("text"), raw.get("subject", ""), raw.get("title", "")
        if not isinstance(text, str) or not text.strip():
            raise ValueError("claim needs a non-empty `text`")
        text = " ".join(text.split())
        if len(text) > MAX_CLAIM_CHARS:
            raise ValueError(f"claim text is {len(text)} characters (at most {MAX_CLAIM_CHARS})")
        if text.startswith(("- ", "#", "---")):
            raise ValueError("claim `text` is one statement, not markdown (no bullet or heading)")
        if not isinstance(subject, str) or len(subject) > 80 or "\n" in subject:
            raise ValueError("claim `subject` must be a short single line")
        if not isinstance(title, str) or len(title) > 200 or "\n" in title:
            raise ValueError("claim `title` must be a single line")
        return ClaimOp(
            path=_path(raw.get("path")),
            text=text,
            subject=subject.strip().strip("*:").strip(),
            title=title.strip(),
            sources=_str_list(raw.get("sources"), "sources"),
        )
    if op == "retract":
        text = raw.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ValueError("retract needs the `text` of the claim to remove")
        return Retract(path=_path(raw.get("path")), text=" ".join(text.split()))
    if op == "delete":
        reason = raw.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError("delete needs a `reason`")
        return Delete(path=_path(raw.get("path")), reason=reason.strip())
    if op == "move":
        src, dst = _path(raw.get("from"), "from"), _path(raw.get("to"), "to")
        if src == dst:
            raise ValueError("move `from` and `to` are the same path")
        return Move(from_path=src, to_path=dst)
    if op == "about":
        return _about(raw)
    raise ValueError(f"unknown op {op!r}; expected claim, retract, upsert, delete, move or about")


# markdown and Obsidian syntax a name has no use for: tags, links, emphasis, comments (`%%`
# would hide the rest of the digest in Obsidian's preview), math, highlights, URLs
_MARKUP = re.compile(r"[<>\[\]`*|\\]|^[#-]|%%|\$\$|~~|==|://")
_WHEN = re.compile(r"[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?")


def _about(raw: dict[str, Any]) -> About:
    session, turn = raw.get("session"), raw.get("turn")
    if not isinstance(session, str) or not session.strip() or len(session) > 200 or "\n" in session:
        raise ValueError("about needs the `session` as its header gives it")
    if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= 100_000:
        raise ValueError("about needs the `turn` number shown after `user` in that session")
    about = _str_list(raw.get("about"), "about")
    when = _str_list(raw.get("when"), "when")
    if not about and not when:
        raise ValueError("about needs `about` names or `when` dates")
    if len(about) > MAX_ABOUT or len(when) > MAX_WHEN:
        raise ValueError(f"about takes at most {MAX_ABOUT} names and {MAX_WHEN} dates per turn")
    for name in about:
        # plain words only: a digest's structure (its `<!-- wikimem:turns -->` block, links,
        # emphasis) must not be forged from inside a turn
        if len(name) > MAX_ABOUT_CHARS or not name.isprintable() or _MARKUP.search(name):
            raise ValueError(
                f"each `about` name is a few words on one line (at most {MAX_ABOUT_CHARS} "
                "characters, no markdown)"
            )
    for day in when:
        if not _WHEN.fullmatch(day) or not _real_date(day):
            raise ValueError("each `when` is an absolute date: YYYY-MM-DD, YYYY-MM or YYYY")
    return About(session.strip(), turn, tuple(dict.fromkeys(about)), tuple(dict.fromkeys(when)))


def _real_date(text: str) -> bool:
    import datetime as dt

    parts = [int(p) for p in text.split("-")] + [1, 1]
    try:
        dt.date(parts[0], parts[1], parts[2])
    except ValueError:
        return False
    return 1900 <= parts[0] <= 2200


def parse_operations(data: Any) -> tuple[list[Operation], list[Rejected]]:
    """Valid operations and rejected ones (with reasons) from `{"operations": [...]}` or a list."""
    items = data.get("operations") if isinstance(data, dict) else data
    if not isinstance(items, list):
        return [], [Rejected(data, 'expected {"operations": [...]}')]
    ops: list[Operation] = []
    rejected: list[Rejected] = []
    for raw in items:
        try:
            ops.append(parse_operation(raw))
        except ValueError as exc:
            rejected.append(Rejected(raw, scrub(str(exc))))
    return ops, rejected


def as_dict(op: Operation) -> dict[str, Any]:
    if isinstance(op, Upsert):
        out: dict[str, Any] = {
            "op": "upsert",
            "path": op.path,
            "title": op.title,
            "kind": op.kind,
            "tags": list(op.tags),
            "body": op.body,
            "sources": list(op.sources),
        }
        if op.pinned is not None:
            out["pinned"] = op.pinned
        return out
    if isinstance(op, Delete):
        return {"op": "delete", "path": op.path, "reason": op.reason}
    if isinstance(op, ClaimOp):
        return {
            "op": "claim",
            "path": op.path,
            "text": op.text,
            "subject": op.subject,
            "title": op.title,
            "sources": list(op.sources),
        }
    if isinstance(op, Retract):
        return {"op": "retract", "path": op.path, "text": op.text}
    if isinstance(op, About):
        return {
            "op": "about",
            "session": op.session,
            "turn": op.turn,
            "about": list(op.about),
            "when": list(op.when),
        }
    return {"op": "move", "from": op.from_path, "to": op.to_path}
