"""What Gemini CLI is given: standing notes at SessionStart, passages with every prompt
(BeforeAgent); after `--resume` or a manual compression the standing notes come with the next
prompt instead, because Gemini drops SessionStart context from a rebuilt history."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import make_repo, run_hook
from tests.test_recall import seed

SESSION = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"


@pytest.fixture
def project(tmp_path: Path) -> str:
    return str(make_repo(tmp_path / "code" / "api", "git@github.com:acme/api.git"))


_CLOCK = itertools.count()


def event(name: str, cwd: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": SESSION,
        "transcript_path": "/tmp/none.jsonl",
        "cwd": cwd,
        "hook_event_name": name,
        "timestamp": f"2026-11-29T18:04:{next(_CLOCK) % 60:02d}.000Z",  # one per event
        **fields,
    }


def context(payload: dict[str, Any]) -> str:
    out = run_hook("gemini", payload).stdout
    if not out:
        return ""
    data = json.loads(out)
    assert set(data) == {"hookSpecificOutput"}
    assert data["hookSpecificOutput"]["hookEventName"] == payload["hook_event_name"]
    return str(data["hookSpecificOutput"]["additionalContext"])


STANDING = "Use pnpm, never npm"  # profile/preferences.md
PASSAGE = "make rollback VERSION=x"  # general/deploys.md: not a standing note


def test_session_start_and_prompt(home: Path, project: str) -> None:
    seed(home)
    start = context(event("SessionStart", project, source="startup"))
    assert STANDING in start and start.startswith('<memory source="wikimem">')
    assert len(start) <= 8000
    # Gemini prepends the SessionStart context to the first prompt: only the prompt is searched
    prompt = f"<hook_context>{start}</hook_context>\n\nHow does a deploy rollback work?"
    first = context(event("BeforeAgent", project, prompt=prompt))
    assert PASSAGE in first and STANDING not in first  # given at session start: not repeated
    assert len(first) <= 3000
    again = context(event("BeforeAgent", project, prompt="Deploy rollback, again?"))
    assert PASSAGE not in again  # a passage already given is not repeated
    for name in ("AfterAgent", "SessionEnd"):
        assert context(event(name, project, prompt_response="ok", reason="exit")) == ""


def test_resume_gives_the_standing_notes_with_the_first_prompt(home: Path, project: str) -> None:
    seed(home)
    assert STANDING in context(event("SessionStart", project, source="startup"))
    assert PASSAGE in context(event("BeforeAgent", project, prompt="deploy rollback?"))

    # gemini --resume: SessionStart context would be prepended to the prompt, and the next
    # resume drops it together with that prompt; so nothing at SessionStart ...
    assert context(event("SessionStart", project, source="resume")) == ""
    # ... and the standing notes come with the first prompt, through BeforeAgent
    first = context(event("BeforeAgent", project, prompt="deploy rollback and package manager?"))
    assert STANDING in first
    assert PASSAGE not in first  # given with a prompt before: that context survived the resume
    assert first.count('<memory source="wikimem">') <= 2 and len(first) <= 8000 + 3000 + 2
    second = context(event("BeforeAgent", project, prompt="Which package manager again?"))
    assert STANDING not in second  # once


def test_a_manual_compression_gives_everything_again(home: Path, project: str) -> None:
    seed(home)
    context(event("SessionStart", project, source="startup"))
    assert PASSAGE in context(event("BeforeAgent", project, prompt="deploy rollback?"))
    assert context(event("PreCompress", project, trigger="manual")) == ""
    after = context(event("BeforeAgent", project, prompt="deploy rollback, once more?"))
    assert STANDING in after and PASSAGE in after
    # the `auto` PreCompress before every model call changes nothing
    context(event("PreCompress", project, trigger="auto"))
    assert STANDING not in context(event("BeforeAgent", project, prompt="pnpm or npm?"))


def test_nothing_is_printed_when_nothing_is_relevant(home: Path, project: str) -> None:
    assert context(event("SessionStart", project, source="startup")) == ""
    assert context(event("SessionStart", project, source="resume")) == ""
    assert context(event("BeforeAgent", project, prompt="hello")) == ""


def test_inject_command_shows_gemini_output(home: Path, project: str) -> None:
    import subprocess
    import sys

    seed(home)
    args = ["inject", "prompt", "--cwd", project, "--client", "gemini", "--prompt", "TOKEN_TTL"]
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert '"hookEventName":"BeforeAgent"' in proc.stdout.replace(" ", "")
