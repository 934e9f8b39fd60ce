"""Qwen Code's saved memories, brought into the wiki (`wikimem import qwen-memories`).

The source: the `## Qwen Added Memories` section Qwen Code's `save_memory` keeps in
`~/.qwen/QWEN.md` (`QWEN_HOME` moves it), read as `added_memories` says; it becomes
`profile/qwen-memories.md`. `save_memory` with scope "project" writes the same section into the
project's `QWEN.md`: name it with `--dir`, and its section becomes that project's note. The
managed memory newer Qwen Code builds keep of their own (`~/.qwen/memories/`, a design unlike
this section) is not imported.
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
