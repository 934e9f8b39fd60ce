"""Which sentences of a prompt are worth remembering, rewritten to stand alone, with a scope."""

from __future__ import annotations

from datetime import date

import pytest

from wikimem.dream.statements import extract

MONDAY_AFTER = date(2026, 12, 1)  # a Tuesday


def one(text: str, in_project: bool = True) -> tuple[str, str, str]:
    found = extract(text, MONDAY_AFTER, in_project)
    assert len(found) == 1, found
    return found[0].kind, found[0].text, found[0].scope


def test_a_fact_said_in_passing_is_kept_without_filler_or_here() -> None:
    assert one("by the way, the metrics collector runs on port 9102 here") == (
        "fact",
        "The metrics collector runs on port 9102.",
        "project",
    )


def test_a_correction_loses_its_request_and_gets_an_absolute_date() -> None:
    assert one("the collector was moved to 9300 on Monday, please fix the dashboards") == (
        "fact",
        "The collector was moved to 9300 on 2026-11-30.",
        "project",
    )


def test_a_convention_without_here_belongs_to_the_project_and_is_split() -> None:
    found = extract("Always use 2-space indentation and never use default exports", MONDAY_AFTER)
    assert [(s.kind, s.text, s.scope) for s in found] == [
        ("convention", "Always use 2-space indentation.", "project"),
        ("convention", "Never use default exports.", "project"),
    ]


@pytest.mark.parametrize(
    "text,scope",
    [
        ("I prefer tabs in all my projects.", "profile"),
        ("Please keep answers short.", "profile"),
        ("Don't use emojis in your answers.", "profile"),
        ("My timezone is UTC-5.", "profile"),
        ("We use pnpm, never npm.", "project"),
        ("Releases are tagged by CI after the changelog check.", "project"),
    ],
)
def test_scope(text: str, scope: str) -> None:
    assert one(text)[2] == scope


def test_outside_a_project_preferences_are_the_persons_and_facts_general() -> None:
    assert one("Always use 2-space indentation.", in_project=False)[2] == "profile"
    assert one("The team wiki lives at https://wiki.example.com.", in_project=False)[2] == "general"


@pytest.mark.parametrize(
    "text",
    [
        "I'm seeing a weird error in the logs",
        "How are releases cut here?",
        "Fix the login bug.",
        "Can you run the tests?",
        "The tests are failing on CI, can you look?",
        "Run the backfill with --dry-run --limit 163",
        "ok thanks, looks good",
        "Remember to run the linter.",
        "Let's refactor the auth module",
        "Use the new endpoint",
        "I think the cache might be stale.",
    ],
)
def test_not_statements(text: str) -> None:
    assert extract(text, MONDAY_AFTER) == []


def test_retractions() -> None:
    (bare,) = extract("Forget that.", MONDAY_AFTER)
    assert bare.kind == "retraction" and bare.target == ""
    (named,) = extract("forget what I said about the metrics collector port", MONDAY_AFTER)
    assert named.kind == "retraction" and named.target == "the metrics collector port"
    (gone,) = extract("The staging proxy is no longer true.", MONDAY_AFTER)
    assert gone.kind == "retraction" and gone.target == "The staging proxy"


def test_explicit_requests_are_kept_even_when_plain() -> None:
    (st,) = extract("Remember that the on-call rota changes weekly.", MONDAY_AFTER)
    assert st.explicit and st.text == "The on-call rota changes weekly."
