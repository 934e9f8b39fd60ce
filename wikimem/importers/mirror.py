"""Writing imported notes into the wiki, idempotently, through the gate.

Contract: an importer turns its source into `ImportedNote`s, each with a stable `source_id` and
the `scope` it was read from (a folder of the source); `apply` then, in one gated batch and one
commit (source `import`):
  - creates the note of a new source, updates it when its source changed, and does nothing at all
    when no source changed (a second run of unchanged input makes no commit);
  - never overwrites a note a person changed in the wiki since it was imported, nor one that was
    not imported from that source (both reported as skipped);
  - deletes the note of a source that is gone from a scope it read, unless a person changed it;
  - remembers what it wrote in `state/imports.json` (machine-local, like the sources), by
    source id: the hash of the source's note and of the text the gate let through.
Dates come from the source files' modification times, so the same input renders the same note.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from wikimem import boundedfile
from wikimem.fsutil import atomic_write
from wikimem.lock import file_lock
from wikimem.progress import Progress, quiet
from wikimem.wiki.batch import BatchResult, Wiki
from wikimem.wiki.gate import MemoryWrite, content_hash
from wikimem.wiki.notemeta import read_meta
from wikimem.wiki.notes import Note, render_note

RECORD = "imports.json"
MARKER = "imported_from"  # front-matter key naming the source of an imported note


@dataclass(frozen=True)
class ImportedNote:
    source_id: str  # stable across runs: "<importer>:<where>"
    scope: str  # the source folder it was read from: a source gone from a scanned scope is deleted
    path: str
    title: str
    kind: str
    body: str
    tags: tuple[str, ...] = ()
    mtime: float = 0.0

    def render(self) -> str:
        stamp = _utc(self.mtime)
        note = Note(
            path=self.path,
            title=self.title,
            kind=self.kind,
            body=self.body if self.body.endswith("\n") else self.body + "\n",
            tags=self.tags,
            created=stamp[:10],
            updated=stamp,
            extra=((MARKER, f"{MARKER}: {json.dumps(self.source_id, ensure_ascii=False)}"),),
        )
        return render_note(note)


@dataclass(frozen=True)
class Scan:
    """What an importer read: the notes, the scopes it read completely, what to tell the user."""

    notes: tuple[ImportedNote, ...]
    scopes: tuple[str, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class ImportResult:
    batch: BatchResult | None
    unchanged: int
    skipped: tuple[tuple[str, str], ...]  # (path, why)
    warnings: tuple[str, ...] = field(default=())

    @property
    def commit(self) -> str | None:
        return self.batch.commit if self.batch else None

    def as_dict(self) -> dict[str, Any]:
        batch = self.batch
        return {
            "commit": self.commit,
            "written": [
                {"path": r.write.path, "operation": r.write.operation}
                for r in (batch.written if batch else [])
            ],
            "blocked": [
                {"path": r.write.path, "reason": r.reason} for r in (batch.blocked if batch else [])
            ],
            "unchanged": self.unchanged,
            "skipped": [{"path": p, "reason": why} for p, why in self.skipped],
            "warnings": [*self.warnings, *(batch.warnings if batch else ())],
        }


def _utc(mtime: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(int(mtime), dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _load(path: str) -> dict[str, dict[str, str]]:
    try:
        data = json.loads(boundedfile.read_text(path))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)}


def _marked(text: str | None, source_id: str) -> bool:
    if text is None:
        return False
    meta, _ = read_meta(text)
    return meta.get(MARKER) == source_id


def apply(wiki: Wiki, importer: str, scan: Scan, progress: Progress = quiet) -> ImportResult:
    """Bring what `scan` read into the wiki; see the module contract. `progress` is told how
    far the comparison with what was imported before, and the write, have got."""
    notes, scopes = scan.notes, scan.scopes
    record_path = wiki.home.state(RECORD)
    with file_lock(wiki.home.state("imports.lock"), what="imports (another import is running)"):
        record = _load(record_path)
        writes: list[MemoryWrite] = []
        planned: dict[str, tuple[str, str]] = {}  # path -> (source id, fingerprint)
        skipped: list[tuple[str, str]] = []
        unchanged = 0
        seen = set()
        for i, note in enumerate(notes):
            if i % 20 == 0:
                progress("comparing with what was imported before", i, len(notes))
            seen.add(note.source_id)
            text = note.render()
            # what the note says, not when its file was last touched
            fingerprint = _fingerprint(
                json.dumps([note.path, note.title, note.kind, list(note.tags), note.body])
            )
            known = record.get(note.source_id)
            current = wiki.read(note.path)
            if known and known.get("note") != note.path:
                known = None  # the source now maps elsewhere: treat as new, the old note goes
            if known and known.get("source") == fingerprint:
                unchanged += 1  # nothing new; a person's deletion or edit of it stands
                continue
            if note.path in planned:
                skipped.append((note.path, f"two sources map to it ({note.source_id})"))
                continue
            if current is None:
                op = "create"
            elif (known and content_hash(current) == known.get("written")) or (
                not known and _marked(current, note.source_id)
            ):
                op = "update"
            elif known:
                skipped.append((note.path, "changed in the wiki since it was imported; kept"))
                continue
            else:
                skipped.append((note.path, "a note not imported from this source is there"))
                continue
            writes.append(MemoryWrite(note.path, op, text, "import", (), content_hash(current)))
            planned[note.path] = (note.source_id, fingerprint)
        for source_id, known in sorted(record.items()):
            if source_id in seen or known.get("scope") not in scopes:
                continue
            if not source_id.startswith(f"{importer}:"):
                continue
            path = str(known.get("note", ""))
            current = wiki.read(path)
            if current is None or path in planned:
                del record[source_id]
            elif content_hash(current) == known.get("written"):
                writes.append(
                    MemoryWrite(path, "delete", None, "import", (), content_hash(current))
                )
                planned[path] = (source_id, "")
            else:
                skipped.append((path, "its source is gone, but it was changed in the wiki; kept"))
                del record[source_id]
        batch: BatchResult | None = None
        if writes:
            batch = wiki.commit_writes(
                writes,
                f"import {importer}: {len(writes)} note(s)",
                body=f"Imported by `wikimem import {importer}`.",
                progress=progress,
            )
            scope_of = {n.source_id: n.scope for n in notes}
            for r in batch.results:
                if r.status not in ("ok", "unchanged"):
                    continue  # blocked: reported, and tried again next time
                source_id, fingerprint = planned[r.write.path]
                if r.write.operation == "delete":
                    record.pop(source_id, None)
                    continue
                scope = scope_of[source_id]
                record[source_id] = {
                    "note": r.write.path,
                    "scope": scope,
                    "source": fingerprint,
                    "written": content_hash(r.content),
                }
        atomic_write(record_path, json.dumps(record, indent=1, sort_keys=True) + "\n", 0o600)
    return ImportResult(batch, unchanged, tuple(skipped), scan.warnings)
