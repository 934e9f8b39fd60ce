"""Reading a config, state or events file only when it is a plain file of a bounded size.

Wikimem reads files that others can shape: a cloned repository's `.claude/settings.json`,
`.cursor/hooks.json` or OpenCode plugin, the `.git` file and git config of the folder an agent
works in, and the home's own config.toml and state files (which a restore, a sync tool or a
mistake can replace). Read with a plain `open()`, a link to /dev/zero exhausts memory, a FIFO
blocks the reader until something writes to it (for ever, in a hook or `status`), and a
200 MB file costs seconds.

Contract: `read_bytes(path, limit, within=None)` returns the bytes of `path` only when it is a
regular file of at most `limit` bytes (`LIMIT` by default). It never opens anything else: the
path is stat'ed first (so a device is never opened: opening one can have effects of its own),
then opened with O_NONBLOCK (a FIFO put there meanwhile never blocks the open) and checked
again on the descriptor before a byte is read; at most `limit + 1` bytes are read, whatever
size the file claims. Anything else raises `Refused`, an OSError whose message is one line
naming the file and why it was not read. A missing file raises FileNotFoundError, as `open()`
does. `within`: the folder the file belongs to (a cloned repository, for its harness configs);
a path that resolves outside it through a link is refused, and the resolved path is what is
opened. `read_text` decodes UTF-8 and keeps the bytes as they are (CRLF stays CRLF).
`open_regular(path)` is the same check for a file read as a stream (an events file), with no
size limit. Standard library only: the hooks read through it.
"""

from __future__ import annotations

import errno
import os
import stat

from wikimem.errors import WikimemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

# A harness config, config.toml or a state file is kilobytes (Claude Code's ~/.claude.json, which
# keeps per-project history, grows to megabytes): this bounds the memory a read can take without
# refusing a real one.
LIMIT = 64 * 1024 * 1024

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


class Refused(OSError, WikimemError):
    """A file wikimem would not read: not a regular file, too large, or reached through a link
    that leaves the folder it belongs to. `strerror` says why, `filename` which file."""

    def __init__(self, path: str, why: str, code: int = errno.EINVAL) -> None:
        super().__init__(code, why, path)

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}; not read"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def _check(path: str, st: os.stat_result, limit: int | None) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise Refused(path, f"{_kind(st.st_mode)}, not a regular file")
    if limit is not None and st.st_size > limit:
        raise Refused(path, f"{st.st_size} bytes, over the {limit}-byte limit", errno.EFBIG)


def _resolve(path: str, within: str | None) -> str:
    if within is None:
        return path
    real = os.path.realpath(path)
    root = os.path.realpath(within)
    if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
        raise Refused(path, f"a link to {real}, outside {root}")
    return real


def open_fd(path: str, limit: int | None = LIMIT, within: str | None = None) -> int:
    """A read-only descriptor of `path` once it is known to be a regular file (see the module's
    contract); the caller closes it."""
    target = _resolve(path, within)
    _check(path, os.stat(target), limit)
    fd = os.open(target, _FLAGS)
    try:
        _check(path, os.fstat(fd), limit)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: str, limit: int = LIMIT, within: str | None = None) -> bytes:
    fd = open_fd(path, limit, within)
    try:
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    if left <= 0:  # grew while being read, or claims a size it does not have (/proc)
        raise Refused(path, f"over the {limit}-byte limit", errno.EFBIG)
    return b"".join(chunks)


def read_text(
    path: str, limit: int = LIMIT, within: str | None = None, errors: str = "strict"
) -> str:
    """`read_bytes` decoded as UTF-8, line endings as they are."""
    return read_bytes(path, limit, within).decode("utf-8", errors)


def open_regular(path: str, within: str | None = None) -> BinaryIO:
    """A binary file object of `path` for reading as a stream (no size limit)."""
    return os.fdopen(open_fd(path, None, within), "rb")
