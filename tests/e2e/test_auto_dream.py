"""Auto-dream: a session's end starts a detached dream; the next session sees its notes."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from types import ModuleType

import pytest

from tests.e2e.conftest import records, wikimem

pytestmark = pytest.mark.e2e


def test_auto_dream_after_a_real_session(
    rc_claude: ModuleType,
    rc_codex: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    wikimem("init")
    # offline: inside Claude Code the hook (and so the dream) sees the mock API key; see OBSERVED
    (isolated_home / "config.toml").write_text(
        '[dream]\nbackend = "offline"\nauto = true\nmin_new_events = 3\nmin_interval_minutes = 0\n'
    )
    wikimem("install", "claude", "--scope", "user")
    a, b = clones
    start = time.monotonic()
    run = rc_claude.run_session(
        None,
        "Remember that feature flags live in config/flags.yaml.",
        str(a),
        str(user_home),
        tool_commands=["make test"],
    )
    elapsed = time.monotonic() - start
    assert run["ok"], run["stderr"][-2000:]
    # where the project keeps its flags is how its code is laid out: a convention of acme-api
    notes = isolated_home / "memory" / "projects" / "acme-api" / "conventions.md"
    for _ in range(300):  # the detached dream finishes on its own
        if notes.exists() and (isolated_home / "state" / "dream.log").exists():
            break
        time.sleep(0.1)
    assert "config/flags.yaml" in notes.read_text()
    log = [
        json.loads(line)
        for line in (isolated_home / "state" / "dream.log").read_text().splitlines()
    ]
    assert log[0]["backend"] == "offline" and log[0]["commit"]
    assert elapsed < 60

    # The SessionEnd hook itself, run exactly as installed with a dream due, returns well inside
    # Claude Code's 1.5 s budget for all SessionEnd hooks.
    settings = json.loads((user_home / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["SessionEnd"][0]["hooks"][0]["command"]
    (isolated_home / "state" / "dream.spawned").unlink(missing_ok=True)
    for i in range(5):  # new events, so that a dream is due again
        subprocess.run(
            command,
            shell=True,
            input=json.dumps(
                {
                    "session_id": "x",
                    "hook_event_name": "Stop",
                    "cwd": str(a),
                    "last_assistant_message": f"m{i}",
                }
            ).encode(),
            check=True,
        )
    (isolated_home / "state" / "dream.spawned").unlink(missing_ok=True)
    t0 = time.monotonic()
    subprocess.run(
        command,
        shell=True,
        input=json.dumps(
            {"session_id": "x", "hook_event_name": "SessionEnd", "cwd": str(a), "reason": "other"}
        ).encode(),
        check=True,
    )
    assert time.monotonic() - t0 < 1.5
    assert (isolated_home / "state" / "dream.spawned").exists()

    # the next session, in the other harness, is given the note
    wikimem("install", "codex", "--scope", "user", "--trust")
    hooks = json.loads((user_home / ".codex" / "hooks.json").read_text())
    ask = rc_codex.run_session(
        None,
        "Where do feature flags live?",
        str(b),
        str(user_home),
        hooks=hooks,
        trust="persist",
        isolate_network=False,
    )
    assert ask["ok"]
    assert any("config/flags.yaml" in json.dumps(r["body"]) for r in ask["api_requests"])
    assert len([r for r in records(isolated_home) if r["event"] == "SessionEnd"]) >= 2
