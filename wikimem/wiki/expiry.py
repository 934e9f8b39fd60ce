"""Temporary states end on their date: "the release branch is frozen until 2026-03-06".

The dream keeps a temporary state as a claim with its last day written in it (`until`, `till`,
`through` and an ISO date; docs/memory.md). From the day after, it is no longer true: an agent
is not given it (session start and prompts), and the next dream moves it to the note's hidden
history. A replaced value's note, "(was 9102 until 2026-11-30)", is history, not an end.

Contract: `today()` is the day injection takes as today (`WIKIMEM_TODAY`, YYYY-MM-DD, for
evaluations and tests that replay a fixed calendar; else the local date); `ends(line)` is the
last day a line's temporary state holds, or ""; `expired(line, day)` whether that day is past.
Hook-path module: standard library only, no regular expressions.
"""

from __future__ import annotations

import os
import time

_UNTIL = (" until ", " till ", " through ", " thru ")


def today() -> str:
    fixed = os.environ.get("WIKIMEM_TODAY", "")
    if (
        len(fixed) == 10
        and fixed[4] == "-"
        and fixed[7] == "-"
        and fixed.replace("-", "").isdigit()
    ):
        return fixed
    return time.strftime("%Y-%m-%d")


def ends(line: str) -> str:
    """The ISO date after "until"/"till"/"through" in `line`, outside a "(was … until …)"."""
    low = line.lower()
    last = ""
    for word in _UNTIL:
        i = low.find(word)
        while i != -1:
            day = low[i + len(word) : i + len(word) + 10]
            opened = low.rfind("(", 0, i)
            history = (
                opened != -1
                and low.find(")", opened) > i
                and (
                    low.startswith("(was ", opened)
                    or low.startswith("(previously ", opened)
                    or low.startswith("(formerly ", opened)
                )
            )
            if not history and _is_day(day):
                last = max(last, day)
            i = low.find(word, i + 1)
    return last


def expired(line: str, day: str) -> bool:
    end = ends(line)
    return bool(end) and end < day


def _is_day(text: str) -> bool:
    return (
        len(text) == 10
        and text[4] == "-"
        and text[7] == "-"
        and text[:4].isdigit()
        and text[5:7].isdigit()
        and text[8:].isdigit()
    )
