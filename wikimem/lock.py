"""Advisory file locks in state/: one writer of memory/ at a time, one dream at a time."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from wikimem.errors import WikimemError


class LockBusy(WikimemError):
    """Another wikimem process holds the lock."""


@contextmanager
def file_lock(path: str, timeout: float = 30.0, what: str = "memory/") -> Iterator[None]:
    """Hold an exclusive flock on `path`; wait up to `timeout` seconds (0 = do not wait)."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockBusy(
                        f"another wikimem process is writing {what}; try again shortly"
                    ) from None
                time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(fd)
