"""Cursor runs Claude Code's hooks too: an event is recorded once, not twice."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import hook_env, payload, records, run_hook
from wikimem.home import Home
from wikimem.setup.install import install


def test_claude_hook_under_cursor_is_skipped_when_cursor_hooks_are_wired(home: Path) -> None:
    install("cursor", Home(str(home)))
    env = hook_env(CURSOR_VERSION="3.12.17")
    proc = run_hook("claude", payload("cursor_beforeSubmitPrompt"), env=env)
    assert proc.returncode == 0 and proc.stdout == b""
    run_hook("cursor", payload("cursor_beforeSubmitPrompt"), env=env)
    recs = records(home)
    assert len(recs) == 1 and recs[0]["client"] == "cursor"


def test_claude_hook_under_cursor_records_as_cursor_when_only_claude_is_wired(home: Path) -> None:
    install("claude", Home(str(home)))
    proc = run_hook(
        "claude", payload("cursor_beforeSubmitPrompt"), env=hook_env(CURSOR_VERSION="3.12.17")
    )
    assert proc.returncode == 0
    [rec] = records(home)
    assert rec["client"] == "cursor" and rec["event"] == "UserPromptSubmit"
    assert rec["session"] == payload("cursor_beforeSubmitPrompt")["conversation_id"]


def test_project_scoped_cursor_hooks_count_too(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    install("cursor", Home(str(home)), scope="project", project_dir=str(project))
    raw = payload("cursor_stop")
    raw["workspace_roots"] = [str(project)]
    proc = run_hook("claude", raw, env=hook_env(CURSOR_VERSION="3.12.17"))
    assert proc.returncode == 0
    assert records(home) == []


def test_without_cursor_version_claude_hook_records_normally(home: Path) -> None:
    install("cursor", Home(str(home)))
    run_hook("claude", payload("claude_Stop"))
    [rec] = records(home)
    assert rec["client"] == "claude"
    assert json.dumps(rec)


def test_claude_code_started_from_cursors_terminal_is_recorded_as_claude(home: Path) -> None:
    # CURSOR_VERSION may be inherited from Cursor's terminal; a Claude-shaped payload is Claude's.
    install("cursor", Home(str(home)))
    run_hook("claude", payload("claude_Stop"), env=hook_env(CURSOR_VERSION="3.12.17"))
    [rec] = records(home)
    assert rec["client"] == "claude"
