"""`wikimem install` / `uninstall`: merge into harness configs, keep foreign entries, round trip."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import NEEDS_KIT, SHARED, hook_env, payload, records
from wikimem.harness import is_wikimem_command

FOREIGN: dict[str, dict[str, Any]] = {
    "claude": {
        "model": "opus",
        "permissions": {"allow": ["Bash(npm test)"]},
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": "other-tool log", "timeout": 3}],
                }
            ],
            "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
        },
    },
    "codex": {
        "hooks": {
            "Stop": [
                {"hooks": [{"type": "command", "command": "~/bin/on-stop.sh", "timeout": 30}]}
            ],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}],
        }
    },
    "cursor": {
        "version": 1,
        "hooks": {
            "afterFileEdit": [{"command": "./hooks/format.sh"}],
            "stop": [{"command": "./hooks/audit.sh", "timeout": 10}],
        },
    },
    "gemini": {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "hooksConfig": {"notifications": True},
        "hooks": {
            "AfterTool": [
                {
                    "matcher": "write_file|replace",
                    "hooks": [{"type": "command", "command": "prettier-hook", "timeout": 3000}],
                }
            ],
            "BeforeModel": [{"hooks": [{"type": "command", "command": "audit-model"}]}],
        },
    },
}
PATHS = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "cursor": ".cursor/hooks.json",
    "gemini": ".gemini/settings.json",
}


def wikimem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wikimem", *args], capture_output=True, text=True)


def config_file(client: str) -> Path:
    return Path.home() / PATHS[client]


def our_commands(doc: dict[str, Any], client: str) -> list[str]:
    found = []
    for entries in doc.get("hooks", {}).values():
        for entry in entries:
            handlers = [entry] if client == "cursor" else entry.get("hooks", [])
            found += [
                h["command"] for h in handlers if is_wikimem_command(h.get("command"), client)
            ]
    return found


@pytest.mark.parametrize("client", ["claude", "codex", "cursor", "gemini"])
def test_round_trip_keeps_foreign_entries(client: str, isolated_home: Path) -> None:
    path = config_file(client)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(FOREIGN[client]))

    proc = wikimem("install", client)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(path.read_text())
    commands = our_commands(doc, client)
    assert commands and len(set(commands)) == 1
    argv = shlex.split(commands[0])
    assert Path(argv[0]).is_absolute() and Path(argv[3]).is_absolute() and argv[1:3] == ["-I", "-S"]
    assert argv[4] == client and argv[-1] == str(isolated_home)
    # every foreign entry is still there
    for event, entries in FOREIGN[client]["hooks"].items():
        for entry in entries:
            assert entry in doc["hooks"][event]
    for key, value in FOREIGN[client].items():
        if key != "hooks":
            assert doc[key] == value
    backups = list(path.parent.glob(path.name + ".wikimem-backup-*"))
    assert len(backups) == 1 and json.loads(backups[0].read_text()) == FOREIGN[client]

    text = path.read_text()
    proc = wikimem("install", client)
    assert proc.returncode == 0 and "nothing changed" in proc.stdout
    assert path.read_text() == text  # twice == once
    assert len(list(path.parent.glob(path.name + ".wikimem-backup-*"))) == 1

    assert wikimem("uninstall", client).returncode == 0
    assert json.loads(path.read_text()) == FOREIGN[client]


@pytest.mark.parametrize("client", ["claude", "codex", "cursor", "gemini"])
def test_install_into_missing_file_and_shape(client: str, isolated_home: Path) -> None:
    assert wikimem("install", client).returncode == 0
    doc = json.loads(config_file(client).read_text())
    if client == "cursor":
        assert doc["version"] == 1
        entry = doc["hooks"]["sessionStart"][0]
        assert set(entry) == {"command", "timeout"}  # flat shape
        assert "beforeSubmitPrompt" in doc["hooks"] and "afterAgentResponse" in doc["hooks"]
    elif client == "gemini":
        handler = doc["hooks"]["SessionStart"][0]["hooks"][0]
        assert handler["timeout"] == 10_000  # Gemini counts milliseconds
        assert handler["name"] == "wikimem" and handler["type"] == "command"
        assert doc["hooks"]["PreCompress"] == [
            {"matcher": "manual", "hooks": [{**handler, "timeout": 5000}]}
        ]
        assert set(doc["hooks"]) == {
            "SessionStart",
            "BeforeAgent",
            "AfterTool",
            "AfterAgent",
            "PreCompress",
            "Notification",
            "SessionEnd",
        }  # BeforeModel, AfterModel, BeforeToolSelection are noise
    else:
        group = doc["hooks"]["SessionStart"][0]
        assert group["hooks"][0]["type"] == "command"
        assert "PostToolUse" in doc["hooks"]
    if client == "claude":
        assert "PostToolUseFailure" in doc["hooks"]  # failing Bash commands arrive only there


@pytest.mark.parametrize("client", ["claude", "codex", "cursor", "gemini"])
def test_invalid_json_is_refused_untouched(client: str) -> None:
    path = config_file(client)
    path.parent.mkdir(parents=True)
    path.write_text('{"hooks": {oops')
    proc = wikimem("install", client)
    assert proc.returncode == 1
    assert "not valid JSON" in proc.stderr and "Traceback" not in proc.stderr
    assert path.read_text() == '{"hooks": {oops'
    assert not list(path.parent.glob("*.wikimem-backup-*"))


def test_non_object_json_is_refused() -> None:
    path = config_file("claude")
    path.parent.mkdir(parents=True)
    path.write_text("[]")
    assert wikimem("install", "claude").returncode == 1
    assert path.read_text() == "[]"


def test_dry_run_writes_nothing() -> None:
    proc = wikimem("install", "claude", "--dry-run")
    assert proc.returncode == 0 and "+" in proc.stdout
    assert not config_file("claude").exists()


def test_project_scope(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    assert (
        wikimem("install", "codex", "--scope", "project", "--project-dir", str(project)).returncode
        == 0
    )
    assert (project / ".codex" / "hooks.json").exists()
    assert not config_file("codex").exists()
    proc = wikimem("status", "--json", "--project-dir", str(project))
    hooks = json.loads(proc.stdout)["hooks"]
    assert [(h["client"], h["scope"]) for h in hooks] == [("codex", "project")]


def test_installed_command_works_from_any_cwd(isolated_home: Path, tmp_path: Path) -> None:
    assert wikimem("install", "claude").returncode == 0
    doc = json.loads(config_file("claude").read_text())
    command = doc["hooks"]["Stop"][0]["hooks"][0]["command"]
    elsewhere = tmp_path / "somewhere"
    elsewhere.mkdir()
    env = hook_env()
    env.pop("WIKIMEM_HOME")  # the command carries its home
    proc = subprocess.run(
        command,
        shell=True,
        cwd=elsewhere,
        input=json.dumps(payload("claude_Stop")).encode(),
        capture_output=True,
        env=env,
    )
    assert proc.returncode == 0 and proc.stderr == b""
    assert len(records(isolated_home)) == 1


def test_codex_install_explains_trust_and_trust_flag_records_it() -> None:
    proc = wikimem("install", "codex")
    assert "/hooks" in proc.stdout and "--trust" in proc.stdout
    config = Path.home() / ".codex" / "config.toml"
    assert not config.exists()
    config.write_text('model = "gpt-5.5"\n\n[features]\nhooks = true\n')
    proc = wikimem("install", "codex", "--trust")
    assert proc.returncode == 0 and "Recorded Codex trust" in proc.stdout
    data = tomllib.loads(config.read_text())
    assert data["model"] == "gpt-5.5" and data["features"] == {"hooks": True}
    state = data["hooks"]["state"]
    hooks_json = str(config_file("codex"))
    assert all(k.startswith(hooks_json + ":") for k in state)
    assert f"{hooks_json}:session_start:0:0" in state
    assert (
        wikimem("install", "codex", "--trust")
        .stdout.strip()
        .endswith("Codex already trusts these hooks.")
    )


def test_codex_trust_hash_matches_the_reference_implementation() -> None:
    ref_dir = SHARED / "realclients"
    if not (ref_dir / "realclient_codex.py").exists():
        pytest.skip(f"compares with the Codex reference implementation: {NEEDS_KIT}")
    sys.path.insert(0, str(ref_dir))
    try:
        import realclient_codex as ref
    finally:
        sys.path.remove(str(ref_dir))
    from wikimem.setup.codextrust import trust_hash

    for event, group in [
        ("SessionStart", {}),
        ("PostToolUse", {"matcher": "*"}),
        ("Stop", {"matcher": "*"}),
        ("SessionEnd", {}),
    ]:
        handler = {
            "type": "command",
            "command": "/x/python -I -S /y/hookentry.py codex",
            "timeout": 5,
        }
        assert trust_hash(event, group, handler) == ref.hook_trust_hash(event, group, handler)


def test_codex_reinstall_and_uninstall_keep_a_foreign_hooks_trust() -> None:
    from wikimem.setup.codextrust import handler_keys, read_trusted, record_trust

    assert wikimem("install", "codex").returncode == 0
    path = config_file("codex")
    doc = json.loads(path.read_text())
    doc["hooks"]["Stop"].append(
        {"hooks": [{"type": "command", "command": "~/bin/audit.sh", "timeout": 30}]}
    )
    path.write_text(json.dumps(doc))
    config = Path.home() / ".codex" / "config.toml"
    foreign = handler_keys(str(path), doc, only=lambda h: "audit" in h["command"])
    config.write_text(record_trust(str(config), foreign))

    proc = wikimem("install", "codex")  # same options: nothing moves, nothing changes
    assert "nothing changed" in proc.stdout
    assert json.loads(path.read_text()) == doc

    assert (
        wikimem("uninstall", "codex").returncode == 0
    )  # our Stop group goes: the audit hook moves up
    after = json.loads(path.read_text())
    moved = handler_keys(str(path), after, only=lambda h: "audit" in h["command"])
    assert list(moved) != list(foreign)
    trusted = read_trusted(str(config))
    assert all(trusted.get(k) == digest for k, digest in moved.items())
