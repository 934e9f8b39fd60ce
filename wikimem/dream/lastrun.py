"""The record of the last dream: which backend ran, and whether any of it fell back offline.

`dream` writes it (state/dream-last.json, atomically) when a run ends; `status` and `doctor`
read it. It lives apart from the runner so that reading it costs a JSON file, not git and
the whole dream.
"""

from __future__ import annotations

import json
from typing import Any

from wikimem import boundedfile
from wikimem.fsutil import atomic_write
from wikimem.home import Home

LAST_DREAM_FILE = "dream-last.json"


def record(home: Home, data: dict[str, Any]) -> None:
    """Best effort: a dream that wrote its notes is not failed by a status line it could not save."""
    try:
        atomic_write(home.state(LAST_DREAM_FILE), json.dumps(data) + "\n", 0o600)
    except OSError:
        pass


def last_dream(home: Home) -> dict[str, Any] | None:
    try:
        data = json.loads(boundedfile.read_text(home.state(LAST_DREAM_FILE)))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
