"""hooks/wikimem-hook: the script-file wrapper for plugin-style configs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, payload, records

WRAPPER = REPO / "hooks" / "wikimem-hook"


def test_wrapper_runs_the_hook_from_path(isolated_home: Path) -> None:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    proc = subprocess.run(
        [str(WRAPPER), "claude"],
        input=json.dumps(payload("claude_Stop")).encode(),
        capture_output=True,
        env=env,
    )
    assert proc.returncode == 0 and proc.stderr == b""
    assert [r["event"] for r in records(isolated_home)] == ["Stop"]


def test_wrapper_fails_open_without_wikimem(isolated_home: Path) -> None:
    env = dict(os.environ, PATH="/usr/bin:/bin")
    env.pop("WIKIMEM_BIN", None)
    big = json.dumps(payload("claude_Stop")).encode() * 2000
    proc = subprocess.run([str(WRAPPER), "claude"], input=big, capture_output=True, env=env)
    assert proc.returncode == 0 and proc.stdout == b""
    assert len(proc.stderr.splitlines()) == 1 and b"pipx install" in proc.stderr  # how to fix it
    assert not (isolated_home / "events").exists()
