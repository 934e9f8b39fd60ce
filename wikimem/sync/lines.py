"""Three-way merge of a note's body, line by line, knowing that a line is a claim.

Contract: `merge_lines(base, ours, theirs, labels)` applies both sides' changes to the base:
  - changes to different lines are both applied, even on neighbouring lines (two claims edited
    on two machines are two edits, not a conflict as in a plain text merge);
  - the same change on both sides is applied once;
  - lines both sides added at the same place are all kept (in an order that does not depend
    on which machine merges), unless two of them are claims about the same subject that say
    different things: that is a conflict;
  - changes to the same lines that differ are a conflict: both versions of those lines are kept
    between `<<<<<<< label` / `=======` / `>>>>>>> label` markers.
It returns the merged lines, the number of marked conflicts, and the number of subjects that
both sides wrote a claim about in different places (`clashes`: the merged body holds both;
the caller flags the note so the next dream keeps one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from wikimem.sync.claims import Claim, parse_claim, same_subject
from wikimem.sync.markers import END, MIDDLE, START


@dataclass(frozen=True)
class Change:
    start: int  # base lines [start, end) are replaced by `lines`
    end: int
    lines: tuple[str, ...]
    side: int  # 0 ours, 1 theirs


def changes(base: Sequence[str], other: Sequence[str], side: int) -> list[Change]:
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    return [
        Change(i1, i2, tuple(other[j1:j2]), side)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _touches(start: int, end: int, c: Change) -> bool:
    """Whether change `c` overlaps the base span [start, end) of a group (an empty span is an
    insertion point). Changes that only meet at a boundary do not overlap."""
    if c.start == c.end:
        return c.start == start if start == end else start < c.start < end
    if start == end:
        return c.start < start < c.end
    return c.start < end and start < c.end


def _apply(base: Sequence[str], group: list[Change], side: int, start: int, end: int) -> list[str]:
    out: list[str] = []
    pos = start
    for c in (c for c in group if c.side == side):
        out += base[pos : c.start]
        out += c.lines
        pos = c.end
    out += base[pos:end]
    return out


def _union(first: list[str], second: list[str]) -> list[str] | None:
    """Lines both sides inserted at one place, all kept; None if two of them are different
    claims about the same subject."""
    held = [c for c in map(parse_claim, first) if c is not None]
    out = list(first)
    for line in second:
        if line in first:
            continue
        claim = parse_claim(line)
        if claim is not None:
            same = [h for h in held if same_subject(h, claim)]
            if any(h.text != claim.text for h in same):
                return None
            if same:
                continue  # the same claim with other provenance: once is enough
        out.append(line)
    return out


def merge_lines(
    base: Sequence[str],
    ours: Sequence[str],
    theirs: Sequence[str],
    labels: tuple[str, str],
    *,
    union: bool = False,
) -> tuple[list[str], int, int]:
    """(merged lines, conflicts marked, subjects claimed on both sides in different places).
    `union`: where both sides changed the same lines, keep ours and then theirs, unmarked (for
    files that are not notes, which cannot carry a conflict flag)."""
    todo = sorted(
        changes(base, ours, 0) + changes(base, theirs, 1), key=lambda c: (c.start, c.end, c.side)
    )
    groups: list[tuple[int, int, list[Change]]] = []
    for c in todo:
        if groups and _touches(groups[-1][0], groups[-1][1], c):
            start, end, members = groups[-1]
            groups[-1] = (min(start, c.start), max(end, c.end), [*members, c])
        else:
            groups.append((c.start, c.end, [c]))
    out: list[str] = []
    conflicts = 0
    added: tuple[list[Claim], list[Claim]] = ([], [])
    pos = 0
    for start, end, members in groups:
        out += base[pos:start]
        pos = end
        sides = {c.side for c in members}
        if len(sides) == 1:
            side = sides.pop()
            lines = _apply(base, members, side, start, end)
            _note_claims(added[side], [line for c in members for line in c.lines])
            out += lines
            continue
        mine, yours = _apply(base, members, 0, start, end), _apply(base, members, 1, start, end)
        if mine == yours:
            out += mine
            continue
        _note_claims(added[0], mine)
        _note_claims(added[1], yours)
        if union:
            out += mine + [line for line in yours if line not in mine]
            continue
        if start == end:
            first, second = sorted([mine, yours])
            both = _union(first, second)
            if both is not None:
                out += both
                continue
        out += [f"{START} {labels[0]}", *mine, MIDDLE, *yours, f"{END} {labels[1]}"]
        conflicts += 1
    out += base[pos:]
    clashes = sum(
        1 for a in added[0] if any(same_subject(a, b) and a.text != b.text for b in added[1])
    )
    return out, conflicts, clashes


def _note_claims(into: list[Claim], lines: Sequence[str]) -> None:
    into.extend(c for c in map(parse_claim, lines) if c is not None)


def merge_text(
    base: str, ours: str, theirs: str, labels: tuple[str, str], *, union: bool = False
) -> tuple[str, int, int]:
    """`merge_lines` over texts (line ends kept as `\\n`)."""
    lines, conflicts, clashes = merge_lines(
        base.splitlines(), ours.splitlines(), theirs.splitlines(), labels, union=union
    )
    text = "\n".join(lines)
    return (text + "\n" if text else ""), conflicts, clashes
