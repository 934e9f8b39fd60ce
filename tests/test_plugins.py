"""The repository as a Claude Code and a Codex plugin: manifests that parse and point at files that
exist, hooks wired like `wikimem install`, and the plugin's hook command run against fixtures
(records once, stands aside for `wikimem install`'s hooks, fails open without wikimem)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, payload, records
from wikimem import __version__
from wikimem.home import Home
from wikimem.setup.install import install
from wikimem.setup.mcpconfig import is_ours
from wikimem.setup.wiring import WIRING

WRAPPER = REPO / "hooks" / "wikimem-hook"
VENV_BIN = Path(sys.executable).parent


def load(rel: str) -> dict[str, Any]:
    doc = json.loads((REPO / rel).read_text())
    assert isinstance(doc, dict)
    return doc


def test_claude_plugin_manifest_and_marketplace() -> None:
    manifest = load(".claude-plugin/plugin.json")
    assert manifest["name"] == "wikimem" and manifest["version"] == __version__
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert manifest["version"] == project["version"]
    # the default component files are found by convention: naming them again is an error
    assert not {"hooks", "mcpServers"} & set(manifest)
    market = load(".claude-plugin/marketplace.json")
    assert market["name"] and market["owner"]["name"]
    [entry] = market["plugins"]
    assert entry["name"] == "wikimem" and entry["source"] == "./"


def test_codex_plugin_manifest_and_marketplace() -> None:
    manifest = load(".codex-plugin/plugin.json")
    assert manifest["name"] == "wikimem" and manifest["version"] == __version__
    for key in ("hooks", "mcpServers"):
        assert manifest[key].startswith("./") and (REPO / manifest[key]).is_file()
    assert manifest["interface"]["displayName"] == "wikimem"
    market = load(".agents/plugins/marketplace.json")
    [entry] = market["plugins"]
    assert entry["name"] == "wikimem"
    assert entry["source"] == {"source": "local", "path": "./"}
    assert entry["policy"]["installation"] and entry["category"]
    assert list((REPO / ".codex-plugin").iterdir()) == [REPO / ".codex-plugin" / "plugin.json"]


@pytest.mark.parametrize(
    ("rel", "client", "root_var"),
    [
        ("hooks/hooks.json", "claude", "${CLAUDE_PLUGIN_ROOT}"),
        ("hooks/codex-hooks.json", "codex", "${PLUGIN_ROOT}"),
    ],
)
def test_plugin_hooks_wire_what_install_wires(rel: str, client: str, root_var: str) -> None:
    hooks = load(rel)["hooks"]
    assert list(hooks) == [event for event, _, _ in WIRING[client]]
    for event, matcher, timeout in WIRING[client]:
        [group] = hooks[event]
        assert group.get("matcher") == matcher
        [handler] = group["hooks"]
        assert handler["type"] == "command" and handler["timeout"] == timeout
        assert handler["command"] == f'"{root_var}/hooks/wikimem-hook" {client} --plugin'


@pytest.mark.parametrize(
    ("rel", "root"), [(".mcp.json", "${CLAUDE_PLUGIN_ROOT}/"), (".codex-mcp.json", "./")]
)
def test_plugin_mcp_servers_run_the_wrapper(rel: str, root: str) -> None:
    server = load(rel)["mcpServers"]["wikimem"]
    assert server["command"] == f"{root}hooks/wikimem-hook" and server["args"] == ["mcp"]
    assert is_ours(server)  # `wikimem install --mcp` would never overwrite it as foreign
    assert os.access(WRAPPER, os.X_OK)


def run_plugin_hook(
    client: str,
    event: dict[str, Any],
    path: str,
    extra_env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """The plugin's hook command as the harness runs it: through a shell, with the plugin root
    in the environment (Claude Code also substitutes it; the shell expansion is equivalent)."""
    rel = "hooks/hooks.json" if client == "claude" else "hooks/codex-hooks.json"
    command = load(rel)["hooks"][event["hook_event_name"]][0]["hooks"][0]["command"]
    env = {k: v for k, v in os.environ.items() if k != "WIKIMEM_BIN"}
    env.update({"PATH": path, "CLAUDE_PLUGIN_ROOT": str(REPO), "PLUGIN_ROOT": str(REPO)})
    env.update(extra_env or {})
    return subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(event).encode(),
        capture_output=True,
        env=env,
        timeout=60,
    )


def with_venv_on_path() -> str:
    return f"{VENV_BIN}:/usr/bin:/bin"


def bare_path(tmp_path: Path) -> str:
    """A PATH with only what the wrapper itself needs: no wikimem, no python."""
    bin_dir = tmp_path / "bare-bin"
    bin_dir.mkdir(exist_ok=True)
    for tool in ("cat", "dirname"):
        target = next(Path(d, tool) for d in ("/usr/bin", "/bin") if Path(d, tool).exists())
        (bin_dir / tool).symlink_to(target)
    return str(bin_dir)


@pytest.mark.parametrize(
    ("client", "fixture"), [("claude", "claude_UserPromptSubmit"), ("codex", "codex_Stop")]
)
def test_plugin_hook_records_once(client: str, fixture: str, home: Path) -> None:
    proc = run_plugin_hook(client, payload(fixture), with_venv_on_path())
    assert proc.returncode == 0 and proc.stderr == b""
    [record] = records(home)
    assert record["client"] == client


def test_plugin_hook_injects_like_the_installed_hook(home: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "wikimem", "remember", "I prefer pnpm over npm"],
        check=True,
        capture_output=True,
    )
    proc = run_plugin_hook("claude", payload("claude_SessionStart"), with_venv_on_path())
    out = json.loads(proc.stdout)
    assert "pnpm" in out["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize("client", ["claude", "codex"])
def test_plugin_stands_aside_when_wikimem_install_handles_the_event(
    client: str, home: Path
) -> None:
    install(client, Home(str(home)))
    event = payload("claude_Stop" if client == "claude" else "codex_Stop")
    proc = run_plugin_hook(client, event, with_venv_on_path())
    assert proc.returncode == 0 and proc.stdout == b""
    assert records(home) == []  # the plugin recorded nothing ...
    from tests.conftest import run_hook

    run_hook(client, event, installed_form=True)
    assert len(records(home)) == 1  # ... and the installed hook records it once


def test_plugin_records_an_event_the_installed_wiring_lacks(home: Path) -> None:
    install("claude", Home(str(home)))
    settings = Path.home() / ".claude" / "settings.json"
    doc = json.loads(settings.read_text())
    del doc["hooks"]["Stop"]  # an older install that did not wire Stop
    settings.write_text(json.dumps(doc))
    run_plugin_hook("claude", payload("claude_Stop"), with_venv_on_path())
    assert [r["event"] for r in records(home)] == ["Stop"]


def test_plugin_does_not_defer_to_an_installed_hook_that_cannot_run(home: Path) -> None:
    settings = Path.home() / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    gone = "/nonexistent/venv/bin/python3 -I -S /nonexistent/wikimem/hookentry.py claude"
    settings.write_text(
        json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": gone}]}]}})
    )
    run_plugin_hook("claude", payload("claude_Stop"), with_venv_on_path())
    assert [r["event"] for r in records(home)] == ["Stop"]


def test_project_settings_count_too(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    install("claude", Home(str(home)), scope="project", project_dir=str(project))
    event = dict(payload("claude_Stop"), cwd=str(project))
    run_plugin_hook("claude", event, with_venv_on_path(), {"CLAUDE_PROJECT_DIR": str(project)})
    assert records(home) == []


def test_without_wikimem_the_hook_drains_stdin_exits_0_and_says_how_to_install(
    home: Path, tmp_path: Path
) -> None:
    big = dict(payload("claude_Stop"), last_assistant_message="x" * 2_000_000)
    env = {"HOME": str(tmp_path / "empty-home")}
    proc = run_plugin_hook("claude", big, bare_path(tmp_path), env)
    assert proc.returncode == 0 and proc.stdout == b""
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and "pipx install" in lines[0] and str(REPO) in lines[0]
    assert records(home) == []


def test_a_python3_that_can_import_wikimem_is_used(home: Path, tmp_path: Path) -> None:
    bin_dir = Path(bare_path(tmp_path))
    shim = bin_dir / "python3"  # a script, not a link: a link would lose the virtualenv
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    shim.chmod(0o755)
    env = {"HOME": str(tmp_path / "empty-home")}
    proc = run_plugin_hook("claude", payload("claude_Stop"), str(bin_dir), env)
    assert proc.returncode == 0 and proc.stderr == b""
    assert [r["event"] for r in records(home)] == ["Stop"]


def test_a_checkout_in_the_cwd_does_not_pass_for_an_install(tmp_path: Path) -> None:
    # /usr/bin/env python3 might import a wikimem/ folder from the cwd; the wrapper must not
    bin_dir = Path(bare_path(tmp_path))
    fake = tmp_path / "python3"
    fake.write_text(f'#!/bin/sh\nexec {sys.executable} -S "$@"\n')  # -S: no site-packages
    fake.chmod(0o755)
    (bin_dir / "python3").symlink_to(fake)
    proc = subprocess.run(
        [str(WRAPPER), "claude"],
        input=b"{}",
        capture_output=True,
        cwd=REPO,  # holds a wikimem/ package folder
        env={"PATH": str(bin_dir), "HOME": str(tmp_path / "empty-home")},
        timeout=60,
    )
    assert proc.returncode == 0 and b"pipx install" in proc.stderr


def test_a_broken_wikimem_never_fails_the_session(home: Path, tmp_path: Path) -> None:
    broken = tmp_path / "wikimem"
    broken.write_text("#!/bin/sh\necho 'Traceback: boom' >&2\nexit 2\n")
    broken.chmod(0o755)
    proc = run_plugin_hook(
        "claude", payload("claude_Stop"), with_venv_on_path(), {"WIKIMEM_BIN": str(broken)}
    )
    assert proc.returncode == 0 and proc.stdout == b""  # exit 2 would block Claude Code


def test_mcp_mode_without_wikimem_fails_with_the_hint(tmp_path: Path) -> None:
    proc = subprocess.run(
        [str(WRAPPER), "mcp"],
        input=b"",
        capture_output=True,
        env={"PATH": bare_path(tmp_path), "HOME": str(tmp_path / "empty-home")},
        timeout=60,
    )
    assert proc.returncode == 1 and proc.stdout == b""
    assert b"pipx install" in proc.stderr
