"""Claim lines as sync's merge and reconciliation see them, on the dream's claim rules.

A living note's line reads like
`- **Metrics collector port**: The metrics collector runs on port 9300 (was 9102 until
2026-11-30). ([[projects/acme-api/sessions/2026-11-30-0199a2b3-3fa2c1|codex 2026-11-30]])`
(`wikimem.dream.claims` reads and writes that format and decides supersession).

Contract: `parse_claim(line)` is the line's claim (its bold subject, its text without the
provenance, the date of its provenance) or None for a line that is not a claim;
`same_subject(a, b)`: the same bold subject, the same text, or one supersedes the other by the
dream's rules; `newer_claim(a, b)` is the one that stands (the later date, ties broken by the
line so every machine decides alike); `settle_claims(lines, ranks=…)` keeps one claim per
subject, the one that stands (by the full time of the version each line comes from, then the
date, then the line), where the first of them stood, saying what it replaced ("was … until
…", `kept_as_past`); `current_claims(lines)` is that by dates alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from wikimem.dream.claims import parse_line
from wikimem.dream.supersession import supersedes


@dataclass(frozen=True)
class Claim:
    subject: str  # the bold subject, lower-case, "" without one
    text: str  # the statement without its provenance
    date: str  # YYYY-MM-DD of its provenance, "" when it has none
    line: str


def parse_claim(line: str) -> Claim | None:
    claim = parse_line(line)
    if claim is None or not claim.text:
        return None
    date = claim.provenance.date if claim.provenance else ""
    return Claim(" ".join(claim.subject.lower().split()), " ".join(claim.text.split()), date, line)


def same_subject(a: Claim, b: Claim) -> bool:
    if a.subject and a.subject == b.subject:
        return True
    if a.text.lower() == b.text.lower():
        return True
    return supersedes(a.text, b.text) or supersedes(b.text, a.text)


def newer_claim(a: Claim, b: Claim) -> Claim:
    """Of two claims about one subject, the one that stands."""
    return max(a, b, key=lambda c: (c.date, c.line))


def kept_as_past(winner: Claim, loser: Claim, day: str) -> str:
    """The winner's line, saying what the loser said until `day` ("… 9200 (was 9300 until
    2026-11-30)."): the documented rule for two claims about one subject, so the side that lost
    is still read in the note (and whole in git). The line as it is when both say the same
    thing, or when there is no day to say."""
    from wikimem.dream.claims import parse_line
    from wikimem.dream.subjects import key_of, strip_history

    new, old = strip_history(winner.text), strip_history(loser.text)
    if not day or " ".join(new.lower().split()) == " ".join(old.lower().split()):
        return winner.line
    a, b = key_of(new), key_of(old)
    if a.value and b.value and a.attribute == b.attribute:  # a value of the same kind
        if a.value.lower() == b.value.lower():
            return winner.line  # the same value in other words
        was = b.value
    else:
        said = " ".join(old.replace("(", " ").replace(")", " ").replace('"', "'").split())
        said = (said if len(said) <= 100 else said[:99] + "…").rstrip(".")
        was = said if " " not in said else f'"{said}"'  # a value bare, a sentence quoted
    parsed = parse_line(winner.line)
    if parsed is None:
        return winner.line
    text = f"{new.rstrip().rstrip('.')} (was {was} until {day})."
    return replace(parsed, text=text).render()


@dataclass(frozen=True)
class Settled:
    lines: list[str]
    decided: list[tuple[int, int]]  # (winner, loser) indexes into the lines given, texts differ


def settle_claims(
    lines: Sequence[str],
    *,
    ranks: Sequence[str] | None = None,
    today: str = "",
    dedupe_other: bool = False,
) -> Settled:
    """`lines` with one claim per subject: the one that stands where the first of them stood,
    saying what the one it replaced said (`kept_as_past`). What stands: the greatest
    (rank, date, line), `ranks[i]` being the full time of the version line `i` comes from
    (empty: by the claims' dates alone); the line breaks ties, so every machine decides
    alike. `dedupe_other`: a line that is not a claim (a heading, prose) appears once."""
    parsed = [parse_claim(line) for line in lines]

    def rank(i: int) -> tuple[str, str, str]:
        claim = parsed[i]
        assert claim is not None
        return (ranks[i] if ranks else "", claim.date, claim.line)

    present = [i for i, c in enumerate(parsed) if c is not None]
    groups: list[list[int]] = []  # [index in force, index of the group's first line, *others]
    group_of: dict[int, int] = {}
    for i in sorted(present, key=rank):  # oldest first
        claim = parsed[i]
        assert claim is not None
        for g, group in enumerate(groups):
            held = parsed[group[0]]
            assert held is not None
            if same_subject(claim, held):
                group.append(group[0])
                group[0] = i  # newer (or equal, later in order): it stands
                group[1] = min(group[1], i)
                group_of[i] = g
                break
        else:
            group_of[i] = len(groups)
            groups.append([i, i])
    decided: list[tuple[int, int]] = []
    line_of: dict[int, str] = {}
    for group in groups:
        winner, others = group[0], group[2:]
        held = parsed[winner]
        assert held is not None
        line = held.line
        # the newest of those it replaced that said something else
        for loser in sorted(others, key=rank, reverse=True):
            beaten = parsed[loser]
            assert beaten is not None
            if beaten.text.lower() != held.text.lower():
                day = max(ranks[winner][:10] if ranks else "", held.date) or today
                line = kept_as_past(held, beaten, day)
                decided.append((winner, loser))
                break
        line_of[group[1]] = line
    out: list[str] = []
    seen: set[str] = set()
    for i, line in enumerate(lines):
        if parsed[i] is None:
            if dedupe_other and line.strip():
                if line in seen:
                    continue
                seen.add(line)
            out.append(line)
        elif i in line_of:
            out.append(line_of[i])
    return Settled(out, decided)


def current_claims(lines: Sequence[str], *, dedupe_other: bool = False) -> list[str]:
    """`lines` with one claim per subject: the newest stands where the first of them stood."""
    return settle_claims(lines, dedupe_other=dedupe_other).lines
