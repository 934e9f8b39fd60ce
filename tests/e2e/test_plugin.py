"""The repository as a Claude Code plugin, loaded by the real Claude Code with `--plugin-dir`:
its hooks record the session and inject memory, its MCP server serves the memory tools, and with
`wikimem install claude` wired as well every event is still recorded (and injected) once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO
from tests.e2e.conftest import records, wikimem

pytestmark = pytest.mark.e2e

WRITE_TOOL = "mcp__plugin_wikimem_wikimem__memory_write"
MEMORY = "Deploys go out blue-green on Fly; never deploy on Fridays"


def plugin_env(home: Path) -> dict[str, str]:
    """What the plugin's hooks and MCP server need from the sealed client environment: the
    installed wikimem (this virtualenv's console script) and the test's memory home."""
    env = {
        "WIKIMEM_BIN": str(Path(sys.executable).parent / "wikimem"),
        "WIKIMEM_HOME": str(home),
    }
    for key in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def tool_use(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": "toolu_" + uuid.uuid4().hex[:20],
        "name": name,
        "input": arguments,
    }


def writes_a_memory(rc: ModuleType) -> Any:
    """A scripted model that loads the plugin's memory_write tool (MCP tools are deferred behind
    ToolSearch), calls it once, then ends the turn."""

    def responder(body: dict[str, Any]) -> Any:
        if "Bash" not in {t.get("name") for t in body.get("tools") or []}:
            return None  # not the agent loop
        rounds, last = rc.tool_rounds_this_turn(body.get("messages") or [])
        if rounds == 0:
            return (
                [tool_use("ToolSearch", {"query": f"select:{WRITE_TOOL}"})],
                "tool_use",
                "tool_use",
            )
        if rounds == 1:
            text = "The staging database port is 5433"
            return [tool_use(WRITE_TOOL, {"text": text})], "tool_use", "tool_use"
        return [{"type": "text", "text": f"Saved: {(last or '')[:200]}"}], "end_turn", "final"

    return responder


def allow_memory_tools(user_home: Path) -> None:
    settings = user_home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    doc = json.loads(settings.read_text()) if settings.exists() else {}
    doc.setdefault("permissions", {}).setdefault("allow", []).append("mcp__plugin_wikimem_wikimem")
    settings.write_text(json.dumps(doc))


def test_claude_code_plugin_records_injects_and_serves_memory_tools(
    rc_claude: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    wikimem("init")
    wikimem("remember", MEMORY, "--project", "acme-api")
    allow_memory_tools(user_home)
    a, _ = clones
    run = rc_claude.run_session(
        None,
        "Remember the staging port.",
        str(a),
        str(user_home),
        responder=writes_a_memory(rc_claude),
        extra_args=["--plugin-dir", str(REPO)],
        extra_env=plugin_env(isolated_home),
    )
    assert run["ok"], run["stderr"][-2000:]
    sid = run["session_id"]
    counts = Counter(r["event"] for r in records(isolated_home) if r["session"] == sid)
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"):
        assert counts[event] == 1, counts
    assert all(r["client"] == "claude" for r in records(isolated_home))
    assert rc_claude.locate("blue-green on Fly", run["api_requests"])  # the plugin injected it
    # the plugin's MCP server wrote through the gate, in the session's project, and committed
    [result] = [t for t in run["tool_results"] if '"commit"' in t["content"]]
    assert not result["is_error"] and '"projects/acme-api/facts.md"' in result["content"]
    log = subprocess.run(
        ["git", "-C", str(isolated_home / "memory"), "log", "-1", "--format=%B"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert log.split("\n", 1)[0] in (
        "mcp: create projects/acme-api/facts.md",
        "mcp: update projects/acme-api/facts.md",
    )
    assert "Wikimem-Source: mcp" in log
    assert (
        "staging database port is 5433"
        in (isolated_home / "memory/projects/acme-api/facts.md").read_text()
    )
    assert not (isolated_home / "state" / "errors.log").exists()


def test_plugin_and_wikimem_install_together_record_each_event_once(
    rc_claude: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    wikimem("install", "claude", "--scope", "user")
    wikimem("remember", MEMORY, "--project", "acme-api")
    a, _ = clones
    run = rc_claude.run_session(
        None,
        "Run the tests.",
        str(a),
        str(user_home),
        tool_commands=["make test"],
        extra_args=["--plugin-dir", str(REPO)],
        extra_env=plugin_env(isolated_home),
    )
    assert run["ok"], run["stderr"][-2000:]
    counts = Counter(r["event"] for r in records(isolated_home))
    assert counts == Counter(
        {
            "SessionStart": 1,
            "UserPromptSubmit": 1,
            "PostToolUseFailure": 1,
            "Stop": 1,
            "SessionEnd": 1,
        }
    )
    # the memory was given once, not once per registration
    last = json.dumps(run["api_requests"][-1], ensure_ascii=False)
    assert last.count("blue-green on Fly") == 1


def test_codex_installs_the_plugin_from_its_marketplace(
    rc_codex: ModuleType, user_home: Path, tmp_path: Path
) -> None:
    """The real Codex CLI reads the repository's marketplace, installs the plugin and loads its
    MCP server definition. (A Codex session with plugin hooks is not driven here: the shared
    Codex driver turns plugins off.)"""
    plugin = tmp_path / "plugin"
    for rel in (".codex-plugin", "hooks", ".agents"):
        shutil.copytree(REPO / rel, plugin / rel)
    shutil.copy(REPO / ".codex-mcp.json", plugin / ".codex-mcp.json")
    env = {**os.environ, "HOME": str(user_home), "CODEX_HOME": str(user_home / ".codex")}
    (user_home / ".codex").mkdir(exist_ok=True)

    def codex(*args: str) -> str:
        proc = subprocess.run(
            [rc_codex.CODEX_BIN, *args], capture_output=True, text=True, env=env, timeout=120
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout

    codex("plugin", "marketplace", "add", str(plugin))
    assert "Added plugin `wikimem`" in codex("plugin", "add", "wikimem@wikimem")
    listed = codex("plugin", "list")
    assert "wikimem@wikimem" in listed and "installed, enabled" in listed
    servers = codex("mcp", "list")
    assert "wikimem" in servers and "hooks/wikimem-hook" in servers
