"""index.md is rebuilt from a per-blob cache of committed notes: it must never show a stale
line, and never a line of text that was not committed through the gate."""

from __future__ import annotations

import subprocess
from pathlib import Path

from wikimem.wiki.indexmd import ENTRY_CACHE, render_index, write_index


def note(title: str, body: str) -> str:
    return f"---\ntitle: {title}\nkind: general\n---\n{body}"


def commit_all(memory: Path) -> None:
    subprocess.run(["git", "-C", str(memory), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(memory), "commit", "-qm", "hand"], check=True)


def test_index_lines_follow_every_committed_edit_add_and_delete(home: Path) -> None:
    memory = home / "memory"
    (memory / "general").mkdir()
    a, b = memory / "general" / "a.md", memory / "general" / "b.md"
    a.write_text(note("Alpha", "First claim.\n"))
    b.write_text(note("Beta", "Second claim.\n"))
    commit_all(memory)
    write_index(str(memory))
    assert (memory / ENTRY_CACHE).exists()
    assert "[[general/a|Alpha]] — First claim." in (memory / "index.md").read_text()

    a.write_text(note("Alpha", "Edited claim.\n"))  # the same size as before
    b.unlink()
    (memory / "general" / "c.md").write_text(note("Gamma", "Third.\n"))
    # Not committed yet: the page still shows what is committed.
    assert "First claim." in render_index(str(memory))
    commit_all(memory)
    text = render_index(str(memory))
    assert "Edited claim." in text and "First claim." not in text
    assert "Beta" not in text and "[[general/c|Gamma]]" in text

    (memory / ENTRY_CACHE).write_text("not json")  # a broken cache is only a cache
    assert render_index(str(memory)) == text


def test_notes_being_committed_are_read_from_disk_and_nothing_else(home: Path) -> None:
    memory = home / "memory"
    (memory / "general").mkdir()
    (memory / "general" / "new.md").write_text(note("New", "Written through the gate.\n"))
    (memory / "general" / "draft.md").write_text(note("Draft", "A hand edit, not committed.\n"))
    text = render_index(str(memory), fresh=["general/new.md"])
    assert "Written through the gate." in text
    assert "Draft" not in text
