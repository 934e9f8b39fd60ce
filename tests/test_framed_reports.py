"""A colon far more often introduces a report, pasted output or a guess than a standing claim:
none of these prompts is a claim (a first version of framed statements made each of them one,
and it would have been injected into later sessions as something that holds)."""

from __future__ import annotations

import pytest

from wikimem.dream.statements import extract

NOT_CLAIMS = [
    "files touched: src/api/handlers.py and src/api/routes.py",  # a progress report
    "current branch: feature/login-fix",  # state of the checkout
    "summary of today's work: migrated users table, only orders left",  # progress
    "Here's the error: cannot find module `lodash/fp`",  # pasted error
    "stack trace from prod: TypeError in api/users.py line 42",  # pasted trace
    "diff so far: only whitespace in README",  # progress
    "docker ps shows: api-1 web-1 db-1 only",  # tool output
    "compiler warning in lib/core.rs: unused variable `x`",  # tool output
    "git log --oneline: a1b2c3 fix auth/session timeout",  # tool output
    "my guess: a race in worker/queue.py, not the db",  # a guess, not a fact
    "random thought: maybe use `uv` over pip",  # hedged
    "bench result: 120 ms over 95 ms baseline",  # one measurement
]


@pytest.mark.parametrize("prompt", NOT_CLAIMS)
def test_a_report_or_paste_with_a_colon_is_no_claim(prompt: str) -> None:
    assert extract(prompt, None, True) == []
