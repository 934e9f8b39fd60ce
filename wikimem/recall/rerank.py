"""What a prompt is given beyond BM25's order (docs/recall.md): passages that together cover the
prompt, and digest passages that read on from the turn that matched.

Contract:
  - `term_weights(hits, terms)`: the query words' stems, weighted by how rare they are among
    the candidates; computed once, used by both steps below.
  - `cover(hits, weight)`: the same passages, reordered so that, taken in order, they cover the
    prompt's distinct words. Each next passage is the best by relevance (its score against the
    best match) plus what it adds (the prompt's words it holds that the passages before it do
    not, a word found in fewer passages counting more). A question about two things then gets a
    passage for each, not four about the more frequent one.
  - `read_on(index, hits, weight)`: each session digest's passage replaced by a window of about
    the same size that starts at its best-matching turn and reads on, into the next passage of
    the same section when this one ends. In a conversation the answer follows the words that
    match the question (asked in one turn, answered in the next), and the fixed cut of a digest
    into passages often put it in the next passage. Earlier turns fill the window only when the
    section ends first; a turn already given with an earlier passage of the same note is not
    given again, nor one given earlier in the session (`given`: turn ids), nor one that `fresh`
    rejects (it repeats a value a newer claim replaced). Living notes are left as they are: each
    of their lines stands alone.

Words are matched by their first six letters (`stem`), the crude stemming the window of
`wikimem.recall.inject` uses too. Hook-path module: standard library only.
"""

from __future__ import annotations

import math

from wikimem.recall.given import turn_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence, Set

    from wikimem.recall.index import Hit, Index

COVERAGE = 1.0  # how much a passage's share of not-yet-covered words counts beside relevance
WINDOW_CHARS = 900  # a digest window's size: the index's passage size


def stem(term: str) -> str:
    return term[:6]


def term_weights(hits: Sequence[Hit], terms: Sequence[str]) -> dict[str, float]:
    """Each query word's stem, weighted by its inverse frequency among the candidates."""
    texts = [h.body.lower() for h in hits]
    n = len(texts)
    stems = dict.fromkeys(stem(t) for t in terms)
    return {s: math.log(1 + n / (1 + sum(s in t for t in texts))) for s in stems}


def is_digest(hit: Hit) -> bool:
    return hit.kind == "session" or "/sessions/" in hit.path


def cover(hits: list[Hit], weight: dict[str, float]) -> list[Hit]:
    if len(weight) < 2 or len(hits) < 3 or not COVERAGE:
        return hits
    holds = [{s for s in weight if s in low} for low in (h.body.lower() for h in hits)]
    total = sum(weight.values()) or 1.0
    top = hits[0].score or 1.0
    covered: dict[str, int] = {}
    left = list(range(len(hits)))
    order: list[int] = []
    while left:
        best = max(
            left,
            key=lambda i: (
                hits[i].score / top
                + COVERAGE * sum(weight[s] / (1 + covered.get(s, 0)) for s in holds[i]) / total
            ),
        )
        left.remove(best)
        order.append(best)
        for s in holds[best]:
            covered[s] = covered.get(s, 0) + 1
    return [hits[i] for i in order]


def items(text: str) -> list[str]:
    """A passage's turns: top-level list items with their continuation lines (text before the
    first item is an item of its own)."""
    out: list[str] = []
    for line in text.split("\n"):
        if line.startswith("- ") or not out:
            out.append(line)
        else:
            out[-1] += "\n" + line
    return [i for i in out if i.strip()]


def read_on(
    index: Index,
    hits: list[Hit],
    weight: dict[str, float],
    given: Set[str] = frozenset(),
    fresh: Callable[[str], bool] | None = None,
) -> list[Hit]:
    if not weight or not any(is_digest(h) for h in hits):
        return hits
    shown = set(given)  # turn ids: given earlier in the session, or with a window before
    out: list[Hit] = []
    for hit in hits:
        if not is_digest(hit):
            out.append(hit)
            continue
        turns = items(hit.body)

        def new(turn: str, path: str = hit.path) -> bool:
            return turn_id(path, turn) not in shown and (fresh is None or fresh(turn))

        scores = [sum(w for s, w in weight.items() if s in t.lower()) for t in turns]
        best = max(range(len(turns)), key=lambda i: (scores[i], -i), default=0)
        if not turns or scores[best] <= 0:
            window = [t for t in turns if new(t)]
        else:
            window = []
            size = 0
            for turn in turns[best:]:
                if window and size + len(turn) + 1 > WINDOW_CHARS:
                    break
                if new(turn):
                    window.append(turn)
                    size += len(turn) + 1
            if size < WINDOW_CHARS:
                following = index.passage(hit.path, hit.ordinal + 1)
                if following is not None and following[0] == hit.heading:
                    for turn in items(following[1]):
                        if size + len(turn) + 1 > WINDOW_CHARS:
                            break
                        if new(turn):
                            window.append(turn)
                            size += len(turn) + 1
            for turn in reversed(turns[:best]):
                if size + len(turn) + 1 > WINDOW_CHARS:
                    break
                if new(turn):
                    window.insert(0, turn)
                    size += len(turn) + 1
        if not window:
            continue  # all of it was given before
        shown.update(turn_id(hit.path, t) for t in window)
        out.append(hit if window == turns else hit.excerpt("\n".join(window)))
    return out
