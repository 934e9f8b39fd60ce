"""The `wikimem watch` loop: file-system events in, gated commits and a fresh index out.

Contract: `Watcher(home, ...).run()` blocks until `stop()` (which a signal handler may call):
  - it watches memory/ (and, with `claude_dir`, Claude Code's projects folder, and the files of
    each `Source`: Gemini CLI's and Qwen Code's saved memories, a project's Cursor rules) with
    watchdog;
  - events only say *that* something changed: after `debounce` seconds without a new one, a pass
    asks git what changed (so wikimem's own writes, already committed, and Obsidian's state in
    `.obsidian/` are never mistaken for edits), commits hand edits through the gate
    (`handedits`), refreshes the search index for what changed, and imports the Claude memory
    folders and the sources that changed;
  - an edit the gate refuses is reported once and not retried until the file changes again;
  - a pass that fails (a busy lock, a broken repository) is reported and the loop goes on: the
    next change brings another pass;
  - every outcome goes to `on_report` as a `Report` (a `warning` is what an import went on
    without, an `error` a pass that failed); `ready` is set once the watches are in
    place and the first pass (what changed while nobody watched) is done.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from wikimem.errors import WikimemError
from wikimem.home import Home
from wikimem.lock import LockBusy
from wikimem.watch.handedits import commit_hand_edits


@dataclass(frozen=True)
class Report:
    kind: str  # "committed" | "invalid" | "imported" | "warning" | "error"
    message: str
    paths: tuple[str, ...] = ()
    commit: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "paths": list(self.paths),
            "commit": self.commit,
            **self.data,
        }


@dataclass(frozen=True)
class Source:
    """An agent's own memory that `watch` imports as it changes: the folder to watch, whether
    a path in it is the source's, and the importer's reading of it."""

    name: str
    folder: str
    recursive: bool
    matches: Callable[[str], bool]
    scan: Callable[[], Any]  # -> mirror.Scan


def _memory_event_matters(rel: str) -> bool:
    parts = rel.split(os.sep)
    if any(p.startswith(".") for p in parts):  # .git/, .obsidian/, our temp files, swap files
        return False
    return rel != "index.md" and not rel.endswith("~")


class _Handler(FileSystemEventHandler):
    def __init__(self, on_path: Callable[[str], None]) -> None:
        self.on_path = on_path

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        for path in (event.src_path, getattr(event, "dest_path", "")):
            if path:
                self.on_path(os.fsdecode(path))


class Watcher:
    def __init__(
        self,
        home: Home,
        *,
        debounce: float = 2.0,
        claude_dir: str | None = None,
        sources: tuple[Source, ...] = (),
        on_report: Callable[[Report], None] = lambda report: None,
    ) -> None:
        self.sources = sources
        self._sources_changed: set[str] = set()
        self.home = home
        self.debounce = debounce
        self.claude_dir = os.path.abspath(claude_dir) if claude_dir else None
        self.on_report = on_report
        self.ready = threading.Event()
        self._cond = threading.Condition()
        self._stopping = False
        self._memory_changed = False
        self._claude_changed: set[str] = set()
        self._last_event = 0.0
        self._invalid: dict[str, str] = {}

    # -- control ---------------------------------------------------------------------------

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()

    def run(self) -> None:
        observer = Observer()
        observer.schedule(_Handler(self._memory_event), self.home.memory_dir, recursive=True)
        if self.claude_dir and os.path.isdir(self.claude_dir):
            observer.schedule(_Handler(self._claude_event), self.claude_dir, recursive=True)
        elif self.claude_dir:
            self.on_report(
                Report("error", f"{self.claude_dir} does not exist: Claude Code memory not watched")
            )
            self.claude_dir = None
        for source in self.sources:
            if not os.path.isdir(source.folder):
                self.on_report(
                    Report("error", f"{source.folder} does not exist: {source.name} not watched")
                )
                continue
            observer.schedule(
                _Handler(functools.partial(self._source_event, source)),
                source.folder,
                recursive=source.recursive,
            )
        observer.start()
        try:
            every = {s.name for s in self.sources}
            self._pass(memory=True, claude_dirs=None if self.claude_dir else set(), sources=every)
            self.ready.set()
            while self._wait():
                with self._cond:
                    memory, claude = self._memory_changed, set(self._claude_changed)
                    sources = set(self._sources_changed)
                    self._memory_changed = False
                    self._claude_changed.clear()
                    self._sources_changed.clear()
                self._pass(memory=memory, claude_dirs=claude, sources=sources)
        finally:
            observer.stop()
            observer.join(timeout=5)
            self.ready.set()

    # -- events ----------------------------------------------------------------------------

    def _memory_event(self, path: str) -> None:
        rel = os.path.relpath(path, self.home.memory_dir)
        if rel.startswith("..") or not _memory_event_matters(rel):
            return
        self._changed(lambda: setattr(self, "_memory_changed", True))

    def _claude_event(self, path: str) -> None:
        assert self.claude_dir is not None
        rel = os.path.relpath(path, self.claude_dir).split(os.sep)
        # <projects folder>/<project>/memory/<file>.md, wherever the projects folder is
        if "memory" not in rel[:-1] or not rel[-1].lower().endswith(".md"):
            return
        memory_dir = os.path.join(self.claude_dir, *rel[: len(rel) - 1])
        if os.path.basename(memory_dir) != "memory":
            return
        self._changed(lambda: self._claude_changed.add(memory_dir))

    def _source_event(self, source: Source, path: str) -> None:
        if source.matches(path):
            self._changed(lambda: self._sources_changed.add(source.name))

    def _changed(self, mark: Callable[[], None]) -> None:
        with self._cond:
            mark()
            self._last_event = time.monotonic()
            self._cond.notify_all()

    def _wait(self) -> bool:
        """Wait for changes followed by `debounce` seconds of quiet; False once stopping."""
        with self._cond:
            while not self._stopping:
                if not (self._memory_changed or self._claude_changed or self._sources_changed):
                    self._cond.wait()
                    continue
                quiet_for = time.monotonic() - self._last_event
                if quiet_for >= self.debounce:
                    return True
                self._cond.wait(self.debounce - quiet_for)
            return False

    # -- a pass ----------------------------------------------------------------------------

    def _pass(
        self, *, memory: bool, claude_dirs: set[str] | None, sources: set[str] | None = None
    ) -> None:
        """Commit hand edits, refresh the index, import changed Claude memory (None: all) and
        the changed sources."""
        from wikimem.wiki.batch import Wiki

        try:
            wiki = Wiki(self.home)
            if memory:
                self._hand_edits(wiki)
            if claude_dirs is None or claude_dirs:
                self._import_claude(wiki, claude_dirs)
            done: set[str] = set()
            for source in self.sources:
                if source.name in (sources or ()) and source.name not in done:
                    done.add(source.name)  # one source may be watched in two folders
                    self._import_source(wiki, source)
        except LockBusy as exc:
            # a long dream holds memory/: try again after another quiet spell, not never
            self.on_report(Report("error", f"{exc}; trying again"))
            self._changed(lambda: self._retry(memory, claude_dirs, sources or set()))
        except (WikimemError, OSError) as exc:
            self.on_report(Report("error", str(exc)))

    def _retry(self, memory: bool, claude_dirs: set[str] | None, sources: set[str]) -> None:
        self._memory_changed = self._memory_changed or memory
        if claude_dirs:
            self._claude_changed.update(claude_dirs)
        self._sources_changed.update(sources)

    def _import_source(self, wiki: Any, source: Source) -> None:
        from wikimem.importers.mirror import apply

        result = apply(wiki, source.name, source.scan())
        data = result.as_dict()
        if result.commit or data["blocked"] or data["skipped"]:
            self.on_report(
                Report(
                    "imported",
                    f"imported {source.name}: {len(data['written'])} note(s)",
                    tuple(w["path"] for w in data["written"]),
                    result.commit,
                    {k: data[k] for k in ("blocked", "skipped")},
                )
            )

    def _hand_edits(self, wiki: Any) -> None:
        edits = commit_hand_edits(wiki, self._invalid)
        for path in edits.paths:
            self._invalid.pop(path, None)  # changed again (or fixed): judged afresh
        for path, reason, digest in edits.invalid:
            self._invalid[path] = digest
            self.on_report(Report("invalid", reason, (path,)))
        if edits.commit:
            paths = tuple(p for p, _ in edits.committed)
            self.on_report(
                Report(
                    "committed",
                    f"committed {len(paths)} hand edit(s)",
                    paths,
                    edits.commit,
                    {"operations": dict(edits.committed)},
                )
            )
        self._refresh_index(edits.paths)

    def _refresh_index(self, paths: tuple[str, ...]) -> None:
        import sqlite3

        from wikimem.recall.index import open_index

        try:
            index = open_index(self.home.state_dir, self.home.memory_dir)
            try:
                index.refresh(
                    paths=[
                        p for p in paths if os.path.exists(os.path.join(self.home.memory_dir, p))
                    ],
                    dirs=sorted({p.rsplit("/", 1)[0] for p in paths if "/" in p}),
                )
            finally:
                index.close()
        except sqlite3.Error as exc:
            self.on_report(Report("error", f"search index: {exc}"))

    def _import_claude(self, wiki: Any, memory_dirs: set[str] | None) -> None:
        from wikimem.importers import claude_auto_memory
        from wikimem.importers.mirror import Scan, apply

        if memory_dirs is None:
            scan = claude_auto_memory.scan(self.claude_dir)
        else:
            parts = [claude_auto_memory.scan(d) for d in sorted(memory_dirs) if os.path.isdir(d)]
            # a memory folder that vanished: its project's notes go with it
            gone = tuple(
                os.path.basename(os.path.dirname(d)) for d in memory_dirs if not os.path.isdir(d)
            )
            scan = Scan(
                tuple(n for p in parts for n in p.notes),
                tuple(s for p in parts for s in p.scopes) + gone,
                tuple(w for p in parts for w in p.warnings),
            )
        result = apply(wiki, claude_auto_memory.NAME, scan)
        data = result.as_dict()
        if result.commit or data["blocked"] or data["skipped"]:
            self.on_report(
                Report(
                    "imported",
                    f"imported Claude Code auto memory: {len(data['written'])} note(s)",
                    tuple(w["path"] for w in data["written"]),
                    result.commit,
                    {k: data[k] for k in ("blocked", "skipped")},
                )
            )
        for warning in data["warnings"]:
            # what the import noticed and went on without (a MEMORY.md line or link that leads
            # nowhere): the import itself worked
            self.on_report(Report("warning", warning))
