"""The search index under load (many readers, a few writers): readers search the way the prompt hook does
(open, refresh within a deadline, search) while writers keep changing notes and rebuilding.

Prints, per reader count: searches made, searches that found nothing although the query has a
match, and searches that raised (`database is locked` and the like). Counts, not timings: safe to
run on a busy machine.

    .venv/bin/python bench/index_load.py                 # 4, 8 and 16 readers, 2 writers
    .venv/bin/python bench/index_load.py --readers 16 --searches 100
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from wikimem.recall.index import open_index


def setup(root: str, notes: int) -> tuple[str, str]:
    memory, state = os.path.join(root, "memory"), os.path.join(root, "state")
    os.makedirs(os.path.join(memory, "general"), exist_ok=True)
    for i in range(notes):
        word = "zanzibar" if i % 40 == 0 else "plain"
        with open(os.path.join(memory, "general", f"n{i}.md"), "w") as fh:
            fh.write(
                f"---\ntitle: Note {i}\nkind: general\n---\nThe {word} deploy uses port {i}.\n"
            )
    index = open_index(state, memory)
    index.refresh(full=True)
    index.close()
    return memory, state


def writer(memory: str, state: str, stop: Any) -> None:
    i = 0
    while not stop.is_set():
        with open(os.path.join(memory, "general", f"w{i % 50}.md"), "w") as fh:
            fh.write(f"---\ntitle: W {i}\nkind: general\n---\nwriter text {i}\n")
        try:
            index = open_index(state, memory)
            index.refresh(full=True)
            index.close()
        except Exception:
            pass
        i += 1


def reader(memory: str, state: str, n: int, out: Any) -> None:
    empty, errors = 0, 0
    kinds: set[str] = set()
    for _ in range(n):
        try:
            index = open_index(state, memory)
            try:
                index.refresh(deadline=time.monotonic() + 0.6)
                if not index.search("zanzibar deploy", limit=5):
                    empty += 1
            finally:
                index.close()
        except Exception as exc:
            errors += 1
            kinds.add(f"{exc.__class__.__name__}: {exc}")
    out.put((empty, errors, kinds))


def run(readers: int, writers: int, searches: int, notes: int) -> tuple[int, int, set[str]]:
    with tempfile.TemporaryDirectory(prefix="wikimem-index-load-") as root:
        memory, state = setup(root, notes)
        stop, out = mp.Event(), mp.Queue()
        ws = [mp.Process(target=writer, args=(memory, state, stop)) for _ in range(writers)]
        rs = [
            mp.Process(target=reader, args=(memory, state, searches, out)) for _ in range(readers)
        ]
        for p in ws + rs:
            p.start()
        results = [out.get() for _ in rs]
        stop.set()
        for p in ws + rs:
            p.join()
    return (
        sum(r[0] for r in results),
        sum(r[1] for r in results),
        set().union(*(r[2] for r in results)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readers", type=int, nargs="*", default=[4, 8, 16])
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--searches", type=int, default=40, help="per reader")
    parser.add_argument("--notes", type=int, default=200)
    args = parser.parse_args()
    print("| readers | writers | searches | found nothing | failed | errors seen |")
    print("|---:|---:|---:|---:|---:|---|")
    for n in args.readers:
        empty, failed, kinds = run(n, args.writers, args.searches, args.notes)
        seen = "; ".join(sorted(kinds)) or "none"
        print(f"| {n} | {args.writers} | {n * args.searches} | {empty} | {failed} | {seen} |")


if __name__ == "__main__":
    main()
