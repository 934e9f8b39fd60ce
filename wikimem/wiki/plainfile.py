"""Reading a file under memory/ only when it is a plain file there, never through a link.

memory/ is shared: a teammate's remote, an import or a hand edit can put a symbolic link where a
note should be (`projects/x/notes.md -> ~/.git-credentials`), or link a folder on the way
(`projects/x -> ~`). Whatever reads a note to index, inject, summarise or commit it must not
read the link's target.

Contract: `read_text(root, rel)` opens each component of `rel` below `root` relative to the
previous one with `O_NOFOLLOW` (folders with `O_DIRECTORY`), and the last one non-blocking (a
FIFO planted as a note would otherwise hang the reader); it returns the text only when the last
component is a regular file, else None, as for a missing file (and, given a `limit`, for a file
larger than it: a reader that cannot use a huge file never loads it). `root` itself is the person's
configured folder and may be a link. `is_plain(root, rel)` answers the same question without
reading; `note_paths(memory_dir)` lists the notes under the top folders, sorted, skipping links
and dot-files. Standard library only: the prompt hook reads notes through this module.
"""

from __future__ import annotations

import errno
import os
import stat

from wikimem.wiki.notemeta import TOP_FOLDERS

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _parts(rel: str) -> list[str] | None:
    parts = rel.replace(os.sep, "/").split("/")
    if not parts or any(p in ("", ".", "..") or "\0" in p for p in parts):
        return None
    return parts


# What a path that is not a plain file under root gives: a link (ELOOP from O_NOFOLLOW; ENOTDIR
# for a linked folder on the way), a missing file, a name no file system holds.
NOT_A_NOTE = frozenset(
    {errno.ENOENT, errno.ELOOP, errno.ENOTDIR, errno.ENAMETOOLONG, errno.EINVAL, errno.EISDIR}
)


def _open(root: str, rel: str) -> int:
    """A read-only descriptor of `rel` under `root` reached without following any link."""
    parts = _parts(rel)
    if parts is None:
        raise OSError(errno.EINVAL, "not a path under memory/", rel)
    fd = os.open(root, os.O_RDONLY | _DIRECTORY)
    try:
        for part in parts[:-1]:
            inner = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        return os.open(parts[-1], os.O_RDONLY | _NOFOLLOW | _NONBLOCK, dir_fd=fd)
    finally:
        os.close(fd)


def read_existing(root: str, rel: str, limit: int | None = None) -> bytes | None:
    """The file's bytes; None when there is no plain file at `rel` (see NOT_A_NOTE) or it is
    larger than `limit`. Any other failure (permission, I/O) is raised: a caller about to
    overwrite must not take an unreadable file for a missing one."""
    found = _read_stat(root, rel, limit)
    return None if found is None else found[0]


def _read_stat(root: str, rel: str, limit: int | None) -> tuple[bytes, os.stat_result] | None:
    try:
        fd = _open(root, rel)
    except ValueError:
        return None
    except OSError as exc:
        if exc.errno in NOT_A_NOTE:
            return None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (limit is not None and st.st_size > limit):
            return None
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
        return None if limit is not None and len(data) > limit else (data, st)
    finally:
        os.close(fd)


def read_stamped(root: str, rel: str, limit: int | None = None) -> tuple[str, str] | None:
    """(text, "mtime_ns:size" of the file read) as the search index stamps a note; None as for
    `read_bytes`."""
    try:
        found = _read_stat(root, rel, limit)
    except OSError:
        return None
    if found is None:
        return None
    data, st = found
    return data.decode("utf-8", "replace"), f"{st.st_mtime_ns}:{st.st_size}"


def read_bytes(root: str, rel: str, limit: int | None = None) -> bytes | None:
    """The file's bytes, or None when it is missing, not a regular file, reached through a link,
    larger than `limit` bytes (when given) or unreadable."""
    try:
        return read_existing(root, rel, limit)
    except OSError:
        return None


def read_text(root: str, rel: str, errors: str = "replace", limit: int | None = None) -> str | None:
    """`read_bytes` decoded as UTF-8 (CRLF kept, as `newline=""` reads it)."""
    data = read_bytes(root, rel, limit)
    return None if data is None else data.decode("utf-8", errors)


def is_plain(root: str, rel: str) -> bool:
    """Whether `rel` is a regular file under `root` with no link on the way."""
    try:
        fd = _open(root, rel)
    except (OSError, ValueError):
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return False
    finally:
        os.close(fd)


def note_paths(memory_dir: str) -> list[str]:
    """Every note on disk under the top folders, as sorted relative paths (links are not notes)."""
    found: list[str] = []
    for top in TOP_FOLDERS:
        _walk(os.path.join(memory_dir, top), top, found)
    return sorted(found)


def _walk(directory: str, rel: str, found: list[str]) -> None:
    try:
        entries = list(os.scandir(directory))
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        if entry.name.startswith(".") or entry.is_symlink():
            continue
        if entry.is_dir(follow_symlinks=False):
            _walk(entry.path, f"{rel}/{entry.name}", found)
        elif entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
            found.append(f"{rel}/{entry.name}")
