"""What `wikimem install` made in harness folders, so `uninstall` can take it back exactly.

Contract: one record per memory home, `state/created-configs.json` (machine-local, like every
install), written atomically and only together with the files it describes (`changeset`):
  - `created`: every file and folder wikimem created; uninstall removes such a file once it
    holds nothing of anyone else's, and such a folder once it is empty. A person's file is never
    in it, so it is never removed, and wikimem keeps no backup of a file it created;
  - `originals`: for a person's file wikimem changed, the backup of it as it was before
    wikimem's first change; when an uninstall leaves the file holding the same settings again,
    those exact bytes are put back (their formatting, comments and key order);
  - `trust`: a folder-trust rule wikimem added for an install (Gemini CLI, Copilot CLI), with
    the rule it replaced: the uninstall of that install takes it back.
A missing or corrupt record means "wikimem made nothing here": the safe answer, which leaves
every file in place. The record of older versions (a list of created paths) is read as such.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace

from wikimem import boundedfile
from wikimem.home import Home

RECORD = "created-configs.json"


@dataclass(frozen=True)
class TrustRule:
    client: str  # "gemini" or "copilot"
    config: str  # the hook config of the install that asked for it
    file: str  # trustedFolders.json (Gemini CLI) or config.json (Copilot CLI)
    folder: str  # the rule's key (Gemini) or list entry (Copilot)
    was: str | None = None  # the rule wikimem replaced (Gemini), None: there was none


@dataclass(frozen=True)
class Manifest:
    created: frozenset[str] = frozenset()
    originals: tuple[tuple[str, str], ...] = ()  # (the person's file, its first backup)
    trust: tuple[TrustRule, ...] = field(default=())

    def original(self, path: str) -> str | None:
        return dict(self.originals).get(os.path.abspath(path))

    def with_original(self, path: str, backup: str | None) -> Manifest:
        kept = {p: b for p, b in self.originals if p != os.path.abspath(path)}
        if backup is not None:
            kept[os.path.abspath(path)] = backup
        return replace(self, originals=tuple(sorted(kept.items())))

    def is_empty(self) -> bool:
        return not (self.created or self.originals or self.trust)

    def dump(self) -> str:
        data = {
            "created": sorted(self.created),
            "originals": dict(self.originals),
            "trust": [rule.__dict__ for rule in self.trust],
        }
        return json.dumps(data, indent=1) + "\n"


def path_of(home: Home) -> str:
    return home.state(RECORD)


def parse(text: str) -> Manifest:
    try:
        data = json.loads(text)
    except ValueError:
        return Manifest()
    if isinstance(data, list):  # written by an older wikimem: the created paths
        data = {"created": data}
    if not isinstance(data, dict):
        return Manifest()
    created = data.get("created")
    originals = data.get("originals")
    trust = data.get("trust")
    return Manifest(
        frozenset(p for p in created if isinstance(p, str))
        if isinstance(created, list)
        else frozenset(),
        tuple(
            sorted(
                (p, b)
                for p, b in (originals.items() if isinstance(originals, dict) else ())
                if isinstance(p, str) and isinstance(b, str)
            )
        ),
        tuple(_rules(trust if isinstance(trust, list) else [])),
    )


def _rules(items: list[object]) -> list[TrustRule]:
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        client, config, file, folder, was = (
            item.get(k) for k in ("client", "config", "file", "folder", "was")
        )
        if (
            isinstance(client, str)
            and isinstance(config, str)
            and isinstance(file, str)
            and isinstance(folder, str)
        ):
            out.append(
                TrustRule(client, config, file, folder, was if isinstance(was, str) else None)
            )
    return out


def load(home: Home | None) -> Manifest:
    if home is None:
        return Manifest()
    try:
        return parse(boundedfile.read_text(path_of(home)))
    except (OSError, UnicodeDecodeError):
        return Manifest()


def created(home: Home, path: str) -> bool:
    return os.path.abspath(path) in load(home).created
