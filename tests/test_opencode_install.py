"""`wikimem install/uninstall opencode`: wikimem's plugin file in OpenCode's plugin folder (user:
`$XDG_CONFIG_HOME/opencode/plugins/`, project: `.opencode/plugins/`) with this installation's hook
command in it; nothing else touched; someone else's file of that name refused; the MCP server in
opencode.json; doctor."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import hook_env, make_repo
from wikimem.setup import opencodeplugin


def wikimem(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args], capture_output=True, text=True, env=env
    )


def plugin_file() -> Path:
    return Path.home() / ".config" / "opencode" / "plugins" / "wikimem.js"


def tree(root: Path) -> dict[str, str | None]:
    return {
        str(p.relative_to(root)): (p.read_text() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


def test_install_puts_the_plugin_with_its_command_and_uninstall_removes_it(
    isolated_home: Path,
) -> None:
    config = Path.home() / ".config" / "opencode"
    config.mkdir(parents=True)
    (config / "opencode.json").write_text('{"theme": "dark"}\n')
    before = tree(Path.home())
    proc = wikimem("install", "opencode")
    assert proc.returncode == 0, proc.stderr
    assert "plugin" in proc.stdout and "restart" in proc.stdout
    text = plugin_file().read_text()
    argv = opencodeplugin.command_of(text)
    assert argv is not None and argv[1:3] == ["-I", "-S"] and argv[4] == "opencode"
    assert argv[-2:] == ["--home", str(isolated_home)]
    assert opencodeplugin.pristine(text)
    assert "nothing changed" in wikimem("install", "opencode").stdout
    assert plugin_file().read_text() == text
    status = json.loads(wikimem("status", "--json").stdout)
    assert [(h["client"], h["scope"]) for h in status["hooks"]] == [("opencode", "user")]
    assert wikimem("uninstall", "opencode").returncode == 0
    assert tree(Path.home()) == before  # plugins/ was wikimem's; opencode.json untouched


def test_another_plugin_named_wikimem_is_left_alone() -> None:
    path = plugin_file()
    path.parent.mkdir(parents=True)
    path.write_text("export const Mine = async () => ({})\n")
    proc = wikimem("install", "opencode")
    assert proc.returncode == 1 and "not wikimem's plugin" in proc.stderr
    proc = wikimem("uninstall", "opencode")
    assert proc.returncode == 0
    assert path.read_text() == "export const Mine = async () => ({})\n"


def test_an_older_or_edited_plugin_is_backed_up_before_it_is_replaced(tmp_path: Path) -> None:
    assert wikimem("install", "opencode").returncode == 0
    edited = plugin_file().read_text().replace("MAX_TRACKED = 2000", "MAX_TRACKED = 10")
    plugin_file().write_text(edited)
    assert wikimem("install", "opencode").returncode == 0
    (backup,) = plugin_file().parent.glob("wikimem.js.wikimem-backup-*")
    assert backup.read_text() == edited
    assert opencodeplugin.pristine(plugin_file().read_text())
    plugin_file().write_text(edited)
    proc = wikimem("uninstall", "opencode")
    assert proc.returncode == 0 and not plugin_file().exists()
    assert len(list(plugin_file().parent.glob("wikimem.js.wikimem-backup-*"))) == 2


def test_project_scope_and_xdg_config_home(tmp_path: Path) -> None:
    project = make_repo(tmp_path / "acme-api")
    args = ("--scope", "project", "--project-dir", str(project))
    proc = wikimem("install", "opencode", *args)
    assert proc.returncode == 0 and "npm install" in proc.stdout
    assert (project / ".opencode" / "plugins" / "wikimem.js").exists()
    assert wikimem("uninstall", "opencode", *args).returncode == 0
    assert not (project / ".opencode").exists()
    xdg = tmp_path / "xdg"
    env = {**hook_env(), "XDG_CONFIG_HOME": str(xdg)}
    assert wikimem("install", "opencode", env=env).returncode == 0
    assert (xdg / "opencode" / "plugins" / "wikimem.js").exists()


def test_mcp_server_in_opencode_json(isolated_home: Path, tmp_path: Path) -> None:
    config = Path.home() / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    theirs = json.dumps({"$schema": "https://opencode.ai/config.json", "mcp": {}})
    config.write_text(theirs)
    assert wikimem("install", "opencode", "--mcp").returncode == 0
    ours = json.loads(config.read_text())["mcp"]["wikimem"]
    assert ours["type"] == "local" and ours["enabled"] is True
    assert ours["command"][1:] == ["-P", "-m", "wikimem", "mcp", "--home", str(isolated_home)]
    assert wikimem("uninstall", "opencode", "--mcp").returncode == 0
    assert config.read_text() == theirs  # their own bytes back
    jsonc = tmp_path / "p" / "opencode.jsonc"
    jsonc.parent.mkdir()
    jsonc.write_text('{\n  // mine\n  "theme": "dark"\n}\n')
    proc = wikimem(
        "install", "opencode", "--mcp", "--scope", "project", "--project-dir", str(jsonc.parent)
    )
    assert proc.returncode == 1 and "comments" in proc.stderr  # the file in use; refused


def test_doctor_probes_the_plugins_command(tmp_path: Path) -> None:
    assert wikimem("install", "opencode").returncode == 0
    checks = json.loads(wikimem("doctor", "--json").stdout)
    wired = next(c for c in checks if c["area"] == "opencode (user)")
    assert wired["status"] == "ok" and "5 events wired" in wired["detail"]
    # copied by hand: the plugin runs `wikimem` from PATH
    plugin_file().write_text(opencodeplugin.template())
    checks = json.loads(wikimem("doctor", "--json").stdout)
    assert any(c["area"] == "opencode (user)" and "from PATH" in c["detail"] for c in checks)
