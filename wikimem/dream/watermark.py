"""The dream watermark: how far into each events file consolidation has got.

Contract: per-file byte offsets of the last event consolidated (keyed by the file's name and
id, `wikimem.capture.events.offset_key`: a file made anew under an old name starts at 0), in
`state/watermark.json`, and
also in every consolidation commit as a `Wikimem-Watermark: <machine> <offsets>` trailer, so a
crash between the commit and the state file never re-applies events: on start the watermark is
the newer of the two. The machine id keeps the trailers of other machines (memory/ is synced
through git; events are not) from moving this machine's watermark. The state file also names
the dream that wrote it (`dream`, see `wikimem.dream.carry`) and the machine id, so a lost or
garbled `state/machine-id` is recovered instead of making every trailer look foreign.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass, field

from wikimem import boundedfile
from wikimem.capture import events
from wikimem.fsutil import atomic_write
from wikimem.home import Home

TRAILER = "Wikimem-Watermark"
STATE_FILE = "watermark.json"


def _plausible_id(value: str) -> bool:
    return 0 < len(value) <= 64 and value.isascii() and value.isprintable() and " " not in value


def machine_id(home: Home) -> str:
    path = home.state("machine-id")
    try:
        value = boundedfile.read_text(path, errors="replace").strip()
        if _plausible_id(value):
            return value
    except (FileNotFoundError, boundedfile.Refused):
        pass  # made anew (a FIFO or a device there is replaced by the file)
    value = _id_from_state(home) or uuid.uuid4().hex[:12]
    os.makedirs(home.state_dir, mode=0o700, exist_ok=True)
    atomic_write(path, value + "\n", 0o600)
    return value


def _id_from_state(home: Home) -> str | None:
    try:
        value = json.loads(boundedfile.read_text(home.state(STATE_FILE))).get("machine")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) and _plausible_id(value) else None


@dataclass(frozen=True)
class Watermark:
    offsets: dict[str, int] = field(default_factory=dict)
    last_dream: str = ""
    dream: str = ""  # the id of the dream that moved it here

    def offset(self, name: str, fid: str = "") -> int:
        """How far the events file `name` (with id `fid`) was read."""
        return events.offset_in(self.offsets, name, fid)

    def with_file_ids(self, events_dir: str) -> Watermark:
        """Offsets recorded by name alone (before files had ids) moved to the key of the file
        that has the name now, which is the one they were read from unless it was replaced
        since (as before ids, a file shorter than its offset is read from its start)."""
        keyed = events.keyed_names(self.offsets)
        offsets = dict(self.offsets)
        for name in [k for k in self.offsets if "#" not in k]:
            value = offsets.pop(name)
            if name in keyed:
                continue  # superseded by an offset with an id
            fid = events.file_id(os.path.join(events_dir, name))
            key = events.offset_key(name, fid)
            offsets[key] = max(offsets.get(key, 0), value)
        return Watermark(offsets, self.last_dream, self.dream)

    def merged(self, other: Watermark) -> Watermark:
        names = set(self.offsets) | set(other.offsets)
        offsets = {n: max(self.offsets.get(n, 0), other.offsets.get(n, 0)) for n in names}
        return Watermark(offsets, max(self.last_dream, other.last_dream), self.dream)

    def trailer(self, machine: str) -> str:
        return f"{machine} {json.dumps(self.offsets, sort_keys=True, separators=(',', ':'))}"


def load_state(home: Home) -> Watermark:
    try:
        data = json.loads(boundedfile.read_text(home.state(STATE_FILE)))
        offsets = {str(k): int(v) for k, v in data.get("offsets", {}).items()}
        return Watermark(offsets, str(data.get("last_dream", "")), str(data.get("dream", "")))
    except (FileNotFoundError, boundedfile.Refused, ValueError, AttributeError, TypeError):
        return Watermark()


def state_problem(home: Home) -> str | None:
    """Why state/watermark.json cannot be read, when it exists (None: fine or absent)."""
    try:
        data = json.loads(boundedfile.read_text(home.state(STATE_FILE)))
        {str(k): int(v) for k, v in data.get("offsets", {}).items()}
    except FileNotFoundError:
        return None
    except (ValueError, AttributeError, TypeError, UnicodeDecodeError) as exc:
        return f"state/{STATE_FILE} is unreadable ({exc.__class__.__name__})"
    except boundedfile.Refused as exc:
        return str(exc)
    return None


def save_state(home: Home, mark: Watermark) -> None:
    # The epoch copy lets the hook check the interval without importing datetime.
    data = {
        "offsets": mark.offsets,
        "last_dream": mark.last_dream,
        "last_dream_epoch": time.time(),
        "dream": mark.dream,
        "machine": machine_id(home),
    }
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
