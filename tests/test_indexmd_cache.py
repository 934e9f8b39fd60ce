"""index.md is rebuilt from a per-note cache: it must never show a stale line."""

from __future__ import annotations

import os
from pathlib import Path

from wikimem.wiki.indexmd import ENTRY_CACHE, render_index, write_index


def note(title: str, body: str) -> str:
    return f"---\ntitle: {title}\nkind: general\n---\n{body}"


def test_index_lines_follow_every_edit_add_and_delete(home: Path) -> None:
    memory = home / "memory"
    (memory / "general").mkdir()
    a, b = memory / "general" / "a.md", memory / "general" / "b.md"
    a.write_text(note("Alpha", "First claim.\n"))
    b.write_text(note("Beta", "Second claim.\n"))
    write_index(str(memory))
    assert (memory / ENTRY_CACHE).exists()
    assert "[[general/a|Alpha]] — First claim." in (memory / "index.md").read_text()

    a.write_text(note("Alpha", "Edited claim.\n"))  # the same size as before
    st = a.stat()
    os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    b.unlink()
    (memory / "general" / "c.md").write_text(note("Gamma", "Third.\n"))
    text = render_index(str(memory))
    assert "Edited claim." in text and "First claim." not in text
    assert "Beta" not in text and "[[general/c|Gamma]]" in text

    (memory / ENTRY_CACHE).write_text("not json")  # a broken cache is only a cache
    assert render_index(str(memory)) == text
