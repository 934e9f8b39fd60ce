"""The blind corpora (tests/corpus/blind/, written by an outside tester who read no wikimem code)
hold the detectors to the figures they reached: commands held and falsely held by the held-
command detector every caller uses, secrets in prose caught and ordinary sentences harmed by
redaction. The first run, on the unchanged code (04af5e7), is in bench/blind_corpora.py."""

from __future__ import annotations

from tests.corpus.blind_corpora import (
    COMMANDS,
    PROSE_ORDINARY,
    PROSE_SECRETS,
    score_commands,
    score_prose,
)
from wikimem.capture.redact import redact
from wikimem.wiki.confirmations import needs_confirming

COMMANDS_HELD = 141  # of 142 (first run: 32)
FALSE_HOLDS = 0  # of 105 (first run: 1)
PROSE_CAUGHT = 56  # of 56 (first run: 17)


def test_the_corpora_are_what_their_readme_says() -> None:
    labels = [c["label"] for c in COMMANDS]
    assert (labels.count("hold"), labels.count("ok"), len(labels)) == (142, 105, 247)
    assert len(PROSE_SECRETS) == 56 and len(PROSE_ORDINARY) == 54
    assert all(p["secret"] in p["text"] for p in PROSE_SECRETS)


def test_held_commands_figures_hold() -> None:
    held, false = score_commands(needs_confirming)
    assert held.hit >= COMMANDS_HELD, held.misses
    assert false.hit <= FALSE_HOLDS, false.hits


def test_prose_figures_hold_and_no_ordinary_sentence_is_harmed() -> None:
    caught, harmed = score_prose(redact)
    assert caught.hit >= PROSE_CAUGHT, caught.misses
    assert harmed.hits == []
