"""What the last syncs did, in `state/sync.json` (machine-local, never shared).

Contract: per remote, the URL and the last remote commit this machine integrated or pushed
(`last_remote`: the merge base of a filtered remote, and how a rewritten remote is noticed) and
this machine's commit at that time (`last_local`); for the whole: the last attempt, the last
success, and the last error with when failures began and how many in a row. `status` and
`doctor` read it; the next sync (automatic or not) retries whatever failed.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any

from wikimem import boundedfile
from wikimem.fsutil import atomic_write
from wikimem.home import Home

STATE_FILE = "sync.json"


@dataclass
class ChannelRecord:
    url: str
    last_remote: str = ""
    last_local: str = ""


@dataclass
class SyncRecord:
    channels: dict[str, ChannelRecord] = field(default_factory=dict)
    last_attempt: str = ""
    last_success: str = ""
    last_error: str = ""
    failing_since: str = ""
    failures: int = 0
    deferred: str = ""  # an automatic sync skipped because another sync or a dream was busy

    def channel(self, name: str, url: str) -> ChannelRecord | None:
        """The record of remote `name`, only if it still points at `url`."""
        rec = self.channels.get(name)
        return rec if rec is not None and rec.url == url else None

    def failed(self, when: str, error: str) -> None:
        self.last_attempt = when
        self.last_error = error
        self.failing_since = self.failing_since or when
        self.failures += 1

    def succeeded(self, when: str) -> None:
        self.last_attempt = self.last_success = when
        self.last_error = self.failing_since = self.deferred = ""
        self.failures = 0


def load(home: Home) -> SyncRecord:
    try:
        data: dict[str, Any] = json.loads(boundedfile.read_text(home.state(STATE_FILE)))
        channels = {
            str(k): ChannelRecord(
                **{f: str(v.get(f, "")) for f in ("url", "last_remote", "last_local")}
            )
            for k, v in data.get("channels", {}).items()
            if isinstance(v, dict)
        }
        rec = SyncRecord(channels=channels)
        for key in ("last_attempt", "last_success", "last_error", "failing_since", "deferred"):
            setattr(rec, key, str(data.get(key, "") or ""))
        rec.failures = int(data.get("failures", 0) or 0)
        return rec
    except (FileNotFoundError, ValueError, TypeError, AttributeError):
        return SyncRecord()


def save(home: Home, rec: SyncRecord) -> None:
    os.makedirs(home.state_dir, mode=0o700, exist_ok=True)
    atomic_write(home.state(STATE_FILE), json.dumps(asdict(rec), indent=1, sort_keys=True), 0o600)
