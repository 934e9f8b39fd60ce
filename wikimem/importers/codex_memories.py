"""Codex CLI's memories, brought into the wiki (`wikimem import codex-memories`).

The source (Codex CLI 0.171, `[features] memories = true`): `$CODEX_HOME/memories/` (default
`~/.codex/memories/`), a folder Codex consolidates in the background:
  - `memory_summary.md`, loaded into every thread: a first line `v1`, then `## User Profile`,
    `## User preferences`, `## General Tips`, and `## What's in Memory` (an index into MEMORY.md);
  - `MEMORY.md`, the handbook: blocks starting `# Task Group: <name>`, each with a `scope:` line
    and an `applies_to: cwd=<dir>; reuse_rule=…` line, then task sections and the block's
    `## User preferences`, `## Reusable knowledge`, `## Failures and how to do differently`;
  - `raw_memories.md` and `rollout_summaries/*.md`, Codex's own inputs to that consolidation, and
    `skills/`: not imported (the first two are already distilled into MEMORY.md).

Mapping: the profile and preferences sections of the summary become `profile/codex-profile.md`
and `profile/codex-preferences.md`, the general tips `general/codex-tips.md`, any other section
`general/codex-<heading>.md`; the "What's in Memory" index is not copied. Each task group becomes
one note in the project of its `cwd` (the slug wikimem's hooks give sessions there):
`projects/<slug>/codex-<task group>.md`, or `general/codex-<task group>.md` when it names no
single directory.
"""

from __future__ import annotations

import os
import re

from wikimem.capture.project import project_slug
from wikimem.importers.mirror import ImportedNote, Scan
from wikimem.setup.codextrust import codex_home
from wikimem.wiki import plainfile
from wikimem.wiki.notes import kebab

NAME = "codex-memories"
SUMMARY = "memory_summary.md"
HANDBOOK = "MEMORY.md"
SECTIONS = {
    "user profile": ("profile/codex-profile.md", "Codex: user profile", "profile"),
    "user preferences": ("profile/codex-preferences.md", "Codex: user preferences", "profile"),
    "general tips": ("general/codex-tips.md", "Codex: general tips", "general"),
}
INDEX_SECTIONS = ("what's in memory", "whats in memory")
_TASK_GROUP = re.compile(r"^# Task Group:\s*(.+?)\s*$", re.MULTILINE)
_CWD = re.compile(r"^applies_to:.*?\bcwd=([^;\n]+)", re.MULTILINE)


def memories_dir(given: str | None = None) -> str:
    if given:
        path = os.path.abspath(os.path.expanduser(given))
        nested = os.path.join(path, "memories")
        return nested if os.path.isdir(nested) else path
    return os.path.join(codex_home(), "memories")


def _read(path: str) -> tuple[str, float] | None:
    """The file's text and time, never through a link (its target could be any file)."""
    try:
        data = plainfile.read_existing(os.path.dirname(path), os.path.basename(path))
        if data is None:
            return None
        return data.decode("utf-8"), os.lstat(path).st_mtime
    except (OSError, UnicodeDecodeError):
        return None


def _summary_notes(text: str, mtime: float, scope: str) -> list[ImportedNote]:
    lines = text.splitlines()
    if lines and lines[0].strip() == "v1":
        lines = lines[1:]
    sections: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("## "):
            sections.append((line[3:].strip(), []))
        elif sections:
            sections[-1][1].append(line)
    notes = []
    for heading, body_lines in sections:
        key = heading.lower()
        body = "\n".join(body_lines).strip()
        if key in INDEX_SECTIONS or not body:
            continue
        path, title, kind = SECTIONS.get(
            key, (f"general/codex-{kebab(heading, 50)}.md", f"Codex: {heading}", "general")
        )
        notes.append(
            ImportedNote(
                source_id=f"{NAME}:{SUMMARY}#{kebab(heading, 50)}",
                scope=scope,
                path=path,
                title=title,
                kind=kind,
                body=body + "\n",
                tags=("codex-memories",),
                mtime=mtime,
            )
        )
    return notes


def _project_of(block: str) -> str | None:
    m = _CWD.search(block)
    if not m:
        return None
    cwd = os.path.expanduser(m.group(1).strip().strip("`'\""))
    if not os.path.isabs(cwd) or any(c in cwd for c in "*?[{<"):
        return None  # a family of directories, or a workflow: no single project
    slug = project_slug(cwd)
    return slug if slug != "unknown" else None


def _handbook_notes(text: str, mtime: float, scope: str) -> list[ImportedNote]:
    starts = list(_TASK_GROUP.finditer(text))
    notes = []
    taken: set[str] = set()
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        name = m.group(1)
        block = text[m.end() : end].strip()
        project = _project_of(block)
        stem = f"codex-{kebab(name, 50)}"
        folder = f"projects/{project}" if project else "general"
        path, n = f"{folder}/{stem}.md", 2
        while path in taken:
            path, n = f"{folder}/{stem}-{n}.md", n + 1
        taken.add(path)
        notes.append(
            ImportedNote(
                source_id=f"{NAME}:{HANDBOOK}#{path}",
                scope=scope,
                path=path,
                title=f"{name} ({project})" if project else name,
                kind="project" if project else "general",
                body=block + "\n",
                tags=("codex-memories",),
                mtime=mtime,
            )
        )
    return notes


def scan(given: str | None = None) -> Scan:
    folder = memories_dir(given)
    if not os.path.isdir(folder):
        return Scan((), (), (f"{folder} does not exist: Codex has written no memories here",))
    scope = "memories"
    notes: list[ImportedNote] = []
    warnings: list[str] = []
    summary = _read(os.path.join(folder, SUMMARY))
    if summary is not None:
        if not summary[0].startswith("v1"):
            warnings.append(f"{SUMMARY} does not start with `v1`: a format this import may misread")
        notes += _summary_notes(*summary, scope)
    handbook = _read(os.path.join(folder, HANDBOOK))
    if handbook is not None:
        found = _handbook_notes(*handbook, scope)
        if not found and handbook[0].strip():
            warnings.append(f"{HANDBOOK} has no `# Task Group:` block: nothing imported from it")
        notes += found
    return Scan(tuple(notes), (scope,), tuple(warnings))
