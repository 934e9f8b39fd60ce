"""Atomic file replacement: a crash leaves the old file or the new one, never half of either."""

from __future__ import annotations

import os
import stat
import tempfile


def atomic_write(path: str, text: str, mode: int | None = None) -> None:
    """Write `text` to a temp file beside `path`, fsync it, then rename it over `path` (a link
    at `path` is replaced by the file; its target is never touched).

    The file keeps its current permission bits unless `mode` is given (new files: 0600 when
    `mode` is None would surprise editors, so they get 0644 minus the umask)."""
    directory = os.path.dirname(os.path.abspath(path))
    if mode is None:
        try:
            st = os.lstat(path)  # a link is replaced, not written through: its target's bits
            mode = None if stat.S_ISLNK(st.st_mode) else st.st_mode & 0o7777  # are not ours
        except FileNotFoundError:
            pass
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=".wikimem-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_bytes(path: str, data: bytes, mode: int | None = None) -> None:
    """`atomic_write` for bytes written as they are (a file whose line endings or encoding are
    someone else's)."""
    directory = os.path.dirname(os.path.abspath(path))
    if mode is None:
        try:
            st = os.lstat(path)
            mode = None if stat.S_ISLNK(st.st_mode) else st.st_mode & 0o7777
        except FileNotFoundError:
            pass
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=".wikimem-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
