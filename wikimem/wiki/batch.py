"""The wiki as a whole: batches of gated writes, one git commit per batch, index.md kept fresh.

Contract: `commit_writes` takes the memory lock, recovers from a batch a crash interrupted,
journals the batch, passes each write through the gate (blocked writes are reported, the rest
applied), regenerates `index.md`, makes ONE commit whose message says what changed, with the
source and sessions in trailers, runs the post_write commands with the commit's sha, refreshes
the search index, and returns what happened. A crash at any point leaves either the old state
or the new: the journal lets the next batch roll a dream's half-written files back (its events
will be consolidated again) and commit anyone else's (their change is kept). Whether a dream's
batch was committed is decided by its `Wikimem-Batch` trailer, never by file contents: a person
who committed the half-written files by hand has not consolidated those events, so they are
rolled back all the same (and unstaged), and the next dream does the work once.
Before any write, `recover` also clears what killed processes leave: stale git lock files (only
when no live process can own them) and `.wikimem-*.tmp` files; what it did is in
`recovery_notes`, one line each.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from wikimem import boundedfile
from wikimem.capture.redact import clean, scrub
from wikimem.config import Config, load_config
from wikimem.fsutil import atomic_write
from wikimem.home import Home
from wikimem.lock import file_lock
from wikimem.progress import Progress, quiet
from wikimem.wiki.gate import Gate, GateResult, MemoryWrite, content_hash, read_current
from wikimem.wiki.gitstore import CommitInfo, Store
from wikimem.wiki.indexmd import write_index
from wikimem.wiki.notes import Note, parse_note
from wikimem.wiki.pathecho import echo_path
from wikimem.wiki.plainfile import note_paths

JOURNAL = "batch-journal.json"
# Writes of a whole note by the person on this machine: what they leave pinned, they pinned.
PIN_SOURCES = ("edit", "watch", "sync", "pin")
# Who brought a new line, by the write's source, unless the writer declared it
# (`MemoryWrite.origins`; docs/security.md, "Whose each line is"): the person's own verbs and
# hand edits are the person's; an automated writer's lines are its own.
PERSON_VIA = {"remember": "remember", "edit": "edit", "watch": "hand edit", "sync": "hand edit"}
# Writes that change lines without bringing any (the held mark taken off, a value scrubbed): a
# changed line keeps whoever brought it.
KEEP_ORIGIN_SOURCES = ("confirm", "scrub")
BATCH_TRAILER = "Wikimem-Batch"
CrashHook = Callable[[str], None]
# Called with the final results after the files are written and before the commit: a dream
# records what it carries over (parked writes) there, so a crash never loses it.
BeforeCommit = Callable[[Sequence["GateResult"]], None]


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
    return replace(result, status="blocked", reason=reason, retry=required.retry)


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
        from wikimem.wiki import origins, pins

        pins.seed(home.state_dir, home.memory_dir)  # a home from before the list: once
        origins.seed(home.state_dir, home.memory_dir)  # and before the record of who said what
        self.memory_dir = home.memory_dir
        self.gate = Gate(self.memory_dir, self.config)
        self._store: Store | None = None
        self.recovery_notes: list[str] = []

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
        subject: str | Callable[[Sequence[GateResult]], str],
        *,
        body: str | Callable[[Sequence[GateResult]], str] = "",
        trailers: Sequence[tuple[str, str]] = (),
        dry_run: bool = False,
        crash: CrashHook = _no_crash,
        before_commit: BeforeCommit | None = None,
        progress: Progress = quiet,
    ) -> BatchResult:
        with file_lock(self.home.state("memory.lock")):
            if callable(writes):
                # Decided under the lock: what is on disk now is no other writer's half-done batch
                # (`wikimem watch` tells a person's edits from a dream's this way).
                self.recover()
                writes = writes()
            return self._commit_locked(
                writes, subject, body, trailers, dry_run, crash, before_commit, progress
            )

    def _commit_locked(
        self,
        writes: Sequence[MemoryWrite],
        subject: str | Callable[[Sequence[GateResult]], str],
        body: str | Callable[[Sequence[GateResult]], str],
        trailers: Sequence[tuple[str, str]],
        dry_run: bool,
        crash: CrashHook,
        before_commit: BeforeCommit | None = None,
        progress: Progress = quiet,
    ) -> BatchResult:
        if not dry_run:
            self.recover()
        self.gate.new_batch()
        what = "checking notes through the write gate"
        judged = []
        for i, w in enumerate(writes):
            if i % 20 == 0:
                progress(what, i, len(writes))
            judged.append(self.gate.check(w))
        checked = _with_requirements(judged)
        if dry_run:
            return BatchResult(
                tuple(checked), None, subject(checked) if callable(subject) else subject
            )
        to_write = [r for r in checked if r.ok]
        source = writes[0].source if writes else "unknown"
        batch_id = uuid.uuid4().hex[:16]
        trailers = [*trailers, (BATCH_TRAILER, batch_id)]
        befores = self._journal(source, to_write, batch_id)
        crash("after_journal")
        done: dict[str, GateResult] = {}
        # Writes that others require go first, so a requirement that fails can still stop them.
        for i, r in enumerate(sorted(checked, key=lambda r: r.write.requires is not None)):
            if i % 20 == 0:
                progress("writing notes", i, len(checked))
            if r.ok and r.write.requires is not None and not done[r.write.requires].ok:
                r = _blocked_by_requirement(r, done[r.write.requires])
            done[r.write.path] = self.gate.write(r) if r.ok else r
            crash("mid_write")
        results = [done[r.write.path] for r in checked]
        written = [r for r in results if r.ok]
        crash("after_write")
        if before_commit is not None:
            before_commit(results)
            crash("after_before_commit")
        commit = None
        text = body(results) if callable(body) else body  # may say what was written
        head = subject(results) if callable(subject) else subject  # may count what was written
        message = self._message(head, text, results, trailers, self.machine)
        self._record_origins(written, befores)
        if written:
            progress("committing to git", len(written), None)
            write_index(self.memory_dir, fresh=[r.write.path for r in written])
            paths = [r.write.path for r in written] + ["index.md"]
            commit = self.store.commit(paths, message)
        crash("after_commit")
        self._clear_journal()
        warnings = [w for r in results for w in r.warnings]
        for r in written:
            warnings += self.gate.run_post(r, commit)
        self._record_pins(written)
        if written:
            progress("updating the search index", len(written), None)
        self._after_commit([r.write.path for r in written])
        return BatchResult(tuple(results), commit, message, tuple(warnings))

    def _record_pins(self, written: Sequence[GateResult]) -> None:
        """A pin a person set or kept in a note they changed whole here (`edit`, a hand edit
        committed by `watch` or `sync`, `wikimem pin`) is one this machine honours; a deleted or
        unpinned note's pin is dropped (`wikimem.wiki.pins`). `remember` folds one statement
        into a note and says nothing about its pin; automated writers never change one (the
        gate refuses it)."""
        from wikimem.wiki import pins
        from wikimem.wiki.gate import is_pinned

        pinned, unpinned = set(), set()
        lines: dict[str, list[str]] = {}
        for r in written:
            if r.write.operation == "delete":
                unpinned.add(r.write.path)
            elif r.write.source not in PIN_SOURCES:
                continue
            elif is_pinned(r.content):
                pinned.add(r.write.path)
                lines[r.write.path] = pins.keys_of(r.content)  # what they pinned: all of it
            else:
                unpinned.add(r.write.path)
        if pinned or unpinned:
            try:
                pins.record(self.home.state_dir, pinned, unpinned, lines=lines)
            except OSError:
                pass  # state/ unwritable: the note stays unpinned here until the next write

    def _record_origins(
        self, written: Sequence[GateResult], befores: dict[str, str | None]
    ) -> None:
        """Record who brought each line the batch added (`wikimem.wiki.origins`): a line that
        was there keeps its record; a new one gets what its writer declared, else the default
        of the write's source; a note moved keeps its lines' records. Before the commit and the
        re-index, so the index never vets a new line as nobody's once its writer is known."""
        from wikimem.wiki import origins
        from wikimem.wiki.notes import now_utc

        today = now_utc()[:10]
        moved = {r.write.requires: r.write.path for r in written if r.write.requires}
        changes: dict[str, dict[str, str] | None] = {}
        for r in written:
            w = r.write
            before = befores.get(w.path)
            if w.on_disk:  # a hand edit is on disk already: what it changed is against HEAD
                before = self.store.file_at(w.path) if self.store.has_commits() else None
            after = None if w.operation == "delete" else r.content
            old = origins.load_note(self.home.state_dir, w.path)
            declared = dict(w.origins)
            if w.path in moved:
                declared = {**origins.load_note(self.home.state_dir, moved[w.path]), **declared}
            if w.source in KEEP_ORIGIN_SOURCES:
                declared = {**origins.inherited(old, before, after), **declared}
            changes[w.path] = origins.new_map(
                old, before, after, declared, _default_origin(w.source, today)
            )
        if not changes:
            return
        try:
            origins.save(self.home.state_dir, changes)
        except OSError:
            pass  # state/ unwritable: the new lines are nobody's here, which is safe

    def reindex(self, paths: list[str]) -> None:
        self._after_commit(paths)

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
            if r.ok and r.write.source == "scrub" and r.write.operation == "delete":
                # the old path holds the value scrub removes: named by where the note went
                lines.append(f"- delete the note moved to {r.write.requires}")
            elif r.ok:
                lines.append(f"- {r.write.operation} {r.write.path}")
        blocked = [r for r in results if r.status == "blocked"]
        if blocked:
            # What a writer proposed is echoed on one line, capped, secrets redacted: a rejected
            # path can neither leak a token into history nor forge a trailer line.
            lines += ["", "Blocked by the write gate:"]
            lines += [
                f"- {r.write.operation} {echo_path(r.write.path)}: {scrub(r.reason)}"
                for r in blocked
            ]
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
        return clean("\n".join(lines).strip()) + "\n"

    def commit_hand_edits(self, paths: Sequence[str], subject: str, source: str) -> BatchResult:
        """Commit changes a person already made on disk (an editor, Obsidian), each judged by
        the gate as it stands: a secret is redacted (or the change refused), a pre_write
        command may block or rewrite it, an invalid note is refused. Refused changes stay on
        disk, uncommitted, and are reported. A `conflict: true` left on a note whose markers
        the person removed is removed with them, and `updated:` says when the file was changed
        (`wikimem.wiki.editstamp`)."""
        from wikimem.sync.merge import without_stale_flag
        from wikimem.wiki.editstamp import stamp_hand_edit

        with file_lock(self.home.state("memory.lock")):
            self.recover()  # a dream's half-written files are rolled back, never committed
            tracked = self.store.tracked()
            results = []
            for rel in paths:
                text = read_current(self.memory_dir, rel)
                operation = "delete" if text is None else ("update" if rel in tracked else "create")
                # a conflict whose markers the person removed: its flag goes with them; the edit
                # carries the time it was made, not this commit's (sync conflicts go by it)
                proposed = None
                if text is not None:
                    committed = self.store.file_at(rel) if rel in tracked else None
                    stamped = stamp_hand_edit(self.memory_dir, rel, text, committed)
                    proposed = without_stale_flag(rel, stamped)
                write = MemoryWrite(rel, operation, proposed, source, (), content_hash(text))
                result = self.gate.check(write, applied=True)
                if result.ok and text is not None and result.content != text:
                    result = self.gate.write(result)  # redacted, or rewritten by pre_write
                results.append(result)
            written = [r for r in results if r.ok]
            message = self._message(subject, "", results, (), self.machine)
            commit = None
            has_commits = self.store.has_commits()
            heads = {
                r.write.path: self.store.file_at(r.write.path) if has_commits else None
                for r in written
            }
            self._record_origins(written, heads)
            if written:
                write_index(self.memory_dir, fresh=[r.write.path for r in written])
                commit = self.store.commit([r.write.path for r in written] + ["index.md"], message)
            warnings = [w for r in results for w in r.warnings]
            for r in written:
                warnings += self.gate.run_post(r, commit)
            self._record_pins(written)
            self._after_commit([r.write.path for r in written])
            return BatchResult(tuple(results), commit, message, tuple(warnings))

    # -- crash recovery ------------------------------------------------------------------------

    def _journal_path(self) -> str:
        return self.home.state(JOURNAL)

    def _journal(
        self, source: str, to_write: Sequence[GateResult], batch_id: str
    ) -> dict[str, str | None]:
        """Journal the batch; returns what each path held before it."""
        entries = []
        befores: dict[str, str | None] = {}
        for r in to_write:
            old = read_current(self.memory_dir, r.write.path)
            befores[r.write.path] = old
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
            self._journal_path(),
            json.dumps({"source": source, "batch": batch_id, "entries": entries}),
            0o600,
        )
        return befores

    def _clear_journal(self) -> None:
        try:
            os.unlink(self._journal_path())
        except FileNotFoundError:
            pass

    def recover(self) -> list[str]:
        """Finish or undo a batch a crash interrupted; returns the paths touched. Call it with
        the memory lock held."""
        self.recovery_notes = []
        store = self.store
        store.require_branch()  # no write, and no dream's events consumed, on a detached HEAD
        store.prepare()
        removed = store.clear_stale_locks()  # GitLocked (one line) when a live git holds one
        if removed:
            self.recovery_notes.append(
                f"removed {', '.join(removed)} left in memory/.git by a git process that was killed"
            )
        temps = store.temp_files()
        for rel in temps:
            try:
                os.unlink(os.path.join(self.memory_dir, rel))
            except OSError:
                pass
        if temps:
            self.recovery_notes.append(
                f"removed {len(temps)} temp file(s) a killed write left in memory/"
            )
        try:
            journal = json.loads(boundedfile.read_text(self._journal_path()))
            if not isinstance(journal, dict) or not isinstance(journal.get("entries"), list):
                raise ValueError("not a journal")
        except FileNotFoundError:
            return []
        except (ValueError, UnicodeDecodeError, boundedfile.Refused):
            aside = self._journal_path() + ".corrupt"
            os.replace(self._journal_path(), aside)
            self.recovery_notes.append(
                f"the journal of an interrupted write was unreadable and is kept at {aside}; "
                f"review `git -C {self.memory_dir} status` before committing anything by hand"
            )
            return []
        touched: list[str] = []
        entries = [e for e in journal["entries"] if isinstance(e, dict)]
        if journal.get("source") == "dream":
            touched = self._roll_back(journal, entries)
        else:
            # Roll forward: a person's change is worth keeping.
            paths = [str(e.get("path")) for e in entries if _plain_path(e.get("path"))]
            if paths:
                write_index(self.memory_dir, fresh=paths)
                store.commit(
                    [*paths, "index.md"],
                    f"recover: {len(paths)} interrupted write(s)\n\nWikimem-Source: recover",
                )
                touched = paths
                self.recovery_notes.append(
                    f"committed {len(paths)} write(s) an interrupted `{journal.get('source')}` made"
                )
        self._clear_journal()
        return touched

    def _committed(self, batch_id: object) -> bool | None:
        """Whether the batch's commit exists (None: an old journal without an id)."""
        if not isinstance(batch_id, str) or not batch_id:
            return None
        return any(v == batch_id for _, v in self.store.trailer_values(BATCH_TRAILER, n=50))

    def _roll_back(self, journal: dict[str, object], entries: list[dict[str, object]]) -> list[str]:
        """Undo a dream's half-done batch: its events are still behind the watermark and will
        be consolidated again, so what it wrote must go, even if someone committed it since."""
        committed = self._committed(journal.get("batch"))
        if committed:
            return []  # the commit was made: its watermark counts these events as done
        touched = []
        for entry in entries:
            rel = entry.get("path")
            if not _plain_path(rel):
                continue
            assert isinstance(rel, str)
            try:
                current = content_hash(read_current(self.memory_dir, rel))
                if current != entry.get("new") or current == entry.get("old"):
                    continue  # not ours any more, or nothing to undo
                # An old journal without a batch id: judged by the last commit, as before.
                if (
                    committed is None
                    and self.store.has_commits()
                    and content_hash(self.store.file_at(rel)) == entry.get("new")
                ):
                    continue
                target = os.path.join(self.memory_dir, rel)
                old = entry.get("old_content")
                if not isinstance(old, str):
                    try:
                        os.unlink(target)
                    except FileNotFoundError:
                        pass
                else:
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    atomic_write(target, old)
            except OSError as exc:
                self.recovery_notes.append(f"could not roll back {rel}: {exc.strerror or exc}")
                continue
            touched.append(rel)
            _no_crash("mid_rollback")
        if touched:
            write_index(self.memory_dir)
            # git's index too: a crash between `git add` and `git commit` left them staged
            self.store.unstage([*touched, "index.md"])
            self.recovery_notes.append(
                f"rolled back {len(touched)} file(s) an interrupted dream had written; "
                "its events will be consolidated again"
            )
        return touched


def _default_origin(source: str, today: str) -> str | None:
    from wikimem.wiki import origins

    if source in PERSON_VIA:
        return origins.code(origins.PERSON, PERSON_VIA[source], today)
    if source == "dream":
        return origins.code(origins.SESSION, "dream", today)
    if source == "mcp":
        return origins.code(origins.MCP, "mcp", today)
    if source == "import":
        return origins.code(origins.IMPORT, "", today)
    return None  # pin, confirm, scrub, forget, recover: they bring no line of their own


def _plain_path(value: object) -> bool:
    """A journal entry's path is used only when it is a relative path inside memory/."""
    return (
        isinstance(value, str)
        and bool(value)
        and "\0" not in value
        and not value.startswith("/")
        and ".." not in value.split("/")
    )
