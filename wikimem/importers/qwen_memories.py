"""Qwen Code's saved memories, brought into the wiki (`wikimem import qwen-memories`).

The source: the `## Qwen Added Memories` section Qwen Code's `save_memory` keeps in
`~/.qwen/QWEN.md` (`QWEN_HOME` moves it), read as `added_memories` says; it becomes
`profile/qwen-memories.md`. A project's `QWEN.md` that holds such a section can be named with
`--dir`; its section becomes that project's note.
"""

from __future__ import annotations

import os

from wikimem.importers import added_memories
from wikimem.importers.mirror import Scan
from wikimem.setup.wiring import qwen_dir

NAME = "qwen-memories"
HEADING = "## Qwen Added Memories"
FILE = "QWEN.md"


def default_file() -> str:
    return os.path.join(qwen_dir(), FILE)


def scan(given: str | None = None) -> Scan:
    files = added_memories.files_in(given, default_file(), FILE)
    return added_memories.scan(NAME, HEADING, files, NAME, "Qwen Code: saved memories")
