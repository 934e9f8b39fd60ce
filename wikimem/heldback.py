"""Notes held back by the vetting, for `status` and `doctor`: what arrived in memory/ without
passing the gate and failed its content rules (`wikimem.wiki.vetting`), and what to do.

Contract: `held(home)` reads the search index (machine-local, in state/) without changing
anything and returns `Held(path, code, detail)` values, one per rule a note failed; `counts`
is the short form for `status`; `findings(home)` says, per note, what is held back and what the
person may do (status warn). A note is held back until it changes: the next vetting of it
(by the next hook, `wikimem search` or sync) decides again.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from typing import Any

from wikimem.home import Home
from wikimem.leftovers import Finding
from wikimem.wiki.vetting import HELD_PIN, HELD_SECRET, HELD_SIZE, codes

MAX_LISTED = 20


@dataclass(frozen=True)
class Held:
    path: str
    code: str  # size | secret | pin
    detail: str  # bytes, kinds of secret, ""


def held(home: Home) -> list[Held]:
    path = home.state("index.sqlite3")
    if not os.path.exists(path):
        return []
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT path, held FROM notes WHERE held != '' ORDER BY path")
            found = [(str(p), str(h)) for p, h in rows]
        finally:
            db.close()
    except sqlite3.Error:
        return []  # not built yet, or an older index about to be rebuilt
    return [Held(p, code, detail) for p, h in found for code, detail in codes(h).items()]


def counts(home: Home) -> dict[str, Any]:
    notes = {h.path for h in held(home)}
    return {"notes held back": len(notes)} if notes else {}


def findings(home: Home) -> list[Finding]:
    items = held(home)
    out = [_finding(h) for h in items[:MAX_LISTED]]
    if len(items) > MAX_LISTED:
        out.append(
            Finding(
                "vetting",
                "warn",
                f"… and {len(items) - MAX_LISTED} more held back",
                "`wikimem status --json` counts them",
            )
        )
    return out


def _finding(h: Held) -> Finding:
    if h.code == HELD_SIZE:
        size = f"{int(h.detail):,} bytes" if h.detail.isdigit() else "too large"
        return Finding(
            "vetting",
            "warn",
            f"{h.path} is {size}, over gate.max_note_bytes: it is not read, searched, injected "
            "or shown to the dream",
            f"split or shorten it (`wikimem edit {h.path}`), or `wikimem forget {h.path}`",
        )
    if h.code == HELD_SECRET:
        return Finding(
            "vetting",
            "warn",
            f"{h.path} holds a secret ({h.detail.replace(',', ', ')}) that did not pass the "
            "gate (it came from a remote or a hand edit): agents and search get it redacted",
            f"rotate the secret; remove it from the note with `wikimem edit {h.path}` (or "
            "`wikimem scrub VALUE`, which also says how to purge it from git history)",
        )
    if h.code == HELD_PIN:
        return Finding(
            "vetting",
            "warn",
            f"{h.path} says `pinned: true`, but the pin was not set by you on this machine "
            "(a remote or a plain git pull brought it): it is not pinned here",
            f"read it (`wikimem show {h.path}`); if it should be given at every session start, "
            f"`wikimem pin {h.path}`",
        )
    return Finding("vetting", "warn", f"{h.path}: held back ({h.code})", "")
