"""Auto-dream: the Stop/SessionEnd hook starts a detached `wikimem dream` when one is due.

Contract: with `dream.auto` on, a dream is due when at least `min_new_events` events wait
behind the watermark and `min_interval_minutes` have passed since the last dream (a last dream
dated in the future, by a clock that was ahead, counts as long past). The hook
never waits: the dream runs in its own session, detached from the harness (Claude Code waits for
its SessionEnd hooks, and kills a `-p` run's children at exit otherwise). A marker file keeps a
burst of hooks from starting several dreams; the dream's own lock makes a second one exit anyway.

Hook-path module: standard library only; `subprocess` is imported only when a dream is due.
"""

from __future__ import annotations

import os
import sys
import time

from wikimem import boundedfile
from wikimem.capture import events, fastjson
from wikimem.home import Home

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SPAWN_MARKER = "dream.spawned"
SPAWN_GUARD_SECONDS = 60


def _watermark(home: Home) -> tuple[dict[str, int], float]:
    try:
        data = fastjson.loads(boundedfile.read_text(home.state("watermark.json")))
        offsets = {str(k): int(v) for k, v in data.get("offsets", {}).items()}
        return offsets, float(data.get("last_dream_epoch", 0))
    except (OSError, ValueError, AttributeError, TypeError):
        return {}, 0.0


def due(home: Home, settings: dict[str, Any], now: float | None = None) -> bool:
    dream = settings.get("dream", {})
    if not dream.get("auto"):
        return False
    now = time.time() if now is None else now
    # A time in the future (written while the clock was ahead, or read now that it is behind)
    # measures nothing: it neither guards nor delays, or auto-dreams would stop until real
    # time caught up with it.
    try:
        if 0 <= now - os.stat(home.state(SPAWN_MARKER)).st_mtime < SPAWN_GUARD_SECONDS:
            return False
    except OSError:
        pass
    offsets, last = _watermark(home)
    if 0 <= now - last < float(dream.get("min_interval_minutes", 180)) * 60:
        return False
    needed = int(dream.get("min_new_events", 50))
    return events.count_after(home.events_dir, offsets, needed) >= needed


def spawn(home: Home) -> None:
    import subprocess  # only now: it costs milliseconds the hook usually does not spend

    marker = home.state(SPAWN_MARKER)
    with open(marker, "w", encoding="utf-8") as fh:
        fh.write(str(os.getpid()))
    # Its output goes to state/dream.out: the place to look when a detached dream fails early.
    out = os.open(home.state("dream.out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        subprocess.Popen(
            [sys.executable, "-m", "wikimem", "dream", "--auto", "--home", home.root],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            cwd=home.root,
            start_new_session=True,
            close_fds=True,
        )
    finally:
        os.close(out)


def maybe_dream(home: Home, settings: dict[str, Any]) -> bool:
    if due(home, settings):
        spawn(home)
        return True
    return False
