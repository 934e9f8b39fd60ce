"""Raw-turn BM25, the baseline the recall benchmarks set beside wikimem.

SQLite FTS5 (porter tokenizer, its built-in bm25 ranking) over a conversation's turns as they
were said, queried with the question's words minus a few stopwords, OR-ed. The hits are given
best first, each optionally with its neighbour turns, until the next one does not fit the budget:
no memory, no consolidation, just search over what was said.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

# LoCoMo's README baseline query: the question's words minus these, OR-ed (it reproduces the
# README's figures exactly; wikimem's own query builder is a different, smarter thing).
STOPWORDS = frozenset(
    "a an the and or but if of to in on at by for with from is are was were be been do does did "
    "what when where who whom which why how".split()
)


def ranked(turns: Sequence[str], question: str) -> list[int]:
    """Indices of the turns matching any of the question's words, best BM25 score first."""
    words = [w for w in re.findall(r"\w+", question.lower()) if w not in STOPWORDS]
    if not words:
        return []
    db = sqlite3.connect(":memory:")
    try:
        db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter')")
        db.executemany(
            "INSERT INTO t(rowid, body) VALUES (?, ?)", [(i + 1, b) for i, b in enumerate(turns)]
        )
        match = " OR ".join(f'"{w}"' for w in words)
        rows = db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t)", (match,))
        return [r[0] - 1 for r in rows]
    finally:
        db.close()


def pack(turns: Sequence[str], order: Sequence[int], budget: int, neighbours: int = 0) -> str:
    """The hits in `order`, each with up to `neighbours` turns either side (in the order they
    were said; a turn already given is not given twice), one turn a line, until the next hit
    does not fit in `budget` characters."""
    given: set[int] = set()
    lines: list[str] = []
    used = 0
    for hit in order:
        span = range(max(0, hit - neighbours), min(len(turns), hit + neighbours + 1))
        block = [i for i in span if i not in given]
        if not block:
            continue
        size = sum(len(turns[i]) + 1 for i in block)
        if used + size > budget:
            break
        given.update(block)
        lines.extend(turns[i] for i in block)
        used += size
    return "\n".join(lines)


def search(
    turns: Sequence[str], question: str, budgets: Sequence[int], neighbours: int = 0
) -> dict[int, str]:
    """What the baseline gives for `question` at each budget."""
    order = ranked(turns, question)
    return {b: pack(turns, order, b, neighbours) for b in budgets}
