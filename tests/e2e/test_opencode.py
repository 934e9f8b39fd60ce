"""The real OpenCode 1.18.33 (../shared/realclients/realclient_opencode.py) running wikimem's own
plugin, put in place by `wikimem install opencode`: capture (one record per event, the answer at
session.idle), the memory in the system prompt and in the user's message, `--session` resume,
the MCP server, and an uninstall that leaves OpenCode's configuration as it was.

The driver writes no bridge plugin of its own (hook_command=None)."""

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

# `opencode run` takes a word that looks like a number ("5433.") for one, and fails on it
TEACH = "We use pnpm, never npm, in this repo. Remember that the staging database listens on port 5433, then run the tests."
ANSWER = "The first run failed on TOKEN_TTL; after the fix the tests pass."
# tests/test_recall.py's notes: a profile note (standing) and general/deploys.md (a passage)
STANDING = "Use pnpm, never npm"
ASK_ROLLBACK = "How does a deploy rollback work?"
ROLLBACK = "make rollback VERSION=x"


def opencode(rc: ModuleType, prompt: str, cwd: Path, home: Path, **kw: Any) -> dict[str, Any]:
    kw.setdefault("tool_commands", [])
    run: dict[str, Any] = rc.run_session(None, prompt, str(cwd), str(home), **kw)
    assert run["ok"], (run["exit"], run["stderr"][-3000:])
    return run


def system_text(body: dict[str, Any]) -> str:
    return "\n".join(
        str(m.get("content")) for m in body.get("messages") or [] if m.get("role") == "system"
    )


def test_capture_memory_and_resume(
    rc_opencode: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    a, _ = clones
    wikimem("init")
    seed(isolated_home)
    wikimem("install", "opencode")

    first = opencode(
        rc_opencode,
        TEACH,
        a,
        user_home,
        tool_commands=["make test", "make test"],
        final_text=ANSWER,
    )
    sid = first["session_id"]
    mine = [r for r in records(isolated_home) if r["session"] == sid]
    assert Counter(r["event"] for r in mine) == Counter(
        {"SessionStart": 1, "UserPromptSubmit": 1, "PostToolUse": 2, "Stop": 1}
    )  # OpenCode has no session end: Stop at session.idle is the run's last event
    assert {r["client"] for r in mine} == {"opencode"} and {r["project"] for r in mine} == {
        "acme-api"
    }
    assert next(r for r in mine if r["event"] == "UserPromptSubmit")["prompt"] == TEACH
    failed, passed = [r for r in mine if r["event"] == "PostToolUse"]
    assert failed["exit_code"] == 2 and "TOKEN_TTL 3600 exceeds" in failed["output"]
    assert passed["exit_code"] == 0 and "PASS tests/test_auth.py" in passed["output"]
    assert next(r for r in mine if r["event"] == "Stop")["message"] == ANSWER
    assert next(r for r in mine if r["event"] == "SessionStart")["source"] == "startup"
    assert not (isolated_home / "state" / "errors.log").exists()
    # the standing note in the system prompt of each of the session's requests, once
    agent = [b for b in first["api_requests"] if b.get("tools")]
    assert agent and all(system_text(b).count(STANDING) == 1 for b in agent)

    resumed = opencode(rc_opencode, ASK_ROLLBACK, a, user_home, resume=sid)
    assert resumed["session_id"] == sid
    again = [r for r in records(isolated_home) if r["session"] == sid]
    assert [r.get("source") for r in again if r["event"] == "SessionStart"] == ["startup", "resume"]
    last = [b for b in resumed["api_requests"] if b.get("tools")][-1]
    assert system_text(last).count(STANDING) == 1  # a new process: given again, once
    # the prompt's passage: a part of the user's message, stored with it
    spots = rc_opencode.locate(ROLLBACK, [last])
    assert spots and all(s.endswith(".user") for s in spots)
    assert json.dumps(last).count(ROLLBACK) == 1

    third = opencode(rc_opencode, "And a deploy rollback, once more?", a, user_home, resume=sid)
    last = [b for b in third["api_requests"] if b.get("tools")][-1]
    assert json.dumps(last).count(ROLLBACK) == 1  # kept in the history; not given again


def _opencode_config(home: Path, project: Path) -> dict[str, object]:
    """OpenCode's configuration folders (JSON files by content), wikimem's backups aside."""
    out: dict[str, object] = {}
    for root in (home / ".config" / "opencode", project / ".opencode"):
        for path in sorted(root.rglob("*")) if root.exists() else []:
            if "node_modules" in path.parts or ".wikimem-backup-" in path.name:
                continue
            text = path.read_text() if path.is_file() else None
            out[str(path)] = json.loads(text) if text and path.suffix == ".json" else text
    return out


def test_install_then_uninstall_leaves_opencodes_config_as_it_was(
    rc_opencode: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    a, _ = clones
    opencode(rc_opencode, "Hello.", a, user_home)  # the driver's and OpenCode's own files
    before = _opencode_config(user_home, a)
    wikimem("install", "opencode", "--mcp")
    run = opencode(rc_opencode, "Hello again.", a, user_home)
    assert {r["event"] for r in records(isolated_home)} == {
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
    }
    tools = {t["function"]["name"] for b in run["api_requests"] for t in b.get("tools") or []}
    assert "wikimem_memory_search" in tools  # the MCP server started and its tools are offered
    wikimem("uninstall", "opencode", "--mcp")
    assert _opencode_config(user_home, a) == before
