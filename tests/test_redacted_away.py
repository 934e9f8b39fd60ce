"""A line whose content redaction took away is no claim: never injected, never a search answer.

"Token is [REDACTED:github_token] for CI." says nothing an agent can use; it stays in the note
(the person sees it and may rewrite it) but no session start, prompt, search or index.md line
gives it. Lines where redaction hid a part and left the claim (a URL's credentials, a variable
to export before a workflow) are given as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, make_repo, run_hook
from tests.test_recall import context_of, prompt_payload
from tests.test_wiki_cli import wikimem
from wikimem.wiki.indexmd import write_index
from wikimem.wiki.redacted import redacted_away

CASES: dict[str, Any] = json.loads((FIXTURES / "redacted_away.json").read_text())

LEFTOVERS = {
    "profile/identity.md": (
        "Identity",
        "- password=[REDACTED:password]\n- Prefers small commits.\n",
    ),
    "projects/acme-api/facts.md": (
        "acme-api facts",
        "- **CI token**: Token is [REDACTED:github_token] for CI. (claude 2026-12-01)\n"
        "- The billing service listens on port 7301. (claude 2026-12-01)\n",
    ),
    "projects/acme-api/conventions.md": (
        "acme-api conventions",
        "- We deploy with [REDACTED:scrubbed]. (remember 2026-12-01)\n"
        "- Deploys need the release workflow to pass first. (remember 2026-12-01)\n",
    ),
    "projects/acme-api/commands.md": (
        "acme-api commands",
        "| command | kind | ok runs | failed runs | last ok |\n|---|---|---|---|---|\n"
        "| `deploy --token [REDACTED:scrubbed]` | run | 2 | 0 | 2026-12-01 |\n"
        "| `pnpm test` | test | 3 | 0 | 2026-12-01 |\n",
    ),
}


@pytest.mark.parametrize("line", CASES["gone"])
def test_a_line_whose_content_is_gone_is_recognised(line: str) -> None:
    assert redacted_away(line)


@pytest.mark.parametrize("line", CASES["kept"])
def test_a_line_that_still_says_something_is_kept(line: str) -> None:
    assert not redacted_away(line)


def seed(home: Path) -> None:
    for rel, (title, body) in LEFTOVERS.items():
        path = home / "memory" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        kind = "profile" if rel.startswith("profile/") else "project"
        path.write_text(f"---\ntitle: {title}\nkind: {kind}\n---\n{body}")


def test_leftovers_are_never_given_to_an_agent(home: Path, tmp_path: Path) -> None:
    seed(home)
    project = str(make_repo(tmp_path / "code" / "api", "git@github.com:acme/api.git"))
    start = context_of(
        run_hook(
            "claude",
            {"session_id": "s1", "hook_event_name": "SessionStart", "cwd": project},
        )
    )
    assert "port 7301" in start and "Prefers small commits" in start and "`pnpm test`" in start
    asked = "".join(
        context_of(run_hook("claude", prompt_payload(p, project, "s2")))
        for p in (
            "what is the CI token?",
            "how do we deploy acme-api?",
            "what is my password?",
            "which deploy command with a token works?",
        )
    )
    for given in (start, asked):
        assert "REDACTED" not in given, given
    found = wikimem("search", "token deploy password", "--json")
    assert found.returncode == 0, found.stderr
    assert "REDACTED" not in found.stdout and "release workflow" in found.stdout

    write_index(str(home / "memory"), fresh=list(LEFTOVERS))
    index_md = (home / "memory" / "index.md").read_text()
    assert "REDACTED" not in index_md and "port 7301" in index_md
    for rel in LEFTOVERS:  # the note itself keeps the line: the person sees what was there
        assert "REDACTED" in (home / "memory" / rel).read_text()
