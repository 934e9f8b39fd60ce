"""`wikimem install/uninstall copilot`: wikimem's own hooks file (`~/.copilot/hooks/wikimem.json`,
or `<repo>/.github/hooks/wikimem.json`), each command naming its event; never preToolUse; folder
trust for repository hooks explained, and recorded only with --trust; the MCP server; doctor."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, hook_env, make_repo, records
from wikimem.harness import is_wikimem_command


def wikimem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wikimem", *args], capture_output=True, text=True)


def user_file() -> Path:
    return Path.home() / ".copilot" / "hooks" / "wikimem.json"


def config_json() -> Path:
    return Path.home() / ".copilot" / "config.json"


def tree(root: Path) -> dict[str, str | None]:
    """Every file (with its text) and folder under root."""
    return {
        str(p.relative_to(root)): (p.read_text() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


def test_install_writes_one_command_per_event_and_uninstall_leaves_nothing(
    isolated_home: Path,
) -> None:
    before = tree(Path.home())
    proc = wikimem("install", "copilot")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(user_file().read_text())
    assert list(doc) == ["version", "hooks"] and doc["version"] == 1
    assert set(doc["hooks"]) == {
        "sessionStart",
        "userPromptSubmitted",
        "postToolUse",
        "postToolUseFailure",
        "agentStop",
        "subagentStop",
        "preCompact",
        "sessionEnd",
    }  # never preToolUse: any non-zero exit there denies the tool
    for event, (entry,) in doc["hooks"].items():
        assert set(entry) == {"type", "bash", "timeoutSec"} and entry["type"] == "command"
        argv = shlex.split(entry["bash"])
        assert argv[1:3] == ["-I", "-S"] and argv[4] == "copilot"
        assert argv[-2:] == ["--event", event]  # the payload does not say which event it is
        assert argv[argv.index("--home") + 1] == str(isolated_home)
        assert is_wikimem_command(entry["bash"], "copilot")
    text = user_file().read_text()
    assert "nothing changed" in wikimem("install", "copilot").stdout
    assert user_file().read_text() == text  # twice == once
    proc = wikimem("uninstall", "copilot")
    assert proc.returncode == 0 and "removed" in proc.stdout
    assert tree(Path.home()) == before  # ~/.copilot/hooks/ was wikimem's, and is gone again


def test_foreign_hooks_in_the_file_are_kept(isolated_home: Path) -> None:
    path = user_file()
    path.parent.mkdir(parents=True)
    foreign: dict[str, Any] = {
        "version": 1,
        "hooks": {
            "preToolUse": [{"type": "command", "bash": "./guard.sh", "timeoutSec": 5}],
            "sessionStart": [{"type": "command", "command": "echo hi"}],
        },
    }
    path.write_text(json.dumps(foreign))
    assert wikimem("install", "copilot").returncode == 0
    doc = json.loads(path.read_text())
    assert doc["hooks"]["preToolUse"] == foreign["hooks"]["preToolUse"]
    assert doc["hooks"]["sessionStart"][0] == {"type": "command", "command": "echo hi"}
    assert len(doc["hooks"]["sessionStart"]) == 2
    assert len(list(path.parent.glob("wikimem.json.wikimem-backup-*"))) == 1
    assert wikimem("uninstall", "copilot").returncode == 0
    assert json.loads(path.read_text()) == foreign


def test_the_installed_commands_record_real_payloads(isolated_home: Path, tmp_path: Path) -> None:
    assert wikimem("install", "copilot").returncode == 0
    doc = json.loads(user_file().read_text())
    env = hook_env(**json.loads((FIXTURES / "copilot" / "hook_env.json").read_text()))
    env.pop("WIKIMEM_HOME")
    for event in ("sessionStart", "userPromptSubmitted", "postToolUse", "sessionEnd"):
        proc = subprocess.run(
            doc["hooks"][event][0]["bash"],
            shell=True,
            executable="/bin/bash",  # Copilot runs `bash -c`
            cwd=tmp_path,
            input=(FIXTURES / "copilot" / f"{event}.json").read_bytes(),
            capture_output=True,
            env=env,
        )
        assert proc.returncode == 0 and proc.stderr == b""
    assert [r["event"] for r in records(isolated_home)] == [
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "SessionEnd",
    ]


def test_repository_hooks_go_to_the_repository_root_and_trust_is_explained(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "acme-api")
    sub = repo / "src"
    sub.mkdir()
    proc = wikimem("install", "copilot", "--scope", "project", "--project-dir", str(sub))
    assert proc.returncode == 0, proc.stderr
    assert (repo / ".github" / "hooks" / "wikimem.json").exists()  # where Copilot reads them
    assert "only in folders you trust" in proc.stdout and "--trust" in proc.stdout
    assert not config_json().exists()  # nothing trusted without consent

    config_json().parent.mkdir()
    theirs = (
        "// User settings belong in settings.json.\n// This file is managed automatically.\n"
        '{\n  "firstLaunchAt": "2026-03-11T00:00:00.000Z"\n}\n'
    )
    config_json().write_text(theirs)
    proc = wikimem("install", "copilot", "--scope", "project", "--project-dir", str(sub), "--trust")
    assert proc.returncode == 0 and "Recorded Copilot CLI trust" in proc.stdout
    text = config_json().read_text()
    assert text.startswith("// User settings belong in settings.json.\n// This file is managed")
    doc = json.loads(text.split("\n", 2)[2])
    assert doc == {"firstLaunchAt": "2026-03-11T00:00:00.000Z", "trustedFolders": [str(repo)]}
    proc = wikimem("install", "copilot", "--scope", "project", "--project-dir", str(sub), "--trust")
    assert "Copilot CLI trusts" in proc.stdout and config_json().read_text() == text

    doctor = json.loads(wikimem("doctor", "--json", "--project-dir", str(repo)).stdout)
    trust = [c for c in doctor if c["area"] == "copilot trust"]
    assert [c["status"] for c in trust] == ["ok"]

    assert (
        wikimem("uninstall", "copilot", "--scope", "project", "--project-dir", str(repo)).returncode
        == 0
    )
    assert not (repo / ".github").exists()
    # the trust wikimem recorded for these hooks goes with them; Copilot's file is as it was
    assert config_json().read_text() == theirs


def test_trust_is_never_recorded_for_home_or_root(tmp_path: Path) -> None:
    proc = wikimem(
        "install", "copilot", "--scope", "project", "--project-dir", str(Path.home()), "--trust"
    )
    assert proc.returncode == 1 and "refusing to trust" in proc.stderr
    assert not config_json().exists()


def test_doctor_reports_untrusted_repository_hooks_and_disabled_hooks(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "acme-api")
    assert (
        wikimem("install", "copilot", "--scope", "project", "--project-dir", str(repo)).returncode
        == 0
    )
    settings = Path.home() / ".copilot" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"disableAllHooks": true}')
    proc = wikimem("doctor", "--json", "--project-dir", str(repo))
    checks = json.loads(proc.stdout)
    trust = next(c for c in checks if c["area"] == "copilot trust")
    assert trust["status"] == "fail" and "--trust" in trust["fix"]
    assert any(c["area"] == "copilot" and "disableAllHooks" in c["detail"] for c in checks)
    wired = next(c for c in checks if c["area"] == "copilot (project)")
    assert wired["status"] == "ok" and "8 events wired" in wired["detail"]


def test_mcp_server_registration(isolated_home: Path, tmp_path: Path) -> None:
    path = Path.home() / ".copilot" / "mcp-config.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"mcpServers": {"github": {"type": "http", "url": "https://x"}}}))
    assert wikimem("install", "copilot", "--mcp").returncode == 0
    servers = json.loads(path.read_text())["mcpServers"]
    assert servers["github"] == {"type": "http", "url": "https://x"}
    ours = servers["wikimem"]
    assert ours["type"] == "local" and ours["tools"] == ["*"]
    assert ours["args"][-3:] == ["mcp", "--home", str(isolated_home)]
    repo = make_repo(tmp_path / "acme-api")
    args = ("--scope", "project", "--project-dir", str(repo), "--mcp")
    assert wikimem("install", "copilot", *args).returncode == 0
    # .github/mcp.json: .mcp.json is Claude Code's too
    assert "wikimem" in json.loads((repo / ".github" / "mcp.json").read_text())["mcpServers"]
    assert not (repo / ".mcp.json").exists()
    assert wikimem("uninstall", "copilot", "--mcp").returncode == 0
    assert json.loads(path.read_text()) == {
        "mcpServers": {"github": {"type": "http", "url": "https://x"}}
    }


@pytest.mark.parametrize("bad", ['{"hooks": {oops', "[]", '{"hooks": []}'])
def test_a_file_it_cannot_read_is_left_alone(bad: str) -> None:
    path = user_file()
    path.parent.mkdir(parents=True)
    path.write_text(bad)
    proc = wikimem("install", "copilot")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert path.read_text() == bad
