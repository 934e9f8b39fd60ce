"""`wikimem install <client> --mcp` / `uninstall --mcp`: the MCP server registered in each
harness's own config, merge-safe, idempotent, removed exactly."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from wikimem.home import Home
from wikimem.setup.mcpconfig import config_path, install_mcp, is_ours, uninstall_mcp
from wikimem.setup.wiring import InstallError

FOREIGN_JSON: dict[str, Any] = {
    "numStartups": 42,
    "projects": {"/src/api": {"allowedTools": []}},
    "mcpServers": {"sentry": {"type": "http", "url": "https://mcp.sentry.dev/mcp"}},
}
FOREIGN_TOML = """# my codex settings
model = "gpt-5.5"
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers.docs.env]
TOKEN_FILE = "~/.docs"

[hooks.state."/x/hooks.json:stop:0:0"]
enabled = true
trusted_hash = "sha256:abc"
"""


def wikimem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wikimem", *args], capture_output=True, text=True)


def backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".wikimem-backup-*"))


@pytest.mark.parametrize("client", ["claude", "cursor"])
def test_json_round_trip_keeps_everything_else(client: str, isolated_home: Path) -> None:
    path = Path(config_path(client, "user"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(FOREIGN_JSON, indent=2))
    path.chmod(0o600)

    proc = wikimem("install", client, "--mcp")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(path.read_text())
    ours = doc["mcpServers"]["wikimem"]
    assert Path(ours["command"]).is_absolute()
    assert ours["args"][:4] == ["-P", "-m", "wikimem", "mcp"]
    assert ours["args"][-2:] == ["--home", str(isolated_home)]
    assert {k: v for k, v in doc.items() if k != "mcpServers"} == {
        k: v for k, v in FOREIGN_JSON.items() if k != "mcpServers"
    }
    assert doc["mcpServers"]["sentry"] == FOREIGN_JSON["mcpServers"]["sentry"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # ~/.claude.json stays private
    [backup] = backups(path)
    assert json.loads(backup.read_text()) == FOREIGN_JSON
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600

    text = path.read_text()
    proc = wikimem("install", client, "--mcp")
    assert proc.returncode == 0 and path.read_text() == text and len(backups(path)) == 1

    assert wikimem("uninstall", client, "--mcp").returncode == 0
    assert json.loads(path.read_text()) == FOREIGN_JSON


def test_the_registered_command_starts_a_working_server(isolated_home: Path) -> None:
    install_mcp("cursor", Home(str(isolated_home)))
    entry = json.loads(Path(config_path("cursor", "user")).read_text())["mcpServers"]["wikimem"]
    proc = subprocess.run(
        [entry["command"], *entry["args"]],
        input=b"",
        capture_output=True,
        timeout=60,
    )
    # stdin closed at once: the server exits cleanly and never writes to stdout
    assert proc.returncode == 0 and proc.stdout == b""


def test_project_scope_files(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    home = Home(str(isolated_home))
    for client, rel in (
        ("claude", ".mcp.json"),
        ("cursor", ".cursor/mcp.json"),
        ("codex", ".codex/config.toml"),
    ):
        result = install_mcp(client, home, "project", str(project))
        assert result.path == str(project / rel) and result.changed
        removed = uninstall_mcp(client, "project", str(project))
        assert removed.changed
        assert not (project / rel).exists()  # a file only we used is not left behind empty


def test_codex_toml_keeps_comments_and_other_tables(isolated_home: Path) -> None:
    path = Path(config_path("codex", "user"))
    path.parent.mkdir(parents=True)
    path.write_text(FOREIGN_TOML)
    assert wikimem("install", "codex", "--mcp").returncode == 0
    text = path.read_text()
    assert text.startswith(FOREIGN_TOML.rstrip("\n"))  # untouched, byte for byte
    doc = tomllib.loads(text)
    assert doc["mcp_servers"]["wikimem"]["args"][:4] == ["-P", "-m", "wikimem", "mcp"]
    assert doc["mcp_servers"]["docs"]["env"] == {"TOKEN_FILE": "~/.docs"}
    assert backups(path)[0].read_text() == FOREIGN_TOML

    proc = wikimem("install", "codex", "--mcp")
    assert "already up to date" in proc.stdout and path.read_text() == text
    assert wikimem("uninstall", "codex", "--mcp").returncode == 0
    assert path.read_text() == FOREIGN_TOML


def test_reinstall_from_another_home_replaces_our_entry_only(
    isolated_home: Path, tmp_path: Path
) -> None:
    path = Path(config_path("codex", "user"))
    install_mcp("codex", Home(str(isolated_home)))
    install_mcp("codex", Home(str(tmp_path / "other-home")))
    doc = tomllib.loads(path.read_text())
    assert doc["mcp_servers"]["wikimem"]["args"][-1] == str(tmp_path / "other-home")
    assert path.read_text().count("[mcp_servers.wikimem]") == 1


@pytest.mark.parametrize("client", ["claude", "codex", "cursor"])
def test_a_foreign_server_named_wikimem_is_never_touched(client: str, isolated_home: Path) -> None:
    path = Path(config_path(client, "user"))
    path.parent.mkdir(parents=True, exist_ok=True)
    if client == "codex":
        text = '[mcp_servers.wikimem]\ncommand = "my-own-wiki"\n'
    else:
        text = json.dumps({"mcpServers": {"wikimem": {"command": "my-own-wiki"}}})
    path.write_text(text)
    for call in (
        lambda: install_mcp(client, Home(str(isolated_home))),
        lambda: uninstall_mcp(client),
    ):
        with pytest.raises(InstallError, match="does not run wikimem"):
            call()
    assert path.read_text() == text and not backups(path)


@pytest.mark.parametrize(
    ("client", "text"),
    [
        ("claude", "{not json"),
        ("cursor", "[1, 2]"),
        ("claude", '{"mcpServers": []}'),
        ("codex", "model = \n"),
        (
            "codex",
            "mcp_servers = { wikimem = { command = 'python3', args = ['-m', 'wikimem', 'mcp'] } }\n",
        ),
    ],
)
def test_unparsable_or_unusual_files_are_refused_untouched(
    client: str, text: str, isolated_home: Path
) -> None:
    path = Path(config_path(client, "user"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    proc = wikimem("install", client, "--mcp")
    assert proc.returncode == 1 and "nothing was changed" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert path.read_text() == text and not backups(path)


def test_dry_run_writes_nothing(isolated_home: Path) -> None:
    proc = wikimem("install", "cursor", "--mcp", "--dry-run")
    assert proc.returncode == 0 and '"wikimem"' in proc.stdout
    assert not Path(config_path("cursor", "user")).exists()


def test_claude_plugin_enabled_warns_about_two_servers(isolated_home: Path) -> None:
    settings = Path.home() / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"enabledPlugins": {"wikimem@wikimem": True}}))
    result = install_mcp("claude", Home(str(isolated_home)))
    assert any("plugin" in m for m in result.messages)


def test_is_ours() -> None:
    assert is_ours({"command": "/venv/bin/python3", "args": ["-P", "-m", "wikimem", "mcp"]})
    assert is_ours({"command": "wikimem", "args": ["mcp"]})
    assert is_ours({"command": "/plugin/hooks/wikimem-hook", "args": ["mcp"]})
    assert not is_ours({"command": "wikimem-other", "args": ["serve"]})
    assert not is_ours({"command": "python3", "args": ["-m", "mcp_wikimem"]})
    assert not is_ours("wikimem mcp")
