"""Every harness fixture through the real `wikimem hook` entry point, asserting the record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, NEEDS_KIT, SHARED, errors, payload, records, run_hook

CLAUDE = "3f2b8c1e-7d4a-4e9b-9c21-5a6f0d8e4b17"
CODEX = "019d7a2e-4c1b-7f30-9a8e-2b6c5d4e3f10"
CURSOR = "8d1e4f2a-3b5c-4d6e-9f70-1a2b3c4d5e6f"

# fixture -> fields the normalised record must have (a value of ... means "present")
EXPECTED: dict[str, dict[str, Any]] = {
    "claude_Notification": {
        "event": "Notification",
        "message": "Claude needs your permission to use Bash",
    },
    "claude_PostCompact": {"event": "PostCompact", "trigger": "auto", "summary": ...},
    "claude_PostToolUse_Bash": {
        "event": "PostToolUse",
        "tool": "Bash",
        "output": "PASS src/auth.test.ts (3 tests)\n",
        "input": {
            "command": "npm test -- auth",
            "description": "Run auth test suite",
            "timeout": 120000,
            "run_in_background": False,
        },
        "duration_ms": 4210,
    },
    "claude_PostToolUse_Edit": {
        "event": "PostToolUse",
        "tool": "Edit",
        "files": ["/home/user/proj/src/auth.ts"],
    },
    "claude_PostToolUse_Write": {
        "event": "PostToolUse",
        "tool": "Write",
        "files": ["/home/user/proj/docs/NOTES.md"],
    },
    "claude_PreCompact": {"event": "PreCompact", "trigger": "auto"},
    "claude_PreToolUse_Bash": {"event": "PreToolUse", "tool": "Bash", "input": ...},
    "claude_PreToolUse_Edit": {
        "event": "PreToolUse",
        "tool": "Edit",
        "files": ["/home/user/proj/src/auth.ts"],
    },
    "claude_SessionEnd": {"event": "SessionEnd", "reason": "prompt_input_exit"},
    "claude_SessionStart": {
        "event": "SessionStart",
        "source": "startup",
        "model": "claude-sonnet-5",
    },
    "claude_SessionStart_compact": {"event": "SessionStart", "source": "compact"},
    "claude_SessionStart_resume": {"event": "SessionStart", "source": "resume"},
    "claude_Stop": {"event": "Stop", "message": ...},
    "claude_SubagentStop": {"event": "SubagentStop", "agent": "Explore", "message": ...},
    "claude_UserPromptSubmit": {
        "event": "UserPromptSubmit",
        "prompt": "Why does the login test fail after the OAuth2 migration? Check src/auth.ts",
    },
    "codex_Interrupt": {"event": "Other", "native_event": "Interrupt", "reason": "user"},
    "codex_PostCompact": {"event": "PostCompact", "trigger": "auto"},
    "codex_PostToolUse_Bash": {
        "event": "PostToolUse",
        "tool": "Bash",
        "output": "PASS src/auth.test.ts (3 tests)\n",
    },
    "codex_PostToolUse_apply_patch": {
        "event": "PostToolUse",
        "tool": "apply_patch",
        "files": ["/home/user/proj/src/auth.ts"],
    },
    "codex_PreCompact": {"event": "PreCompact", "trigger": "auto"},
    "codex_PreToolUse_Bash": {
        "event": "PreToolUse",
        "tool": "Bash",
        "input": {"command": "npm test -- auth"},
    },
    "codex_PreToolUse_apply_patch": {
        "event": "PreToolUse",
        "tool": "apply_patch",
        "files": ["/home/user/proj/src/auth.ts"],
    },
    "codex_SessionEnd": {"event": "SessionEnd", "reason": "other"},
    "codex_SessionStart": {"event": "SessionStart", "source": "startup", "model": "gpt-5.5"},
    "codex_Stop": {
        "event": "Stop",
        "message": "Lowered TOKEN_TTL to 900s in src/auth.ts; auth tests pass.",
    },
    "codex_SubagentStop": {"event": "SubagentStop", "message": ...},
    "codex_UserPromptSubmit": {"event": "UserPromptSubmit", "prompt": ...},
    "cursor_afterAgentResponse": {
        "event": "AssistantMessage",
        "message": "TOKEN_TTL exceeded the provider max; lowered to 900s and tests pass.",
    },
    "cursor_afterFileEdit": {
        "event": "PostToolUse",
        "tool": "Edit",
        "files": ["/home/user/proj/src/auth.ts"],
    },
    "cursor_afterShellExecution": {
        "event": "PostToolUse",
        "tool": "Shell",
        "input": {"command": "npm test -- auth"},
        "output": "PASS src/auth.test.ts (3 tests)\n",
    },
    "cursor_beforeReadFile": {
        "event": "PreToolUse",
        "tool": "Read",
        "input": {"file_path": "/home/user/proj/.env"},
    },
    "cursor_beforeShellExecution": {"event": "PreToolUse", "tool": "Shell"},
    "cursor_beforeSubmitPrompt": {
        "event": "UserPromptSubmit",
        "prompt": "Why does the login test fail after the OAuth2 migration?",
    },
    "cursor_postToolUse_Shell": {
        "event": "PostToolUse",
        "tool": "Shell",
        "exit_code": 0,
        "output": "PASS src/auth.test.ts (3 tests)",
    },
    "cursor_preCompact": {"event": "PreCompact", "trigger": "auto"},
    "cursor_preToolUse_Shell": {"event": "PreToolUse", "tool": "Shell"},
    "cursor_sessionEnd": {"event": "SessionEnd", "reason": "user_close"},
    "cursor_sessionStart": {"event": "SessionStart"},
    "cursor_stop": {"event": "Stop", "reason": "completed"},
}
ALL = sorted(p.stem for p in (FIXTURES / "payloads").glob("*.json"))


def test_every_fixture_has_an_expectation() -> None:
    assert sorted(EXPECTED) == ALL


def test_every_shared_fixture_is_copied_into_the_repo() -> None:
    shared = SHARED / "harness-contracts" / "fixtures"
    if not shared.is_dir():
        pytest.skip(
            f"compares the fixtures with the harness captures they were copied from: {NEEDS_KIT}"
        )
    for path in shared.glob("*.json"):
        ours = FIXTURES / "payloads" / path.name
        assert ours.exists(), (
            f"new shared fixture {path.name}: copy it into tests/fixtures/payloads"
        )
        assert json.loads(ours.read_text()) == json.loads(path.read_text())


@pytest.mark.parametrize("name", ALL)
def test_fixture_is_recorded_as_normalised_record(name: str, isolated_home: Path) -> None:
    client = name.split("_", 1)[0]
    raw = payload(name)
    proc = run_hook(client, raw)
    assert proc.returncode == 0
    assert proc.stderr == b""
    assert errors(isolated_home) == []
    [rec] = records(isolated_home)
    assert rec["v"] == 1
    assert rec["client"] == client
    assert rec["session"] == {"claude": CLAUDE, "codex": CODEX, "cursor": CURSOR}[client]
    assert rec["native_event"] == raw["hook_event_name"]
    assert rec["cwd"] == "/home/user/proj"
    assert rec["project"] == "proj"
    assert rec["ts"].endswith("Z") and len(rec["ts"]) == len("2026-11-29T18:04:11.123456Z")
    for key, want in EXPECTED[name].items():
        assert key in rec, f"{name}: record lacks {key}: {rec}"
        if want is not ...:
            assert rec[key] == want, f"{name}: {key}"
    assert "transcript_path" not in json.dumps(rec)  # never copied, not even the path
    out = proc.stdout.decode()
    if name == "cursor_beforeSubmitPrompt":
        assert json.loads(out) == {"continue": True}
    else:
        assert out == ""  # nothing to inject in an empty wiki, nothing for other events


def test_claude_edit_output_keeps_the_patch_not_the_whole_file(isolated_home: Path) -> None:
    run_hook("claude", payload("claude_PostToolUse_Edit"))
    [rec] = records(isolated_home)
    assert "structuredPatch" in rec["output"]
    assert "originalFile" not in rec["output"] and "export function issue" not in rec["output"]


def test_cursor_read_file_content_is_never_recorded(isolated_home: Path) -> None:
    raw = payload("cursor_beforeReadFile")
    raw["content"] = "API_KEY=abcdef123456\nDB_PASSWORD=hunter2hunter2\n"
    run_hook("cursor", raw)
    text = "".join(p.read_text() for p in (isolated_home / "events").glob("*.jsonl"))
    assert "hunter2" not in text and "abcdef123456" not in text


@pytest.mark.parametrize(
    "name",
    ["claude_PostToolUse", "claude_PostToolUseFailure", "codex_PostToolUse", "claude_SessionStart"],
)
def test_observed_real_payloads(name: str, isolated_home: Path) -> None:
    raw = json.loads((FIXTURES / "observed" / f"{name}.json").read_text())
    client = name.split("_", 1)[0]
    assert run_hook(client, raw).returncode == 0
    [rec] = records(isolated_home)
    assert rec["event"] == raw["hook_event_name"]
    if name == "claude_PostToolUseFailure":
        assert rec["error"] == "Exit code 3\nstep-two-fails"
        assert rec["exit_code"] == 3
        assert rec["input"]["command"] == "echo step-two-fails >&2; exit 3"
    if name == "claude_SessionStart":
        assert rec["source"] == "compact"


def test_codex_pre_model_request_is_noise(isolated_home: Path) -> None:
    raw = json.loads((FIXTURES / "observed" / "codex_PreModelRequest.json").read_text())
    proc = run_hook("codex", raw)
    assert proc.returncode == 0 and proc.stdout == b""
    assert records(isolated_home) == [] and errors(isolated_home) == []


def test_installed_command_form_records_the_same(isolated_home: Path) -> None:
    proc = run_hook("claude", payload("claude_PostToolUse_Bash"), installed_form=True)
    assert proc.returncode == 0 and proc.stderr == b""
    [rec] = records(isolated_home)
    assert rec["tool"] == "Bash" and rec["event"] == "PostToolUse"


@pytest.mark.parametrize("client", ["copilot", "opencode", "qwen"])
def test_every_observed_payload_of_the_newer_harnesses_is_copied(client: str) -> None:
    """../shared/harness-contracts/observed/<client>/ (native/ too) has a copy, the same, in
    tests/fixtures/observed/<client>/, where the adapters' tests read it."""
    shared = SHARED / "harness-contracts" / "observed" / client
    if not shared.is_dir():
        pytest.skip(
            f"compares the fixtures with the harness captures they were copied from: {NEEDS_KIT}"
        )
    files = sorted(p.relative_to(shared) for p in shared.rglob("*.json"))
    assert files
    for rel in files:
        ours = FIXTURES / "observed" / client / rel
        assert ours.exists(), f"copy {shared / rel} into {ours.parent}"
        assert json.loads(ours.read_text()) == json.loads((shared / rel).read_text())
