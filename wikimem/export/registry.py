"""The files export is enabled in: `state/exports.json`, machine-local (the paths are this
machine's).

Contract: one entry per file, keyed by its real path: the path as named, its scope, who enabled
it (`owners`: "export" for `wikimem export --to`, a harness name for `wikimem install` of a harness
that has no other way to be given memory), and what `uninstall` needs to give the file back its
own bytes: the separator put in front of an appended block (`lead`), whether wikimem created the
file (`created`) with a head of its own (`head`, a Cursor rule's front matter) and folders
(`dirs`). `update(home)` holds `state/exports.lock` around a read-modify-write; the file is
written atomically.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from wikimem.fsutil import atomic_write
from wikimem.home import Home
from wikimem.lock import file_lock

NAME = "exports.json"


@dataclass(frozen=True)
class Entry:
    path: str
    scope: str
    owners: tuple[str, ...] = ("export",)
    lead: str = ""
    created: bool = False
    head: str = ""
    dirs: tuple[str, ...] = field(default=())

    def with_owner(self, owner: str) -> Entry:
        owners = self.owners if owner in self.owners else (*self.owners, owner)
        return replace(self, owners=owners)


def _parse(data: object) -> dict[str, Entry]:
    files = data.get("files") if isinstance(data, dict) else None
    out: dict[str, Entry] = {}
    for real, raw in (files or {}).items():
        if not isinstance(raw, dict):
            continue
        try:
            out[real] = Entry(
                path=str(raw["path"]),
                scope=str(raw["scope"]),
                owners=tuple(str(o) for o in raw.get("owners", ["export"])),
                lead=str(raw.get("lead", "")),
                created=bool(raw.get("created", False)),
                head=str(raw.get("head", "")),
                dirs=tuple(str(d) for d in raw.get("dirs", [])),
            )
        except (KeyError, TypeError):
            continue
    return out


def load(home: Home) -> dict[str, Entry]:
    try:
        with open(home.state(NAME), encoding="utf-8") as fh:
            return parse_text(fh.read())
    except OSError:
        return {}


def parse_text(text: str) -> dict[str, Entry]:
    try:
        return _parse(json.loads(text)) if text.strip() else {}
    except ValueError:
        return {}


def dump(entries: dict[str, Entry]) -> str:
    files: dict[str, Any] = {}
    for real, entry in sorted(entries.items()):
        raw = asdict(entry)
        raw["owners"] = list(entry.owners)
        raw["dirs"] = list(entry.dirs)
        files[real] = raw
    return json.dumps({"version": 1, "files": files}, indent=1, ensure_ascii=False) + "\n"


@contextmanager
def update(home: Home) -> Iterator[dict[str, Entry]]:
    """The entries, to change in place; written back when the block ends without an error."""
    os.makedirs(home.state_dir, mode=0o700, exist_ok=True)
    with file_lock(home.state("exports.lock"), what="the export record (another export runs)"):
        entries = load(home)
        before = dump(entries)
        yield entries
        after = dump(entries)
        if after != before:
            atomic_write(home.state(NAME), after, 0o600)
