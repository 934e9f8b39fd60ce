"""Statements in prompts, and folding them into living notes: a correction replaces, the rest stays."""

from __future__ import annotations

import pytest

from wikimem.dream.facts import extract, merge_statement, same_subject

SAME = [
    ("I prefer spaces for indentation.", "I prefer tabs for indentation."),
    ("We use Postgres 16 in production.", "We use Postgres 14 in production."),
    ("I prefer light mode.", "I prefer dark mode."),
    ("Always run tests with pytest -x.", "Always run tests with make test."),
    ("Use pnpm instead of npm.", "Always use npm."),
    ("Never deploy on Fridays.", "Always deploy on Fridays."),
    ("The staging database listens on port 6543.", "The staging database listens on port 5433."),
]
DIFFERENT = [
    ("I prefer small commits.", "I prefer dark mode."),
    ("Always run tests before committing.", "Never push to main."),
    ("Use pnpm for installs.", "Use vitest for tests."),
    ("The staging database is Postgres 15.", "The staging database listens on port 5433."),
]


@pytest.mark.parametrize("new,old", SAME)
def test_a_statement_on_the_same_subject_replaces_the_old_one(new: str, old: str) -> None:
    assert same_subject(new, old)
    body, replaced = merge_statement(
        f"- {old} (stated 2026-11-01 in claude:aaaa)\n", new, "2026-11-29 in codex:bbbb"
    )
    assert replaced == old
    assert body.count("\n- ") + body.startswith("- ") == 1 and new in body


@pytest.mark.parametrize("new,old", DIFFERENT)
def test_statements_on_different_subjects_stay_side_by_side(new: str, old: str) -> None:
    assert not same_subject(new, old)


def test_extraction() -> None:
    kinds = {
        s.text: s.kind
        for s in extract(
            "Actually, my timezone is UTC-5. From now on use pnpm for installs. Fix the login bug. "
            "Remember that staging listens on 5433. Remember to run the linter. Why does it fail?"
        )
    }
    assert kinds == {
        "My timezone is UTC-5.": "about",
        "From now on use pnpm for installs.": "preference",
        "Staging listens on 5433.": "fact",
    }
