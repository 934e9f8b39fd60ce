"""`wikimem remember`, `forget` and `edit`: a person's own writes, through the gate, committed.

Contract: `remember` folds the text into the living note it belongs in (or `--path`), replacing
an earlier statement on the same subject, as the offline dream does; `forget` deletes a note;
`edit_note` validates an edited copy and writes it only if the note did not change meanwhile.
Each is one gated batch and one commit.
"""

from __future__ import annotations

import os

from wikimem.capture.project import find_repo_root, project_slug
from wikimem.dream import facts
from wikimem.errors import WikimemError
from wikimem.wiki.batch import BatchResult, Wiki
from wikimem.wiki.gate import MemoryWrite, content_hash
from wikimem.wiki.notes import (
    new_note,
    now_utc,
    parse_note,
    render_note,
    resolve_wikilink,
    today,
)


def current_project(cwd: str | None = None) -> str | None:
    """The project of cwd, only when cwd is inside a repository (not just any folder)."""
    cwd = cwd or os.getcwd()
    return project_slug(cwd) if find_repo_root(cwd) else None


def resolve_path(wiki: Wiki, given: str) -> str:
    """A note path from what a person typed: exact, without `.md`, or a [[wikilink]]."""
    text = given.strip().removeprefix("[[").removesuffix("]]").strip("/")
    existing = set(wiki.paths())
    found = resolve_wikilink(text, existing)
    if found:
        return found
    return text if text.endswith(".md") else f"{text}.md"


def fold(
    wiki: Wiki, text: str, *, path: str | None, project: str | None, provenance: str
) -> tuple[str, str, str | None, str]:
    """(path, new content, replaced statement or None, base hash) for one remembered text."""
    statements = facts.extract(text)
    statement = statements[0] if statements else facts.Statement("fact", facts.clean(text), False)
    if path is None:
        place = facts.placement(statement, project)
        path, title, kind = place.path, place.title, place.kind
    else:
        title, kind = path.rsplit("/", 1)[-1][:-3].replace("-", " ").capitalize(), None
    current = wiki.read(path)
    base = content_hash(current)
    if current is None:
        body, replaced = facts.merge_statement("", statement.text, provenance)
        note = new_note(path, title, body, kind=kind, sources=())
    else:
        note = parse_note(path, current)
        body, replaced = facts.merge_statement(note.body, statement.text, provenance)
        note = note.with_changes(body=body, updated=now_utc())
    return path, render_note(note), replaced, base


def remember(
    wiki: Wiki, text: str, path: str | None = None, project: str | None = None
) -> BatchResult:
    if not text.strip():
        raise WikimemError("nothing to remember: the text is empty")
    rel = resolve_path(wiki, path) if path else None
    rel, content, replaced, base = fold(
        wiki, text, path=rel, project=project, provenance=f"{today()} via wikimem remember"
    )
    write = MemoryWrite(rel, "create" if not base else "update", content, "remember", (), base)
    body = f'Replaces: "{replaced}"' if replaced else ""
    return wiki.commit_writes([write], f"remember: {rel}", body=body)


def forget(wiki: Wiki, path: str) -> BatchResult:
    rel = resolve_path(wiki, path)
    current = wiki.read(rel)
    if current is None:
        raise WikimemError(f"no note at {rel}")
    write = MemoryWrite(rel, "delete", None, "forget", (), content_hash(current))
    return wiki.commit_writes([write], f"forget: {rel}")


def template_for(path: str) -> str:
    title = path.rsplit("/", 1)[-1][:-3].replace("-", " ").capitalize()
    return render_note(new_note(path, title, "Write the note here.\n"))


def edit_note(wiki: Wiki, path: str, new_text: str, base_hash: str) -> BatchResult:
    """Write an edited note if it is valid and the file still matches `base_hash`."""
    operation = "update" if base_hash else "create"
    write = MemoryWrite(path, operation, new_text, "edit", (), base_hash)
    return wiki.commit_writes([write], f"edit: {path}")


def check_edit(wiki: Wiki, path: str, new_text: str) -> str | None:
    """Why an edited text cannot be written (None when it can)."""
    current = wiki.read(path)
    write = MemoryWrite(path, "update" if current is not None else "create", new_text, "edit")
    result = wiki.gate.check(write)
    return None if result.status in ("ok", "unchanged") else result.reason
