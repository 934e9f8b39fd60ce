"""`wikimem dream`: consolidate the events since the watermark into the wiki.

Contract:
  - Only one dream runs at a time (`state/dream.lock`): a second exits at once with `DreamBusy`.
  - Events after the watermark are read in append order, in chunks (by rendered size for model
    backends, by count offline), grouped by project and session; each chunk goes to the backend
    with the notes as they stand after the previous chunks (an in-memory overlay), so a prompt
    never grows with the wiki. Sessions in which nothing happened (they only started or ended:
    no prompt, no tool run, no answer) never create a project's first note, nor count as
    sessions dreamt.
  - The operations are validated (invalid ones rejected and reported), turned into gated
    `MemoryWrite`s and committed ONCE, with the watermark in a trailer; only then does
    `state/watermark.json` move. A crash anywhere leaves old or new state, and the next run
    finishes the job without duplicates (the wiki's journal rolls half-written dream files back).
  - `dry_run` computes and gate-checks everything, returns the diff, and changes nothing.

Bad days (docs/reliability.md): every record is checked at this edge; one that no dream can use
(a session id with a NUL, …) is quarantined with its reason, never in the way of the others, and
an over-long project name is cut as capture now cuts it. Each project's share of a chunk is
consolidated on its own: a backend failure defers those records to the next dream (quarantined
after `carry.MAX_ATTEMPTS`), an unexpected error is narrowed down to the records that cause it,
which are quarantined; the rest of the dream proceeds and the watermark moves over all of it.
Only when nothing at all could be consolidated does a backend failure fail the dream (and
change nothing). A model may write only inside its chunk's project, `profile/`, `general/` and
`tools/`, at most `MAX_OPERATIONS` operations an answer, and never (un)pins a note. Writes the
gate blocks for a reason that may pass later are parked and retried by the next dream
(`wikimem.dream.carry`).

The model path (docs/dream-backends.md): a model backend is called through
`wikimem.dream.backends.Metered` (the day's caps, the prompt redacted, usage counted). When the
model is unavailable (`BackendUnavailable`: unreachable, refused, over the cap) that chunk and the
rest of the dream are consolidated by the offline rules, and the chunks are kept for a later
dream whose model answers, which sends them to it once (before its new events, without writing
their digests again). An answer that must not be applied (`AnswerRefused`, or one whose every
operation was rejected) sends its chunk to the offline rules too, not to be revisited. The result
says how many chunks ran where and why (`DreamResult.fallback_line`), and `state/dream-last.json`
keeps it for `wikimem status`.
"""

from __future__ import annotations

import difflib
import os
import sqlite3
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from wikimem.capture.events import file_id, list_files
from wikimem.capture.project import bounded, slugify
from wikimem.capture.redact import scrub
from wikimem.config import Config, load_config
from wikimem.dream import BACKENDS, digest, lastrun
from wikimem.dream import carry as carrying
from wikimem.dream.backends import Metered, describe, select_backend
from wikimem.dream.base import (
    AnswerRefused,
    Backend,
    BackendError,
    BackendUnavailable,
    DreamRequest,
    Proposal,
    SessionEvents,
)
from wikimem.dream.carry import Carry, Deferred, Parked
from wikimem.dream.claims import hold_new
from wikimem.dream.guard import ChunkGuard
from wikimem.dream.offline import OfflineBackend, digest_operations
from wikimem.dream.ops import About, ClaimOp, Delete, Move, Operation, Retract, Upsert
from wikimem.dream.prompt import CatalogEntry, Search, build_prompt
from wikimem.dream.reader import Damaged, damage_report, new_events, pending_count
from wikimem.dream.render import render_event
from wikimem.dream.usage import Meter
from wikimem.dream.watermark import (
    TRAILER,
    Watermark,
    from_trailer,
    load_state,
    machine_id,
    save_state,
    state_problem,
)
from wikimem.errors import WikimemError
from wikimem.home import Home
from wikimem.lock import LockBusy, file_lock
from wikimem.progress import Progress, quiet
from wikimem.recall.index import Index, open_index
from wikimem.sync.reconcile import reconcile_flagged
from wikimem.wiki import notemeta, origins, plainfile
from wikimem.wiki.batch import Wiki
from wikimem.wiki.gate import GateResult, MemoryWrite, content_hash, read_current
from wikimem.wiki.notes import (
    Note,
    NoteError,
    new_note,
    now_utc,
    parse_note,
    project_of,
    render_note,
)
from wikimem.wiki.pathecho import echo_path, echo_reason
from wikimem.wiki.plainfile import note_paths

OFFLINE_CHUNK_EVENTS = 5000
MAX_OPERATIONS = 200  # per answer: more is a flood, not a consolidation
MAX_CONSECUTIVE_FAILURES = 3  # backend failures in a row before this dream stops asking
MAX_LISTED = 50  # rejected operations named in a commit message
MAX_SESSION_CHARS = 256
Positioned = tuple[str, int, dict[str, Any]]  # (events file, end offset, record)


class DreamBusy(WikimemError):
    """Another dream is running."""


def _crash_point(point: str) -> None:
    if os.environ.get("WIKIMEM_CRASH_AT") == point:
        os._exit(137)


@dataclass
class DreamResult:
    backend: str
    events: int = 0
    sessions: list[str] = field(default_factory=list)
    projects: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    blocked: list[tuple[str, str]] = field(default_factory=list)
    parked: list[tuple[str, str]] = field(default_factory=list)
    deferred: list[tuple[str, int, str]] = field(default_factory=list)  # project, events, why
    quarantined: list[tuple[str, str]] = field(default_factory=list)  # where, why
    recovered: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    settled: list[tuple[str, str]] = field(default_factory=list)  # sync conflicts: path, how
    commit: str | None = None
    dry_run: bool = False
    diff: str = ""
    prompt_chars: list[int] = field(default_factory=list)
    seconds: float = 0.0
    # the model path: chunks the model consolidated, chunks that ran offline instead and why
    model_chunks: int = 0
    offline_chunks: int = 0
    fallback: list[str] = field(default_factory=list)
    revisited: int = 0  # records an earlier fall-back left, now seen by the model
    revisit_pending: int = 0  # records still waiting for the model
    prompts: list[str] = field(default_factory=list)  # --show-prompt: what would be sent

    def as_dict(self) -> dict[str, Any]:
        hidden = {"diff"} if not self.dry_run else set()
        if not self.prompts:
            hidden.add("prompts")
        return {k: v for k, v in self.__dict__.items() if k not in hidden}

    def fallback_line(self) -> str | None:
        """The one line that says a model dream ran (partly) offline, and why."""
        if not self.fallback:
            return None
        chunks = self.model_chunks + self.offline_chunks
        reason = self.fallback[0]
        if reason.startswith(f"{self.backend}: "):
            reason = reason[len(self.backend) + 2 :]
        more = f" (and {len(self.fallback) - 1} other reason(s))" if len(self.fallback) > 1 else ""
        return (
            f"{self.backend}: {self.offline_chunks} of {chunks} chunk(s) consolidated offline: "
            f"{reason}{more}"
        )


class Overlay:
    """The wiki as it will be after this dream: notes changed so far, over what is on disk."""

    def __init__(self, memory_dir: str, max_bytes: int | None = None) -> None:
        self.memory_dir = memory_dir
        # A note over the size limit is not read (`wikimem.wiki.vetting`): to the dream it is not
        # there, and a write to its path is refused by the gate.
        self.max_bytes = max_bytes
        self.changed: dict[str, Note | None] = {}
        self.disk: dict[str, str | None] = {}
        self.moved_to: dict[str, str] = {}  # from path -> to path
        self.listed: dict[str, frozenset[str]] = {}
        # folder -> {changed path under it: still there}: `under` is asked thousands of times
        # a dream, and walking every changed note for each ask cost a tenth of its time
        self.changed_under: dict[str, dict[str, bool]] = {}
        # who brought each line this dream added, per note (`wikimem.wiki.origins`); lines
        # not named here get the dream's default (wikimem's record of sessions)
        self.origins: dict[str, dict[str, str]] = {}

    def disk_text(self, path: str) -> str | None:
        if path not in self.disk:
            self.disk[path] = read_current(self.memory_dir, path, self.max_bytes)
        return self.disk[path]

    def read(self, path: str) -> str | None:
        if path in self.changed:
            note = self.changed[path]
            return render_note(note) if note is not None else None
        return self.disk_text(path)

    def under(self, prefix: str) -> list[str]:
        """Note paths under `prefix` (a folder ending in /), as the wiki will be."""
        if prefix not in self.listed:  # the disk does not change while the dream runs
            on_disk: set[str] = set()
            base = os.path.join(self.memory_dir, prefix)
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = [d for d in dirnames if not d.startswith(".")]
                rel_dir = os.path.relpath(dirpath, self.memory_dir).replace(os.sep, "/")
                for name in filenames:
                    if name.endswith(".md") and not name.startswith("."):
                        on_disk.add(f"{rel_dir}/{name}" if rel_dir != "." else name)
            self.listed[prefix] = frozenset(on_disk)
        found = set(self.listed[prefix])
        for path, there in self.changed_under.get(prefix, {}).items():
            if there:
                found.add(path)
            else:
                found.discard(path)
        return sorted(found)

    def change(self, path: str, note: Note | None) -> None:
        self.changed[path] = note
        folder = path.rpartition("/")[0]
        while folder:
            self.changed_under.setdefault(f"{folder}/", {})[path] = note is not None
            folder = folder.rpartition("/")[0]
        self.changed_under.setdefault("", {})[path] = note is not None

    def note(self, path: str) -> Note | None:
        if path in self.changed:
            return self.changed[path]
        text = self.disk_text(path)
        return parse_note(path, text) if text is not None else None

    def _said(self, path: str, before: str, after: str, origin: str | None) -> None:
        if origin is not None:
            self.origins.setdefault(path, {}).update(origins.added(before, after, origin))

    def apply(
        self,
        op: Operation,
        stamp: str,
        guard: ChunkGuard | None = None,
        origin: str | None = None,
    ) -> str | None:
        """Apply one operation; the reason it cannot be applied, or None. `origin`: who the
        lines it adds came from (a model, `wikimem.wiki.origins`), unless the operation says
        it per line (the offline rules do, claim by claim)."""
        try:
            if isinstance(op, ClaimOp | Retract):
                if guard is None:
                    return f"{op.op} {op.path}: claim operations need a chunk to come from"
                if isinstance(op, ClaimOp):
                    before = self.note(op.path)
                    guard.apply_claim(self, op, stamp)
                    after = self.note(op.path)
                    self._said(
                        op.path,
                        before.body if before else "",
                        after.body if after else "",
                        origin,
                    )
                    return None
                return guard.apply_retract(self, op, stamp)
            if isinstance(op, Upsert):
                existing = self.note(op.path)
                body = op.body
                if origin is not None:  # a model's lines say nothing of who said them
                    body = _without_imitations(body, existing.body if existing else "")
                # A new claim that has an agent run code fetched from the network waits for the
                # person (docs/security.md); one they confirmed is left alone.
                op = replace(op, body=hold_new(body, existing.body if existing else ""))
                before_body = existing.body if existing else ""
                if op.origins:
                    declared = dict(op.origins)
                    added = origins.added(before_body, op.body, "")
                    self.origins.setdefault(op.path, {}).update(
                        {k: declared[k] for k in added if k in declared}
                    )
                self._said(op.path, before_body, op.body, origin)
                # Pinning is a person's call: a dream keeps whatever the note had (gate rule too).
                if existing is None:
                    note = new_note(
                        op.path,
                        op.title,
                        op.body,
                        kind=op.kind,
                        tags=op.tags,
                        sources=op.sources,
                    )
                else:
                    sources = tuple(dict.fromkeys([*existing.sources, *op.sources]))[-12:]
                    note = existing.with_changes(
                        title=op.title,
                        kind=op.kind,
                        body=op.body,
                        tags=op.tags or existing.tags,
                        sources=sources,
                        updated=stamp,
                    )
                self.change(op.path, note)
            elif isinstance(op, Delete):
                if self.read(op.path) is None:
                    return f"delete {op.path}: no such note"
                self.change(op.path, None)
            elif isinstance(op, Move):
                source = self.note(op.from_path)
                if source is None:
                    return f"move {op.from_path}: no such note"
                if self.read(op.to_path) is not None:
                    return f"move to {op.to_path}: a note is already there"
                self.change(op.to_path, source.with_changes(path=op.to_path, updated=stamp))
                self.change(op.from_path, None)
                self.moved_to[op.from_path] = op.to_path
                if op.from_path in self.origins:
                    self.origins[op.to_path] = self.origins.pop(op.from_path)
        except NoteError as exc:
            return f"{exc} (the note on disk is malformed; fix it by hand first)"
        return None

    def unpark(self, parked: Parked) -> str | None:
        """Take a parked write back in; the reason it stays parked, or None."""
        disk = self.disk_text(parked.path)
        if disk == parked.content:
            return None  # it landed after all (a crash after the commit): nothing left to do
        if disk == parked.base:
            target = parked.content
        elif parked.content is None or parked.base is None or disk is None:
            return f"{parked.path} changed since the write was parked; review it by hand"
        else:
            target = carrying.merge3(disk, parked.base, parked.content)
            if target is None:
                return f"{parked.path} changed since the write was parked and the two conflict"
        try:
            self.change(
                parked.path, parse_note(parked.path, target) if target is not None else None
            )
        except NoteError as exc:
            return str(exc)
        if parked.requires:
            self.moved_to[parked.path] = parked.requires
        return None

    def writes(self, sessions: tuple[str, ...]) -> list[MemoryWrite]:
        out = []
        for path, note in sorted(self.changed.items()):
            before = self.disk_text(path)
            after = render_note(note) if note is not None else None
            if before == after or (before is None and after is None):
                continue
            operation = "delete" if after is None else ("create" if before is None else "update")
            requires = self.moved_to.get(path) if operation == "delete" else None
            if requires is not None and self.changed.get(requires) is None:
                requires = None  # the destination was deleted again later in the dream
            out.append(
                MemoryWrite(
                    path,
                    operation,
                    after,
                    "dream",
                    sessions,
                    content_hash(before),
                    requires,
                    origins=tuple(self.origins.get(path, {}).items()),
                )
            )
        return out


def _without_imitations(body: str, before: str) -> str:
    """A model's body whose new lines carry no provenance that would say the person said
    them (who brought a line is recorded, `wikimem.wiki.origins`)."""
    old = set(before.split("\n"))
    return "\n".join(
        line if line in old else origins.strip_person_tails(line) for line in body.split("\n")
    )


def current_watermark(home: Home, wiki: Wiki) -> Watermark:
    """The newer of state/watermark.json and this machine's latest consolidation trailer."""
    mark = load_state(home)
    machine = machine_id(home)
    if wiki.store.has_commits():
        for _, value in wiki.store.trailer_values(TRAILER):
            from_commit = from_trailer(value, machine)
            if from_commit is not None:
                return mark.merged(from_commit)
    return mark


def catalog_of(memory_dir: str, max_bytes: int | None = None) -> dict[str, str]:
    out = {}
    for rel in note_paths(memory_dir):
        text = plainfile.read_text(memory_dir, rel, limit=max_bytes)
        if text is None:
            continue
        meta, _ = notemeta.read_meta(text[:4096])
        out[rel] = str(meta.get("title") or rel)
    return out


def _chunks(
    events: Iterable[Positioned], by_chars: int | None
) -> Iterable[tuple[list[Positioned], dict[str, int]]]:
    """Consecutive records with the offsets reached after them, bounded by rendered size (model
    backends) or by count (offline)."""
    chunk: list[Positioned] = []
    offsets: dict[str, int] = {}
    size = 0
    for name, end, record in events:
        chunk.append((name, end, record))
        offsets[name] = end
        if by_chars is None:
            full = len(chunk) >= OFFLINE_CHUNK_EVENTS
        else:
            try:
                line = render_event(record)
            except Exception:  # a record the renderer chokes on is dealt with per group
                line = ""
            size += len(line) + 1 if line else 0
            full = size >= by_chars
        if full:
            yield chunk, dict(offsets)
            chunk, size = [], 0
    if chunk or offsets:
        yield chunk, dict(offsets)


def record_problem(record: dict[str, Any]) -> str | None:
    """Why no dream can use this record (None: it is fine)."""
    for key, limit in (("session", MAX_SESSION_CHARS), ("client", 64)):
        value = record.get(key)
        if not isinstance(value, str) or not value.strip():
            return f"no {key} id"
        if len(value) > limit:
            return f"its {key} id is {len(value)} characters long (at most {limit})"
        if not value.isprintable():
            return f"its {key} id holds control characters (a NUL or a line break)"
    return None


def repaired(record: dict[str, Any]) -> dict[str, Any]:
    """The record with a project name a folder can have (capture cuts long names the same way)."""
    project = record.get("project")
    slug = bounded(slugify(project)) if isinstance(project, str) else ""
    slug = slug or "unknown"
    return record if slug == project else {**record, "project": slug}


# Events that say something happened; a session with none of them (a start, an end, a stop
# without an answer) has nothing to consolidate.
_SUBSTANCE = frozenset({"UserPromptSubmit", "PostToolUse", "PostToolUseFailure"})


def _idle(s: SessionEvents) -> bool:
    """Whether nothing happened in the session's events: no prompt, no tool run, no answer, no
    compaction summary (it only started, stopped or ended)."""
    return not any(r.get("event") in _SUBSTANCE for r in s.events) and not digest.turns_of(s.events)


def _group(records: list[dict[str, Any]]) -> dict[str, list[SessionEvents]]:
    by_session: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in records:
        if not isinstance(r.get("session"), str):
            continue
        key = (str(r.get("project") or "unknown"), str(r.get("client") or "unknown"), r["session"])
        by_session.setdefault(key, []).append(r)
    grouped: dict[str, list[SessionEvents]] = {}
    for (project, client, session), recs in by_session.items():
        grouped.setdefault(project, []).append(SessionEvents(client, session, project, tuple(recs)))
    return grouped


def run_dream(
    home: Home,
    backend: Backend | None = None,
    *,
    backend_name: str | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
    search: Search | None = None,
    config: Config | None = None,
    drop_parked: bool = False,
    show_prompt: bool = False,
) -> DreamResult:
    """`show_prompt` (with `dry_run`): the model is not called; the result's `prompts` hold,
    per chunk, exactly what would be sent."""
    config = config or load_config(home)
    backend = backend or select_backend(backend_name or config.dream.backend, config)
    dry_run = dry_run or show_prompt
    try:
        with file_lock(
            home.state("dream.lock"), timeout=0, what="the wiki (a dream is already running)"
        ):
            result = _run_locked(
                home,
                config,
                backend,
                dry_run,
                progress,
                search,
                drop_parked=drop_parked,
                show_prompt=show_prompt,
            )
            if result.commit and not dry_run:
                from wikimem.export.files import refresh_after_dream

                # the instruction files export is enabled in say what the notes now say
                result.warnings.extend(refresh_after_dream(home))
            return result
    except LockBusy:
        raise DreamBusy(
            "a dream is already running; this one exits without doing anything"
        ) from None


def dream_ids(wiki: Wiki, n: int = 200) -> set[str]:
    if not wiki.store.has_commits():
        return set()
    return {v for _, v in wiki.store.trailer_values(carrying.DREAM_TRAILER, n)}


class _Pass:
    """One dream's consolidation: each project's share of a chunk goes to the backend on its
    own, so that one failure or one poisoned record costs only itself."""

    def __init__(
        self,
        backend: Backend,
        config: Config,
        overlay: Overlay,
        result: DreamResult,
        catalog: dict[str, str],
        search: Search | None,
        today: str,
        stamp: str,
    ) -> None:
        self.backend = backend
        self.config = config
        self.overlay = overlay
        self.result = result
        self.catalog = catalog
        self.search = search
        self.today = today
        self.stamp = stamp
        self.sessions: dict[str, None] = {}
        self.projects: dict[str, None] = {}
        self.deferred: list[Deferred] = []
        self.quarantine: list[dict[str, Any]] = []
        self.successes = 0
        self.in_a_row = 0
        self.first_error: BackendError | None = None
        self.gave_up = False  # some records were quarantined after repeated backend failures
        self.faulty_requests = 0  # chunks whose own request failed (deferred, not fatal)
        self.offline = OfflineBackend()
        self.revisit: list[Deferred] = []  # consolidated offline now, for the model later

    @property
    def stopped(self) -> bool:
        return self.in_a_row >= MAX_CONSECUTIVE_FAILURES

    def quarantine_record(self, where: str, record: dict[str, Any], reason: str) -> None:
        self.quarantine.append({"key": where, "ts": self.stamp, "reason": reason, "record": record})
        self.result.quarantined.append((where, reason))

    def consolidate(
        self,
        project: str,
        records: list[dict[str, Any]],
        before: Deferred | None = None,
        *,
        revisit: Deferred | None = None,
    ) -> None:
        attempts = before.attempts if before else 0
        if self.stopped:
            reason = f"not tried: the backend failed {MAX_CONSECUTIVE_FAILURES} times in a row"
            self._defer(project, records, reason, attempts, before)
            return
        try:
            proposal, request, guard = self._propose(project, records, revisit)
        except BackendUnavailable as exc:
            # The model cannot be used now: offline for this chunk (and, through Metered, the
            # rest of the dream); the model sees these events later.
            if revisit is not None:
                self.revisit.append(revisit)  # done offline already: it waits for the model
                return
            self._offline(project, records, str(exc), queue=True)
            return
        except AnswerRefused as exc:
            if revisit is None:
                self._offline(project, records, str(exc), queue=False)
            else:
                self._note_fallback(str(exc))
            return
        except BackendError as exc:
            if revisit is not None:
                self.revisit.append(revisit)
                return
            if not exc.request_fault:  # the backend itself is down: count towards giving up
                self.in_a_row += 1
                self.first_error = self.first_error or exc
            else:
                self.faulty_requests += 1
            self._defer(project, records, str(exc), attempts + 1, before)
            return
        except Exception as exc:  # a poisoned record, or a bug: narrow it down
            if revisit is not None:
                return  # its records were consolidated once already: let them go
            if len(records) > 1:
                half = len(records) // 2
                self.consolidate(project, records[:half], before)
                self.consolidate(project, records[half:], before)
                return
            where = f"{records[0].get('client')}:{records[0].get('session')!r:.40}@{records[0].get('ts')}"
            self.quarantine_record(where, records[0], f"{exc.__class__.__name__}: {exc}")
            return
        self.in_a_row = 0
        self.successes += 1
        if guard is not None and not proposal.operations and proposal.rejected:
            # Nothing of the model's answer could be applied (malformed, hostile): the answer is
            # refused, said why, and the chunk consolidated by the offline rules instead.
            self.result.notes.extend(proposal.notes)
            self.result.rejected.extend((r.path, r.reason) for r in proposal.rejected)
            why = f"the model's answer was refused ({proposal.rejected[0].reason})"
            if revisit is None:
                self._offline(project, records, why, queue=False)
            else:
                self._note_fallback(why)
            return
        if guard is not None:
            self.result.model_chunks += 1
            if revisit is not None:
                self.result.revisited += len(records)
        self._apply(request, guard, proposal)

    def _note_fallback(self, reason: str) -> None:
        if reason not in self.result.fallback:
            self.result.fallback.append(reason)

    def _offline(
        self, project: str, records: list[dict[str, Any]], reason: str, *, queue: bool
    ) -> None:
        """Consolidate with the offline rules instead of the model."""
        self._note_fallback(reason)
        group = _group(records).get(project, [])
        request = DreamRequest(project, tuple(group), self.today, None, self.overlay.under)
        try:
            proposal = self.offline.propose(request, self.overlay.read)
        except Exception as exc:  # the offline rules choking on a record: narrow it down
            if len(records) > 1:
                half = len(records) // 2
                self._offline(project, records[:half], reason, queue=queue)
                self._offline(project, records[half:], reason, queue=queue)
                return
            where = f"{records[0].get('client')}:{records[0].get('session')!r:.40}@{records[0].get('ts')}"
            self.quarantine_record(where, records[0], f"{exc.__class__.__name__}: {exc}")
            return
        self.result.offline_chunks += 1
        self.successes += 1
        self._apply(request, None, proposal)
        if queue:
            self.revisit.append(Deferred(project, reason, tuple(records), 0, self.stamp))

    def _defer(
        self,
        project: str,
        records: list[dict[str, Any]],
        reason: str,
        attempts: int,
        before: Deferred | None,
    ) -> None:
        if attempts >= carrying.MAX_ATTEMPTS:
            self.gave_up = True
            why = f"the backend failed {attempts} times on these events: {reason}"
            for r in records:
                self.quarantine_record(
                    f"{r.get('client')}:{r.get('session')}@{r.get('ts')}", r, why
                )
            return
        since = before.since if before else self.stamp
        self.deferred.append(Deferred(project, reason, tuple(records), attempts, since))
        self.result.deferred.append((project, len(records), reason))

    def _propose(
        self, project: str, records: list[dict[str, Any]], revisit: Deferred | None = None
    ) -> tuple[Proposal, DreamRequest, ChunkGuard | None]:
        group = _group(records).get(project, [])
        prompt = None
        guard = None
        if self.backend.needs_prompt:
            prompt = build_prompt(
                project,
                group,
                self.today,
                self.overlay.read,
                [CatalogEntry(p, t) for p, t in sorted(self.catalog.items())],
                related_notes=self.config.dream.related_notes,
                index_chars=self.config.dream.index_chars,
                notes_chars=self.config.dream.notes_chars,
                search=self.search,
                revisit=revisit.since[:10] if revisit is not None else "",
            )
            self.result.prompt_chars.append(prompt.size)
            guard = ChunkGuard(project, group, self.overlay.read, self.overlay.under, prompt)
        request = DreamRequest(
            project,
            tuple(group),
            self.today,
            prompt,
            self.overlay.under,
            guard.check if guard is not None else None,
            revisit.since[:10] if revisit is not None else "",
        )
        return self.backend.propose(request, self.overlay.read), request, guard

    def _apply(self, request: DreamRequest, guard: ChunkGuard | None, proposal: Proposal) -> None:
        project, group = request.project, list(request.sessions)
        result = self.result
        result.notes.extend(proposal.notes)
        result.rejected.extend((r.path, r.reason) for r in proposal.rejected)
        operations = list(proposal.operations)
        if all(_idle(s) for s in group):
            # Sessions that only started or ended: they never make a project's first note (an
            # overview saying nothing of a folder like /tmp), nor count as sessions dreamt.
            overview = f"projects/{project}/overview.md"
            if self.overlay.read(overview) is None:
                operations = [op for op in operations if getattr(op, "path", None) != overview]
            if not operations:
                return
        self.projects[project] = None
        for s in group:
            self.sessions[s.source] = None
        # The cap is for a model's answer (a flood is a failure of judgment). The offline rules
        # write one digest per session and one operation per claim: a day of many short
        # sessions is not a flood, and capping it dropped their digests.
        if self.backend.needs_prompt and len(operations) > MAX_OPERATIONS:
            result.rejected.append(
                (
                    "?",
                    f"{len(operations) - MAX_OPERATIONS} operations past the first "
                    f"{MAX_OPERATIONS} of one answer were ignored (a flood, not a consolidation)",
                )
            )
            operations = operations[:MAX_OPERATIONS]
        before = set(self.overlay.changed)
        about: dict[str, dict[int, About]] = {}
        # what a model wrote is the model's (a hostile or misled one can write anything)
        model = origins.code(origins.MODEL, self.backend.name, self.today) if guard else None
        for op in operations:
            if isinstance(op, About):
                why = (
                    _about_turn(request, guard, op, about)
                    if guard is not None
                    else "only a model's answer says what a turn is about"
                )
                if why:
                    result.rejected.append((f"about {op.session} turn {op.turn}", why))
                continue
            # The guard is enforced here too: a backend may not have run its checks.
            problem = guard.check(op) if guard is not None else None
            problem = (
                problem
                or _outside_project(op, project)
                or self.overlay.apply(op, self.stamp, guard, model)
            )
            if guard is not None and not problem:
                guard.touched.update(
                    [op.from_path, op.to_path] if isinstance(op, Move) else [op.path]
                )
            if isinstance(op, Upsert) and op.pinned is not None and not problem:
                result.warnings.append(
                    f"{op.path}: `pinned` ignored (only a person pins or unpins a note)"
                )
            if problem:
                result.rejected.append(
                    (getattr(op, "path", getattr(op, "from_path", "?")), problem)
                )
            elif isinstance(op, Upsert):
                self.catalog[op.path] = op.title
            elif isinstance(op, Delete):
                self.catalog.pop(op.path, None)
            elif isinstance(op, Move):
                self.catalog[op.to_path] = self.catalog.pop(op.from_path, op.to_path)
        if guard is not None and not request.revisit:
            # A model is not asked for digests: wikimem writes one per session, as offline,
            # linked to the notes this chunk changed (a revisited chunk has its digest).
            changed = [p for p in self.overlay.changed if p not in before]
            for op in digest_operations(request, self.overlay.read, changed, about):
                self.overlay.apply(op, self.stamp)
                self.catalog[op.path] = op.title


def _about_turn(
    request: DreamRequest, guard: ChunkGuard, op: About, found: dict[str, dict[int, About]]
) -> str | None:
    """File `op` under its session and turn in `found`, or say why it names none of this chunk's."""
    if request.revisit:
        return (
            "these sessions' digests were written before; what their turns are about is not added"
        )
    target = guard.about_target(op)
    if isinstance(target, str):
        return target
    found.setdefault(target.session, {})[op.turn] = op
    return None


def _outside_project(op: Operation, project: str) -> str | None:
    """Why `op` reaches outside the chunk's project (None: it does not)."""
    if isinstance(op, About):
        return None  # names a session of the chunk: `_about_turn` checks it
    paths = [op.from_path, op.to_path] if isinstance(op, Move) else [op.path]
    for path in paths:
        other = project_of(path)
        if other is not None and other != project:
            return (
                f"{path}: this chunk is about project {project!r}; a dream writes only there, "
                "in profile/, general/ and tools/"
            )
    return None


def _run_locked(
    home: Home,
    config: Config,
    backend: Backend,
    dry_run: bool,
    progress: Progress | None,
    search: Search | None,
    *,
    drop_parked: bool = False,
    show_prompt: bool = False,
) -> DreamResult:
    started = time.monotonic()
    wiki = Wiki(home, config)
    result = DreamResult(backend=backend.name, dry_run=dry_run)
    if backend.needs_prompt:
        if not isinstance(backend, Metered):
            meter = Meter(home, config.dream.max_calls_per_day, config.dream.max_tokens_per_day)
            backend = Metered(backend, meter)
        if show_prompt:
            backend.preview = result.prompts
    elif show_prompt:
        result.prompts.append(f"({backend.name}: nothing leaves this machine)")
    if not dry_run:
        with file_lock(home.state("memory.lock")):
            wiki.recover()  # a dream a crash interrupted: roll its half-written files back first
        result.recovered.extend(wiki.recovery_notes)
        problem = state_problem(home)
        if problem:
            os.replace(home.state("watermark.json"), home.state("watermark.json.corrupt"))
            result.recovered.append(
                f"{problem}; kept as watermark.json.corrupt, the watermark is taken from the "
                "last dream commit"
            )
    say = progress or quiet
    say("reading the events since the last dream", 0, None)
    mark = current_watermark(home, wiki)
    recorded = dream_ids(wiki) | {mark.dream}
    carry = carrying.load_carry(home, lambda d: d in recorded)
    result.recovered.extend(carry.notes)
    total = pending_count(home.events_dir, mark)
    overlay = Overlay(home.memory_dir, config.gate.max_note_bytes)
    stamp = now_utc()
    today = stamp[:10]
    parked_before = {p.path: p for p in carry.parked}
    kept: list[Parked] = []
    if drop_parked:
        result.warnings.extend(f"dropped the parked write to {p.path}" for p in carry.parked)
    else:
        for p in carry.parked:
            why = overlay.unpark(p)
            if why is not None:
                kept.append(replace(p, reason=why, attempts=p.attempts + 1))
    catalog: dict[str, str] = {}
    index = None
    if backend.needs_prompt:
        # The index, brought fully up to date, already holds every note's title: the catalogue
        # comes from it rather than from reading the head of every note again.
        index, index_search = _index_search(home)
        search = search or index_search
        catalog = (
            dict((row[0], row[1]) for row in index.notes())
            if index
            else catalog_of(home.memory_dir, config.gate.max_note_bytes)
        )
    # Notes a sync left flagged `conflict: true` are settled first, in this dream's one commit.
    say("settling sync conflicts", 0, None)
    settled = reconcile_flagged(home.memory_dir, overlay.read, backend, today, stamp)
    overlay.changed.update((note.path, note) for note in settled.notes)
    result.notes += [f"reconciled {n.path}" for n in settled.notes]
    result.notes += [f"conflict left in {path}: {why}" for path, why in settled.unsettled]
    work = _Pass(backend, config, overlay, result, catalog, search, today, stamp)
    for deferred in carry.deferred:
        result.events += len(deferred.records)
        work.consolidate(deferred.project, list(deferred.records), deferred)
    waiting, expired = carrying.prune_revisit(carry.revisit, stamp)
    result.warnings.extend(expired)
    if backend.needs_prompt and not show_prompt:
        # Chunks an earlier dream had to consolidate offline: the model sees them now, oldest
        # first and before the new events, so a newer statement still comes last.
        for entry in waiting:
            work.consolidate(entry.project, list(entry.records), revisit=entry)
    else:
        work.revisit.extend(waiting)
    offsets = dict(mark.with_file_ids(home.events_dir).offsets)
    by_chars = config.dream.chunk_chars if backend.needs_prompt else None
    what = f"consolidating events ({describe(backend)})"
    total += result.events  # the events carried from an earlier dream are done already
    say(what, result.events, total)
    damaged: list[Damaged] = []
    for positioned, reached in _chunks(new_events(home.events_dir, mark, damaged), by_chars):
        if work.stopped:
            break  # these events stay behind the watermark for the next dream
        offsets.update(reached)
        result.events += len(positioned)
        by_project: dict[str, list[dict[str, Any]]] = {}
        for name, end, record in positioned:
            problem = record_problem(record)
            if problem:
                work.quarantine_record(f"{name.split('#', 1)[0]}:{end}", record, problem)
                continue
            record = repaired(record)
            by_project.setdefault(record["project"], []).append(record)
        done = result.events - len(positioned)
        for project, records in by_project.items():
            work.consolidate(project, records)
            done += len(records)
            say(what, done, total)
        say(what, result.events, total)
        _crash_point("dream_after_chunk")
    if index is not None:
        index.close()
    if not work.stopped:
        # a damaged last line is skipped for good, not read again by every dream
        for d in damaged:
            offsets[d.file] = max(offsets.get(d.file, 0), d.end)
    result.warnings.extend(damage_report(damaged))
    if (
        work.first_error is not None
        and not work.successes
        and not work.gave_up
        and not work.faulty_requests
    ):
        raise work.first_error  # nothing could be consolidated: change nothing, say why
    result.sessions = list(work.sessions)
    result.projects = list(work.projects)
    dream_id = uuid.uuid4().hex[:16]
    new_mark = Watermark(offsets, stamp, dream_id)
    writes = overlay.writes(tuple(result.sessions))
    # A model's words are echoed into the commit and the report only scrubbed: on one line,
    # capped, secrets redacted, a path that looks like data described instead.
    result.rejected = [(echo_path(p), echo_reason(r, p)) for p, r in result.rejected]
    result.notes = [scrub(n, 500) for n in result.notes]

    def subject(results: Sequence[GateResult]) -> str:
        return _subject(results, len(result.sessions))

    summary = _body(result.rejected, backend.name, result.events)

    def body(results: Sequence[GateResult]) -> str:
        # Only conflicts whose settled note is written are said to be settled.
        written = {r.write.path for r in results if r.ok}
        result.settled = [
            (path, scrub(how, 300))
            for path, hows in settled.decisions.items()
            if path in written
            for how in hows
        ]
        if not result.settled:
            return summary
        lines = [
            "",
            "Settled sync conflicts (the newer claim is current; the other is kept in it as "
            '"was … until …" and, whole, in this history):',
            *(f"- {path}: {how}" for path, how in result.settled[:MAX_LISTED]),
        ]
        return summary + "\n" + "\n".join(lines)

    trailers = [
        (TRAILER, new_mark.trailer(machine_id(home))),
        ("Wikimem-Backend", backend.name),
        (carrying.DREAM_TRAILER, dream_id),
    ]

    def record_carry(results: Sequence[GateResult]) -> None:
        parked = list(kept)
        for r in results:
            if r.status == "blocked" and r.retry:
                old = parked_before.get(r.write.path)
                parked.append(
                    Parked(
                        path=r.write.path,
                        operation=r.write.operation,
                        content=r.content if r.write.operation != "delete" else None,
                        base=overlay.disk_text(r.write.path),
                        reason=r.reason,
                        sessions=r.write.sessions,
                        requires=r.write.requires,
                        since=old.since if old else stamp,
                        attempts=old.attempts + 1 if old else 1,
                    )
                )
        revisit, dropped = carrying.cap_revisit(work.revisit)
        result.warnings.extend(dropped)
        new = Carry(dream_id, tuple(parked), tuple(work.deferred), revisit=revisit)
        carrying.save_carry(home, new, carry)
        carrying.quarantine(home, work.quarantine)

    batch = wiki.commit_writes(
        writes,
        subject,
        body=body,
        trailers=trailers,
        dry_run=dry_run,
        before_commit=record_carry,
        progress=say,
    )
    for r in batch.results:
        if r.status == "blocked" and r.retry:
            result.parked.append((echo_path(r.write.path), echo_reason(r.reason, r.write.path)))
        elif r.status == "blocked":
            result.blocked.append((echo_path(r.write.path), echo_reason(r.reason, r.write.path)))
        elif r.ok:
            {"create": result.created, "update": result.updated, "delete": result.deleted}[
                r.write.operation
            ].append(r.write.path)
    result.parked.extend((p.path, p.reason) for p in kept)
    result.warnings.extend(batch.warnings)
    result.commit = batch.commit
    if dry_run:
        # what the gate would write (secrets redacted), not what the backend proposed
        result.diff = _diff(
            overlay, [replace(r.write, proposed_content=r.content) for r in batch.results if r.ok]
        )
    else:
        _crash_point("dream_before_watermark")
        save_state(home, new_mark)
        _retention(home, new_mark, config.events.retention_days)
    result.revisit_pending = sum(len(d.records) for d in carrying.cap_revisit(work.revisit)[0])
    if not dry_run:
        _record_last(home, result, stamp)
    result.seconds = round(time.monotonic() - started, 3)
    return result


def _record_last(home: Home, result: DreamResult, stamp: str) -> None:
    """What `status` says about the last dream: its backend, and whether it ran offline."""
    lastrun.record(
        home,
        {
            "ts": stamp,
            "backend": result.backend,
            "model_chunks": result.model_chunks,
            "offline_chunks": result.offline_chunks,
            "fallback": result.fallback_line(),
            "revisited": result.revisited,
            "revisit_pending": result.revisit_pending,
        },
    )


def _index_search(home: Home) -> tuple[Index | None, Search | None]:
    """Search hits for the prompt's related notes, from the index (None when it cannot open)."""
    try:
        index = open_index(home.state_dir, home.memory_dir)
        index.refresh(full=True)
    except (sqlite3.Error, OSError):
        return None, None

    def search(text: str, project: str, limit: int) -> list[str]:
        paths: list[str] = []
        for hit in index.search(text, limit=limit * 3, project=project):
            if hit.path not in paths and "/sessions/" not in hit.path:
                paths.append(hit.path)
        return paths[:limit]

    return index, search


def _subject(results: Sequence[GateResult], sessions: int) -> str:
    """What the commit did: only the writes the gate let through (a blocked or parked one is
    listed in the body, never counted here)."""
    counts = {
        op: sum(1 for r in results if r.ok and r.write.operation == op)
        for op in ("update", "create", "delete")
    }
    parts = [
        f"{n} {word}"
        for op, word in (("update", "updated"), ("create", "created"), ("delete", "deleted"))
        if (n := counts[op])
    ]
    what = ", ".join(parts) or "no changes"
    return f"dream: {what} from {sessions} session{'s' if sessions != 1 else ''}"


def _body(rejected: list[tuple[str, str]], backend: str, events: int) -> str:
    lines = [f"Consolidated {events} events with the {backend} backend."]
    if rejected:
        lines += ["", "Rejected operations:"]
        lines += [f"- {path[:120]}: {reason[:300]}" for path, reason in rejected[:MAX_LISTED]]
        if len(rejected) > MAX_LISTED:
            lines.append(f"- … and {len(rejected) - MAX_LISTED} more")
    return "\n".join(lines)


def _diff(overlay: Overlay, writes: list[MemoryWrite]) -> str:
    out: list[str] = []
    for w in writes:
        before = overlay.disk_text(w.path) or ""
        after = w.proposed_content or ""
        out.extend(
            difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                fromfile=f"a/{w.path}" if before else "/dev/null",
                tofile=f"b/{w.path}" if after else "/dev/null",
            )
        )
    return "".join(out)


SESSION_RECORD_DAYS = 7  # what was injected into a session only matters while it runs


def _retention(home: Home, mark: Watermark, days: int) -> None:
    """Delete event files older than `retention_days` that are fully consolidated, and the
    per-session injection records of sessions long over."""
    stale = time.time() - SESSION_RECORD_DAYS * 86400
    try:
        with os.scandir(home.state("sessions")) as it:
            for entry in it:
                if entry.name.endswith(".json") and entry.stat().st_mtime < stale:
                    os.unlink(entry.path)
    except OSError:
        pass
    if days <= 0:
        return
    cutoff = datetime.fromtimestamp(time.time() - days * 86400, UTC).strftime("%Y-%m-%d")
    for name in list_files(home.events_dir):
        if name[:10] >= cutoff:
            continue
        path = os.path.join(home.events_dir, name)
        try:
            if os.path.getsize(path) <= mark.offset(name, file_id(path)):
                os.unlink(path)
        except OSError:
            continue


__all__ = [
    "BACKENDS",
    "BackendError",
    "DreamBusy",
    "DreamResult",
    "run_dream",
    "select_backend",
]
