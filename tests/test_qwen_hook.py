"""`wikimem hook qwen`: Qwen Code's Claude-format payloads (tests/fixtures/qwen, recorded from Qwen
Code 0.24.4; tests/fixtures/observed/qwen) become one record each; the empty UserPromptSubmit Qwen
fires before every follow-up request is neither recorded nor answered; shell results are read."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, errors, records
from wikimem.dream.render import render_event, shell_outcome
from wikimem.harness import qwen

SID = "78402508-ed32-41d3-a9d0-cea1ba825119"


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "qwen" / f"{name}.json").read_text())
    return data


def hook(payload: dict[str, Any], client: str = "qwen") -> bytes:
    """The hook in this process, with Qwen's hook environment (CLAUDE_PROJECT_DIR and
    GEMINI_PROJECT_DIR included)."""
    from wikimem.capture.hook import main

    out = io.BytesIO()
    saved = dict(os.environ)
    os.environ.update(json.loads((FIXTURES / "qwen" / "hook_env.json").read_text()))
    try:
        assert main([client], stdin=io.BytesIO(json.dumps(payload).encode()), stdout=out) == 0
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return out.getvalue()


EXPECTED: dict[str, dict[str, Any]] = {
    "SessionStart": {"event": "SessionStart", "source": "startup", "model": "gpt-4.1"},
    "SessionStart.resume": {"event": "SessionStart", "source": "resume"},
    "UserPromptSubmit": {"event": "UserPromptSubmit", "prompt": "Run the tests, please."},
    "PreToolUse": {"event": "PreToolUse", "tool": "run_shell_command"},
    "PostToolUse": {
        "event": "PostToolUse",
        "tool": "run_shell_command",
        "output": "PASS tests/test_auth.py",
        "exit_code": 0,
        "input": {"command": "echo 'PASS tests/test_auth.py'", "description": "Mock scripted step"},
    },
    # a command exiting non-zero: its output and exit code, read out of Qwen's result block
    "PostToolUseFailure.shell": {
        "event": "PostToolUseFailure",
        "exit_code": 3,
        "output": "FAIL tests/test_auth.py: TOKEN_TTL",
    },
    "PostToolUseFailure.read_file": {"event": "PostToolUseFailure", "tool": "read_file"},
    "PostToolUse.write_file": {"event": "PostToolUse", "files": ["/home/user/project/new.txt"]},
    "PostToolUse.edit": {"event": "PostToolUse", "files": ["/home/user/project/notes.txt"]},
    "PostToolUse.read_file": {"event": "PostToolUse", "tool": "read_file"},
    "Stop": {"event": "Stop", "message": "Tests run; one failed."},
    "Notification": {"event": "Notification", "message": "Successfully authenticated with openai"},
    "InstructionsLoaded": {"event": "Other", "native_event": "InstructionsLoaded"},
}
NOTHING = ("UserPromptSubmit.refire", "PostToolBatch", "MessageDisplay")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_event_becomes_one_record(name: str, isolated_home: Path) -> None:
    hook(fixture(name))
    (record,) = records(isolated_home)
    assert record["client"] == "qwen" and record["session"] == SID
    assert record["project"] == "project"  # the cwd, not CLAUDE_PROJECT_DIR's guesswork
    for key, value in EXPECTED[name].items():
        assert record[key] == value, (key, record.get(key))
    assert errors(isolated_home) == []


def test_every_fixture_has_an_expectation() -> None:
    names = {p.name[: -len(".json")] for p in (FIXTURES / "qwen").glob("*.json")}
    assert names - {"hook_env"} == set(EXPECTED) | set(NOTHING)


@pytest.mark.parametrize("name", NOTHING)
def test_repeats_are_not_recorded(name: str, isolated_home: Path) -> None:
    assert hook(fixture(name)) == b""
    assert records(isolated_home) == [] and errors(isolated_home) == []


def test_no_file_content_is_kept(isolated_home: Path) -> None:
    for name in ("PostToolUse.edit", "PostToolUse.write_file", "PostToolUse.read_file"):
        hook(fixture(name))
    edit, write, read = records(isolated_home)
    assert "-beta\n+gamma" in edit["output"]  # the change itself
    assert "Showing lines" not in edit["output"]  # not Qwen's quote of the edited file
    assert "+hello" in write["output"]
    assert "output" not in read  # the file read, never its content
    assert all("originalContent" not in json.dumps(r) for r in records(isolated_home))


def test_the_real_payloads_qwen_sent(isolated_home: Path) -> None:
    folder = FIXTURES / "observed" / "qwen"
    for path in sorted(folder.glob("*.json")):
        if path.name != "hook_env.json":
            hook(json.loads(path.read_text()))
    got = [r["native_event"] for r in records(isolated_home)]
    # the observed UserPromptSubmit is a re-fire (prompt ""), PostToolBatch and MessageDisplay
    # are repeats
    assert sorted(got) == [
        "InstructionsLoaded",
        "Notification",
        "PostToolUse",
        "PostToolUseFailure",
        "PreToolUse",
        "SessionStart",
        "Stop",
    ]
    assert errors(isolated_home) == []


@pytest.fixture
def project(home: Path, tmp_path: Path) -> str:
    from tests.conftest import make_repo
    from tests.test_recall import seed

    seed(home)
    return str(make_repo(tmp_path / "code" / "api", "git@github.com:acme/api.git"))


def context(payload: dict[str, Any]) -> str:
    out = hook(payload)
    if not out:
        return ""
    data = json.loads(out)["hookSpecificOutput"]
    assert data["hookEventName"] == payload["hook_event_name"]
    return str(data["additionalContext"])


def test_memory_once_per_prompt_never_for_the_refires(project: str) -> None:
    """Qwen adds whatever UserPromptSubmit answers to the request each time it fires, and it
    fires again with an empty prompt before every follow-up request of the turn."""
    start = context({**fixture("SessionStart"), "cwd": project})
    assert "Use pnpm, never npm" in start
    asked = {**fixture("UserPromptSubmit"), "cwd": project}
    asked["prompt"] = asked["submitted_prompt"] = "How does a deploy rollback work?"
    assert "make rollback VERSION=x" in context(asked)
    for _ in range(3):  # one tool round each
        assert hook({**fixture("UserPromptSubmit.refire"), "cwd": project}) == b""
    assert [r["event"] for r in records(Path(os.environ["WIKIMEM_HOME"]))] == [
        "SessionStart",
        "UserPromptSubmit",
    ]


def test_a_resumed_start_gives_the_standing_notes_again_but_not_old_passages(
    project: str,
) -> None:
    """Qwen rebuilds the system prompt (where session-start context goes) on --resume and keeps
    the earlier prompts' context parts in the history."""
    assert "Use pnpm, never npm" in context({**fixture("SessionStart"), "cwd": project})
    asked = {**fixture("UserPromptSubmit"), "cwd": project, "prompt": "How does rollback work?"}
    assert "make rollback VERSION=x" in context(asked)
    assert "Use pnpm, never npm" in context({**fixture("SessionStart.resume"), "cwd": project})
    assert "make rollback VERSION=x" not in context({**asked, "prompt": "Deploy rollback again?"})


def test_claude_and_gemini_variables_do_not_make_it_another_client(isolated_home: Path) -> None:
    hook(fixture("SessionStart"))
    hook({**fixture("Stop"), "timestamp": "2026-12-02T18:00:00.000Z"})
    assert {r["client"] for r in records(isolated_home)} == {"qwen"}


@pytest.mark.parametrize(
    "text,expected",
    [
        (
            "Command: x\nDirectory: (root)\nOutput: a\nb\nError: (none)\nExit Code: 2\n"
            "Signal: (none)\nProcess Group PGID: 12",
            ("a\nb", 2, None),
        ),
        ("Command: x\nOutput: (empty)\nError: (none)\nExit Code: 0", ("", 0, None)),
        ("Command: x\nOutput: y\nError: spawn ENOENT\nExit Code: 127", ("y", 127, "spawn ENOENT")),
        ("plain text", ("plain text", None, None)),
        ("xOutput: y", ("xOutput: y", None, None)),
    ],
)
def test_shell_result(text: str, expected: tuple[str, int | None, str | None]) -> None:
    assert qwen.shell_result(text) == expected


def test_the_dream_reads_qwen_commands(isolated_home: Path) -> None:
    hook(fixture("PostToolUseFailure.shell"))
    (record,) = records(isolated_home)
    assert shell_outcome(record) == "failed"
    assert "ran `echo 'FAIL tests/test_auth.py: TOKEN_TTL' >&2; exit 3` → failed" in str(
        render_event(record)
    )
