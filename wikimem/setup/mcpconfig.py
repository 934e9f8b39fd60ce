"""Registering `wikimem mcp` in each harness's MCP config (`wikimem install <client> --mcp`).

Contract: one server named `wikimem`, whose command runs this installation's `wikimem mcp` with
absolute paths, merged into the harness's own file: every other server and key is kept;
installing twice equals installing once; a person's file is backed up before it changes (one
wikimem created is not); uninstall removes exactly our entry, and the file (and folders) when
wikimem created them and nothing else is left; a file that does not parse is refused and left
untouched; an entry named `wikimem` that runs something else is never overwritten or removed; a
file changed by someone else while we worked is not overwritten. With `wikimem install CLIENT
--mcp` the hooks and the server are one change set (`changeset`): both are written, or neither.

Where each harness keeps its MCP servers:

| client | user scope                                        | project scope              |
|--------|---------------------------------------------------|----------------------------|
| claude | `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`) `mcpServers` | `<dir>/.mcp.json` |
| codex  | `$CODEX_HOME/config.toml` `[mcp_servers.wikimem]` | `<dir>/.codex/config.toml` |
| cursor | `~/.cursor/mcp.json` `mcpServers`                 | `<dir>/.cursor/mcp.json`   |
| gemini | `~/.gemini/settings.json` `mcpServers`            | `<dir>/.gemini/settings.json` |
| copilot | `~/.copilot/mcp-config.json` `mcpServers` (`$COPILOT_HOME`) | `<repo>/.github/mcp.json` |
| opencode | `~/.config/opencode/opencode.json` `mcp` (`$XDG_CONFIG_HOME`) | `<dir>/opencode.json` |
| qwen   | `~/.qwen/settings.json` `mcpServers` (`$QWEN_HOME`) | `<dir>/.qwen/settings.json` |

Copilot's project file is `.github/mcp.json`, not `.mcp.json` (which it reads too): that one is
Claude Code's, and one entry serving two harnesses would leave with either's uninstall. OpenCode
takes a local server as `{"type": "local", "command": [argv…]}`; a `opencode.jsonc` is edited
when it is the file in use, and refused (like any file) when it has comments.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from typing import Any

from wikimem import boundedfile
from wikimem.home import DEFAULT_HOME, Home
from wikimem.setup import codextrust, copilottrust, geminitrust, opencodeplugin
from wikimem.setup.changeset import Changes
from wikimem.setup.install import carry_out
from wikimem.setup.wiring import (
    InstallError,
    check_target,
    installed_home,
    parse_config,
    project_base,
    project_folder,
    qwen_dir,
    read_text,
)

SERVER = "wikimem"


@dataclass(frozen=True)
class McpResult:
    client: str
    scope: str
    path: str
    changed: bool
    dry_run: bool
    backup: str | None
    before: str
    after: str
    messages: tuple[str, ...] = field(default=())


def server_command(home: Home) -> list[str]:
    """`<python> -P -m wikimem mcp [--home DIR]`: this installation, whatever PATH holds.
    (`-P` keeps the cwd off sys.path, so a project's own `wikimem/` folder cannot shadow us.)"""
    argv = [sys.executable, "-P", "-m", "wikimem", "mcp"]
    if home.root != Home(DEFAULT_HOME).root:
        argv += ["--home", home.root]
    return argv


def config_path(client: str, scope: str, project_dir: str | None = None) -> str:
    check_target(client, scope)
    if client == "antigravity":
        # its own mcp_config.json (Antigravity's migration guide), `mcpServers` as elsewhere
        if scope == "project":
            return os.path.join(project_base(client, project_dir), ".agents", "mcp_config.json")
        return os.path.join(
            os.path.expanduser("~"), ".gemini", "antigravity-cli", "mcp_config.json"
        )
    if client == "opencode":
        base = (
            os.path.abspath(project_dir or os.getcwd())
            if scope == "project"
            else opencodeplugin.config_dir("user")
        )
        # OpenCode reads either name; an existing .jsonc alone is the one in use
        jsonc = os.path.join(base, "opencode.jsonc")
        plain = os.path.join(base, "opencode.json")
        return jsonc if os.path.exists(jsonc) and not os.path.exists(plain) else plain
    if scope == "project":
        base = project_base(client, project_dir)
        sub = {
            "claude": ".mcp.json",
            "codex": ".codex/config.toml",
            "cursor": ".cursor/mcp.json",
            "gemini": ".gemini/settings.json",
            "copilot": ".github/mcp.json",
            "qwen": ".qwen/settings.json",
        }
        return os.path.join(base, sub[client])
    if client == "copilot":
        return os.path.join(copilottrust.copilot_home(), "mcp-config.json")
    if client == "qwen":
        return os.path.join(qwen_dir(), "settings.json")
    if client == "claude":
        where = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.expanduser("~")
        return os.path.join(where, ".claude.json")
    if client == "codex":
        return codextrust.config_path()
    if client == "gemini":
        return geminitrust.user_settings_path()
    return os.path.join(os.path.expanduser("~"), ".cursor", "mcp.json")


def is_ours(entry: object) -> bool:
    """An MCP server entry that runs `wikimem mcp` (from any installation); OpenCode's gives
    the whole argv as `command`."""
    if isinstance(entry, dict):
        command: object = entry.get("command")
        args: object = entry.get("args") or []
        if isinstance(command, list):
            argv: list[object] = command
            command, args = (argv[0] if argv else None), argv[1:]
        if isinstance(command, str) and isinstance(args, list):
            words = [command, *(a for a in args if isinstance(a, str))]
            names = [os.path.basename(w) for w in words]
            return "mcp" in words and ("wikimem" in names or "wikimem-hook" in names)
    return False


def install_mcp(
    client: str,
    home: Home,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
) -> McpResult:
    changes = Changes(home)
    result = plan_install_mcp(changes, client, home, scope, project_dir, dry_run)
    return carry_out(changes, result, dry_run)


def plan_install_mcp(
    changes: Changes,
    client: str,
    home: Home,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
) -> McpResult:
    """Plan `install_mcp` into `changes` (nothing is written here)."""
    changes.confine(project_folder(client, scope, project_dir))
    path = config_path(client, scope, project_dir)
    argv = server_command(home)
    messages = []
    if client == "claude" and _claude_plugin_enabled():
        messages.append(
            "The wikimem Claude Code plugin is enabled and brings its own MCP server; with "
            "both, the same tools appear twice (uninstall one: `wikimem uninstall claude --mcp` "
            "or `/plugin disable wikimem`)."
        )
    if client == "gemini" and os.path.isdir(
        os.path.join(geminitrust.gemini_dir(), "extensions", SERVER)
    ):
        messages.append(
            "The wikimem Gemini CLI extension brings its own MCP server; with both, Gemini "
            "offers the tools twice (`wikimem uninstall gemini --mcp` or "
            "`gemini extensions uninstall wikimem`)."
        )
    if client == "codex":
        return _edit_toml(changes, client, scope, path, argv, dry_run, tuple(messages))
    entry: dict[str, Any] = {"command": argv[0], "args": argv[1:]}
    if client == "claude":
        entry = {"type": "stdio", **entry, "env": {}}
    elif client == "copilot":
        entry = {"type": "local", **entry, "tools": ["*"]}
    elif client == "opencode":
        entry = {"type": "local", "command": argv, "enabled": True}
    return _edit_json(changes, client, scope, path, entry, dry_run, tuple(messages))


def uninstall_mcp(
    client: str,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
    home: Home | None = None,
) -> McpResult:
    changes = Changes(home or owner_home(client, scope, project_dir))
    result = plan_uninstall_mcp(changes, client, scope, project_dir, dry_run)
    return carry_out(changes, result, dry_run)


def plan_uninstall_mcp(
    changes: Changes,
    client: str,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
) -> McpResult:
    """Plan `uninstall_mcp` into `changes` (nothing is written here)."""
    changes.confine(project_folder(client, scope, project_dir))
    path = config_path(client, scope, project_dir)
    if client == "codex":
        return _edit_toml(changes, client, scope, path, None, dry_run, ())
    return _edit_json(changes, client, scope, path, None, dry_run, ())


def owner_home(client: str, scope: str, project_dir: str | None = None) -> Home:
    """The memory home whose record says what wikimem created for `client`: the one its hooks
    write to, else the one its MCP server serves, else the default."""
    found = installed_home(client, scope, project_dir)
    if found is not None:
        return found
    try:
        path = config_path(client, scope, project_dir)
        text = read_text(path, project_folder(client, scope, project_dir))
        if client == "codex":
            servers = tomllib.loads(text).get("mcp_servers")
        else:
            servers = _parse_json(path, text, _servers_key(client)).get(_servers_key(client))
    except (InstallError, tomllib.TOMLDecodeError):
        servers = None
    entry = servers.get(SERVER) if isinstance(servers, dict) else None
    if is_ours(entry) and isinstance(entry, dict):
        command = entry.get("command")
        argv = command if isinstance(command, list) else [command, *(entry.get("args") or [])]
        if "--home" in argv[:-1] and isinstance(argv[argv.index("--home") + 1], str):
            return Home(argv[argv.index("--home") + 1])
    return Home(DEFAULT_HOME)


# -- JSON configs (every harness but Codex) ------------------------------------------------------------


def _servers_key(client: str) -> str:
    return "mcp" if client == "opencode" else "mcpServers"


def _parse_json(path: str, text: str, key: str = "mcpServers") -> dict[str, Any]:
    return parse_config(path, text, key, "entry")


def _edit_json(
    changes: Changes,
    client: str,
    scope: str,
    path: str,
    entry: dict[str, Any] | None,
    dry_run: bool,
    messages: tuple[str, ...],
) -> McpResult:
    before = changes.read(path)
    key = _servers_key(client)
    doc = _parse_json(path, before, key)
    servers = dict(doc.get(key) or {})
    existing = servers.get(SERVER)
    if existing is not None and not is_ours(existing):
        raise InstallError(
            f"{path} already has an MCP server named {SERVER!r} that does not run wikimem; "
            "nothing was changed"
        )
    if entry is None:
        servers.pop(SERVER, None)
    else:
        servers[SERVER] = entry
    after_doc = dict(doc)
    if servers:
        after_doc[key] = servers
    else:
        after_doc.pop(key, None)
    changed = after_doc != doc
    after = json.dumps(after_doc, indent=2, ensure_ascii=False) + "\n"
    if changed and changes.put(path, after, empty=not after_doc):
        after = ""
    return McpResult(client, scope, path, changed, dry_run, None, before, after, messages)


# -- Codex's config.toml -----------------------------------------------------------------------------

_OUR_TABLE = re.compile(r"""^\s*\[\s*mcp_servers\s*\.\s*(?:wikimem|"wikimem"|'wikimem')\s*[.\]]""")


def _edit_toml(
    changes: Changes,
    client: str,
    scope: str,
    path: str,
    argv: list[str] | None,
    dry_run: bool,
    messages: tuple[str, ...],
) -> McpResult:
    before = changes.read(path)
    try:
        parsed = tomllib.loads(before)
    except tomllib.TOMLDecodeError as exc:
        raise InstallError(
            f"{path} is not valid TOML ({exc}); fix it first, nothing was changed"
        ) from None
    servers = parsed.get("mcp_servers")
    existing = servers.get(SERVER) if isinstance(servers, dict) else None
    if existing is not None and not is_ours(existing):
        raise InstallError(
            f"{path} already has [mcp_servers.{SERVER}] that does not run wikimem; "
            "nothing was changed"
        )
    lines = _without_our_tables(before.splitlines())
    while lines and not lines[-1].strip():
        lines.pop()  # the blank line that set our table apart
    if argv is not None:
        if lines:
            lines.append("")
        lines += [
            f"[mcp_servers.{SERVER}]",
            f"command = {_toml_str(argv[0])}",
            "args = [" + ", ".join(_toml_str(a) for a in argv[1:]) + "]",
        ]
    after = "\n".join(lines) + "\n" if any(line.strip() for line in lines) else ""
    wanted = None if argv is None else {"command": argv[0], "args": argv[1:]}
    _check_toml_edit(path, parsed, after, wanted)
    changed = tomllib.loads(after) != parsed
    if changed and changes.put(path, after, empty=not after.strip()):
        after = ""
    return McpResult(client, scope, path, changed, dry_run, None, before, after, messages)


def _without_our_tables(lines: list[str]) -> list[str]:
    out: list[str] = []
    skipping = False
    for line in lines:
        stripped = line.strip()
        if _OUR_TABLE.match(stripped):
            skipping = True
            continue
        if skipping and stripped.startswith("["):
            skipping = False
        if not skipping:
            out.append(line)
    return out


def _check_toml_edit(
    path: str, before: dict[str, Any], after_text: str, wanted: dict[str, Any] | None
) -> None:
    """The edit changed our server and nothing else; refuse it otherwise (our tables were written
    in a form the line edit cannot see, e.g. inline or as dotted keys)."""
    try:
        after = tomllib.loads(after_text)
    except tomllib.TOMLDecodeError:
        after = None
    ok = after is not None and _others(after) == _others(before)
    if ok and after is not None:
        ours = (after.get("mcp_servers") or {}).get(SERVER)
        ok = ours == wanted
    if not ok:
        raise InstallError(
            f"cannot edit {path} safely ([mcp_servers.{SERVER}] is written in a form wikimem "
            "does not rewrite); nothing was changed: edit that table by hand"
        )


def _others(doc: dict[str, Any]) -> dict[str, Any]:
    rest = dict(doc)
    servers = dict(rest.get("mcp_servers") or {})
    servers.pop(SERVER, None)
    if servers:
        rest["mcp_servers"] = servers
    else:
        rest.pop("mcp_servers", None)
    return rest


def _toml_str(value: str) -> str:
    # A JSON string is a TOML basic string as long as no surrogate escape is emitted.
    return json.dumps(value, ensure_ascii=False)


def _claude_plugin_enabled() -> bool:
    """Whether Claude Code's user settings enable a plugin named wikimem (from any marketplace)."""
    where = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    try:
        enabled = (
            json.loads(boundedfile.read_text(os.path.join(where, "settings.json"))).get(
                "enabledPlugins"
            )
            or {}
        )
    except (OSError, ValueError, AttributeError):
        return False
    return isinstance(enabled, dict) and any(
        str(k).split("@", 1)[0] == "wikimem" and v for k, v in enabled.items()
    )
