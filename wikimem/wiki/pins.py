"""Which pins this machine honours: a pin is yours only when you set it here.

A pinned note is injected at the start of every session in every project, so a pin is a
standing instruction to every agent. memory/ is shared (a teammate's remote, a plain `git pull`,
a copied file), and `pinned: true` in a note that arrived from elsewhere says nothing about who
set it. So the machine keeps its own list, `state/pins.json`: the notes a person pinned through
wikimem on this machine (`remember`, `edit`, `watch` committing a hand edit, `sync` committing
one, `wikimem pin`). A note whose front matter says `pinned: true` and that is not on the list is
read as unpinned (and reported; `wikimem.wiki.vetting`).

Contract: `honoured(state_dir)` is the set of paths (None when the list was never made: a home
from before the list existed, see `seed`); `record(state_dir, pinned=..., unpinned=...)` updates
it atomically, under the caller's memory lock; `seed(state_dir, memory_dir)` makes the list once
for such a home from the notes pinned in its last commit (trust on first use: pins committed
before this machine kept a list are taken as the person's).

Hook-path module: standard library only (the search index reads the list while indexing).
"""

from __future__ import annotations

import os

from wikimem import boundedfile
from wikimem.capture import fastjson

NAME = "pins.json"


def _path(state_dir: str) -> str:
    return os.path.join(state_dir, NAME)


def honoured(state_dir: str) -> frozenset[str] | None:
    """The pins this machine honours; None when there is no list yet (see `seed`)."""
    try:
        data = fastjson.loads(boundedfile.read_text(_path(state_dir)))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return frozenset()  # damaged: honour nothing until a person pins again
    pins = data.get("pins") if isinstance(data, dict) else None
    if not isinstance(pins, list):
        return frozenset()
    return frozenset(p for p in pins if isinstance(p, str))


def record(
    state_dir: str,
    pinned: set[str] | frozenset[str] = frozenset(),
    unpinned: set[str] | frozenset[str] = frozenset(),
) -> bool:
    """Add `pinned`, drop `unpinned`; True when the list changed. Call under the memory lock."""
    current = honoured(state_dir) or frozenset()
    new = (current | pinned) - unpinned
    if new == current and os.path.exists(_path(state_dir)):
        return False
    _save(state_dir, new)
    return True


def _save(state_dir: str, pins: frozenset[str]) -> None:
    from wikimem.fsutil import atomic_write

    os.makedirs(state_dir, mode=0o700, exist_ok=True)
    atomic_write(_path(state_dir), fastjson.dumps({"v": 1, "pins": sorted(pins)}), mode=0o600)


def seed(state_dir: str, memory_dir: str) -> bool:
    """Make the list for a home that has none, from the notes pinned in memory/'s last commit;
    True when it was made now. A home made after the list existed starts with an empty one
    (`wikimem init`), so nothing that arrives later is taken on trust."""
    if os.path.exists(_path(state_dir)):
        return False
    _save(state_dir, frozenset(pinned_in_head(memory_dir)))
    return True


def pinned_in_head(memory_dir: str) -> set[str]:
    """Notes whose committed front matter says `pinned: true` (one `git grep`, then each
    candidate's front matter read properly)."""
    from wikimem import gitrun
    from wikimem.wiki import notemeta

    try:
        proc = gitrun.run(
            memory_dir, "grep", "-l", "-z", "-I", "-i", "-E",
            r"^pinned:[[:space:]]*(true|yes|on)", "HEAD", "--", *notemeta.TOP_FOLDERS,
        )  # fmt: skip
    except OSError:
        return set()
    found: set[str] = set()
    for entry in proc.stdout.decode("utf-8", "replace").split("\0"):
        rel = entry.split(":", 1)[1] if entry.startswith("HEAD:") else entry
        if not rel.endswith(".md"):
            continue
        try:
            blob = gitrun.run(memory_dir, "show", f"HEAD:{rel}").stdout.decode("utf-8", "replace")
        except OSError:
            continue
        if notemeta.read_meta(blob)[0].get("pinned") is True:
            found.add(rel)
    return found
