"""Claim lines as sync's merge and reconciliation see them, on the dream's claim rules.

A living note's line reads like
`- **Metrics collector port**: The metrics collector runs on port 9300 (was 9102 until
2026-11-30). ([[projects/acme-api/sessions/2026-11-30-0199a2b3-3fa2c1|codex 2026-11-30]])`
(`wikimem.dream.claims` reads and writes that format and decides supersession).

Contract: `parse_claim(line)` is the line's claim (its bold subject, its text without the
provenance, the date of its provenance) or None for a line that is not a claim;
`same_subject(a, b)`: the same bold subject, the same text, or one supersedes the other by the
dream's rules; `newer_claim(a, b)` is the one that stands (the later date, ties broken by the
line so every machine decides alike); `current_claims(lines)` keeps one claim per subject, the
newest, where the first of them stood.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


def current_claims(lines: Sequence[str], *, dedupe_other: bool = False) -> list[str]:
    """`lines` with one claim per subject: the newest stands where the first of them stood.
    `dedupe_other`: a line that is not a claim (a heading, prose) appears once."""
    parsed = [parse_claim(line) for line in lines]
    present = [i for i, c in enumerate(parsed) if c is not None]
    oldest_first = sorted(present, key=lambda i: (parsed[i].date, parsed[i].line))  # type: ignore[union-attr]
    winners: list[tuple[Claim, int]] = []  # (claim in force, index of the group's first line)
    group_of: dict[int, int] = {}
    for i in oldest_first:
        claim = parsed[i]
        assert claim is not None
        for g, (held, first) in enumerate(winners):
            if same_subject(claim, held):
                winners[g] = (newer_claim(held, claim), min(first, i))
                group_of[i] = g
                break
        else:
            group_of[i] = len(winners)
            winners.append((claim, i))
    out: list[str] = []
    seen: set[str] = set()
    for i, line in enumerate(lines):
        if parsed[i] is None:
            if dedupe_other and line.strip():
                if line in seen:
                    continue
                seen.add(line)
            out.append(line)
            continue
        held, first = winners[group_of[i]]
        if i == first:
            out.append(held.line)
    return out
