"""The blind corpora of tests/corpus/blind/ (see its README): loaded, and scored.

A command counts as held when the detector every caller uses holds it; a prose sentence as
caught when redaction reports a finding and its `secret` substring is gone; an ordinary
sentence as harmed when redaction changes anything in it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent / "blind"


def load(name: str) -> list[dict[str, str]]:
    data: list[dict[str, str]] = json.loads((HERE / name).read_text(encoding="utf-8"))
    return data


COMMANDS = load("commands.json")
PROSE_SECRETS = load("prose_secrets.json")
PROSE_ORDINARY = load("prose_ordinary.json")


@dataclass
class Score:
    hit: int = 0
    total: int = 0
    by_class: dict[str, list[int]] = field(default_factory=dict)  # class -> [hit, total]
    hits: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)

    def add(self, cls: str, ok: bool, text: str) -> None:
        self.total += 1
        row = self.by_class.setdefault(cls, [0, 0])
        row[1] += 1
        if ok:
            self.hit += 1
            row[0] += 1
            self.hits.append(text)
        else:
            self.misses.append(text)


def score_commands(holds: Callable[[str], bool]) -> tuple[Score, Score]:
    """(hold lines held, ok lines held: false holds)."""
    held, false = Score(), Score()
    for item in COMMANDS:
        hit = holds(item["text"])
        if item["label"] == "hold":
            held.add(item["class"], hit, item["text"])
        else:
            false.add(item["class"], hit, item["text"])
    return held, false


def score_prose(redact: Callable[[str], tuple[str, list[str]]]) -> tuple[Score, Score]:
    """(secrets caught, ordinary sentences harmed)."""
    caught, harmed = Score(), Score()
    for item in PROSE_SECRETS:
        out, kinds = redact(item["text"])
        caught.add(item["class"], bool(kinds) and item["secret"] not in out, item["text"])
    for item in PROSE_ORDINARY:
        harmed.add(item["class"], redact(item["text"])[0] != item["text"], item["text"])
    return caught, harmed
