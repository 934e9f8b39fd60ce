"""Where each harness keeps its hook config, what wikimem wires there, and what is wired now.

Read-only: nothing here writes a file (`wikimem.setup.install` does, through a change set).
Contract: `config_path(client, scope, project_dir)` is the file a harness reads its hooks from;
`load_hooks(path)` reads one (a missing file is `{}`; one that is not a JSON object, or whose
`hooks` is not an object, is an `InstallError` saying so); `installed(project_dir)` lists where
wikimem's hooks are wired (user configs, and the project's); `installed_home(client, scope)` is
the memory home they write to. Every config is read through `wikimem.boundedfile`: a regular file of
bounded size, and a project's (a cloned repository's) only when it resolves inside the project
(`project_folder`): a link to /dev/zero, a FIFO or a link out of the repository is refused with
one line naming it, never read. `WIRING` is the events wikimem asks each harness for. Kept apart
from the installer so that `status` and `doctor`, which only ask, stay quick.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from typing import Any

from wikimem import boundedfile
from wikimem.errors import WikimemError
from wikimem.harness import CLIENTS, is_wikimem_command
from wikimem.home import DEFAULT_HOME, Home
from wikimem.setup import codextrust, copilottrust, geminitrust, opencodeplugin


class InstallError(WikimemError):
    """The harness config cannot be changed safely; every file was left (or put back) as it
    was."""


SCOPES = ("user", "project")

# (event, matcher, timeout seconds). Only what memory needs: no PreToolUse, which would sit in
# front of every tool call. PostToolUseFailure is where Claude Code reports failing commands.
WIRING: dict[str, tuple[tuple[str, str | None, int], ...]] = {
    "claude": (
        ("SessionStart", None, 10),
        ("UserPromptSubmit", None, 10),
        ("PostToolUse", "*", 5),
        ("PostToolUseFailure", "*", 5),
        ("Stop", None, 5),
        ("SubagentStop", None, 5),
        ("PreCompact", None, 5),
        ("PostCompact", None, 5),
        ("SessionEnd", None, 5),
    ),
    "codex": (
        ("SessionStart", None, 10),
        ("UserPromptSubmit", None, 10),
        ("PostToolUse", "*", 5),
        ("Stop", None, 5),
        ("SubagentStop", None, 5),
        ("PreCompact", None, 5),
        ("PostCompact", None, 5),
        ("SessionEnd", None, 3),
    ),
    "cursor": (
        ("sessionStart", None, 10),
        ("beforeSubmitPrompt", None, 5),
        ("postToolUse", None, 5),
        ("postToolUseFailure", None, 5),
        ("afterAgentResponse", None, 5),
        ("preCompact", None, 5),
        ("stop", None, 5),
        ("sessionEnd", None, 5),
    ),
    # Gemini wants milliseconds (written as seconds x 1000). PreCompress only when "manual":
    # the matcher is compared with the trigger, so the `auto` one before every model call never
    # starts a process. BeforeModel, AfterModel, BeforeToolSelection are noise.
    "gemini": (
        ("SessionStart", None, 10),
        ("BeforeAgent", None, 10),
        ("AfterTool", "*", 5),
        ("AfterAgent", None, 5),
        ("PreCompress", "manual", 5),
        ("Notification", None, 5),
        ("SessionEnd", None, 5),
    ),
    # camelCase events (their payloads carry no event name: each command passes --event).
    # Never preToolUse: any non-zero exit of a preToolUse hook denies the tool.
    # userPromptTransformed repeats the prompt; permissionRequest is not memory.
    "copilot": (
        ("sessionStart", None, 10),
        ("userPromptSubmitted", None, 10),
        ("postToolUse", None, 5),
        ("postToolUseFailure", None, 5),
        ("agentStop", None, 5),
        ("subagentStop", None, 5),
        ("preCompact", None, 5),
        ("sessionEnd", None, 5),
    ),
    # What wikimem's plugin sends (integrations/opencode/wikimem.js); no file lists them.
    "opencode": (
        ("SessionStart", None, 10),
        ("UserPromptSubmit", None, 10),
        ("PostToolUse", None, 5),
        ("PreCompact", None, 5),
        ("Stop", None, 5),
    ),
    # Claude Code's events. PostToolBatch repeats PostToolUse, MessageDisplay the answer.
    "qwen": (
        ("SessionStart", None, 10),
        ("UserPromptSubmit", None, 10),
        ("PostToolUse", "*", 5),
        ("PostToolUseFailure", "*", 5),
        ("Stop", None, 5),
        ("SubagentStop", None, 5),
        ("PreCompact", None, 5),
        ("PostCompact", None, 5),
        ("SessionEnd", None, 5),
    ),
    # Antigravity CLI (from its documentation): seconds; no event name in the payload, so each
    # command passes --event. Its first PreInvocation is the conversation's start; never
    # PreToolUse (before every tool call) nor PostInvocation (after every model call).
    "antigravity": (
        ("PreInvocation", None, 10),
        ("PostToolUse", "", 5),
        ("Stop", None, 5),
    ),
}
GEMINI_HOOK_NAME = "wikimem"  # what Gemini's /hooks panel and hooksConfig.disabled show
ANTIGRAVITY_HOOK_NAME = "wikimem"  # the named hook wikimem owns in Antigravity's hooks.json
ANTIGRAVITY_TOOL_EVENTS = ("PreToolUse", "PostToolUse")  # {matcher, hooks} groups; others flat
COPILOT_HOOKS_FILE = "wikimem.json"
FLAT = ("cursor", "copilot")  # hooks listed directly under each event, not in matcher groups


def check_target(client: str, scope: str) -> None:
    """InstallError for a harness or a scope wikimem does not know."""
    if client not in CLIENTS:
        raise InstallError(f"unknown harness {client!r}; expected one of {', '.join(CLIENTS)}")
    if scope not in SCOPES:
        raise InstallError(f"unknown scope {scope!r}; expected user or project")


def project_base(client: str, project_dir: str | None) -> str:
    """The folder a harness reads a project's configs under (`project_dir`, default the cwd)."""
    base = os.path.abspath(project_dir or os.getcwd())
    if client == "copilot":
        # Copilot reads repository configs at the repository's root, from any folder in it
        from wikimem.capture.project import find_repo_root

        found = find_repo_root(base)
        base = found[0] if found else base
    return base


def config_path(client: str, scope: str, project_dir: str | None = None) -> str:
    check_target(client, scope)
    if client == "opencode":
        return opencodeplugin.plugin_path(scope, project_dir)
    if scope == "project":
        base = project_base(client, project_dir)
        sub = {
            "claude": ".claude/settings.json",
            "codex": ".codex/hooks.json",
            "cursor": ".cursor/hooks.json",
            "gemini": ".gemini/settings.json",
            "copilot": f".github/hooks/{COPILOT_HOOKS_FILE}",
            "qwen": ".qwen/settings.json",
            "antigravity": ".agents/hooks.json",
        }
        return os.path.join(base, sub[client])
    home = os.path.expanduser("~")
    if client == "antigravity":
        return antigravity_user_hooks()
    if client == "copilot":
        return os.path.join(copilottrust.copilot_home(), "hooks", COPILOT_HOOKS_FILE)
    if client == "qwen":
        return os.path.join(qwen_dir(), "settings.json")
    if client == "claude":
        return os.path.join(
            os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude"), "settings.json"
        )
    if client == "codex":
        return os.path.join(codextrust.codex_home(), "hooks.json")
    if client == "gemini":
        return geminitrust.user_settings_path()
    return os.path.join(home, ".cursor", "hooks.json")


def antigravity_user_hooks() -> str:
    """Antigravity CLI's user hooks: `~/.gemini/config/hooks.json`, where Antigravity's hooks
    documentation puts them (its migration guide names `~/.gemini/antigravity-cli/hooks.json`,
    which builds of agy are reported not to read: docs/harness-antigravity.md)."""
    return os.path.join(os.path.expanduser("~"), ".gemini", "config", "hooks.json")


def antigravity_context_file(scope: str, project_dir: str | None = None) -> str:
    """The GEMINI.md Antigravity reads for a scope, where `install antigravity` keeps wikimem's
    managed block (Antigravity has no hook that can give a conversation memory)."""
    if scope == "project":
        return os.path.join(project_base("antigravity", project_dir), "GEMINI.md")
    return os.path.join(geminitrust.gemini_dir(), "GEMINI.md")


def project_folder(client: str, scope: str, project_dir: str | None = None) -> str | None:
    """The folder a project-scope config must resolve inside (None for a user's own config, which
    may be a link into a dotfiles repository)."""
    if scope != "project":
        return None
    if client == "opencode":
        return os.path.abspath(project_dir or os.getcwd())
    return project_base(client, project_dir)


def qwen_dir() -> str:
    """Qwen Code's own folder (`QWEN_HOME` moves it)."""
    return os.environ.get("QWEN_HOME") or os.path.join(os.path.expanduser("~"), ".qwen")


def handler_command(handler: dict[str, Any]) -> object:
    """The command of a hook handler: Copilot CLI calls it `bash` (`command` is an alias)."""
    command = handler.get("bash")
    return handler.get("command") if command is None else command


def parse_hooks(path: str, text: str) -> dict[str, Any]:
    return parse_config(path, text, "hooks", "entries")


def parse_config(path: str, text: str, key: str, ours: str) -> dict[str, Any]:
    """A harness's JSON config as an object whose `key` (where wikimem's `ours` go) is an object
    when present; anything else is refused before a file changes."""
    if not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except ValueError as exc:
        from wikimem.setup.geminitrust import has_comments

        if has_comments(text):
            raise InstallError(
                f"{path} has comments, which rewriting it would lose; nothing was changed: "
                f"remove them, or add the {ours} `--dry-run` shows by hand"
            ) from None
        raise InstallError(
            f"{path} is not valid JSON ({exc}); fix it first, nothing was changed"
        ) from None
    if not isinstance(doc, dict):
        raise InstallError(f"{path} does not hold a JSON object; nothing was changed")
    value = doc.get(key)
    if value is not None and not isinstance(value, dict):
        raise InstallError(f'{path}: "{key}" is not an object; nothing was changed')
    return doc


def load_hooks(path: str, within: str | None = None) -> tuple[dict[str, Any], str]:
    text = read_text(path, within)
    return parse_hooks(path, text), text


def plugin_home(text: str) -> Home | None:
    argv = opencodeplugin.command_of(text) or []
    if "--home" in argv[:-1]:
        return Home(argv[argv.index("--home") + 1])
    return Home(DEFAULT_HOME) if argv else None


def home_in(client: str, doc: dict[str, Any]) -> Home | None:
    """The home our hook commands in `doc` name (`--home DIR`), else the default one; None when
    no hook of ours is there."""
    events, command = our_events(client, doc)
    if not events:
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    if "--home" in words[:-1]:
        return Home(words[words.index("--home") + 1])
    return Home(DEFAULT_HOME)


def installed_home(client: str, scope: str, project_dir: str | None = None) -> Home | None:
    """The memory home the hooks installed for `client` write to (None: none installed)."""
    path = config_path(client, scope, project_dir)
    within = project_folder(client, scope, project_dir)
    if client == "opencode":
        try:
            return plugin_home(read_text(path, within))
        except InstallError:
            return None
    try:
        doc, _ = load_hooks(path, within)
    except InstallError:
        return None
    return home_in(client, doc)


def read_text(path: str, within: str | None = None) -> str:
    """A harness config's text ("" when there is none); InstallError when it cannot be read."""
    try:
        return boundedfile.read_text(path, within=within)
    except FileNotFoundError:
        return ""
    except boundedfile.Refused as exc:
        raise InstallError(f"{exc}; nothing was changed") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}") from exc


@dataclass(frozen=True)
class Installed:
    client: str
    scope: str
    path: str
    events: tuple[str, ...]
    command: str


def installed(project_dir: str | None = None, refused: list[str] | None = None) -> list[Installed]:
    """Where wikimem hooks are wired now (user configs, and the project configs of project_dir).
    A config refused unread (see the module's contract) is added to `refused`, when given."""
    found = []
    seen: set[str] = set()
    for client in CLIENTS:
        for scope in SCOPES:
            if scope == "project" and project_dir is None:
                continue
            path = config_path(client, scope, project_dir)
            if os.path.realpath(path) in seen:  # a project in the home directory: the same file
                continue
            seen.add(os.path.realpath(path))
            within = project_folder(client, scope, project_dir)
            try:
                if client == "opencode":
                    events, command = plugin_events(path, within)
                else:
                    events, command = our_events(client, load_hooks(path, within)[0])
            except InstallError as exc:
                if refused is not None and isinstance(exc.__cause__, boundedfile.Refused):
                    refused.append(str(exc.__cause__))
                continue
            if events:
                found.append(Installed(client, scope, path, tuple(events), command))
    return found


def plugin_events(path: str, within: str | None = None) -> tuple[list[str], str]:
    """OpenCode: the events wikimem's plugin sends, and the command it runs, when it is there
    (InstallError when the plugin file cannot be read)."""
    text = read_text(path, within)
    if not opencodeplugin.is_ours(text):
        return [], ""
    argv = opencodeplugin.command_of(text)
    command = shlex.join(argv) if argv else "wikimem hook opencode"
    return [e for e, _, _ in WIRING["opencode"]], command


def our_events(client: str, doc: dict[str, Any]) -> tuple[list[str], str]:
    events: list[str] = []
    command = ""
    if client == "antigravity":
        return _antigravity_events(doc)
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return events, command
    for event, entries in hooks.items():
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            handlers = [entry] if client in FLAT else entry.get("hooks") or []
            for h in handlers:
                if isinstance(h, dict) and is_wikimem_command(handler_command(h), client):
                    if event not in events:
                        events.append(event)
                    command = str(handler_command(h))
    return events, command


def antigravity_handlers(event: str, entries: object) -> list[dict[str, Any]]:
    """The handlers of one event of an Antigravity named hook: tool events hold
    `{matcher, hooks: [...]}` groups, the others handlers directly."""
    out: list[dict[str, Any]] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        if event in ANTIGRAVITY_TOOL_EVENTS or "hooks" in entry:
            out += [h for h in entry.get("hooks") or [] if isinstance(h, dict)]
        else:
            out.append(entry)
    return out


def _antigravity_events(doc: dict[str, Any]) -> tuple[list[str], str]:
    events: list[str] = []
    command = ""
    named = doc.get(ANTIGRAVITY_HOOK_NAME)
    if not isinstance(named, dict) or named.get("enabled") is False:
        return events, command
    for event, entries in named.items():
        for handler in antigravity_handlers(event, entries):
            if is_wikimem_command(handler.get("command"), "antigravity"):
                if event not in events:
                    events.append(event)
                command = str(handler.get("command"))
    return events, command
