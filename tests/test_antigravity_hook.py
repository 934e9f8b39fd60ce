"""Antigravity CLI: every event fixture (tests/fixtures/antigravity/, written from Antigravity's
documentation) through the hook command `wikimem install antigravity` wrote, as Antigravity would
run it: the payload on stdin, the command as written in hooks.json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, errors, hook_env, records

CONVERSATION = "9b2e6c1a-4d7f-4a3b-8e5d-0f1a2b3c4d5e"
ANTIGRAVITY = FIXTURES / "antigravity"

# fixture -> the record's fields (None: nothing is recorded)
EXPECTED: dict[str, dict[str, Any] | None] = {
    "PreInvocation": {"event": "SessionStart", "source": "startup"},
    "PreInvocation.later": {"event": "SessionStart"},  # alone, it is that conversation's first
    "PreToolUse": {
        "event": "PreToolUse",
        "tool": "run_command",
        "input": {
            "CommandLine": "npm test -- auth",
            "Cwd": "/home/user/proj",
            "SafeToAutoRun": False,
            "WaitMsBeforeAsync": 0,
        },
    },
    "PostToolUse": {"event": "PostToolUse", "tool": "run_command"},
    "PostToolUse.failing": {
        "event": "PostToolUse",
        "tool": "run_command",
        "error": "exit status 1: src/auth.ts:12:5 error Unexpected any",
    },
    "PostToolUse.write_to_file": {
        "event": "PostToolUse",
        "tool": "write_to_file",
        "files": ["/home/user/proj/docs/NOTES.md"],
    },
    "PostToolUse.replace_file_content": {
        "event": "PostToolUse",
        "tool": "replace_file_content",
        "files": ["/home/user/proj/src/auth.ts"],
    },
    "PostToolUse.view_file": {"event": "PostToolUse", "tool": "view_file"},
    "PostToolUse.no_tool_call": {"event": "PostToolUse"},
    "PostInvocation": None,
    "Stop": {"event": "Stop", "reason": "NO_TOOL_CALL"},
}
ALL = sorted(p.stem for p in ANTIGRAVITY.glob("*.json"))


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ANTIGRAVITY / f"{name}.json").read_text())
    return data


def install(*args: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "install", "antigravity", *args],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr


def installed_commands(path: Path) -> dict[str, str]:
    """event -> the command hooks.json runs for it."""
    named = json.loads(path.read_text())["wikimem"]
    out = {}
    for event, entries in named.items():
        for entry in entries:
            handlers = entry.get("hooks", [entry])
            out[event] = handlers[0]["command"]
    return out


def run(command: str, payload: dict[str, Any] | bytes) -> subprocess.CompletedProcess[bytes]:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run(
        command, shell=True, input=data, capture_output=True, env=hook_env(), timeout=30
    )


def command_for(event: str) -> str:
    """The installed command for `event`; PreToolUse and PostInvocation are not wired, so the
    command is the installed one with its --event changed (what wiring them would write)."""
    commands = installed_commands(Path.home() / ".gemini" / "config" / "hooks.json")
    if event in commands:
        return commands[event]
    return commands["Stop"].replace("--event Stop", f"--event {event}")


def test_every_fixture_has_an_expectation() -> None:
    assert sorted(EXPECTED) == ALL


@pytest.mark.parametrize("name", ALL)
def test_fixture_through_the_installed_command(name: str, isolated_home: Path) -> None:
    install()
    raw = fixture(name)
    event = name.split(".")[0]
    proc = run(command_for(event), raw)
    assert proc.returncode == 0 and proc.stderr == b""
    assert proc.stdout == b""  # no hook output of Antigravity reaches the model
    assert errors(isolated_home) == []
    want = EXPECTED[name]
    if want is None:
        assert records(isolated_home) == []
        return
    [rec] = records(isolated_home)
    assert rec["client"] == "antigravity" and rec["session"] == CONVERSATION
    assert rec["native_event"] == event
    assert rec["cwd"] == "/home/user/proj" and rec["project"] == "proj"
    for key, value in want.items():
        assert rec.get(key) == value, f"{name}: {key}: {rec}"
    assert "transcript" not in json.dumps(rec) and "brain" not in json.dumps(rec)


def test_only_the_first_model_call_of_a_conversation_starts_it(isolated_home: Path) -> None:
    install()
    command = command_for("PreInvocation")
    for name in ("PreInvocation", "PreInvocation.later", "PreInvocation.later"):
        assert run(command, fixture(name)).returncode == 0
    other = {**fixture("PreInvocation"), "conversationId": "another-conversation"}
    run(command, other)
    starts = [r for r in records(isolated_home) if r["event"] == "SessionStart"]
    assert [r["session"] for r in starts] == [CONVERSATION, "another-conversation"]


def test_user_and_project_hooks_record_each_event_once(isolated_home: Path, tmp_path: Path) -> None:
    """Antigravity runs every hooks.json it finds: wired at both scopes, an event arrives twice."""
    project = tmp_path / "proj"
    project.mkdir()
    install()
    install("--scope", "project", "--project-dir", str(project))
    user = installed_commands(Path.home() / ".gemini" / "config" / "hooks.json")
    mine = installed_commands(project / ".agents" / "hooks.json")
    for name in ("PreInvocation", "PostToolUse", "PostToolUse.failing", "Stop"):
        event = name.split(".")[0]
        run(user[event], fixture(name))
        run(mine[event], fixture(name))
    assert [r["event"] for r in records(isolated_home)] == [
        "SessionStart",
        "PostToolUse",
        "PostToolUse",
        "Stop",
    ]


def test_the_same_tool_call_in_another_step_is_recorded_again(isolated_home: Path) -> None:
    install()
    command = command_for("PostToolUse")
    run(command, fixture("PostToolUse"))
    run(command, {**fixture("PostToolUse"), "stepIdx": 7})
    assert len(records(isolated_home)) == 2


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"not json",
        b"[]",
        json.dumps({"stepIdx": 1}).encode(),  # no conversation
        json.dumps({"conversationId": "c", "toolCall": "run_command"}).encode(),
    ],
    ids=["empty", "not-json", "array", "no-conversation", "tool-call-not-object"],
)
def test_bad_input_fails_open(payload: bytes, isolated_home: Path) -> None:
    install()
    proc = run(command_for("PostToolUse"), payload)
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    assert records(isolated_home) == []
    assert len(errors(isolated_home)) == 1


def test_without_an_event_name_nothing_is_guessed(isolated_home: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "hook", "antigravity"],
        input=json.dumps(fixture("Stop")).encode(),
        capture_output=True,
        env=hook_env(),
    )
    assert proc.returncode == 0 and proc.stdout == b""
    assert records(isolated_home) == []
    assert "--event" in errors(isolated_home)[0]


def test_a_session_start_looks_nothing_up(home: Path) -> None:
    """No hook output reaches Antigravity's model, so the session start is recorded and no memory
    is read for it (its memory is in GEMINI.md)."""
    (home / "memory" / "profile").mkdir(parents=True, exist_ok=True)
    (home / "memory" / "profile" / "me.md").write_text(
        "---\ntitle: me\nkind: profile\n---\n- I prefer tabs. (claude 2026-12-01)\n"
    )
    install()
    proc = run(command_for("PreInvocation"), fixture("PreInvocation"))
    assert proc.stdout == b""
    assert not (home / "state" / "sessions").exists()  # nothing was given, nothing recorded so
