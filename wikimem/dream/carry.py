"""What one dream hands to the next: parked writes, deferred events, quarantined events.

Contract (docs/reliability.md):
  - **Parked**: a write the gate blocked for a reason that may pass later (a `pre_write` command
    exited 2, the note changed while the dream ran, the disk was full). Its events are done; the
    write itself is tried again by every later dream, first thing, until it lands (or the person
    drops it with `wikimem dream --drop-parked`). A note changed since is merged three-way.
  - **Deferred**: the events of one project in one chunk whose backend call failed (network,
    overload, a reply cut short twice). The rest of the dream proceeds; these records are tried
    again by the next dream, and quarantined after `MAX_ATTEMPTS` failures.
  - **Revisit**: the events of a chunk consolidated offline because the model backend was
    unavailable (unreachable, refused, over its day's cap). Their notes and digests are written;
    a later dream whose model answers sends them to the model once more, for what the offline
    rules missed, and then drops them. Kept at most `REVISIT_DAYS` days and `REVISIT_RECORDS`
    records (the oldest go first).
  - **Quarantined**: a record no dream can consolidate (a session id with a NUL, a record that
    makes the backend raise on its own). Kept in `state/quarantine.jsonl` with the reason,
    counted by `status` and `doctor`, never retried, never in the way of the others.

Crash safety: `state/carry.json` is written before the dream's commit and names the dream. It
counts only once that dream is recorded (its id in `watermark.json` or in a commit's
`Wikimem-Dream` trailer); until then the previous carry, kept inside the same file, stands. So a
crash anywhere leaves the old carry with the old watermark, or the new with the new.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from wikimem import boundedfile, gitrun
from wikimem.fsutil import atomic_write
from wikimem.home import Home

CARRY_FILE = "carry.json"
QUARANTINE_FILE = "quarantine.jsonl"
MAX_ATTEMPTS = 3
REVISIT_DAYS = 14
REVISIT_RECORDS = 5000
DREAM_TRAILER = "Wikimem-Dream"


@dataclass(frozen=True)
class Parked:
    path: str
    operation: str  # create | update | delete
    content: str | None  # what the dream meant to write (None: delete)
    base: str | None  # the note as the dream read it (None: it did not exist)
    reason: str
    sessions: tuple[str, ...] = ()
    requires: str | None = None  # a move's delete waits for its create
    since: str = ""
    attempts: int = 1


@dataclass(frozen=True)
class Deferred:
    project: str
    reason: str
    records: tuple[dict[str, Any], ...]
    attempts: int = 1
    since: str = ""


@dataclass(frozen=True)
class Carry:
    dream: str = ""
    parked: tuple[Parked, ...] = ()
    deferred: tuple[Deferred, ...] = ()
    notes: tuple[str, ...] = field(default=())  # what loading it had to say (a corrupt file)
    revisit: tuple[Deferred, ...] = ()  # consolidated offline; for the model when it answers

    def as_json(self) -> dict[str, Any]:
        return {
            "dream": self.dream,
            "parked": [asdict(p) for p in self.parked],
            "deferred": [asdict(d) for d in self.deferred],
            "revisit": [asdict(d) for d in self.revisit],
        }


def _parked(raw: Any) -> Parked:
    return Parked(
        path=str(raw["path"]),
        operation=str(raw["operation"]),
        content=raw.get("content") if isinstance(raw.get("content"), str) else None,
        base=raw.get("base") if isinstance(raw.get("base"), str) else None,
        reason=str(raw.get("reason", "")),
        sessions=tuple(str(s) for s in raw.get("sessions", [])),
        requires=str(raw["requires"]) if raw.get("requires") else None,
        since=str(raw.get("since", "")),
        attempts=int(raw.get("attempts", 1)),
    )


def _deferred(raw: Any) -> Deferred:
    records = raw["records"]
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise ValueError("records")
    return Deferred(
        project=str(raw["project"]),
        reason=str(raw.get("reason", "")),
        records=tuple(records),
        attempts=int(raw.get("attempts", 1)),
        since=str(raw.get("since", "")),
    )


def _from_json(data: Any) -> Carry:
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return Carry(
        dream=str(data.get("dream", "")),
        parked=tuple(_parked(p) for p in data.get("parked", [])),
        deferred=tuple(_deferred(d) for d in data.get("deferred", [])),
        revisit=tuple(_deferred(d) for d in data.get("revisit", [])),
    )


def _read(path: str) -> tuple[Carry, Carry]:
    data = json.loads(boundedfile.read_text(path))
    return _from_json(data), _from_json(data.get("previous") or {})


def load_carry(home: Home, recorded: Callable[[str], bool]) -> Carry:
    """The carry that stands: the newest one whose dream was recorded. A damaged file is set
    aside and its copy (`carry.json.bak`, written right after it) used instead."""
    path = home.state(CARRY_FILE)
    notes: tuple[str, ...] = ()
    try:
        current, previous = _read(path)
    except FileNotFoundError:
        return Carry()
    except (
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        UnicodeDecodeError,
        boundedfile.Refused,
    ):
        aside = path + ".corrupt"
        try:
            os.replace(path, aside)
        except OSError:
            pass
        try:
            current, previous = _read(path + ".bak")
            notes = (f"state/{CARRY_FILE} was unreadable (kept at {aside}); its copy was used",)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
            return Carry(
                notes=(
                    f"state/{CARRY_FILE} and its copy were unreadable (kept at {aside}): the "
                    "writes they parked and the events they deferred are not retried (the "
                    "events are still in events/)",
                )
            )
    chosen = current if current.dream and recorded(current.dream) else previous
    return Carry(chosen.dream, chosen.parked, chosen.deferred, notes, chosen.revisit)


def save_carry(home: Home, new: Carry, previous: Carry) -> None:
    data = new.as_json()
    data["previous"] = previous.as_json()
    text = json.dumps(data, ensure_ascii=False)
    atomic_write(home.state(CARRY_FILE), text, 0o600)
    atomic_write(home.state(CARRY_FILE + ".bak"), text, 0o600)


def quarantine(home: Home, entries: Iterable[dict[str, Any]]) -> int:
    """Append records to state/quarantine.jsonl, each once (keyed by its file and offset, or by
    its text); returns how many were new."""
    path = home.state(QUARANTINE_FILE)
    seen = set()
    try:
        with boundedfile.open_regular(path) as fh:
            for line in fh:
                try:
                    seen.add(json.loads(line).get("key"))
                except (ValueError, AttributeError):
                    continue
    except FileNotFoundError:
        pass
    lines = []
    for entry in entries:
        if entry["key"] in seen:
            continue
        seen.add(entry["key"])
        lines.append(json.dumps(entry, ensure_ascii=True) + "\n")
    if lines:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, "".join(lines).encode("ascii"))
        finally:
            os.close(fd)
    return len(lines)


def quarantined(home: Home) -> list[dict[str, Any]]:
    out = []
    try:
        with boundedfile.open_regular(home.state(QUARANTINE_FILE)) as fh:
            for line in fh:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if isinstance(entry, dict):
                    out.append(entry)
    except (FileNotFoundError, boundedfile.Refused):
        pass
    return out


def peek(home: Home) -> Carry:
    """The carry file's newest content, for `status` and `doctor` (which change nothing)."""
    try:
        return _from_json(json.loads(boundedfile.read_text(home.state(CARRY_FILE))))
    except FileNotFoundError:
        return Carry()
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
        return Carry(notes=(f"state/{CARRY_FILE} is unreadable",))
    except boundedfile.Refused as exc:
        return Carry(notes=(str(exc),))


def prune_revisit(entries: Iterable[Deferred], stamp: str) -> tuple[list[Deferred], list[str]]:
    """(the entries still to revisit, what was let go): older than `REVISIT_DAYS` go."""
    from datetime import datetime, timedelta

    try:
        cutoff = (
            datetime.fromisoformat(stamp.replace("Z", "+00:00")) - timedelta(days=REVISIT_DAYS)
        ).strftime("%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return list(entries), []
    kept: list[Deferred] = []
    gone = 0
    for entry in entries:
        if entry.since and entry.since[:19] < cutoff:
            gone += len(entry.records)
        else:
            kept.append(entry)
    notes = (
        [
            f"{gone} event(s) consolidated offline over {REVISIT_DAYS} days ago are no longer kept "
            "for the model"
        ]
        if gone
        else []
    )
    return kept, notes


def cap_revisit(entries: Iterable[Deferred]) -> tuple[tuple[Deferred, ...], list[str]]:
    """The newest entries holding at most `REVISIT_RECORDS` records (the oldest go first)."""
    kept: list[Deferred] = []
    total = 0
    dropped = 0
    for entry in reversed(list(entries)):
        if total + len(entry.records) > REVISIT_RECORDS:
            dropped += len(entry.records)
            continue
        kept.append(entry)
        total += len(entry.records)
    notes = (
        [
            f"{dropped} older event(s) consolidated offline are no longer kept for the model "
            f"(at most {REVISIT_RECORDS} wait)"
        ]
        if dropped
        else []
    )
    return tuple(reversed(kept)), notes


def merge3(current: str, base: str, mine: str) -> str | None:
    """`mine` (made from `base`) merged into `current` line by line; None on a conflict."""
    with tempfile.TemporaryDirectory(prefix="wikimem-merge-") as tmp:
        names = []
        for label, text in (("current", current), ("base", base), ("mine", mine)):
            name = os.path.join(tmp, label)
            with open(name, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            names.append(name)
        try:
            done = gitrun.run(None, "merge-file", "-p", *names)
        except OSError:
            return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace")
