"""What a session has been given (nothing is repeated within a session).

Contract:
  - One small JSON record per session in `state/sessions/<sha1 of the id>.json` (0600, replaced
    atomically): the notes given whole (at session start), the passages of living notes given
    (path, place in the note), and the digest turns given whole (`turn_id`: a digest passage
    is given as a window of turns, which may leave some of its turns out and take some of the
    next passage's, so for digests the turn is the unit; the last `MAX_TURNS` are kept).
  - A record that is missing, unreadable or of an older version reads as "nothing given": the
    worst case is a repetition, never a failure.
  - `standing_pending`: Gemini CLI's standing notes wait for the next prompt (`inject`).
  - `session_lock`: an exclusive lock on one session's record, held while a hook reads and
    rewrites it, for clients that run two injecting hooks of a session at once (Copilot CLI's
    session start and first prompt); `has_record` tells whether the session has one yet.

Hook-path module: standard library only.
"""

from __future__ import annotations

import os
import time

from wikimem import boundedfile
from wikimem.capture import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from wikimem.home import Home


# The record is read and rewritten by every prompt hook: a long session keeps only its most
# recent digest turns (a turn given that long ago may come again; the context it was in has
# likely been compacted since).
MAX_TURNS = 1500


def _sha1_hex(text: str) -> str:
    # CPython's built-in SHA-1: `hashlib` costs ~4 ms to import (OpenSSL) on every prompt hook
    try:
        from _sha1 import sha1  # type: ignore[import-not-found]
    except ImportError:  # another interpreter
        from hashlib import sha1
    return str(sha1(text.encode("utf-8", "replace")).hexdigest())


def turn_id(path: str, turn: str) -> str:
    """A digest turn's identity in the record: its note and its text, hashed."""
    return _sha1_hex(f"{path}\n{turn.strip()}")[:16]


def _record_path(home: Home, session: str) -> str:
    return home.state("sessions", f"{_sha1_hex(session)[:20]}.json")


def has_record(home: Home, session: str) -> bool:
    return os.path.exists(_record_path(home, session))


def session_lock(home: Home, session: str | None) -> SessionLock:
    return SessionLock(home, session)


class SessionLock:
    """Holds an exclusive flock on the session's lock file (`<record>.lock`) for the `with`
    block; with `session` None it does nothing. Waits as long as the holder works: the hook's
    own deadline bounds the wait."""

    def __init__(self, home: Home, session: str | None) -> None:
        self.path = _record_path(home, session)[: -len(".json")] + ".lock" if session else None
        self.fd: int | None = None

    def __enter__(self) -> SessionLock:
        if self.path is not None:
            import fcntl

            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock
            self.fd = None


def nothing() -> dict[str, list[Any]]:
    return {"notes": [], "passages": [], "turns": []}


def load_given(home: Home, session: str) -> dict[str, list[Any]]:
    try:
        data = fastjson.loads(boundedfile.read_text(_record_path(home, session)))
        notes, passages, turns = (data.get(k) or [] for k in ("notes", "passages", "turns"))
        # entries of the wrong shape (a damaged or hand-edited record) are dropped one by one
        return {
            "notes": [n for n in notes if isinstance(n, str)],
            "passages": [
                [p[0], p[1]]
                for p in passages
                if isinstance(p, list)
                and len(p) == 2
                and isinstance(p[0], str)
                and isinstance(p[1], int)
            ],
            "turns": [t for t in turns if isinstance(t, str)],
        }
    except (OSError, ValueError, AttributeError, TypeError):
        return nothing()


def save_given(
    home: Home, session: str, given: dict[str, list[Any]], standing_pending: bool = False
) -> None:
    path = _record_path(home, session)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    record: dict[str, Any] = {
        "notes": given.get("notes", []),
        "passages": given.get("passages", []),
        "turns": given.get("turns", [])[-MAX_TURNS:],
        "at": time.time(),
    }
    if standing_pending:
        record["standing_pending"] = True
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(fastjson.dumps(record))
    os.replace(tmp, path)


def standing_pending(home: Home, session: str) -> bool:
    """Whether the session's standing notes must come with its next prompt (Gemini CLI)."""
    try:
        return bool(
            fastjson.loads(boundedfile.read_text(_record_path(home, session))).get(
                "standing_pending"
            )
        )
    except (OSError, ValueError, AttributeError):
        return False


def defer_standing(home: Home, session: str, keep_passages: bool) -> None:
    """Give the standing notes again with the next prompt: the context they were in is gone
    (Gemini's --resume drops SessionStart context; a compression drops everything)."""
    given = load_given(home, session) if keep_passages else nothing()
    given["notes"] = []
    save_given(home, session, given, standing_pending=True)
