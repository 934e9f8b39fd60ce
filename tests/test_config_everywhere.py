"""A malformed config.toml is refused by every command the same way: one line naming the file
and the mistake, exit 1, nothing done. `doctor` reports it among its checks, `uninstall` still
works, and the hook (which must never break an agent) records on the defaults."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import records, run_hook
from wikimem.cli.commands import app

COMMANDS = [
    ["status"],
    ["status", "--json"],
    ["search", "deploy"],
    ["list"],
    ["show", "general/x.md"],
    ["remember", "We deploy on Tuesdays"],
    ["forget", "general/x.md"],
    ["edit", "general/x.md"],
    ["log"],
    ["diff"],
    ["inject", "prompt", "--prompt", "how do we deploy?"],
    ["inject", "session-start"],
    ["dream", "--dry-run"],
    ["sync"],
    ["import", "claude-auto-memory"],
    ["import", "codex-memories"],
    ["watch", "--once"],
    ["mcp"],
    ["install", "claude", "--dry-run"],
    ["init"],
    ["eval", "--backend", "configured"],  # reads the config before anything runs
]


@pytest.fixture
def typo(home: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A home whose config.toml has `prompt_charz` (for prompt_chars) under [inject]."""
    monkeypatch.chdir(os.environ["HOME"])
    config = home / "config.toml"
    config.write_text(config.read_text().replace("[inject]\n", "[inject]\nprompt_charz = 5\n", 1))
    return f"error: {config}: [inject] has no setting 'prompt_charz'\n"


def commits(home: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(home / "memory"), "rev-list", "--all"], capture_output=True, text=True
    ).stdout


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_every_command_refuses_a_config_typo_with_one_message(
    home: Path, typo: str, argv: list[str]
) -> None:
    before = commits(home)
    result = CliRunner().invoke(app, argv, input="")
    assert result.exit_code == 1, result.output
    assert result.stderr == typo  # the same line, whichever command
    assert result.stdout == ""
    assert commits(home) == before


def test_doctor_reports_it_and_uninstall_still_works(home: Path, typo: str) -> None:
    doctor = CliRunner().invoke(app, ["doctor", "--json"])
    assert doctor.exit_code == 1
    checks = json.loads(doctor.stdout)
    failed = [c for c in checks if c["status"] == "fail"]
    assert [c["area"] for c in failed if typo[len("error: ") : -1] in c["detail"]] == ["config"]
    uninstall = CliRunner().invoke(app, ["uninstall", "claude", "--home", str(home), "--dry-run"])
    assert uninstall.exit_code == 0, uninstall.output


def test_the_hook_still_records_on_the_defaults(home: Path, typo: str) -> None:
    proc = run_hook(
        "claude",
        {"session_id": "s1", "hook_event_name": "Stop", "cwd": os.environ["HOME"]},
    )
    assert proc.returncode == 0 and proc.stdout in (b"", b"{}\n")
    assert [r["event"] for r in records(home)] == ["Stop"]


def test_the_message_is_the_same_from_a_real_terminal_run(home: Path, typo: str) -> None:
    """As a person runs it: the console script, not the test runner."""
    for argv in (["status"], ["search", "x"], ["list"]):
        proc = subprocess.run(
            [sys.executable, "-m", "wikimem", *argv], capture_output=True, text=True, timeout=60
        )
        assert (proc.returncode, proc.stderr) == (1, typo), argv


def test_a_dream_started_by_a_hook_logs_it_where_it_can_be_seen(home: Path, typo: str) -> None:
    """`dream --auto` runs detached: nobody reads its stderr, so the refusal goes to
    state/dream.log (which `status` and `doctor` read), as every other failure of it does."""
    result = CliRunner().invoke(app, ["dream", "--auto"])
    assert result.exit_code == 1
    logged = [json.loads(line) for line in (home / "state" / "dream.log").read_text().splitlines()]
    assert "has no setting 'prompt_charz'" in logged[-1]["error"]
