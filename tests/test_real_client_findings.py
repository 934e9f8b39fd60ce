"""Regression tests for what running the real Claude Code and Codex revealed (tests/e2e/).

Each uses a payload the real client sent (tests/fixtures/observed/, paths rewritten)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES, records, run_hook
from wikimem.dream.render import error_excerpt, shell_outcome


def observed(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((FIXTURES / "observed" / f"{name}.json").read_text())
    return data


def test_codex_failing_command_has_no_exit_code_but_is_read_as_failed(isolated_home: Path) -> None:
    # Codex 0.171 fires PostToolUse for a failing command too, with only its output as text.
    assert run_hook("codex", observed("codex_PostToolUse_failing")).returncode == 0
    [rec] = records(isolated_home)
    assert "exit_code" not in rec
    assert shell_outcome(rec) == "failed"
    assert "TOKEN_TTL 3600 exceeds the provider maximum of 900" in error_excerpt(rec)


def test_claude_failure_from_make_keeps_exit_code_and_stderr(isolated_home: Path) -> None:
    payload = observed("claude_PostToolUseFailure")
    payload["error"] = (
        "Exit code 2\nFAIL tests/test_auth.py: TOKEN_TTL 3600 exceeds the provider maximum of 900\nmake: *** [Makefile:2: test] Error 1"
    )
    run_hook("claude", payload)
    [rec] = records(isolated_home)
    assert rec["exit_code"] == 2 and shell_outcome(rec) == "failed"


def test_doctor_does_not_report_one_config_twice_when_cwd_is_home(home: Path) -> None:
    env = dict(os.environ)
    subprocess.run(
        [sys.executable, "-m", "wikimem", "install", "codex"],
        check=True,
        capture_output=True,
        env=env,
    )
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "doctor", "--json"],
        capture_output=True,
        text=True,
        cwd=os.environ["HOME"],
        env=env,
    )
    trust = [c for c in json.loads(proc.stdout) if c["area"] == "codex trust"]
    assert len(trust) == 1 and trust[0]["status"] == "fail"
    status = subprocess.run(
        [sys.executable, "-m", "wikimem", "status", "--json"],
        capture_output=True,
        text=True,
        cwd=os.environ["HOME"],
        env=env,
    )
    assert [h["client"] for h in json.loads(status.stdout)["hooks"]] == ["codex"]


def test_a_failing_detached_dream_leaves_its_reason_in_dream_log(home: Path) -> None:
    # Found when the hook-started dream inside Claude Code died silently: its outcome must be
    # visible somewhere, and typer's exit must not be reported as an internal error.
    (home / "config.toml").write_text('[dream]\nbackend = "no-such-backend"\n')
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "dream", "--auto", "--home", str(home)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert "internal error" not in proc.stderr
    entry = json.loads((home / "state" / "dream.log").read_text().splitlines()[-1])
    assert "unknown dream backend 'no-such-backend'" in entry["error"]
    doctor = subprocess.run(
        [sys.executable, "-m", "wikimem", "doctor", "--json"], capture_output=True, text=True
    )
    [check] = [c for c in json.loads(doctor.stdout) if c["area"] == "dream"]
    assert check["status"] == "fail" and "no-such-backend" in check["detail"]
