"""Claim lines, as sync's merge and reconciliation need them (DESIGN §5: one claim per line).

A living note's line reads like
`- **Metrics collector port**: The metrics collector runs on port 9300 (was 9102 until
2026-11-30). ([[projects/acme-api/sessions/2026-11-30-0199a2b3-3fa2c1|codex 2026-11-30]])`:
an optional bold subject, the claim, a trailing provenance (a wikilink whose label holds the
client and the date, or `(stated 2026-11-29 …)`).

Contract: `parse_claim(line)` gives its subject key (the bold subject, else the claim's text
without provenance), that text, and its date (from the provenance; "" without one);
`newer_claim(a, b)` is the one of two claims about one subject that stands: the later date,
ties broken by the text so every machine decides alike. This is a minimal version, meant to be
replaced by `wikimem.dream.claims` when it lands: nothing else in sync parses claims.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Claim:
    key: str  # "subject:<bold subject>" or "text:<claim text>", lower-case, spaces collapsed
    text: str  # the line without its provenance, spaces collapsed
    date: str  # YYYY-MM-DD from its provenance, "" when it has none
    line: str


_BOLD_SUBJECT = re.compile(r"^\s*(?:[-*+]\s+|\d+\.\s+)?\*\*(?P<subject>[^*]+?)\*\*\s*:?")
_PROVENANCE = re.compile(r"\s*\((?:[^()]|\([^()]*\))*\)\s*$")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+\S")


def is_claim_line(line: str) -> bool:
    """A list item: what a living note's claims are written as."""
    return _BULLET.match(line) is not None


def parse_claim(line: str) -> Claim:
    provenance = _PROVENANCE.search(line)
    tail = provenance.group(0) if provenance else ""
    if provenance and ("[[" in tail or _DATE.search(tail)):
        text, dates = line[: provenance.start()], _DATE.findall(tail)
    else:
        text, dates = line, []
    text = " ".join(text.split())
    subject = _BOLD_SUBJECT.match(line)
    if subject:
        key = "subject:" + " ".join(subject.group("subject").lower().split())
    else:
        key = "text:" + text.lstrip("-*+ ").lower()
    return Claim(key, text, dates[-1] if dates else "", line)


def newer_claim(a: Claim, b: Claim) -> Claim:
    """Of two claims about one subject, the one that stands."""
    return max(a, b, key=lambda c: (c.date, c.line))
