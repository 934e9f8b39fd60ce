"""The search index under load (issue 12 item 9): a reader on the hook path never comes back
empty-handed because a writer holds the database, and a locked database is never taken for a
corrupt one."""

from __future__ import annotations

import multiprocessing as mp
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from wikimem.recall.index import open_index


def _notes(memory: Path, n: int = 200) -> None:
    (memory / "general").mkdir(parents=True, exist_ok=True)
    for i in range(n):
        word = "zanzibar" if i % 40 == 0 else "plain"
        (memory / "general" / f"n{i}.md").write_text(
            f"---\ntitle: Note {i}\nkind: general\n---\nThe {word} deploy uses port {i}.\n"
        )


def _writer(memory: str, state: str, stop: Any) -> None:
    i = 0
    while not stop.is_set():
        with open(os.path.join(memory, "general", f"w{i % 30}.md"), "w") as fh:
            fh.write(f"---\ntitle: W {i}\nkind: general\n---\nwriter text {i}\n")
        index = open_index(state, memory)
        index.refresh(full=True)
        index.close()
        i += 1


def _reader(memory: str, state: str, n: int, out: Any) -> None:
    empty, errors = 0, []
    for _ in range(n):
        try:
            index = open_index(state, memory)
            try:
                index.refresh(deadline=time.monotonic() + 0.5)  # as the prompt hook does
                if not index.search("zanzibar deploy", limit=5):
                    empty += 1
            finally:
                index.close()
        except Exception as exc:
            errors.append(f"{exc.__class__.__name__}: {exc}")
    out.put((empty, errors))


def test_readers_always_find_while_writers_rebuild(tmp_path: Path) -> None:
    memory, state = tmp_path / "memory", tmp_path / "state"
    _notes(memory)
    first = open_index(str(state), str(memory))
    first.refresh(full=True)
    first.close()
    ctx = mp.get_context("fork")
    stop, out = ctx.Event(), ctx.Queue()
    writers = [ctx.Process(target=_writer, args=(str(memory), str(state), stop)) for _ in range(2)]
    readers = [
        ctx.Process(target=_reader, args=(str(memory), str(state), 15, out)) for _ in range(4)
    ]
    for p in writers + readers:
        p.start()
    results = [out.get(timeout=120) for _ in readers]
    stop.set()
    for p in writers + readers:
        p.join(timeout=60)
    assert sum(e for e, _ in results) == 0
    assert [m for _, msgs in results for m in msgs] == []


def test_a_busy_writer_makes_refresh_give_way_not_fail(tmp_path: Path) -> None:
    memory, state = tmp_path / "memory", tmp_path / "state"
    _notes(memory, 5)
    index = open_index(str(state), str(memory))
    index.refresh(full=True)
    (memory / "general" / "new.md").write_text("---\ntitle: New\nkind: general\n---\nzanzibar\n")
    holder = sqlite3.connect(state / "index.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process is writing
    try:
        start = time.monotonic()
        assert index.refresh(deadline=time.monotonic() + 0.3) is False
        assert time.monotonic() - start < 1.0
        assert [h.path for h in index.search("zanzibar")] == ["general/n0.md"]  # what is there
        again = open_index(str(state), str(memory))  # "locked" is not "corrupt": kept
        assert again.notes() and (state / "index.sqlite3").exists()
        again.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert index.refresh(deadline=time.monotonic() + 0.3) is True
    assert {h.path for h in index.search("zanzibar")} == {"general/n0.md", "general/new.md"}
    index.close()
