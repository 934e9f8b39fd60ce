"""Automatic sync (`[sync] auto = true`): before and after every dream, after every write.

Contract: `around_dream` is called before a dream (so it consolidates on top of the other
machines' notes) and after it (so they get its notes); `after_write` starts a detached
`wikimem sync --auto` after `remember`, `forget` and `edit` (the person does not wait for the
network). None of this runs in a hook: a hook only spawns a detached dream
(`wikimem.capture.autodream`), whose own process syncs. An automatic sync never prompts and
never raises: a failure (offline, authentication, a conflict with an invalid hand edit) is
recorded in state/sync.json, shown by `status` and `doctor`, and the next occasion retries.
"""

from __future__ import annotations

import os
import subprocess
import sys

from wikimem.config import Config, load_config
from wikimem.errors import WikimemError
from wikimem.home import Home
from wikimem.progress import Progress, quiet
from wikimem.sync.locking import SyncBusy

BACKGROUND_WAIT = 300.0  # a detached sync waits this long for another sync or a dream
FOREGROUND_WAIT = 30.0


def enabled(config: Config) -> bool:
    return config.sync.auto


def quietly(home: Home, wait: float, progress: Progress = quiet) -> str | None:
    """Sync without prompts; the error as one line (also recorded), or None."""
    from wikimem.sync.procedure import sync

    try:
        sync(home, interactive=False, wait=wait, wait_for_dream=wait, progress=progress)
    except SyncBusy as exc:
        return f"deferred: {exc}"
    except WikimemError as exc:
        return str(exc)
    return None


def around_dream(home: Home, *, background: bool, progress: Progress = quiet) -> str | None:
    """Sync before a dream and again after it, when auto-sync is on; the error, or None."""
    try:
        config = load_config(home)
    except WikimemError as exc:
        return str(exc)
    if not enabled(config):
        return None
    return quietly(home, BACKGROUND_WAIT if background else FOREGROUND_WAIT, progress)


def after_write(home: Home, config: Config | None = None) -> bool:
    """Start a detached sync when auto-sync is on; True if one was started."""
    try:
        config = config or load_config(home)
    except WikimemError:
        return False
    if not enabled(config):
        return False
    spawn(home)
    return True


def spawn(home: Home) -> None:
    out = os.open(home.state("sync.out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        subprocess.Popen(
            [sys.executable, "-m", "wikimem", "sync", "--auto", "--home", home.root],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            cwd=home.root,
            start_new_session=True,
            close_fds=True,
        )
    finally:
        os.close(out)


def run_in_background(home: Home) -> int:
    """`wikimem sync --auto`: the detached process; its outcome is in state/sync.json."""
    error = quietly(home, BACKGROUND_WAIT)
    if error:
        print(error, file=sys.stderr)
        return 0 if error.startswith("deferred") else 1
    return 0
