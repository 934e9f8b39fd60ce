"""Gemini CLI's saved memories, brought into the wiki (`wikimem import gemini-memories`).

The source: the `## Gemini Added Memories` section `save_memory` keeps in `~/.gemini/GEMINI.md`
(`GEMINI_CLI_HOME` moves it), read as `added_memories` says; it becomes
`profile/gemini-memories.md`. Newer Gemini CLI builds let the agent edit its memory files
directly, and keep a project's private memories in `~/.gemini/tmp/<project id>/memory/`, whose
project cannot be told from its folder's name: those are not imported.
"""

from __future__ import annotations

import os

from wikimem.importers import added_memories
from wikimem.importers.mirror import Scan
from wikimem.setup.geminitrust import gemini_dir

NAME = "gemini-memories"
HEADING = "## Gemini Added Memories"
FILE = "GEMINI.md"


def default_file() -> str:
    return os.path.join(gemini_dir(), FILE)


def scan(given: str | None = None) -> Scan:
    files = added_memories.files_in(given, default_file(), FILE)
    return added_memories.scan(NAME, HEADING, files, NAME, "Gemini CLI: saved memories")
