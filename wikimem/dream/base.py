"""What a dream backend is given and must return.

A backend turns one chunk of new events of one project, plus the notes relevant to them, into
note operations. Model backends read `DreamRequest.prompt` (bounded: see `wikimem.dream.prompt`);
the offline backend reads the structured `sessions` and the current notes through `read`.

How a model backend fails tells the dream what to do with the chunk:
  - `BackendUnavailable`: the model cannot be used now (unreachable, not signed in, the key or
    the model refused, over the day's cap): this chunk and the rest of the dream run offline,
    and a later dream with the model available revisits them;
  - `AnswerRefused`: the model answered, but with something that must not be applied (it tried
    to run a tool, say): this chunk runs offline;
  - any other `BackendError`: the chunk is deferred and tried again by the next dream.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from wikimem.dream.ops import Operation, Rejected
from wikimem.dream.usage import Usage
from wikimem.errors import WikimemError

Record = dict[str, Any]
ReadNote = Callable[[str], str | None]


class BackendError(WikimemError):
    """The backend could not produce operations (network, credentials, repeated bad output).

    `request_fault`: this request failed because of what it carried (too large, refused, a
    reply cut off twice), not because the backend is unavailable: other chunks may still work,
    so the dream goes on even if this was its only one (the chunk is retried, then quarantined).
    """

    def __init__(self, message: str, *, request_fault: bool = False) -> None:
        super().__init__(message)
        self.request_fault = request_fault


class BackendUnavailable(BackendError):
    """The model cannot be used now: this dream goes on offline (one line says why)."""


class AnswerRefused(BackendError):
    """The model's answer must not be applied (a tool run, say): this chunk goes offline."""


@dataclass(frozen=True)
class SessionEvents:
    client: str
    session: str
    project: str
    events: tuple[Record, ...]

    @property
    def source(self) -> str:
        """`client:<short id>`, as in a note's `sources`: the session's digest's short id, so
        two sessions whose ids share a prefix are two sources (and counted as two)."""
        return f"{self.client}:{short_id(self.session)}"


_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def short_id(session: str) -> str:
    """A readable, unique form of an opaque session id: its first 16 characters folded to
    lower-case kebab-case (a UUID's first 8), then 6 hex characters of a hash of the whole id,
    so ids that share a prefix (`proj-session_1` and `proj-session_12`; the time bits of Codex's
    UUIDv7; OpenCode's `ses_…`) still name two sessions."""
    cleaned = re.sub(r"[^a-z0-9]+", "-", session.lower()).strip("-")
    head = cleaned[:8] if _UUID.match(session.lower()) else cleaned[:16].strip("-")
    digest = hashlib.sha256(session.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return f"{head or 'session'}-{digest}"


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str
    shown: frozenset[str] = frozenset()  # notes shown whole: the only ones an upsert may replace
    clipped: frozenset[str] = frozenset()  # notes shown in part: claim/retract only

    @property
    def size(self) -> int:
        return len(self.system) + len(self.user)


@dataclass(frozen=True)
class DreamRequest:
    project: str
    sessions: tuple[SessionEvents, ...]
    today: str
    prompt: Prompt | None = None  # built only for backends that read it
    # Note paths under a folder prefix, as the wiki stands before this chunk (None: unknown).
    listing: Callable[[str], list[str]] | None = None
    # Why an operation must not be applied (None: it may): the runner's checks, applied by model
    # backends before their correction round so the model can fix what it got wrong.
    check: Callable[[Operation], str | None] | None = None
    # These events were consolidated offline earlier (the model was unavailable); the model is
    # asked for what the offline rules missed, and no digest is written again.
    revisit: str = ""


@dataclass(frozen=True)
class Proposal:
    operations: tuple[Operation, ...]
    rejected: tuple[Rejected, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())  # anything worth telling the user (retries, costs)
    usage: Usage = field(default=Usage())


class Backend(Protocol):
    name: str
    needs_prompt: bool

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal: ...
