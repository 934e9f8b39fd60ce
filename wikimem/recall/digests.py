"""What a prompt is given from session digests (docs/recall.md, "From session digests"): the
turn that matched, read with its neighbours, dated.

Contract:
  - The index holds each digest turn (what was asked, done and answered) as a passage of its
    own. `pieces(index, hit, value, ...)` turns one such hit into the lines it may give, each
    with a value for the packing (`wikimem.recall.inject`): the turn's best-matching line is
    worth the hit's own value; the turn's other lines `SAME_TURN` of it; the turn after it
    `NEXT_TURN` of it (in a conversation the answer follows the question); the turn before it
    `PREVIOUS_TURN`. Lines already given in this session (`given`: `turn_id`s of lines), lines
    `fresh` rejects (a value a newer claim replaced) and lines that restate what the session was
    given at its start (`known`) are left out.
  - `render(pieces)`: the lines taken, under one heading per project's digests
    (`### projects/<slug>/sessions — earlier sessions, dated`), each digest's lines after its
    date (said once for digests of one day), turns and lines in the order they were said; a turn shown from its middle starts a
    list item of its own.

Hook-path module: standard library only.
"""

from __future__ import annotations

from wikimem.recall import ranking
from wikimem.recall.fence import data, one_line
from wikimem.recall.given import turn_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Set

    from wikimem.recall.index import Hit, Index

SAME_TURN = 0.7
NEXT_TURN = 0.7
PREVIOUS_TURN = 0.5
TURNS_HEADING = "Turns"


class Piece:
    """One line a digest may give: its value, where it comes from, its text."""

    __slots__ = ("kind", "line", "ordinal", "path", "rank", "text", "value", "whole")

    def __init__(
        self, value: float, rank: int, kind: int, path: str, ordinal: int, line: int, text: str
    ) -> None:
        self.value = value
        self.rank = rank
        self.kind = kind  # 0: the line that matched best, 1: its turn, 2: a neighbour turn
        self.path = path
        self.ordinal = ordinal  # the turn's place in the digest's passages
        self.line = line  # the line's place in its turn
        self.text = text
        self.whole = text  # the line as stored (`text` may be cut to fit)

    @property
    def key(self) -> tuple[str, int, int]:
        return self.path, self.ordinal, self.line

    def cut(self, text: str) -> Piece:
        part = Piece(self.value, self.rank, self.kind, self.path, self.ordinal, self.line, text)
        part.whole = self.whole
        return part


def lines_of(turn: str) -> list[str]:
    return [ln for ln in turn.split("\n") if ln.strip()]


def pieces(
    index: Index,
    hit: Hit,
    value: float,
    rank: int,
    weights: dict[str, float],
    given: Set[str],
    keep: Callable[[str], bool],
) -> list[Piece]:
    """The lines a digest hit may give, with their values (see the module's contract). `keep`:
    False for a line that must not be given (stale, or known already)."""
    out: list[Piece] = []

    def add(text: str, ordinal: int, kind: int, worth: float, skip: int = -1) -> None:
        for i, line in enumerate(lines_of(text)):
            if i == skip or withheld(line) or turn_id(hit.path, line) in given or not keep(line):
                continue
            out.append(Piece(worth, rank, kind, hit.path, ordinal, i, line))

    own = lines_of(hit.body)
    if hit.heading == TURNS_HEADING:
        # what was asked of the agent then, or pasted, found the turn but is not given as if it
        # still stood: what was said, done and answered is
        asked = [i for i, ln in enumerate(own) if withheld(ln)]
        if asked and len(asked) < len(own):
            for i in asked:
                own[i] = ""
    if hit.heading != TURNS_HEADING:
        add(hit.body, hit.ordinal, 0, value)  # the digest's opening or outcome: given as it is
        return out
    average = sum(len(ln) for ln in own) / len(own) if own else 1.0
    scores = [ranking.line_score(ln, weights, average) for ln in own]
    best = max((i for i in range(len(own)) if own[i]), key=lambda i: (scores[i], -i), default=0)
    if own and own[best] and turn_id(hit.path, own[best]) not in given and keep(own[best]):
        out.append(Piece(value, rank, 0, hit.path, hit.ordinal, best, own[best]))
    add(hit.body, hit.ordinal, 1, value * SAME_TURN, skip=best)
    for step, worth in ((1, NEXT_TURN), (-1, PREVIOUS_TURN)):
        found = index.passage(hit.path, hit.ordinal + step)
        if found is not None and found[0] == TURNS_HEADING:
            add(found[1], hit.ordinal + step, 2, value * worth)
    return out


_WITHHELD = ("**Asked of the agent:** ", "**Pasted:** ")


def withheld(line: str) -> bool:
    """A digest line that finds its turn but is never given: a request or question of the
    agent then, or pasted text (`wikimem.dream.digest.split_prompt`)."""
    return line.strip().removeprefix("- ").startswith(_WITHHELD)


def content(line: str) -> str:
    """What a line says, without its bullet and label: a digest's outcome repeats the last
    answer, and is not given twice."""
    text = line.strip().removeprefix("- ")
    for label in ("**Said:** ", "**Asked:** ", "**Did:** ", "**Answered:** "):
        text = text.removeprefix(label)
    return " ".join(text.split())


def header(project: str) -> str:
    return f"### projects/{one_line(project)}/sessions — earlier sessions, dated"


def date_line(path: str) -> str:
    day = ranking.digest_day(path)
    return f"{day}:" if day else f"{one_line(path.rsplit('/', 1)[-1][:-3])}:"


def render(taken: list[Piece]) -> str:
    """The block of one project's digest lines (all `taken` are of one project)."""
    project = taken[0].path.split("/")[1]
    out = [header(project)]
    by_digest: dict[str, list[Piece]] = {}
    for piece in taken:
        by_digest.setdefault(piece.path, []).append(piece)
    last = ""
    for path in sorted(by_digest):
        if date_line(path) != last:
            last = date_line(path)
            out.append(last)
        previous: tuple[int, int] | None = None
        for piece in sorted(by_digest[path], key=lambda p: (p.ordinal, p.line)):
            continues = previous is not None and previous == (piece.ordinal, piece.line - 1)
            out.append(shown(piece.text, continues))
            previous = (piece.ordinal, piece.line)
    return "\n".join(out) + "\n"


def shown(line: str, continues: bool) -> str:
    """A digest line as given: a line that does not follow the one above it in its turn starts
    an item of its own."""
    text = data(line)
    if continues or text.startswith("- "):
        return text
    return "- " + text.lstrip()


def cost(line: str, continues: bool = False) -> int:
    return len(shown(line, continues)) + 1
