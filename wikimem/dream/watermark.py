"""The dream watermark: how far into each events file consolidation has got (DESIGN §7).

Contract: per-file byte offsets of the last event consolidated, in `state/watermark.json`, and
also in every consolidation commit as a `Wikimem-Watermark: <machine> <offsets>` trailer, so a
crash between the commit and the state file never re-applies events: on start the watermark is
the newer of the two. The machine id keeps the trailers of other machines (memory/ is synced
through git; events are not) from moving this machine's watermark.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass, field

from wikimem.fsutil import atomic_write
from wikimem.home import Home

TRAILER = "Wikimem-Watermark"
STATE_FILE = "watermark.json"


def machine_id(home: Home) -> str:
    path = home.state("machine-id")
    try:
        with open(path, encoding="utf-8") as fh:
            value = fh.read().strip()
        if value:
            return value
    except FileNotFoundError:
        pass
    value = uuid.uuid4().hex[:12]
    os.makedirs(home.state_dir, mode=0o700, exist_ok=True)
    atomic_write(path, value + "\n", 0o600)
    return value


@dataclass(frozen=True)
class Watermark:
    offsets: dict[str, int] = field(default_factory=dict)
    last_dream: str = ""

    def offset(self, name: str) -> int:
        return self.offsets.get(name, 0)

    def merged(self, other: Watermark) -> Watermark:
        names = set(self.offsets) | set(other.offsets)
        offsets = {n: max(self.offset(n), other.offset(n)) for n in names}
        return Watermark(offsets, max(self.last_dream, other.last_dream))

    def trailer(self, machine: str) -> str:
        return f"{machine} {json.dumps(self.offsets, sort_keys=True, separators=(',', ':'))}"


def load_state(home: Home) -> Watermark:
    try:
        with open(home.state(STATE_FILE), encoding="utf-8") as fh:
            data = json.load(fh)
        offsets = {str(k): int(v) for k, v in data.get("offsets", {}).items()}
        return Watermark(offsets, str(data.get("last_dream", "")))
    except (FileNotFoundError, ValueError, AttributeError, TypeError):
        return Watermark()


def save_state(home: Home, mark: Watermark) -> None:
    # The epoch copy lets the hook check the interval without importing datetime.
    data = {"offsets": mark.offsets, "last_dream": mark.last_dream, "last_dream_epoch": time.time()}
    atomic_write(home.state(STATE_FILE), json.dumps(data, indent=1, sort_keys=True), 0o600)


def from_trailer(value: str, machine: str) -> Watermark | None:
    owner, _, offsets = value.partition(" ")
    if owner != machine:
        return None
    try:
        data = json.loads(offsets)
        return Watermark({str(k): int(v) for k, v in data.items()})
    except (ValueError, AttributeError, TypeError):
        return None
