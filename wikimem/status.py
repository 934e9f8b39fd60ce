"""`wikimem status`: what the memory home holds and where wikimem is wired, as data.

Contract: `collect(home, project_dir)` reads the home without changing it and returns a
`Status`; rendering (table or JSON) is the CLI's job. It reads only regular files, each within
its bound (`wikimem.boundedfile`; notes up to `gate.max_note_bytes`): what it refused to read is
listed under "not read", one line per file, and counted as nothing.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from wikimem import boundedfile
from wikimem.capture import events
from wikimem.home import Home
from wikimem.setup.wiring import Installed, installed


@dataclass(frozen=True)
class SessionCount:
    client: str
    session: str
    project: str
    events: int
    first: str
    last: str


@dataclass(frozen=True)
class Status:
    home: str
    initialised: bool
    events_total: int
    events_by_client: dict[str, int]
    sessions: tuple[SessionCount, ...]
    disk_bytes: dict[str, int]
    hooks: tuple[Installed, ...]
    errors_logged: int
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def dir_size(path: str) -> int:
    total = 0
    for dirpath, _, filenames in os.walk(path):
        for name in filenames:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


def count_lines(path: str, refused: list[str] | None = None) -> int:
    try:
        with boundedfile.open_regular(path) as fh:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
    except boundedfile.Refused as exc:
        if refused is not None:
            refused.append(str(exc))
        return 0
    except OSError:
        return 0


def _records(path: str, refused: list[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        yield from events.read_from(path)
    except boundedfile.Refused as exc:  # raised on opening, before any record
        refused.append(str(exc))


def collect(home: Home, project_dir: str | None = None) -> Status:
    by_client: Counter[str] = Counter()
    sessions: dict[tuple[str, str], dict[str, Any]] = {}
    total = 0
    refused: list[str] = []
    for name in events.list_files(home.events_dir):
        for _, rec in _records(os.path.join(home.events_dir, name), refused):
            total += 1
            client = str(rec.get("client", "?"))
            by_client[client] += 1
            key = (client, str(rec.get("session", "?")))
            entry = sessions.get(key)
            ts = str(rec.get("ts", ""))
            if entry is None:
                sessions[key] = {
                    "project": str(rec.get("project", "")),
                    "events": 1,
                    "first": ts,
                    "last": ts,
                }
            else:
                entry["events"] += 1
                entry["last"] = ts
    counts = tuple(
        SessionCount(client, session, v["project"], v["events"], v["first"], v["last"])
        for (client, session), v in sorted(sessions.items(), key=lambda kv: kv[1]["last"])
    )
    disk = {sub: dir_size(os.path.join(home.root, sub)) for sub in ("events", "memory", "state")}
    from wikimem.dream.reader import pending_count
    from wikimem.dream.watermark import load_state
    from wikimem.wiki.plainfile import note_paths

    mark = load_state(home)
    notes = len(note_paths(home.memory_dir)) if os.path.isdir(home.memory_dir) else 0
    extra: dict[str, Any] = {
        "events pending": pending_count(home.events_dir, mark),
        "last dream": mark.last_dream or "never",
        "notes": notes,
        "index": _index_freshness(home, notes),
    }
    from wikimem.recall.index import note_limit
    from wikimem.wiki.review import contested, held

    limit = note_limit(home.root)
    if waiting := held(home.memory_dir, home.state_dir, limit):
        extra["held claims"] = (
            f"{len(waiting)} (never injected until you confirm them; `wikimem doctor` lists them)"
        )
    if pairs := contested(home.memory_dir, limit):
        extra["contested claims"] = (
            f"{len(pairs)} (both kept, newer first; `wikimem doctor` says where and how to settle)"
        )
    from wikimem.sync.health import summary as sync_summary

    if (sync_line := sync_summary(home)) is not None:
        extra["sync"] = sync_line

    from wikimem import heldback, leftovers

    extra.update(leftovers.counts(home))
    extra.update(heldback.counts(home))
    from wikimem.config import ConfigError, load_config
    from wikimem.dream.choice import status_lines

    try:
        extra.update(status_lines(home, load_config(home)))
    except ConfigError:
        pass  # `doctor` and every command say what is wrong with config.toml
    hooks = tuple(installed(project_dir, refused))
    errors_logged = count_lines(home.errors_log, refused)
    if refused:
        extra["not read"] = "; ".join(refused)
    if project_dir:
        budget_line = session_start_use(home, project_dir)
        if budget_line:
            extra["session start here"] = budget_line
    return Status(
        extra=extra,
        home=home.root,
        initialised=os.path.isdir(os.path.join(home.memory_dir, ".git")),
        events_total=total,
        events_by_client=dict(by_client),
        sessions=counts,
        disk_bytes=disk,
        hooks=hooks,
        errors_logged=errors_logged,
    )


def session_start_use(home: Home, project_dir: str) -> str:
    """How a session start in `project_dir` uses its budget: the characters each note is
    given, the notes cut short or left out (what `inject.session_start_chars` buys here)."""
    from wikimem.capture.project import find_repo_root, project_slug
    from wikimem.config import ConfigError, load_config

    if not os.path.isdir(home.memory_dir) or not find_repo_root(project_dir):
        return ""
    try:
        budget = load_config(home).inject.session_start_chars
    except ConfigError:
        return ""
    from wikimem.recall.inject import session_start_paths, standing

    project = project_slug(project_dir)
    parts, given, _ = standing(home, project, budget, None, project_dir)
    used = sum(len(p) + 1 for p in parts)
    shown = []
    for block in parts:
        rel = block.split("\n", 1)[0].removeprefix("### ").split(" — ", 1)[0]
        cut = "" if rel in given else ", cut"
        shown.append(f"{rel} {len(block):,}{cut}")
    left_out = [
        rel for rel in session_start_paths(home, project, None) if rel not in "".join(parts)
    ]
    line = f"{used:,} of {budget:,} characters ({project})"
    if shown:
        line += "\n" + "\n".join(shown)
    if left_out:
        line += f"\nnot given (no room, or nothing to give): {', '.join(left_out)}"
    return line


def _index_freshness(home: Home, notes: int) -> str:
    """How many notes the search index holds, read without touching it."""
    import sqlite3

    path = home.state("index.sqlite3")
    if not os.path.exists(path):
        return "not built yet (the next hook or `wikimem search` builds it)"
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            indexed = int(db.execute("SELECT count(*) FROM notes").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error as exc:
        return f"unreadable ({exc}); it is rebuilt on next use"
    if indexed == notes:
        return f"{indexed} notes, up to date"
    return f"{indexed} of {notes} notes (brought up to date by the next prompt or `wikimem search`)"
