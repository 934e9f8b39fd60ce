"""What a managed block says: exactly what a session start gives, for the file's scope.

Contract: `body(home, target, config)` is the text between the block's notice and its end
marker ("" when there is nothing to give). It is chosen and read by the session-start code
itself (`wikimem.recall.inject.standing`, restricted to the scope's notes), so whatever that
withholds from an agent never reaches a file: a held line (a fetched-code command not confirmed
on this machine), a note over the size limit, what its own reading withholds. Scopes:
  - `user`: the notes under profile/ (the person's own rules);
  - `project`: the project's notes named in `export.project_notes` (conventions and commands by
    default), never profile/.
Then the gate's secret rules, once more: a line a secret was redacted from is left out whole
(in a file shared through git a `[REDACTED:…]` marker helps nobody and says a secret was there),
as is any line the redaction would still change; a note left with nothing is left out. The whole
stays within `export.max_chars`, its wrapper included. A note imported from the very file being
written (Gemini CLI's saved memories, in the GEMINI.md they came from) is not written back into it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from wikimem.capture.redact import redact
from wikimem.config import Config
from wikimem.export.targets import Target
from wikimem.home import Home

REDACTED = "[REDACTED:"


def _note_name(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    return name[:-3] if name.endswith(".md") else name


def chooser(target: Target, config: Config) -> Callable[[str], bool]:
    """The predicate on note paths for `target`'s scope."""
    if target.scope == "user":
        return lambda rel: rel.startswith("profile/")
    prefix = f"projects/{target.project}/"
    names = set(config.export.project_notes)
    return lambda rel: (
        rel.startswith(prefix) and "/" not in rel[len(prefix) :] and (_note_name(rel) in names)
    )


def _clean(block: str) -> str | None:
    """A note's block without the lines a secret was (or would be) redacted from; None when
    nothing but its heading is left."""
    lines = block.rstrip("\n").split("\n")
    head, body = lines[0], lines[1:]
    kept = [ln for ln in body if REDACTED not in ln and not redact(ln)[1]]
    if not any(ln.strip() and ln.strip() != "[…]" for ln in kept):
        return None
    return "\n".join([head, *kept]) + "\n"


def body(home: Home, target: Target, config: Config) -> str:
    from wikimem.recall.index import open_index
    from wikimem.recall.inject import session_start_paths, standing, wrap

    if not os.path.isdir(home.memory_dir):
        return ""  # no memory yet (an install planned before `init`): nothing to give
    project = target.project if target.scope == "project" else ""
    index = open_index(home.state_dir, home.memory_dir, config.gate.max_note_bytes)
    try:
        # hand edits not yet indexed count, as they do at a session start
        index.refresh(dirs=[f"projects/{project}"] if project else ["profile"])
        choose = chooser(target, config)
        candidates = [p for p in session_start_paths(home, project, index) if choose(p)]
        echoes = _echoes(home, target, candidates)
        parts, _, legend = standing(
            home,
            project,
            config.export.max_chars,
            index,
            cwd=target.root or None,
            only=lambda rel: choose(rel) and rel not in echoes,
        )
    finally:
        index.close()
    cleaned = [c for c in map(_clean, parts) if c is not None]
    return wrap(cleaned, legend) or ""


def _echoes(home: Home, target: Target, paths: list[str]) -> set[str]:
    """The notes imported from this very file (Gemini CLI's saved memories in the GEMINI.md
    that is being written): the file says them already, in its own words."""
    from wikimem.wiki import notemeta, plainfile

    out = set()
    for rel in paths:
        text = plainfile.read_text(home.memory_dir, rel)
        source = notemeta.read_meta(text)[0].get("imported_from") if text else None
        if isinstance(source, str) and source.split(":", 1)[-1] in (target.path, target.real):
            out.add(rel)
    return out
