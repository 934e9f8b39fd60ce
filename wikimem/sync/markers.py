"""Conflict markers in a note: how sync writes them, and what is shown while they stand.

A note both machines changed in the same lines keeps both versions until they are settled:

    <<<<<<< laptop 2026-11-30T10:02:11Z
    - **Metrics port**: 9300. (remember 2026-11-30)
    =======
    - **Metrics port**: 9200. (edit 2026-11-30)
    >>>>>>> desktop 2026-11-30T12:40:05Z

Each marker names the machine and the time its side of the note was last changed (the note's
`updated:`, to the second), so the side changed last is known from the note alone, whichever
machine merged it and whichever tool reads it.

Contract: `label(machine, stamp)` / `parse_label(text)` write and read a marker's label;
`has_markers(text)`; `is_marker_line(line)`; `split(body)` is the body as plain lines and `Region`s (None when the
markers are malformed); `newer(region)` is 0 or 1, the side changed last: by the labels' times
when both have one, else by the newest date among each side's lines, ties broken by the text
(never by which side is "ours", so every machine decides alike); `as_shown(body)` is the body
an agent is given while a conflict stands: each region replaced by its newer side under one
line saying so, never a marker.

Hook-path module: standard library only, no regular expressions.
"""

from __future__ import annotations

START, MIDDLE, END = "<<<<<<<", "=======", ">>>>>>>"
SHOWN_NOTE = (
    "(a sync conflict not yet settled: the newer version, from {who}, is shown; the other is "
    "kept in the note until the next dream settles it)"
)


def label(machine: str, stamp: str) -> str:
    """`machine stamp` (the stamp only when it has a time: a bare date decides nothing)."""
    machine = " ".join(machine.split()) or "?"
    return f"{machine} {stamp}" if _is_time(stamp) else machine


def parse_label(text: str) -> tuple[str, str]:
    """(machine, time) of a marker's label; time "" when it has none."""
    head, _, last = text.strip().rpartition(" ")
    if head and _is_time(last):
        return head, last
    return text.strip(), ""


def _is_time(text: str) -> bool:
    return len(text) >= 19 and text[4] == "-" and text[10] == "T" and text[:4].isdigit()


def _is_marker(line: str, mark: str) -> bool:
    return line.startswith(mark) and (len(line) == len(mark) or line[len(mark)] == " ")


def is_marker_line(line: str) -> bool:
    """Whether `line` is one of a conflict's three marker lines."""
    return _is_marker(line, START) or _is_marker(line, END) or line == MIDDLE


def has_markers(text: str) -> bool:
    if START not in text and END not in text and MIDDLE not in text:
        return False
    return any(
        _is_marker(ln, START) or _is_marker(ln, END) or ln == MIDDLE for ln in text.split("\n")
    )


class Region:
    """Both versions of one conflicted part: lines and label of each side (0: the first)."""

    __slots__ = ("labels", "sides")

    def __init__(self, first_label: str) -> None:
        self.sides: tuple[list[str], list[str]] = ([], [])
        self.labels = [first_label, ""]


def split(body: str) -> list[str | Region] | None:
    out: list[str | Region] = []
    current: Region | None = None
    side = 0
    for line in body.splitlines():
        if _is_marker(line, START):
            if current is not None:
                return None
            current, side = Region(line[len(START) :].strip()), 0
        elif line == MIDDLE and current is not None and side == 0:
            side = 1
        elif _is_marker(line, END):
            if current is None or side != 1:
                return None
            current.labels[1] = line[len(END) :].strip()
            out.append(current)
            current = None
        elif current is not None:
            current.sides[side].append(line)
        else:
            out.append(line)
    return None if current is not None else out


def _latest_date(lines: list[str]) -> str:
    """The newest YYYY-MM-DD written in `lines` (a claim's provenance date, mostly)."""
    best = ""
    for line in lines:
        i = line.find("-")
        while i != -1:
            cand = line[i - 4 : i + 6]
            if (
                i >= 4
                and len(cand) == 10
                and cand[:4].isdigit()
                and cand[5:7].isdigit()
                and cand[7] == "-"
                and cand[8:].isdigit()
                and cand > best
            ):
                best = cand
            i = line.find("-", i + 1)
    return best


def newer(region: Region) -> int:
    """The side changed last (0 or 1)."""
    (_, t0), (_, t1) = parse_label(region.labels[0]), parse_label(region.labels[1])
    keys = []
    for i in (0, 1):
        stamp = (t0, t1)[i] if t0 and t1 else ""
        keys.append((stamp, _latest_date(region.sides[i]), "\n".join(region.sides[i])))
    return 0 if keys[0] >= keys[1] else 1


def as_shown(body: str, notice: bool = True) -> str:
    """`body` without markers: each region's newer side, introduced by a line saying so
    (`notice`; index.md's one-line summary goes without)."""
    if not has_markers(body):
        return body
    parts = split(body)
    if parts is None:  # malformed: drop the marker lines, keep the rest
        return "\n".join(
            ln
            for ln in body.split("\n")
            if not (_is_marker(ln, START) or _is_marker(ln, END) or ln == MIDDLE)
        )
    lines: list[str] = []
    for part in parts:
        if isinstance(part, str):
            lines.append(part)
            continue
        side = newer(part)
        machine, stamp = parse_label(part.labels[side])
        who = f"{machine} at {stamp}" if stamp else machine
        if notice:
            lines.append(SHOWN_NOTE.format(who=who))
        lines.extend(part.sides[side])
    text = "\n".join(lines)
    return text + "\n" if body.endswith("\n") else text
