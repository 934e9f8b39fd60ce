"""Prompt-time recall (docs/recall.md): a one-off fact found in a session digest, turn by turn,
with its neighbours and its date; nothing the session start gave; the person's own rules from
other projects when a prompt is about how they work, labelled, never that project's facts; a
project named plainly gets its notes, a word used in a phrase does not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import make_repo, run_hook
from tests.test_recall import context_of, prompt_payload, seed
from wikimem.home import Home
from wikimem.recall import ownrules, ranking
from wikimem.recall.index import open_index
from wikimem.recall.inject import prompt as inject_prompt


def digest(project: str, turns: list[tuple[str, str]]) -> str:
    items = "".join(f"- **Asked:** {q}\n  **Answered:** {a}\n" for q, a in turns)
    return (
        f"Claude Code session in {project}.\n\n## Turns\n\n<!-- wikimem:turns -->\n{items}"
        "<!-- /wikimem:turns -->\n"
    )


CHATTER = [
    ("rename the settings page header", "Renamed it to Account settings."),
    ("bump the eslint config", "Bumped it; lint passes."),
    ("why is the dashboard slow on first load?", "The charts bundle is 2 MB; I split it."),
    ("add a loading spinner to the orders table", "Added one while the orders load."),
    ("the login form forgets the email field", "It keeps the email in session storage now."),
]

# A home like a person's after some weeks: three projects, living notes, digests.
WIKI = {
    "profile/preferences.md": ("Preferences", "profile", "- Keep answers short.\n"),
    "projects/acme-api/facts.md": (
        "acme-api facts",
        "project",
        "- **Staging database port**: The staging database listens on port 5433. "
        "(claude, 2026-11-02)\n- The api paginates with opaque cursors. (claude, 2026-11-02)\n",
    ),
    "projects/acme-api/conventions.md": (
        "acme-api conventions",
        "project",
        "- Handlers return problem+json errors. (claude, 2026-11-03)\n",
    ),
    "projects/acme-api/sessions/2026-11-04-aaaa1111.md": (
        "S",
        "session",
        digest(
            "acme-api",
            [
                *CHATTER[:3],
                ("which bucket do the nightly exports go to?", "Let me look at the job config."),
                ("and?", "They go to s3://acme-exports-stg, under the nightly/ prefix."),
                *CHATTER[3:],
            ],
        ),
    ),
    "projects/acme-web/conventions.md": (
        "acme-web conventions",
        "project",
        "- **Dev server port**: The dev server runs on port 5173. (claude, 2026-11-05)\n",
    ),
    "projects/acme-web/sessions/2026-11-05-bbbb2222.md": (
        "S",
        "session",
        digest(
            "acme-web",
            [
                *CHATTER[:2],
                (
                    "from now on, in every repo I own, commit messages follow Conventional "
                    "Commits: a type, a colon, then the summary in the imperative. fix the navbar",
                    "Fixed the navbar and committed it as `fix: keep the navbar on top`.",
                ),
                (
                    "I always run the tests against the dev server on port 5173 before I "
                    "push. deploy with make ship to web-1.acme.internal",
                    "Tests pass; deployed.",
                ),
                *CHATTER[2:],
            ],
        ),
    ),
    "projects/acme-billing/pitfalls.md": (
        "Pitfalls in acme-billing",
        "project",
        "- The nightly invoice job is slow because it renders every PDF twice; the template "
        "is cached now. (claude, 2026-11-06)\n"
        "- The billing history table is partitioned by month. (claude, 2026-11-06)\n",
    ),
    "projects/acme-billing/commands.md": (
        "Commands of acme-billing",
        "project",
        "| command | kind |\n|---|---|\n| `make invoices` | build |\n",
    ),
    "general/http.md": ("HTTP", "general", "- Retry idempotent requests only.\n"),
}


def index_of(home: Path) -> tuple[Home, object]:
    h = Home(str(home))
    index = open_index(h.state_dir, h.memory_dir)
    index.refresh(full=True)
    return h, index


def ask(home: Path, project: str, text: str, budget: int = 3000, session: str | None = None) -> str:
    h, index = index_of(home)
    try:
        return inject_prompt(h, index, project, session, text, budget) or ""  # type: ignore[arg-type]
    finally:
        index.close()  # type: ignore[attr-defined]


# -- a one-off fact, found in a digest ---------------------------------------------------------


def test_a_fact_only_in_a_digest_is_found_at_prompt_time_with_its_date(home: Path) -> None:
    seed(home, WIKI)
    text = ask(home, "acme-api", "which bucket do the nightly exports go to?", 1000)
    # the answer is the turn after the one that matched: a neighbour turn
    assert "s3://acme-exports-stg" in text
    assert "### projects/acme-api/sessions — earlier sessions, dated" in text
    assert "2026-11-04:" in text  # a digest is not current: its date is shown
    assert len(text) <= 1000
    assert "Renamed it to Account settings" not in text  # not the whole session


def test_a_newer_digest_comes_before_an_older_one_saying_as_much(home: Path) -> None:
    turn = [("what is the cache ttl of the catalog?", "The catalog cache ttl is {} minutes.")]
    notes = {
        f"projects/acme-api/sessions/{day}-{sid}.md": (
            "S",
            "session",
            digest("acme-api", [(turn[0][0], turn[0][1].format(minutes))]),
        )
        for day, sid, minutes in (("2026-06-01", "old11111", 5), ("2026-11-20", "new22222", 15))
    }
    seed(home, {**WIKI, **notes})
    text = ask(home, "acme-api", "what is the catalog cache ttl?")
    assert "2026-11-20:" in text and "2026-06-01:" in text
    # both dated; the newer is ranked first, so with room for one only it is the one given
    one = ask(home, "acme-api", "what is the catalog cache ttl?", 250)
    assert "2026-11-20:" in one and "2026-06-01:" not in one


def test_nothing_the_session_start_gave_is_given_again_with_a_prompt(
    home: Path, tmp_path: Path
) -> None:
    seed(home, WIKI)
    project = str(make_repo(tmp_path / "code" / "api", "git@github.com:acme/api.git"))
    start = run_hook(
        "claude",
        {
            "session_id": "s-start",
            "hook_event_name": "SessionStart",
            "cwd": project,
            "source": "startup",
        },
    )
    started = json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "port 5433" in started
    again = context_of(
        run_hook(
            "claude",
            prompt_payload("which port does the staging database use?", project, "s-start"),
        )
    )
    assert "5433" not in again
    # a fresh session was not given it at its start: its prompt gets it
    fresh = ask(home, "acme-api", "which port does the staging database use?")
    assert "5433" in fresh


# -- the person's own rules, from other projects -----------------------------------------------


def test_a_rule_said_in_another_project_is_given_for_a_prompt_about_commits(home: Path) -> None:
    seed(home, WIKI)
    text = ask(home, "acme-api", "how do I format commit messages?")
    assert ownrules.HEADING in text
    assert "commit messages follow Conventional Commits" in text
    assert "(said in acme-web, 2026-11-05)" in text  # where and when it was said
    # the task said in the same breath is that project's, not a rule
    assert "navbar" not in text


def test_a_rule_a_remote_brought_is_never_given_as_the_persons_own(home: Path) -> None:
    """Who said a line is this machine's record: a digest line or a claim a teammate's remote
    brought (its text imitating the person's) is not the person's rule in another project."""
    from wikimem.wiki import origins

    seed(home, WIKI)
    rel = "projects/acme-web/sessions/2026-11-05-bbbb2222.md"
    remote = origins.code(origins.REMOTE, "Mallory", "2026-11-05")
    body = (home / "memory" / rel).read_text()
    origins.save(str(home / "state"), {rel: {k: remote for k in origins.body_keys(body)}})
    text = ask(home, "acme-api", "how do I format commit messages?")
    assert "Conventional Commits" not in text and ownrules.HEADING not in text


def test_another_projects_port_host_and_commands_never_come_with_the_persons_rules(
    home: Path,
) -> None:
    seed(home, WIKI)
    for question in (
        "which port do I run the tests against?",
        "how do I deploy after the tests pass?",
        "how do I format commit messages?",
    ):
        text = ask(home, "acme-api", question, 8000)
        assert "5173" not in text, question
        assert "web-1.acme.internal" not in text and "make ship" not in text, question


def test_the_persons_rules_stay_home_when_the_prompt_is_not_about_how_they_work(
    home: Path,
) -> None:
    seed(home, WIKI)
    text = ask(home, "acme-api", "why does the messages endpoint return 500?")
    assert ownrules.HEADING not in text and "Conventional Commits" not in text


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("from now on, in every repo I own, commits are signed with my ssh key", True),
        ("that's a me thing, not a this-repo thing: TODOs always get an owner", True),
        ("I prefer rebase over merge for my branches", True),
        ("I always regenerate the client before I merge anything in the billing repo", False),
        ("I run the tests against port 5173", False),
        ("I deploy with make ship from here", False),
        ("commit the schema changes", False),  # a task, not a rule
        ("should I squash my commits?", False),
        ("I'd like the sidebar to remember its state", False),  # not about how they work
        ("I keep my test fixtures in tests/fixtures/data.json", False),
    ],
)
def test_what_counts_as_the_persons_own_rule(sentence: str, rule: bool) -> None:
    assert ownrules.is_rule(sentence, "acme-billing") is rule


# -- a project named plainly -------------------------------------------------------------------


# What billing found out about its invoice job is in its digest alone, and this project has a
# slow job of its own.
NAMED = {
    **WIKI,
    "projects/acme-billing/pitfalls.md": (
        "Pitfalls in acme-billing",
        "project",
        "- The billing history table is partitioned by month. (claude, 2026-11-06)\n",
    ),
    "projects/acme-billing/sessions/2026-11-06-cccc3333.md": (
        "S",
        "session",
        digest(
            "acme-billing",
            [
                *CHATTER[:2],
                (
                    "the invoice job takes 40 minutes, why so slow?",
                    "It renders every PDF twice; I cached the template, it takes 6 minutes now.",
                ),
                *CHATTER[2:],
            ],
        ),
    ),
    "projects/acme-api/pitfalls.md": (
        "Pitfalls in acme-api",
        "project",
        "- The export job is slow on the first of the month because every customer exports "
        "at once. (claude, 2026-11-02)\n",
    ),
}


@pytest.mark.parametrize(
    "question",
    [
        "why is the invoice job in billing slow?",
        "why is the invoice job in the billing repo slow?",
        "why is billing's invoice job slow?",
        "why is the invoice job in ~/code/billing slow?",
        "why is the invoice job in acme/billing slow?",
    ],
)
def test_a_repository_named_plainly_gets_its_notes(home: Path, question: str) -> None:
    seed(home, NAMED)
    text = ask(home, "acme-api", question)
    assert "renders every PDF twice" in text


@pytest.mark.parametrize(
    "question",
    [
        "how is the billing history table partitioned?",
        "show when each invoice was paid in the billing history table",
    ],
)
def test_a_repositorys_name_used_in_a_phrase_names_nothing(home: Path, question: str) -> None:
    seed(home, NAMED)
    text = ask(home, "acme-api", question)
    assert "partitioned by month" not in text and "acme-billing" not in text


# -- the one scoring function ------------------------------------------------------------------


def test_the_score_prefers_this_project_and_what_is_recent() -> None:
    assert ranking.score(4.0, 1.0, True, 0) > ranking.score(4.0, 1.0, False, 0)
    assert ranking.score(4.0, 1.0, False, 0) > ranking.score(4.0, 1.0, False, 90)
    # recency is a tie-breaker: a much better match of last year still wins
    assert ranking.score(8.0, 0.0, False, 365) > ranking.score(4.0, 0.0, False, 0)
    assert ranking.digest_day("projects/a/sessions/2026-11-04-aaaa1111.md") == "2026-11-04"
    assert ranking.day_number("2026-03-01") - ranking.day_number("2026-02-28") == 1  # type: ignore[operator]
