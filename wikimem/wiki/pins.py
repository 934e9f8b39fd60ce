"""Which pins this machine honours: a pin is yours only when you set it here.

A pinned note is injected at the start of every session in every project, so a pin is a
standing instruction to every agent. memory/ is shared (a teammate's remote, a plain `git pull`,
a copied file), and `pinned: true` in a note that arrived from elsewhere says nothing about who
set it. So the machine keeps its own list, `state/pins.json`: the notes a person pinned through
wikimem on this machine (`remember`, `edit`, `watch` committing a hand edit, `sync` committing
one, `wikimem pin`). A note whose front matter says `pinned: true` and that is not on the list is
read as unpinned (and reported; `wikimem.wiki.vetting`).

A pin covers what the person pinned. The list keeps, per note, the lines it held when the person
pinned it (`lines`: their `wikimem.wiki.origins` keys); a line a remote's commit added or changed
since is not pinned (`pinned_line`): it is given where the note would be given anyway, not at
every session start everywhere, until the person pins the note again.

Contract: `honoured(state_dir)` is the set of paths (None when the list was never made: a home
from before the list existed, see `seed`); `record(state_dir, pinned=..., unpinned=...,
lines=...)` updates it atomically, under the caller's memory lock; `pinned_lines(state_dir)` is
{path: keys} for the notes pinned with their lines known; `pinned_line(keys, origin, key)` says
whether one line is covered; `seed(state_dir, memory_dir)` makes the list once for such a home
from the notes pinned in its last commit (trust on first use: pins committed before this
machine kept a list are taken as the person's).

Hook-path module: standard library only (the search index reads the list while indexing).
"""

from __future__ import annotations

import os

from wikimem import boundedfile
from wikimem.capture import fastjson

NAME = "pins.json"


def _path(state_dir: str) -> str:
    return os.path.join(state_dir, NAME)


MAX_BYTES = 4 << 20


def _read(state_dir: str) -> dict[str, object] | None:
    try:
        data = fastjson.loads(boundedfile.read_text(_path(state_dir), MAX_BYTES))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {}  # damaged, too large or not a file: honour nothing until a person pins again
    return data if isinstance(data, dict) else {}


def honoured(state_dir: str) -> frozenset[str] | None:
    """The pins this machine honours; None when there is no list yet (see `seed`)."""
    data = _read(state_dir)
    if data is None:
        return None
    pins = data.get("pins")
    if not isinstance(pins, list):
        return frozenset()
    return frozenset(p for p in pins if isinstance(p, str))


def pinned_lines(state_dir: str) -> dict[str, frozenset[str]]:
    """{path: the keys of its lines when the person pinned it} (a pin from before the list kept
    lines has no entry: it covers every line but a remote's)."""
    data = _read(state_dir) or {}
    lines = data.get("lines")
    if not isinstance(lines, dict):
        return {}
    return {
        str(p): frozenset(k for k in keys if isinstance(k, str))
        for p, keys in lines.items()
        if isinstance(keys, list)
    }


def pinned_line(keys: frozenset[str] | None, origin: str, key: str | None) -> bool:
    """Whether a line of a pinned note is covered by its pin: it was there when the person
    pinned the note, or it came since from anywhere but a remote's commit (or a line nobody
    recorded: a plain copy, a pull without wikimem's hook)."""
    from wikimem.wiki import origins

    if keys is not None and key is not None and key in keys:
        return True
    return origins.who(origin) not in ("", origins.REMOTE)


def keys_of(text: str | None) -> list[str]:
    from wikimem.wiki import origins

    return sorted(set(origins.body_keys(text)))


def record(
    state_dir: str,
    pinned: set[str] | frozenset[str] = frozenset(),
    unpinned: set[str] | frozenset[str] = frozenset(),
    lines: dict[str, list[str]] | None = None,
) -> bool:
    """Add `pinned` (with the keys of the lines each holds now, when given), drop `unpinned`;
    True when the list changed. Call under the memory lock."""
    current = honoured(state_dir) or frozenset()
    new = (current | pinned) - unpinned
    kept = {p: sorted(k) for p, k in pinned_lines(state_dir).items() if p in new}
    for rel, keys in (lines or {}).items():
        if rel in new:
            kept[rel] = sorted(keys)
    if new == current and os.path.exists(_path(state_dir)) and not lines and not unpinned:
        return False
    _save(state_dir, new, kept)
    return True


def _save(state_dir: str, pins: frozenset[str], lines: dict[str, list[str]] | None = None) -> None:
    from wikimem.fsutil import atomic_write

    os.makedirs(state_dir, mode=0o700, exist_ok=True)
    data: dict[str, object] = {"v": 1, "pins": sorted(pins)}
    if lines:
        data["lines"] = lines
    atomic_write(_path(state_dir), fastjson.dumps(data), mode=0o600)


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
