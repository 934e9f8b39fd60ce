"""The wiki as a whole: batches of gated writes, one git commit per batch, index.md kept fresh.

Contract: `commit_writes` takes the memory lock, recovers from a batch a crash interrupted,
journals the batch, passes each write through the gate (blocked writes are reported, the rest
applied), regenerates `index.md`, makes ONE commit whose message says what changed, with the
source and sessions in trailers, runs the post_write commands with the commit's sha, refreshes
the search index, and returns what happened. A crash at any point leaves either the old state
or the new: the journal lets the next batch roll a dream's half-written files back (its events
will be consolidated again) and commit anyone else's (their change is kept).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from wikimem.config import Config, load_config
from wikimem.fsutil import atomic_write
from wikimem.home import Home
from wikimem.lock import file_lock
from wikimem.wiki.gate import Gate, GateResult, MemoryWrite, content_hash, read_current
from wikimem.wiki.gitstore import CommitInfo, Store
from wikimem.wiki.indexmd import note_paths, write_index
from wikimem.wiki.notes import Note, parse_note

JOURNAL = "batch-journal.json"
CrashHook = Callable[[str], None]


def _no_crash(point: str) -> None:
    """Fault-injection point for tests (`WIKIMEM_CRASH_AT=<point>` kills the process there)."""
    if os.environ.get("WIKIMEM_CRASH_AT") == point:
        os._exit(137)


@dataclass(frozen=True)
class BatchResult:
    results: tuple[GateResult, ...]
    commit: str | None
    message: str
    warnings: tuple[str, ...] = field(default=())

    @property
    def written(self) -> list[GateResult]:
        return [r for r in self.results if r.ok]

    @property
    def blocked(self) -> list[GateResult]:
        return [r for r in self.results if r.status == "blocked"]


def _blocked_by_requirement(result: GateResult, required: GateResult) -> GateResult:
    reason = f"not done because {required.write.path} could not be written: {required.reason}"
    return replace(result, status="blocked", reason=reason)


def _with_requirements(checked: list[GateResult]) -> list[GateResult]:
    """Block every write whose required write (same batch) was blocked by the gate."""
    by_path = {r.write.path: r for r in checked}
    out = []
    for r in checked:
        need = by_path.get(r.write.requires) if r.write.requires else None
        if r.ok and r.write.requires and (need is None or not need.ok):
            missing = need or replace(
                r, write=replace(r.write, path=r.write.requires), reason="missing from the batch"
            )
            r = _blocked_by_requirement(r, missing)
        out.append(r)
    return out


class Wiki:
    def __init__(self, home: Home, config: Config | None = None) -> None:
        from wikimem.layout import require_initialised

        self.home = require_initialised(home)  # before anything is read or written
        self.config = config or load_config(home)
        self.memory_dir = home.memory_dir
        self.gate = Gate(self.memory_dir, self.config)
        self._store: Store | None = None

    @property
    def machine(self) -> str:
        from wikimem.sync.identity import machine_name

        return machine_name(self.config)

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.memory_dir, self.config.git)
        return self._store

    # -- reading -------------------------------------------------------------------------------

    def read(self, rel: str) -> str | None:
        return read_current(self.memory_dir, rel)

    def note(self, rel: str) -> Note | None:
        text = self.read(rel)
        return parse_note(rel, text) if text is not None else None

    def paths(self, prefix: str = "") -> list[str]:
        return [p for p in note_paths(self.memory_dir) if p.startswith(prefix)]

    def log(self, n: int = 20, path: str | None = None) -> list[CommitInfo]:
        return self.store.log(n, path)

    # -- writing -------------------------------------------------------------------------------

    def commit_writes(
        self,
        writes: Sequence[MemoryWrite] | Callable[[], Sequence[MemoryWrite]],
        subject: str,
        *,
        body: str = "",
        trailers: Sequence[tuple[str, str]] = (),
        dry_run: bool = False,
        crash: CrashHook = _no_crash,
    ) -> BatchResult:
        with file_lock(self.home.state("memory.lock")):
            if callable(writes):
                # Decided under the lock: what is on disk now is no other writer's half-done batch
                # (`wikimem watch` tells a person's edits from a dream's this way).
                self.recover()
                writes = writes()
            return self._commit_locked(writes, subject, body, trailers, dry_run, crash)

    def _commit_locked(
        self,
        writes: Sequence[MemoryWrite],
        subject: str,
        body: str,
        trailers: Sequence[tuple[str, str]],
        dry_run: bool,
        crash: CrashHook,
    ) -> BatchResult:
        if not dry_run:
            self.recover()
        checked = _with_requirements([self.gate.check(w) for w in writes])
        if dry_run:
            return BatchResult(tuple(checked), None, subject)
        to_write = [r for r in checked if r.ok]
        source = writes[0].source if writes else "unknown"
        self._journal(source, to_write)
        crash("after_journal")
        done: dict[str, GateResult] = {}
        # Writes that others require go first, so a requirement that fails can still stop them.
        for r in sorted(checked, key=lambda r: r.write.requires is not None):
            if r.ok and r.write.requires is not None and not done[r.write.requires].ok:
                r = _blocked_by_requirement(r, done[r.write.requires])
            done[r.write.path] = self.gate.write(r) if r.ok else r
            crash("mid_write")
        results = [done[r.write.path] for r in checked]
        written = [r for r in results if r.ok]
        crash("after_write")
        commit = None
        message = self._message(subject, body, results, trailers, self.machine)
        if written:
            write_index(self.memory_dir)
            paths = [r.write.path for r in written] + ["index.md"]
            commit = self.store.commit(paths, message)
        crash("after_commit")
        self._clear_journal()
        warnings = [w for r in results for w in r.warnings]
        for r in written:
            warnings += self.gate.run_post(r, commit)
        self._after_commit([r.write.path for r in written])
        return BatchResult(tuple(results), commit, message, tuple(warnings))

    def _after_commit(self, paths: list[str]) -> None:
        """Keep the search index in step, so the next prompt finds what was just written."""
        import sqlite3

        from wikimem.recall.index import open_index

        try:
            index = open_index(self.home.state_dir, self.memory_dir)
            try:
                index.refresh(
                    paths=[p for p in paths if os.path.exists(os.path.join(self.memory_dir, p))]
                )
            finally:
                index.close()
        except (sqlite3.Error, OSError):
            pass  # derived data: the next hook or `wikimem search` rebuilds it

    @staticmethod
    def _message(
        subject: str,
        body: str,
        results: Sequence[GateResult],
        trailers: Sequence[tuple[str, str]],
        machine: str = "",
    ) -> str:
        lines = [subject, ""]
        if body:
            lines += [body.rstrip(), ""]
        for r in results:
            if r.ok:
                lines.append(f"- {r.write.operation} {r.write.path}")
        blocked = [r for r in results if r.status == "blocked"]
        if blocked:
            lines += ["", "Blocked by the write gate:"]
            lines += [f"- {r.write.operation} {r.write.path}: {r.reason}" for r in blocked]
        redacted = sorted({k for r in results if r.ok for k in r.redacted})
        sessions = sorted({s for r in results for s in r.write.sessions})
        sources = sorted({r.write.source for r in results})
        lines.append("")
        lines.append(f"Wikimem-Source: {', '.join(sources) or 'unknown'}")
        if machine:
            lines.append(f"Wikimem-Machine: {machine}")  # who wrote it, for a shared remote
        if sessions:
            lines.append(f"Wikimem-Sessions: {', '.join(sessions)}")
        if redacted:
            lines.append(f"Wikimem-Redacted: {', '.join(redacted)}")
        lines += [f"{k}: {v}" for k, v in trailers]
        return "\n".join(lines).strip() + "\n"

    def commit_hand_edits(self, paths: Sequence[str], subject: str, source: str) -> BatchResult:
        """Commit changes a person already made on disk (an editor, Obsidian), each judged by
        the gate as it stands: a secret is redacted (or the change refused), a pre_write
        command may block or rewrite it, an invalid note is refused. Refused changes stay on
        disk, uncommitted, and are reported."""
        with file_lock(self.home.state("memory.lock")):
            self.recover()  # a dream's half-written files are rolled back, never committed
            tracked = set(self.store.repo.git.ls_files("-z").split("\0"))
            results = []
            for rel in paths:
                text = read_current(self.memory_dir, rel)
                operation = "delete" if text is None else ("update" if rel in tracked else "create")
                write = MemoryWrite(rel, operation, text, source, (), content_hash(text))
                result = self.gate.check(write, applied=True)
                if result.ok and text is not None and result.content != text:
                    result = self.gate.write(result)  # redacted, or rewritten by pre_write
                results.append(result)
            written = [r for r in results if r.ok]
            message = self._message(subject, "", results, (), self.machine)
            commit = None
            if written:
                write_index(self.memory_dir)
                commit = self.store.commit([r.write.path for r in written] + ["index.md"], message)
            warnings = [w for r in results for w in r.warnings]
            for r in written:
                warnings += self.gate.run_post(r, commit)
            self._after_commit([r.write.path for r in written])
            return BatchResult(tuple(results), commit, message, tuple(warnings))

    # -- crash recovery ------------------------------------------------------------------------

    def _journal_path(self) -> str:
        return self.home.state(JOURNAL)

    def _journal(self, source: str, to_write: Sequence[GateResult]) -> None:
        entries = []
        for r in to_write:
            old = read_current(self.memory_dir, r.write.path)
            entries.append(
                {
                    "path": r.write.path,
                    # the content itself: rolling back must restore exactly what was on disk,
                    # a person's uncommitted edit included, not merely the last commit
                    "old_content": old,
                    "old": content_hash(old),
                    "new": content_hash(r.content if r.write.operation != "delete" else None),
                }
            )
        atomic_write(
            self._journal_path(), json.dumps({"source": source, "entries": entries}), 0o600
        )

    def _clear_journal(self) -> None:
        try:
            os.unlink(self._journal_path())
        except FileNotFoundError:
            pass

    def recover(self) -> list[str]:
        """Finish or undo a batch a crash interrupted; returns the paths touched."""
        try:
            with open(self._journal_path(), encoding="utf-8") as fh:
                journal = json.load(fh)
        except FileNotFoundError:
            return []
        except ValueError:
            self._clear_journal()
            return []
        touched = []
        if journal.get("source") == "dream":
            # Roll back: the events stay behind the watermark and will be consolidated again.
            for entry in journal.get("entries", []):
                rel = entry["path"]
                current = content_hash(read_current(self.memory_dir, rel))
                if current != entry["new"] or current == entry["old"]:
                    continue  # not ours any more, or nothing to undo
                committed = self.store.file_at(rel) if self.store.has_commits() else None
                if content_hash(committed) == entry["new"]:
                    continue  # the commit was made: its watermark counts these events as done
                target = os.path.join(self.memory_dir, rel)
                old = entry.get("old_content")
                if old is None:
                    try:
                        os.unlink(target)
                    except FileNotFoundError:
                        pass
                else:
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    atomic_write(target, old)
                touched.append(rel)
            if touched:
                write_index(self.memory_dir)
        else:
            # Roll forward: a person's change is worth keeping.
            paths = [e["path"] for e in journal.get("entries", [])]
            if paths:
                write_index(self.memory_dir)
                self.store.commit(
                    [*paths, "index.md"],
                    f"recover: {len(paths)} interrupted write(s)\n\nWikimem-Source: recover",
                )
                touched = paths
        self._clear_journal()
        return touched
