"""A person's hand edits of memory/, committed through the write gate.

Contract: `commit_hand_edits(wiki)` finds, under the memory lock (so a dream's or another
writer's half-finished batch is never mistaken for a person's edit), every note path git reports
as changed, new or deleted (hidden folders such as `.obsidian/` and `index.md` excluded), and
passes each as an on-disk `MemoryWrite` (source `watch`) through the gate: one commit for what
passes, every refusal reported with its reason. An edit refused once is not proposed again until
the file changes (`known_invalid` maps a path to the content hash it was refused for), so an
invalid note is reported once, not on every pass. A file saved again while it was being checked
is left for the next pass. A committed edit's `updated:` is the time the file was changed
(`wikimem.wiki.editstamp`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from wikimem.sync.merge import without_stale_flag
from wikimem.wiki.batch import BatchResult, Wiki
from wikimem.wiki.editstamp import stamp_hand_edit
from wikimem.wiki.gate import MemoryWrite, content_hash, read_current
from wikimem.wiki.gitstore import is_hidden

CHANGED_MEANWHILE = "changed since it was read"


@dataclass(frozen=True)
class HandEdits:
    batch: BatchResult | None
    invalid: tuple[tuple[str, str, str], ...] = ()  # (path, reason, content hash refused)
    paths: tuple[str, ...] = field(default=())  # every changed note path seen this pass

    @property
    def commit(self) -> str | None:
        return self.batch.commit if self.batch else None

    @property
    def committed(self) -> list[tuple[str, str]]:
        return [(r.write.path, r.write.operation) for r in self.batch.written] if self.batch else []


def is_note_path(rel: str) -> bool:
    return rel.endswith(".md") and rel != "index.md" and not is_hidden(rel)


def _read(wiki: Wiki, rel: str) -> tuple[str | None, str | None]:
    """(text, problem): a file that is not UTF-8 cannot be a note."""
    try:
        return read_current(wiki.memory_dir, rel), None
    except UnicodeDecodeError:
        return None, f"{rel}: not UTF-8 text"
    except OSError as exc:
        return None, f"{rel}: cannot be read ({exc.strerror})"


def commit_hand_edits(wiki: Wiki, known_invalid: Mapping[str, str] | None = None) -> HandEdits:
    known = dict(known_invalid or {})
    invalid: list[tuple[str, str, str]] = []
    seen: list[str] = []

    def pending() -> list[MemoryWrite]:
        store = wiki.store
        tracked = store.tracked() if store.has_commits() else set()
        writes = []
        for rel in store.dirty_paths():
            if not is_note_path(rel):
                continue
            seen.append(rel)
            text, problem = _read(wiki, rel)
            digest = content_hash(text) if problem is None else f"unreadable:{problem}"
            if known.get(rel) == digest:
                continue  # refused before, unchanged since: reported once is enough
            if problem is not None:
                invalid.append((rel, problem, digest))
                continue
            if text is None:
                if rel in tracked:
                    writes.append(MemoryWrite(rel, "delete", None, "watch", (), "", on_disk=True))
                continue
            operation = "update" if rel in tracked else "create"
            # the person removed a conflict's markers: its `conflict: true` goes with them; the
            # edit carries the time it was made (sync conflicts go by it)
            committed = store.file_at(rel) if rel in tracked else None
            proposed = without_stale_flag(
                rel, stamp_hand_edit(wiki.memory_dir, rel, text, committed)
            )
            writes.append(
                MemoryWrite(rel, operation, proposed, "watch", (), content_hash(text), on_disk=True)
            )
        return writes

    batch = wiki.commit_writes(pending, "watch: hand edits", body="Committed by `wikimem watch`.")
    for r in batch.blocked:
        if CHANGED_MEANWHILE in r.reason:
            continue  # saved again while checked: the next pass takes the new text
        text, _ = _read(wiki, r.write.path)
        invalid.append((r.write.path, r.reason, content_hash(text)))
    return HandEdits(batch if batch.results else None, tuple(invalid), tuple(seen))
