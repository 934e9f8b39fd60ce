"""The real Qwen Code 0.24.4 (../shared/realclients/realclient_qwen.py) with wikimem wired in by
`wikimem install qwen`: capture (one record per event; the empty UserPromptSubmit Qwen fires
before every follow-up request is neither recorded nor answered, so no request carries a passage
twice), `--resume`, the MCP server, and an uninstall that leaves Qwen's settings as they were.

The driver writes no hooks of its own (hook_command=None)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.e2e.conftest import records, wikimem
from tests.test_recall import seed

pytestmark = pytest.mark.e2e

ANSWER = "The first run failed on TOKEN_TTL; after the fix the tests pass."
STANDING = "Use pnpm, never npm"  # tests/test_recall.py's profile note
ASK = "How does a deploy rollback work? Then run the tests."
ROLLBACK = "make rollback VERSION=x"  # its general/deploys.md


def qwen(rc: ModuleType, prompt: str, cwd: Path, home: Path, **kw: Any) -> dict[str, Any]:
    kw.setdefault("tool_commands", [])
    run: dict[str, Any] = rc.run_session(None, prompt, str(cwd), str(home), **kw)
    assert run["ok"], (run["exit"], run["stderr"][-3000:])
    return run


def agent_requests(run: dict[str, Any]) -> list[dict[str, Any]]:
    """The requests of the agent loop (Qwen's own memory extraction left out)."""
    return [b for b in run["api_requests"] if len(b.get("tools") or []) > 8]


def test_capture_memory_once_per_request_and_resume(
    rc_qwen: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    a, _ = clones
    wikimem("init")
    seed(isolated_home)
    wikimem("install", "qwen")

    first = qwen(
        rc_qwen, ASK, a, user_home, tool_commands=["make test", "make test"], final_text=ANSWER
    )
    sid = first["session_id"]
    mine = [r for r in records(isolated_home) if r["session"] == sid]
    # two tool rounds: Qwen fired UserPromptSubmit twice more, with an empty prompt
    assert Counter(r["event"] for r in mine) == Counter(
        {
            "SessionStart": 1,
            "UserPromptSubmit": 1,
            "PostToolUseFailure": 1,
            "PostToolUse": 1,
            "Stop": 1,
        }
    )  # no SessionEnd in -p mode: Stop is the run's last event
    assert {r["client"] for r in mine} == {"qwen"} and {r["project"] for r in mine} == {"acme-api"}
    failed = next(r for r in mine if r["event"] == "PostToolUseFailure")
    assert failed["exit_code"] == 2 and "TOKEN_TTL 3600 exceeds" in failed["output"]
    passed = next(r for r in mine if r["event"] == "PostToolUse")
    assert passed["exit_code"] == 0 and "PASS tests/test_auth.py" in passed["output"]
    assert next(r for r in mine if r["event"] == "Stop")["message"] == ANSWER
    assert not (isolated_home / "state" / "errors.log").exists()
    requests = agent_requests(first)
    assert len(requests) == 3
    for body in requests:  # the passage once in every request, after every tool round
        assert json.dumps(body).count(ROLLBACK) == 1
        assert rc_qwen.locate(STANDING, [body]) == ["messages[0].system"]
    (spot,) = rc_qwen.locate(ROLLBACK, requests[:1])
    assert spot.startswith("messages[1].user[")  # a part of the prompt's message

    resumed = qwen(rc_qwen, "And a deploy rollback, once more?", a, user_home, resume=sid)
    assert resumed["session_id"] == sid
    again = [r for r in records(isolated_home) if r["session"] == sid]
    assert [r.get("source") for r in again if r["event"] == "SessionStart"] == [
        "startup",
        "resume",
    ]
    last = agent_requests(resumed)[-1]
    assert rc_qwen.locate(STANDING, [last]) == ["messages[0].system"]  # the new system prompt
    assert json.dumps(last).count(ROLLBACK) == 1  # from the first turn's history, not again


def test_install_then_uninstall_leaves_qwens_settings_as_they_were(
    rc_qwen: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    a, _ = clones
    qwen(rc_qwen, "Hello.", a, user_home)  # the driver's settings and Qwen's own files
    settings = user_home / ".qwen" / "settings.json"
    before = json.loads(settings.read_text())
    wikimem("install", "qwen", "--mcp")
    run = qwen(rc_qwen, "Hello again.", a, user_home)
    assert {r["event"] for r in records(isolated_home)} == {
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
    }
    init = next(i for i in run["items"] if i.get("type") == "system")
    assert {"name": "wikimem", "status": "connected"} in init["mcp_servers"]
    assert "mcp__wikimem__memory_search" in init["tools"]
    wikimem("uninstall", "qwen", "--mcp")
    assert json.loads(settings.read_text()) == before
    assert not (a / ".qwen").exists()
