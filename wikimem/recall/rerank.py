"""What a prompt is given beyond the ranking's order (docs/recall.md): passages that together
cover the prompt.

Contract:
  - `term_weights(hits, terms)`: the query words' stems, weighted by how rare they are among
    the candidates.
  - `cover(hits, weight)`: the same passages, reordered so that, taken in order, they cover the
    prompt's distinct words. Each next passage is the best by relevance (its score against the
    best match) plus what it adds (the prompt's words it holds that the passages before it do
    not, a word found in fewer passages counting more). A question about two things then gets a
    passage for each, not four about the more frequent one.
  - `items(text)`: a passage's top-level list items (a digest's turns) with their continuation
    lines.

Words are matched by `wikimem.recall.ranking.stem`, the crude stemming the line scores and the
window of `wikimem.recall.inject` use too. Hook-path module: standard library only.
"""

from __future__ import annotations

import math

from wikimem.recall.ranking import stem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from wikimem.recall.index import Hit

COVERAGE = 1.0  # how much a passage's share of not-yet-covered words counts beside relevance


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
