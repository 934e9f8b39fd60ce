"""What bad days left behind, for `status` and `doctor`: writes the gate parked, events deferred
or quarantined by a dream, a batch a crash interrupted, git lock files and our temp files.

Contract: `findings(home)` reads the home without changing anything and returns
`Finding(area, status, detail, fix)` values (status ok | warn | info); `counts(home)` is the short
form for `status`. Each finding says what the next dream does about it by itself, and what the
person may do.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from wikimem import boundedfile
from wikimem.home import Home


@dataclass(frozen=True)
class Finding:
    area: str
    status: str
    detail: str
    fix: str = ""


def counts(home: Home) -> dict[str, Any]:
    from wikimem.dream import carry

    pending = carry.peek(home)
    return {
        "writes parked": len(pending.parked),
        "events deferred": sum(len(d.records) for d in pending.deferred),
        "events quarantined": len(carry.quarantined(home)),
    }


def findings(home: Home) -> list[Finding]:
    return _carry(home) + _interrupted(home) + _git_leftovers(home)


def _carry(home: Home) -> list[Finding]:
    from wikimem.dream import carry

    out = []
    pending = carry.peek(home)
    for note in pending.notes:
        out.append(Finding("dream", "warn", note, f"see {home.state(carry.CARRY_FILE)}"))
    if pending.parked:
        first = pending.parked[0]
        out.append(
            Finding(
                "dream",
                "warn",
                f"{len(pending.parked)} write(s) blocked by the gate are parked (since "
                f"{first.since or '?'}); latest reason: {first.reason[:200]}",
                "fix the pre_write check if it was wrong: the next `wikimem dream` writes them; "
                "`wikimem dream --drop-parked` discards them",
            )
        )
    if pending.deferred:
        n = sum(len(d.records) for d in pending.deferred)
        out.append(
            Finding(
                "dream",
                "warn",
                f"{n} event(s) wait for another try after a backend failure: "
                f"{pending.deferred[0].reason[:200]}",
                f"the next `wikimem dream` retries them (quarantined after {carry.MAX_ATTEMPTS} "
                "failures)",
            )
        )
    held = carry.quarantined(home)
    if held:
        out.append(
            Finding(
                "dream",
                "info",
                f"{len(held)} event(s) quarantined (no dream can use them); latest: "
                f"{str(held[-1].get('reason'))[:200]}",
                f"they are kept in {home.state(carry.QUARANTINE_FILE)}",
            )
        )
    return out


def _interrupted(home: Home) -> list[Finding]:
    path = home.state("batch-journal.json")
    if not os.path.exists(path):
        return []
    try:
        source = json.loads(boundedfile.read_text(path)).get("source", "?")
    except (OSError, ValueError, AttributeError):
        source = "?"
    what = "a dream" if source == "dream" else f"a `{source}` write"
    undo = "rolls it back" if source == "dream" else "commits it"
    return [
        Finding(
            "git",
            "warn",
            f"{what} was interrupted; its files in memory/ are not committed on purpose",
            f"do not commit them by hand: the next `wikimem dream` (or any write) {undo}",
        )
    ]


def _git_leftovers(home: Home) -> list[Finding]:
    from wikimem.config import load_config
    from wikimem.wiki.gitstore import GitError, Store

    try:
        store = Store(home.memory_dir, load_config(home).git)
    except (GitError, Exception):  # doctor's git check reports a broken repository
        return []
    out = []
    for lock in store.lock_files():
        holders = store.lock_holders(lock)
        rel = os.path.relpath(lock, home.memory_dir)
        if holders == []:
            out.append(
                Finding(
                    "git",
                    "warn",
                    f"memory/{rel} was left by a git process that was killed; git refuses to "
                    "write while it is there",
                    "the next `wikimem dream` or write removes it by itself",
                )
            )
        else:
            who = ", ".join(holders) if holders else "a git process started just now"
            out.append(
                Finding(
                    "git",
                    "warn",
                    f"memory/{rel} is held by {who}",
                    f"wait for it; if no git is running, delete {lock}",
                )
            )
    temps = store.temp_files()
    if temps:
        out.append(
            Finding(
                "git",
                "info",
                f"{len(temps)} temp file(s) a killed write left in memory/ (not notes: never "
                "commit them)",
                "the next `wikimem dream` or write removes them",
            )
        )
    return out
