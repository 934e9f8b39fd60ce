"""`wikimem install/uninstall qwen`: Claude-format hooks merged into Qwen Code's settings.json
(user: `~/.qwen` or `$QWEN_HOME`; project: `.qwen/settings.json`), every other key kept; the MCP
server in the same file; doctor reports `disableAllHooks`."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES, hook_env, records

SETTINGS: dict[str, Any] = {
    "security": {"auth": {"selectedType": "openai"}},
    "general": {"enableAutoUpdate": False},
    "mcpServers": {"fs": {"command": "fs-server"}},
    "hooks": {
        "PreToolUse": [
            {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "guard"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 3}]}],
    },
}


def wikimem(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args], capture_output=True, text=True, env=env
    )


def settings_file() -> Path:
    return Path.home() / ".qwen" / "settings.json"


def test_round_trip_keeps_everything_else(isolated_home: Path) -> None:
    path = settings_file()
    path.parent.mkdir()
    path.write_text(json.dumps(SETTINGS, indent=2))
    proc = wikimem("install", "qwen", "--mcp")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(path.read_text())
    assert set(doc["hooks"]) == {
        "PreToolUse",
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "PostToolUseFailure",
        "Stop",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "SessionEnd",
    }
    assert doc["hooks"]["PreToolUse"] == SETTINGS["hooks"]["PreToolUse"]  # foreign only
    assert SETTINGS["hooks"]["Stop"][0] in doc["hooks"]["Stop"]
    ours = doc["hooks"]["SessionStart"][0]["hooks"][0]
    argv = shlex.split(ours["command"])
    assert argv[1:3] == ["-I", "-S"] and argv[4] == "qwen" and ours["timeout"] == 10
    assert doc["hooks"]["PostToolUse"][0]["matcher"] == "*"
    assert doc["security"] == SETTINGS["security"] and doc["general"] == SETTINGS["general"]
    assert set(doc["mcpServers"]) == {"fs", "wikimem"}
    text = path.read_text()
    assert "nothing changed" in wikimem("install", "qwen").stdout and path.read_text() == text
    assert wikimem("uninstall", "qwen", "--mcp").returncode == 0
    assert json.loads(path.read_text()) == SETTINGS


def test_qwen_home_and_project_scope(tmp_path: Path) -> None:
    moved = tmp_path / "qwen-home"
    env = {**hook_env(), "QWEN_HOME": str(moved)}
    assert wikimem("install", "qwen", env=env).returncode == 0
    assert (moved / "settings.json").exists() and not settings_file().exists()
    project = tmp_path / "acme-api"
    project.mkdir()
    args = ("--scope", "project", "--project-dir", str(project))
    assert wikimem("install", "qwen", *args).returncode == 0
    assert "SessionStart" in json.loads((project / ".qwen" / "settings.json").read_text())["hooks"]
    assert wikimem("uninstall", "qwen", *args).returncode == 0
    assert list(project.iterdir()) == []  # .qwen/ was wikimem's
    assert wikimem("uninstall", "qwen", env=env).returncode == 0
    assert not moved.exists()


def test_comments_are_not_rewritten_away() -> None:
    path = settings_file()
    path.parent.mkdir()
    text = '{\n  // my model\n  "model": {"name": "qwen3-coder"}\n}\n'
    path.write_text(text)
    proc = wikimem("install", "qwen")
    assert proc.returncode == 1 and "comments" in proc.stderr
    assert path.read_text() == text


def test_the_installed_command_records_a_real_payload(isolated_home: Path, tmp_path: Path) -> None:
    assert wikimem("install", "qwen").returncode == 0
    command = json.loads(settings_file().read_text())["hooks"]["Stop"][0]["hooks"][0]["command"]
    env = hook_env(**json.loads((FIXTURES / "qwen" / "hook_env.json").read_text()))
    env.pop("WIKIMEM_HOME")
    proc = subprocess.run(
        command,
        shell=True,
        cwd=tmp_path,
        input=(FIXTURES / "qwen" / "Stop.json").read_bytes(),
        capture_output=True,
        env=env,
    )
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    (record,) = records(isolated_home)
    assert record["client"] == "qwen" and record["message"] == "Tests run; one failed."


def test_doctor_reports_disabled_hooks(tmp_path: Path) -> None:
    assert wikimem("install", "qwen").returncode == 0
    doc = json.loads(settings_file().read_text())
    settings_file().write_text(json.dumps({**doc, "disableAllHooks": True}))
    checks = json.loads(wikimem("doctor", "--json").stdout)
    assert any(
        c["area"] == "qwen" and c["status"] == "fail" and "disableAllHooks" in c["detail"]
        for c in checks
    )
    wired = next(c for c in checks if c["area"] == "qwen (user)")
    assert wired["status"] == "ok" and "9 events wired" in wired["detail"]
