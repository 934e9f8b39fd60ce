"""The locks a sync holds, always taken in one order so nothing can deadlock.

Contract: `state/sync.lock` for the whole sync (one sync at a time, network included); then,
only while memory/ is being changed, `state/dream.lock` (a dream reads notes long before it
commits: a merge landing in between would make the gate refuse its writes) and then
`state/memory.lock` (the wiki's writer lock, which every gated commit takes). A dream takes
dream.lock then memory.lock and never sync.lock while it holds them (the automatic sync runs
before and after the dream, not inside it), so the order sync < dream < memory is the same
for everyone. An automatic sync does not wait: if either of the first two is busy it is
deferred to the next occasion.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from wikimem.home import Home
from wikimem.lock import LockBusy, file_lock
from wikimem.sync.git import SyncError

SYNC_LOCK = "sync.lock"
DREAM_LOCK = "dream.lock"  # wikimem.dream.runner's
MEMORY_LOCK = "memory.lock"  # wikimem.wiki.batch's


class SyncBusy(SyncError):
    """Another sync, or a dream, holds what this sync needs."""


@contextmanager
def one_sync(home: Home, wait: float) -> Iterator[None]:
    with ExitStack() as stack:
        try:
            stack.enter_context(
                file_lock(home.state(SYNC_LOCK), timeout=wait, what="memory/ (a sync is running)")
            )
        except LockBusy:
            raise SyncBusy(
                "another `wikimem sync` is running; try again when it has finished"
            ) from None
        yield


@contextmanager
def changing_memory(home: Home, wait_for_dream: float) -> Iterator[None]:
    """Hold the dream lock and the wiki's writer lock, in that order."""
    with ExitStack() as stack:
        try:
            stack.enter_context(
                file_lock(home.state(DREAM_LOCK), timeout=wait_for_dream, what="the wiki")
            )
        except LockBusy:
            raise SyncBusy(
                "a dream is running; sync again when it has finished (nothing was changed)"
            ) from None
        stack.enter_context(file_lock(home.state(MEMORY_LOCK)))
        yield
