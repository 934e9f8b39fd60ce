"""Capture completeness with the payloads the real clients send."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from tests.e2e.conftest import records, wikimem

pytestmark = pytest.mark.e2e


def counts(home: Path, session: str | None = None) -> Counter[str]:
    return Counter(r["event"] for r in records(home) if session is None or r["session"] == session)


def test_claude_every_wired_event_once_including_failures(
    rc_claude: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    wikimem("install", "claude", "--scope", "user")
    a, _ = clones
    run = rc_claude.run_session(
        None,
        "Run the tests twice.",
        str(a),
        str(user_home),
        tool_commands=["make test", "make test"],
    )
    assert run["ok"], run["stderr"][-2000:]
    sid = run["session_id"]
    assert counts(isolated_home, sid) == Counter(
        {
            "SessionStart": 1,
            "UserPromptSubmit": 1,
            "PostToolUseFailure": 1,
            "PostToolUse": 1,
            "Stop": 1,
            "SessionEnd": 1,
        }
    )
    failure = next(r for r in records(isolated_home) if r["event"] == "PostToolUseFailure")
    assert failure["input"]["command"] == "make test"
    assert "TOKEN_TTL 3600 exceeds the provider maximum of 900" in failure["error"]
    assert failure["exit_code"] == 2
    ok = next(r for r in records(isolated_home) if r["event"] == "PostToolUse")
    assert "PASS tests/test_auth.py" in ok["output"]
    assert not (isolated_home / "state" / "errors.log").exists()


def test_claude_resume_continue_and_compact(
    rc_claude: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    wikimem("install", "claude", "--scope", "user")
    wikimem(
        "remember",
        "Deploys go out blue-green on Fly; never deploy on Fridays",
        "--project",
        "acme-api",
    )
    a, _ = clones
    first = rc_claude.run_session(None, "Say hello.", str(a), str(user_home), tool_commands=[])
    assert first["ok"], first["stderr"][-2000:]
    sid = first["session_id"]
    assert rc_claude.locate(
        "blue-green on Fly", first["api_requests"]
    )  # session-start memory arrived
    resumed = rc_claude.run_session(
        None, "And again.", str(a), str(user_home), resume=sid, tool_commands=[]
    )
    assert resumed["ok"] and resumed["session_id"] == sid
    continued = rc_claude.run_session(
        None, "Once more.", str(a), str(user_home), continue_last=True, tool_commands=[]
    )
    assert continued["ok"] and continued["session_id"] == sid
    c = counts(isolated_home, sid)
    assert c["UserPromptSubmit"] == 3 and c["Stop"] == 3 and c["SessionStart"] == 3
    prompts = [r["prompt"] for r in records(isolated_home) if r["event"] == "UserPromptSubmit"]
    assert prompts == ["Say hello.", "And again.", "Once more."]  # no turn recorded twice
    sources = [r.get("source") for r in records(isolated_home) if r["event"] == "SessionStart"]
    assert sources == ["startup", "resume", "resume"]

    compact = rc_claude.run_session(
        None, "/compact", str(a), str(user_home), resume=sid, tool_commands=[]
    )
    assert compact["exit"] == 0, compact["stderr"][-2000:]
    c = counts(isolated_home, sid)
    assert c["PreCompact"] == 1 and c["PostCompact"] == 1
    last_start = [r for r in records(isolated_home) if r["event"] == "SessionStart"][-1]
    assert last_start["source"] == "compact"
    after = rc_claude.run_session(
        None,
        "What do you remember about deploys?",
        str(a),
        str(user_home),
        resume=sid,
        tool_commands=[],
    )
    assert after["ok"]
    # the compacted conversation lost the first injection: the compact SessionStart gave it again
    assert rc_claude.locate("blue-green on Fly", after["api_requests"])
    summary = next(r for r in records(isolated_home) if r["event"] == "PostCompact")
    assert summary.get("summary")


def test_codex_capture_and_failing_command(
    rc_codex: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    wikimem("install", "codex", "--scope", "user", "--trust")
    _, b = clones
    hooks = json.loads((user_home / ".codex" / "hooks.json").read_text())
    run = rc_codex.run_session(
        None,
        "Run the tests.",
        str(b),
        str(user_home),
        hooks=hooks,
        trust="persist",
        tool_command="make test",
        isolate_network=False,
    )
    assert run["ok"], run["stderr"][-2000:]
    c = counts(isolated_home)
    assert (
        c["SessionStart"] == 1
        and c["UserPromptSubmit"] == 1
        and c["PostToolUse"] == 1
        and c["Stop"] == 1
    )
    assert c["SessionEnd"] == 1
    assert "Other" not in c  # PreModelRequest is not wired, and would be dropped as noise
    tool = next(r for r in records(isolated_home) if r["event"] == "PostToolUse")
    print(json.dumps(tool, indent=1))
    assert tool["tool"] == "Bash" and tool["input"]["command"] == "make test"
    from wikimem.dream.render import shell_outcome

    assert shell_outcome(tool) == "failed"
