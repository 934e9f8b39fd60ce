"""Judgment on sentences nobody wrote a rule for: supersession only on one subject, both kept
(contested) when the rules cannot tell, scope by what a cue means, claims from the agent and
from tool output with who said them."""

from __future__ import annotations

from pathlib import Path

from wikimem.dream.claims import (
    CONTESTED,
    Claim,
    Provenance,
    claims_in,
    contested_lines,
    drop_lines,
    fold,
    retract,
)
from wikimem.dream.subjects import key_of, subject_label
from wikimem.dream.supersession import DIFFERENT, SAME, UNSURE, verdict
from wikimem.home import Home
from wikimem.wiki.batch import Wiki
from wikimem.wiki.remember import remember


def current(home: Home, rel: str) -> list[str]:
    text = Path(home.memory_dir, rel).read_text()
    return [c.text for _, c in claims_in(text)]


# -- supersession only on one subject ---------------------------------------------------------


def test_an_unrelated_remember_that_runs_a_tool_keeps_the_rule_about_that_tool(home: Path) -> None:
    h = Home(str(home))
    remember(Wiki(h), "We use pnpm, never npm", project="acme-web")
    remember(Wiki(h), "Run lint with pnpm lint before pushing", project="acme-web")
    texts = current(h, "projects/acme-web/conventions.md")
    assert any("never npm" in t for t in texts), texts
    assert any("pnpm lint before pushing" in t for t in texts), texts
    body = Path(h.memory_dir, "projects/acme-web/conventions.md").read_text()
    assert "wikimem:was" not in body  # nothing was recorded as replaced


def test_running_a_tool_is_not_choosing_it() -> None:
    for ran in (
        "Run lint with pnpm lint before pushing.",
        "Always run `npm test` before you open a pull request.",
        "Format the changed files with black src/ before committing.",
    ):
        assert key_of(ran).category is None, ran
        assert subject_label(ran) == "", ran
    for chose in ("We use pnpm, never npm.", "format with black, not yapf", "Use bun for scripts."):
        assert key_of(chose).category is not None, chose
    assert verdict("Run lint with pnpm lint before pushing.", "We use pnpm, never npm.") is (
        DIFFERENT
    )


def test_a_label_an_older_version_gave_a_passing_mention_replaces_nothing() -> None:
    body = (
        "- **JS package manager**: Run lint with pnpm lint before pushing. (remember 2026-11-01)\n"
    )
    folded = fold(body, Claim("We use bun, never npm.", "JS package manager"), today="2026-12-01")
    assert len(claims_in(folded.body)) == 2


def test_when_the_rules_cannot_tell_both_are_kept_newest_first_and_marked_contested() -> None:
    old = "The API listens on port 8080."
    new = "The admin API listens on port 9000."
    assert verdict(new, old) is UNSURE
    body = f"- {old} (claude 2026-11-20)\n"
    folded = fold(body, Claim(new, "", Provenance("codex", "2026-12-01")), today="2026-12-01")
    lines = folded.body.splitlines()
    assert lines[0].startswith(f"- {new}") and "2026-12-01" in lines[0]
    assert lines[1] == f"{CONTESTED}{old} (claude 2026-11-20)"
    assert folded.contested == old and folded.replaced is None
    assert [c.text for _, c in contested_lines(folded.body)] == [old]
    assert "wikimem:was" not in folded.body  # nothing was said to be replaced


def test_a_word_of_change_or_the_old_value_named_makes_it_certain() -> None:
    old = "The minimum Python is 3.11."
    assert verdict("The minimum supported Python is 3.12 now, not 3.11.", old) is SAME
    assert verdict("The minimum supported Python version moved to 3.12.", old) is SAME
    assert verdict("The collector was moved to 9300.", "The metrics collector runs on 9102.") is (
        SAME
    )


def test_a_later_certain_claim_settles_the_contested_one_and_retraction_reaches_both() -> None:
    body = f"- The admin API listens on port 9000. (codex 2026-12-01)\n{CONTESTED}The API listens on port 8080. (claude 2026-11-20)\n"
    settled = fold(body, Claim("The API listens on port 8081 now."), today="2026-12-02")
    assert contested_lines(settled.body) == []
    assert any("8081" in c.text for _, c in claims_in(settled.body))
    gone, removed = retract(body, "the API port")
    assert len(removed) == 2 and "8080" not in gone.split("wikimem:was")[0]


def test_dropping_the_newer_of_a_contested_pair_puts_the_earlier_back() -> None:
    body = f"- New claim about x. (codex 2026-12-01)\n{CONTESTED}Old claim about x. (claude 2026-11-20)\n- Other.\n"
    out = drop_lines(body, [0])
    assert out.splitlines()[0] == "- Old claim about x. (claude 2026-11-20)"
    assert CONTESTED not in out


def test_remember_reports_what_it_kept_contested(home: Path) -> None:
    h = Home(str(home))
    remember(Wiki(h), "The API listens on port 8080", project="acme-api")
    result = remember(Wiki(h), "The admin API listens on port 9000", project="acme-api")
    assert "Contested" in result.message
    body = Path(h.memory_dir, "projects/acme-api/facts.md").read_text()
    line = next(ln for ln in body.splitlines() if "port 8080" in ln)
    assert line.startswith(CONTESTED)
    assert body.index("port 9000") < body.index("port 8080")


# -- claims from the whole session -------------------------------------------------------------


def _cursor_session_start(cwd: str) -> str:
    import json

    from tests.conftest import run_hook

    proc = run_hook(
        "cursor",
        {
            "hook_event_name": "sessionStart",
            "conversation_id": "c0ffee00-1111-4222-8333-444455556666",
            "workspace_roots": [cwd],
        },
        installed_form=True,
    )
    assert proc.returncode == 0
    return str(json.loads(proc.stdout or b"{}").get("additional_context", ""))


def test_the_agents_correction_reaches_the_next_session_in_cursor(
    home: Path, tmp_path: Path
) -> None:
    from tests.conftest import make_repo
    from tests.sessions import claude_session, codex_session
    from tests.test_dream import replay, wikimem

    repo = str(make_repo(tmp_path / "work" / "svc", "git@github.com:acme/svc.git"))
    replay(
        "claude",
        claude_session(
            "5e1d0c1a-7d4a-4e9b-9c21-5a6f0d8e4b17",
            repo,
            [{"prompt": "fyi our minimum python version is 3.11. add a smoke test for the cli"}],
        ),
    )
    assert wikimem("dream").returncode == 0
    replay(
        "codex",
        codex_session(
            "019e0000-4c1b-7f30-9a8e-2b6c5d4e3f10",
            repo,
            [
                {
                    "prompt": "make the CI matrix match what pyproject says",
                    "steps": [
                        (
                            "run",
                            "grep requires-python pyproject.toml",
                            True,
                            'requires-python = ">=3.12"',
                        ),
                    ],
                    "answer": "I read pyproject.toml: the minimum Python is 3.12 now, not 3.11. "
                    "I dropped 3.11 from the CI matrix.",
                }
            ],
        ),
    )
    assert wikimem("dream").returncode == 0
    facts = Path(home, "memory", "projects/acme-svc/facts.md").read_text()
    current_lines = [ln for ln in facts.splitlines() if ln.startswith("- ")]
    assert any("3.12" in ln and "agent in codex" in ln for ln in current_lines), facts
    assert not any("3.11" in ln and "3.12" not in ln for ln in current_lines), facts

    given = _cursor_session_start(repo)
    assert "3.12" in given
    for line in given.splitlines():
        if "3.11" in line:
            assert "3.12" in line  # only as what it is no longer ("not 3.11", "was 3.11 until")
