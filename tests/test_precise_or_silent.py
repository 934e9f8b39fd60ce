"""Precise or silent (docs/memory.md): a living note holds only what is surely a durable
statement, and a claim is replaced only on evidence. The cases a new user tripped on, as a user
would meet them: through `wikimem remember`, the installed hook and `wikimem dream`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import make_repo
from tests.sessions import claude_session
from tests.test_dream import replay, wikimem
from tests.test_judgment import _session_start

SID = "5e1d0c1a-7d4a-4e9b-9c21-5a6f0d8e4b{:02d}"


def living(home: Path, project: str = "acme-api") -> str:
    """Every living note of the project and the profile, as stored."""
    out = []
    for folder in (Path(home, "memory", "projects", project), Path(home, "memory", "profile")):
        for p in sorted(folder.glob("*.md")) if folder.is_dir() else []:
            out.append(p.read_text())
    return "\n".join(out)


@pytest.fixture
def repo(home: Path, tmp_path: Path) -> str:
    path = str(make_repo(tmp_path / "api", "git@github.com:acme/api.git"))
    os.chdir(path)
    return path


def session(
    n: int, repo: str, *prompts: str, steps: list[tuple[object, ...]] | None = None
) -> None:
    turns = [{"prompt": p, "steps": steps or []} for p in prompts]
    replay("claude", claude_session(SID.format(n), repo, turns))
    assert wikimem("dream").returncode == 0


def test_two_numbered_facts_both_stay_current(home: Path, repo: str) -> None:
    for said in ("Issue 123 was fixed by PR 456", "Issue 789 was fixed by PR 1011"):
        assert wikimem("remember", said, "--project", "acme-api").returncode == 0
    given = _session_start(repo)
    assert "Issue 123 was fixed by PR 456" in given and "Issue 789 was fixed by PR 1011" in given
    assert "(was 123" not in living(home)


def test_a_choice_of_container_engine_and_a_fact_about_docker_desktop_both_stay(
    home: Path, repo: str
) -> None:
    for said in (
        "We use Podman for containers.",
        "Docker Desktop on the build Macs is capped at 8 GB of RAM.",
    ):
        assert wikimem("remember", said, "--project", "acme-api").returncode == 0
    given = _session_start(repo)
    assert "Podman" in given and "8 GB of RAM" in given


@pytest.mark.parametrize(
    "question", ["which port does the orders service use", "how do I run the tests"]
)
def test_a_question_is_never_stored(home: Path, repo: str, question: str) -> None:
    proc = wikimem("remember", question)
    assert proc.returncode == 1 and "a question" in proc.stderr
    session(1, repo, question)
    assert question not in living(home).lower()


def test_requests_and_orders_for_now_stay_in_the_digest(home: Path, repo: str) -> None:
    said = [
        "kick off the nightly export and ping me if it's red",
        "dont merge anything till I'm back",
        "can u take the cherry-pick section out of CONTRIBUTING.md",
        "prob a race in the worker, check the flusher",
    ]
    session(1, repo, *said)
    notes = living(home).lower()
    assert not [s for s in said if s.split(",")[0].lower() in notes]
    digests = "\n".join(
        p.read_text() for p in Path(home, "memory", "projects", "acme-api", "sessions").glob("*")
    )
    assert "**Asked of the agent:** dont merge anything till I'm back" in digests
    # a later prompt is not told the order as if it still stood
    replay(
        "claude",
        [
            {
                "session_id": SID.format(9),
                "cwd": repo,
                "hook_event_name": "UserPromptSubmit",
                "prompt": "ok merge the proration PR into main, anything stopping me?",
            }
        ],
    )
    given = wikimem("inject", "prompt", "--cwd", repo, "--prompt", "can I merge anything now?")
    assert "dont merge anything" not in given.stdout


def test_a_standing_instruction_keeps_its_value_and_a_later_one_in_its_slot_replaces_it(
    home: Path, repo: str
) -> None:
    session(1, repo, "Going forward, I'd like you to end all variable names with '_wr'.")
    session(2, repo, "I want to update a previous instruction: end all variable names with '_q'.")
    given = _session_start(repo)
    assert "'_q'" in given
    assert given.count("'_wr'") == given.count("(was '_wr' until")  # only as what it was


def test_an_output_that_counts_no_failure_is_a_pass(home: Path, repo: str) -> None:
    steps = [("run", "make validate", True, "3 checks, 0 errors\nFAIL=0")]
    session(1, repo, "validate", steps=steps)
    session(2, repo, "validate again", steps=steps)
    commands = Path(home, "memory", "projects", "acme-api", "commands.md").read_text()
    assert "| `make validate` | build | 2 | 0 |" in commands


def test_a_one_off_command_is_no_row_until_another_session_runs_it(home: Path, repo: str) -> None:
    once = [("run", "pytest tests/unit -x --maxfail=3", True, "40 passed")]
    session(1, repo, "run the unit tests", steps=once)
    table = Path(home, "memory", "projects", "acme-api", "commands.md")
    assert not table.exists() or "maxfail" not in table.read_text()
    again = [("run", "pytest tests/unit -x --maxfail=5", True, "40 passed")]
    session(2, repo, "run them again", steps=again)
    assert "`pytest tests/unit -x --maxfail=<n>`" in table.read_text()


def test_a_declared_target_narrowed_to_one_corner_is_a_variant_not_the_way_to_run_it(
    home: Path, repo: str
) -> None:
    steps = [
        ("run", "make lint", True, "ok"),
        ("run", "make lint PKG=./internal/ingest/...", True, "ok"),
    ]
    session(1, repo, "lint it", steps=steps)
    table = Path(home, "memory", "projects", "acme-api", "commands.md").read_text()
    assert "`make lint`" in table and "PKG=" not in table


def test_a_command_that_passes_on_a_plain_retry_is_no_pitfall(home: Path, repo: str) -> None:
    steps = [
        ("run", "git commit -S -m 'fix: eta'", False, "error: gpg failed to sign the data"),
        ("run", "git commit -S -m 'fix: eta'", True, "[main 1a2b3c4] fix: eta"),
    ]
    session(1, repo, "commit it", steps=steps)
    pitfalls = Path(home, "memory", "projects", "acme-api", "pitfalls.md")
    assert not pitfalls.exists() or "gpg failed" not in pitfalls.read_text()


def test_moving_off_a_tool_takes_its_commands_out_and_leaves_the_pitfalls(
    home: Path, repo: str
) -> None:
    steps = [
        ("run", "uv sync", False, "error: No module named 'tomllib'; requires Python 3.11"),
        ("run", "uv python install 3.12", True, "Installed Python 3.12.4"),
        ("run", "uv sync", True, "Resolved 40 packages"),
        ("run", "make test", True, "12 passed"),
    ]
    session(1, repo, "set up the env", steps=steps)
    session(2, repo, "set up the env again", steps=steps[1:])
    pitfalls = Path(home, "memory", "projects", "acme-api", "pitfalls.md")
    before = pitfalls.read_text()
    assert "`uv sync` failed" in before
    session(3, repo, "we've moved off uv, poetry handles the env now")
    commands = Path(home, "memory", "projects", "acme-api", "commands.md").read_text()
    assert "uv sync" not in commands and "make test" in commands
    assert pitfalls.read_text() == before  # a retraction is not about a pitfall


def test_a_temporary_state_is_given_until_its_day_and_not_after(home: Path, repo: str) -> None:
    session(1, repo, "heads up, the release branch is frozen until 2026-03-06")
    env = {"WIKIMEM_TODAY": "2026-03-06"}
    assert "frozen until 2026-03-06" in _start_on(repo, env)
    assert "frozen until 2026-03-06" not in _start_on(repo, {"WIKIMEM_TODAY": "2026-03-07"})


def _start_on(repo: str, env: dict[str, str]) -> str:
    proc = wikimem("inject", "session-start", "--cwd", repo, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_a_cross_cutting_phrase_makes_a_rule_the_persons_and_its_change_replaces_it_everywhere(
    home: Path, repo: str, tmp_path: Path
) -> None:
    web = str(make_repo(tmp_path / "web", "git@github.com:acme/web.git"))
    session(1, repo, "4 spaces for indentation in all my repos")
    session(2, repo, "tabs for everything I touch from now on, any language, not only here")
    given = _session_start(web)
    assert "tabs for everything i touch" in given.lower()
    assert "4 spaces" not in given


def test_a_mentors_advice_stays_in_the_digest_and_the_rule_beside_it_is_kept(
    home: Path, repo: str
) -> None:
    session(
        1,
        repo,
        "Remember, consistency and clarity are key. Always strive for excellence.",
        "Investing in your skills is always a good idea; our primary concern is always quality.",
        "I want you to follow a specific naming convention for your methods. Start all method"
        " names with 'md_'.",
        "Remember that the staging database listens on port 5433.",
    )
    kept = living(home)
    assert "'md_'" in kept and "5433" in kept
    for advice in ("clarity are key", "strive for excellence", "good idea", "primary concern"):
        assert advice not in kept
    assert "specific naming convention" not in kept
    digest = "\n".join(p.read_text() for p in Path(home, "memory").rglob("sessions/*.md"))
    assert "strive for excellence" in digest  # said, dated, found by search


def test_a_value_replaced_two_changes_ago_is_not_given_from_an_old_digest(
    home: Path, repo: str
) -> None:
    said = [
        ("From now on, start all function names with 'fn_'.", "Understood, 'fn_' it is."),
        ("I want to update that: start all function names with 'x_' instead.", "Sure, 'x_'."),
        ("Change of plan: start all function names with 'c_' from now on.", "Will do: 'c_'."),
    ]
    for n, (prompt, answer) in enumerate(said, 1):
        turns = [{"prompt": prompt, "steps": [], "answer": answer}]
        replay("claude", claude_session(SID.format(n), repo, turns))
        assert wikimem("dream").returncode == 0
    given = wikimem(
        "inject", "prompt", "--cwd", repo, "--prompt", "which prefix for function names, fn_?"
    ).stdout
    given += _session_start(repo)
    assert "'c_'" in given
    assert "'fn_'" not in given
    assert given.count("'x_'") == given.count("(was 'x_' until")


def test_two_naming_rules_said_together_are_changed_one_at_a_time(home: Path, repo: str) -> None:
    session(
        1,
        repo,
        "Going forward, I'd like you to start method names with 'o_' and end them with '_ud'.",
    )
    session(2, repo, "I want to update a previous instruction: start all method names with 'md_'.")
    given = _session_start(repo)
    assert "'md_'" in given and "'_ud'" in given  # the end rule was not changed: it stands
    assert given.count("'o_'") == given.count("(was 'o_' until")  # only as what it was


def test_a_rule_for_one_day_and_a_figure_read_off_a_run_stay_in_the_digest(
    home: Path, repo: str
) -> None:
    session(
        1,
        repo,
        "dont deploy anything today, payments are migrating",
        "P99 is 1.84 s on the orders endpoint after the cache change.",
        "The orders endpoint's p99 must stay under 300 ms.",
        "The orders service listens on port 8443.",
    )
    notes = living(home)
    assert "dont deploy anything" not in notes.lower() and "1.84 s" not in notes
    assert "under 300 ms" in notes and "8443" in notes
    digests = "\n".join(
        p.read_text() for p in Path(home, "memory", "projects", "acme-api", "sessions").glob("*")
    )
    assert "1.84 s" in digests  # still found by a search of what was said


def test_a_changed_limit_replaces_the_old_one_and_a_limit_on_another_thing_does_not(
    home: Path, repo: str
) -> None:
    session(1, repo, "when you answer me keep it to 5 bullets max, no preamble.")
    session(2, repo, "PRs must touch at most 3 files.")
    session(3, repo, "change of plan on answer length: 3 bullets max from now on.")
    current = [ln for ln in living(home).splitlines() if ln.startswith("- ")]
    assert not [ln for ln in current if "5 bullets" in ln]
    assert [ln for ln in current if "3 bullets max" in ln]
    assert [ln for ln in current if "at most 3 files" in ln]


def test_a_naming_rule_said_with_a_reason_or_a_condition_is_kept(home: Path, repo: str) -> None:
    session(
        1,
        repo,
        "Likewise, for function argument names, end them with '_g'. This will provide clarity "
        "and consistency in our codebases.",
        "So, when you're naming attributes, always start the name with 'r_'.",
    )
    notes = living(home)
    assert "'_g'" in notes and "'r_'" in notes
    # a reason that mentions "our codebases" does not make the rule the person's everywhere
    prefs = home / "memory" / "profile" / "preferences.md"
    assert not prefs.exists() or "'_g'" not in prefs.read_text()


def test_a_value_said_only_in_an_old_digest_is_not_given_once_a_rule_replaces_it(
    home: Path, repo: str
) -> None:
    # the first value was never a claim (an answer, not the person's words): only the digest
    # holds it, and a later rule in its slot makes it old
    turns = [
        {
            "prompt": "what do our method names start with?",
            "steps": [],
            "answer": "Method names start with 'mx_' here; I'll start method names with 'mx_'.",
        }
    ]
    replay("claude", claude_session(SID.format(1), repo, turns))
    assert wikimem("dream").returncode == 0
    session(2, repo, "From now on, start all method names with 'my_'.")
    given = wikimem(
        "inject", "prompt", "--cwd", repo, "--prompt", "what do method names start with?"
    ).stdout
    given += _session_start(repo)
    assert "'my_'" in given
    assert "'mx_'" not in given


def test_a_sentence_cut_off_mid_way_is_no_claim(home: Path, repo: str) -> None:
    session(1, repo, "For the label templates from now on we should always use the.")
    assert "label templates" not in living(home)


@pytest.mark.parametrize(
    ("first", "later", "old", "new"),
    [
        (
            "local postgres for the api runs on 55432 (compose maps it), 5432 is my system one.",
            "moved the local pg to 6543, 55432 kept clashing with the tunnel.",
            "55432",
            "6543",
        ),
        (
            "api PRs need 2 approvals before merge, gitlab enforces it.",
            "we dropped to one approval on api PRs, the team is too small now.",
            "2 approvals",
            "one approval",
        ),
        (
            "the api targets java 17, lots of users still run 17.",
            "changed my mind: the api goes to java 21 for the 2.0 line.",
            "java 17",
            "java 21",
        ),
        (
            "rule for this repo: ask me first before running migrations on the shared dev db.",
            "let's drop the ask-first thing for the dev db, it slows everyone down.",
            "ask me first",
            "",
        ),
    ],
)
def test_a_change_of_mind_in_everyday_words_replaces_the_old_claim(
    home: Path, repo: str, first: str, later: str, old: str, new: str
) -> None:
    session(1, repo, first)
    assert old in living(home).lower()
    session(2, repo, later)
    current = [ln.lower() for ln in living(home).splitlines() if ln.startswith("- ")]
    assert not [ln for ln in current if old in ln and "(was" not in ln]
    assert not new or [ln for ln in current if new in ln]
    prefs = home / "memory" / "profile" / "preferences.md"
    assert not prefs.exists() or old not in prefs.read_text().lower()  # never the person's
