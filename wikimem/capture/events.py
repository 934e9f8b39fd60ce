"""Event records: the normalised, redacted, append-only log of what sessions did.

Contract: one JSON object per line in `events/YYYY-MM-DD.jsonl` (UTC day of the record), mode
0600. A record is appended with a single `write()` of one whole line through an `O_APPEND`
descriptor while holding an exclusive `flock` on the file, so concurrent hooks neither lose nor
interleave records. Every string field is redacted and truncated before it reaches `append`.

Hook-path module: standard library only.
"""

from __future__ import annotations

import fcntl
import os
import stat
import time

from wikimem import boundedfile
from wikimem.capture import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

RECORD_VERSION = 1
CANONICAL_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "AssistantMessage",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "Notification",
    "Other",
)
TRUNCATION_MARK = "[…wikimem truncated {} bytes…]"


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class LockTimeout(Exception):
    """The events file stayed locked past the deadline."""


def utc_timestamp(ns: int | None = None) -> str:
    """UTC ISO-8601 with microseconds, e.g. 2026-11-29T18:04:11.123456Z (no datetime import)."""
    ns = time.time_ns() if ns is None else ns
    secs, rem = divmod(ns, 1_000_000_000)
    t = time.gmtime(secs)
    return (
        f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}T"
        f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}.{rem // 1000:06d}Z"
    )


def truncate(text: str, max_bytes: int, already_dropped: int = 0) -> str:
    """At most about max_bytes of UTF-8: the head and the tail kept, a visible marker between.

    The tail is kept because a command's failure is usually at the end of its output.
    `already_dropped` counts bytes a caller cut before; they show in the marker."""
    if not already_dropped and len(text) <= max_bytes // 4:
        return text
    data = text.encode("utf-8", "surrogatepass")
    if not already_dropped and len(data) <= max_bytes:
        return text
    mark = TRUNCATION_MARK.format(max(len(data) - max_bytes, 0) + already_dropped)
    budget = max(max_bytes - len(mark.encode()), 16)
    if len(data) <= budget:
        return text + mark
    head = data[: budget * 3 // 4].decode("utf-8", "ignore")
    tail = data[len(data) - budget // 4 :].decode("utf-8", "ignore")
    return f"{head}{mark}{tail}"


def events_file(events_dir: str, ts: str) -> str:
    return os.path.join(events_dir, ts[:10] + ".jsonl")


def encode_record(record: dict[str, Any]) -> bytes:
    """One line of ASCII JSON: no raw control characters or lone surrogates can reach disk."""
    return (fastjson.dumps(record) + "\n").encode("ascii")


def append(events_dir: str, record: dict[str, Any], deadline: float | None = None) -> str:
    """Append one record to today's file under an exclusive lock; returns the file's path.

    `deadline` is a `time.monotonic()` value after which waiting for the lock gives up with
    LockTimeout, so a stuck writer elsewhere can never hang the agent. A line left without its
    newline by a crash or a full disk is closed first, so this record starts on a line of its
    own (one `pread` of the last byte, under the lock); a write that comes up short is cut off
    again, so no half record stays behind."""
    line = encode_record(record)
    path = events_file(events_dir, record["ts"])
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | _NONBLOCK, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO would swallow the record, or block
            raise boundedfile.Refused(path, "not a regular file, so no record is appended to it")
        _lock(fd, deadline)
        end = os.lseek(fd, 0, os.SEEK_END)
        if end and os.pread(fd, 1, end - 1) != b"\n":
            line = b"\n" + line
        written = os.write(fd, line)
        if written != len(line):  # disk full: never leave half a record without a newline
            os.ftruncate(fd, end)
            raise OSError(f"short write to {path}: {written} of {len(line)} bytes")
    finally:
        os.close(fd)  # closing releases the lock
    return path


def _lock(fd: int, deadline: float | None) -> None:
    if deadline is None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() + delay > deadline:
                raise LockTimeout("events file locked past the hook deadline") from None
            time.sleep(delay)
            delay = min(delay * 2, 0.02)


def list_files(events_dir: str) -> list[str]:
    """Event files, oldest first (their names sort by date)."""
    try:
        names = os.listdir(events_dir)
    except FileNotFoundError:
        return []
    return sorted(n for n in names if n.endswith(".jsonl"))


# -- which file an offset was read from ---------------------------------------------------------
#
# A dream records how far it read each file. A file deleted and made again under the same name
# (by retention, by hand, by a restore) is another file: an offset of the old one would skip its
# first records silently. So offsets are keyed `name#id`, the id a checksum of the file's first
# line: fixed once written (files are only appended to), different for a file made anew.
ID_BYTES = 4096


def file_id(path: str) -> str:
    """The id of the events file at `path` ("" when it is empty or unreadable)."""
    try:
        with boundedfile.open_regular(path) as fh:
            head = fh.read(ID_BYTES)
    except OSError:
        return ""
    end = head.find(b"\n")
    if end >= 0:
        head = head[: end + 1]
    import zlib  # only here: a builtin module, but the logging-only hook never needs it

    return f"{zlib.crc32(head):08x}" if head else ""


def offset_key(name: str, fid: str) -> str:
    return f"{name}#{fid}" if fid else name


def keyed_names(offsets: dict[str, int]) -> set[str]:
    """Names with an offset recorded under a file id (see `offset_in`)."""
    return {k.split("#", 1)[0] for k in offsets if "#" in k}


def offset_in(offsets: dict[str, int], name: str, fid: str, keyed: set[str] | None = None) -> int:
    """How far the file `name` with id `fid` was read: its own offset; 0 when only another file
    of that name was read; an offset recorded before files had ids (by name alone) stands for
    whichever file has the name now."""
    own = offsets.get(offset_key(name, fid))
    if own is not None:
        return own
    if name in (keyed_names(offsets) if keyed is None else keyed):
        return 0
    return offsets.get(name, 0)


def count_after(events_dir: str, offsets: dict[str, int], enough: int | None = None) -> int:
    """Complete records after the given per-file offsets (a file made anew, or one that shrank
    below its offset, counts from its start), newest file first; stops once `enough` are
    seen."""
    count = 0
    keyed = keyed_names(offsets)
    for name in reversed(list_files(events_dir)):
        path = os.path.join(events_dir, name)
        try:
            size = os.path.getsize(path)
            start = offset_in(offsets, name, file_id(path), keyed)
            with boundedfile.open_regular(path) as fh:
                fh.seek(start if start <= size else 0)
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    count += chunk.count(b"\n")
                    if enough is not None and count >= enough:
                        return count
        except OSError:
            continue
    return count


RECORD_START = b'{"v":'
GLUE_ATTEMPTS = 32


def read_from(
    path: str,
    offset: int = 0,
    damaged: list[tuple[int, int]] | None = None,
    final: bool = False,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(end offset, record) for each complete line after `offset`.

    A trailing line without its newline (a writer mid-append) is not yielded, so a reader's
    offset never points into the middle of a record; with `final` (no writer will come back to
    this file) it is damage instead. A line that is not a record (torn by a crash or a full disk,
    or garbage) is skipped and reported in `damaged` as (offset, length): one bad line must not
    stop memory from being made. A record that a writer appended onto a torn line (before
    writers closed torn lines first) is recovered from behind it."""
    with boundedfile.open_regular(path) as fh:
        fh.seek(offset)
        pos = offset
        for raw in fh:
            start = pos
            if not raw.endswith(b"\n"):
                if final and damaged is not None:
                    damaged.append((start, len(raw)))
                return
            pos += len(raw)
            rec = _record(raw)
            if rec is not None:
                yield pos, rec
                continue
            glued, cut = _glued_record(raw)
            if damaged is not None:
                damaged.append((start, cut))
            if glued is not None:
                yield pos, glued


def _record(raw: bytes) -> dict[str, Any] | None:
    try:
        rec = fastjson.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return None
    return rec if isinstance(rec, dict) else None


def _glued_record(raw: bytes) -> tuple[dict[str, Any] | None, int]:
    """(the record that ends this line, where it starts) or (None, the line's length). Inside a
    record's strings every quote is escaped, so `{"v":` only ever begins a record (or an object
    inside one, which cannot parse to the end of the line)."""
    i = raw.find(RECORD_START, 1)
    for _ in range(GLUE_ATTEMPTS):
        if i == -1:
            break
        rec = _record(raw[i:])
        if rec is not None:
            return rec, i
        i = raw.find(RECORD_START, i + 1)
    return None, len(raw)
