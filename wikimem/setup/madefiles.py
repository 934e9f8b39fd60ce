"""Harness config files that `wikimem install` created, so `uninstall` can remove them again.

Contract: recorded in the memory home's `state/created-configs.json` (machine-local, like every
install); `created(home, path)` is true only for a file wikimem made, never for one a person or
another tool had before. A missing or unreadable record means "not created by wikimem": the safe
answer, which leaves a file in place.
"""

from __future__ import annotations

import json
import os

from wikimem.fsutil import atomic_write
from wikimem.home import Home

RECORD = "created-configs.json"


def _load(home: Home) -> list[str]:
    try:
        with open(home.state(RECORD), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return []
    return [p for p in data if isinstance(p, str)] if isinstance(data, list) else []


def _save(home: Home, paths: list[str]) -> None:
    os.makedirs(home.state_dir, mode=0o700, exist_ok=True)
    atomic_write(home.state(RECORD), json.dumps(sorted(set(paths)), indent=1) + "\n", 0o600)


def record(home: Home, path: str) -> None:
    paths = _load(home)
    if os.path.abspath(path) not in paths:
        _save(home, [*paths, os.path.abspath(path)])


def created(home: Home, path: str) -> bool:
    return os.path.abspath(path) in _load(home)


def forget(home: Home, path: str) -> None:
    paths = _load(home)
    if os.path.abspath(path) in paths:
        _save(home, [p for p in paths if p != os.path.abspath(path)])
