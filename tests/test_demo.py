"""`wikimem demo`: offline, in a temporary home, every harness including Gemini CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_demo_runs_offline_with_a_gemini_session(isolated_home: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "demo", "--json"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home()), "GIT_CONFIG_NOSYSTEM": "1"},
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["by_client"] == {"claude": 9, "codex": 5, "cursor": 4, "gemini": 5}
    gemini = [s for s in result["steps"] if s["client"] == "gemini"]
    start = json.loads(gemini[0]["output"])["hookSpecificOutput"]
    assert start["hookEventName"] == "SessionStart" and "never npm" in start["additionalContext"]
    prompt = json.loads(gemini[1]["output"])["hookSpecificOutput"]
    assert prompt["hookEventName"] == "BeforeAgent"
    assert "staging.acme.dev/health" in prompt["additionalContext"]  # not given at session start
    assert result["secret_redacted"] is True
    assert not (Path.home() / ".wikimem").exists()  # the user's own home is never touched
    assert not isolated_home.exists()
