"""Wiring wikimem into a harness's hook config (`wikimem install` / `uninstall`).

Contract: our entries are merged into the harness's own file (Claude Code, Gemini CLI and Qwen
Code `settings.json`, Codex and Cursor `hooks.json`, GitHub Copilot CLI `hooks/wikimem.json`,
user or project scope) keeping every foreign key and hook; for OpenCode, which has no shell
hooks, wikimem's plugin file is put into its plugin folder (`opencodeplugin`). Installing twice
equals installing once; the file is backed up before it changes; uninstall removes exactly our
entries, and a file (or folder) wikimem created that is empty afterwards; a file that is not a
JSON object is refused and left untouched. Hook commands use absolute paths (interpreter, entry
script, home), so they work from any cwd. Codex hook trust and Gemini CLI and Copilot CLI folder
trust are recorded only when asked (`trust=True`), never silently.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from wikimem.errors import WikimemError
from wikimem.fsutil import atomic_write
from wikimem.harness import CLIENTS, ENTRY_SCRIPT, is_wikimem_command
from wikimem.home import DEFAULT_HOME, Home
from wikimem.setup import codextrust, copilottrust, geminitrust, madefiles, opencodeplugin

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
}
GEMINI_HOOK_NAME = "wikimem"  # what Gemini's /hooks panel and hooksConfig.disabled show
COPILOT_HOOKS_FILE = "wikimem.json"
FLAT = ("cursor", "copilot")  # hooks listed directly under each event, not in matcher groups


class InstallError(WikimemError):
    """The harness config cannot be changed safely; nothing was written."""


@dataclass(frozen=True)
class InstallResult:
    client: str
    scope: str
    path: str
    changed: bool
    dry_run: bool
    backup: str | None
    events: tuple[str, ...]
    before: str
    after: str
    messages: tuple[str, ...] = field(default=())
    removed: bool = False  # uninstall deleted the file (wikimem had created it; nothing else left)

    def as_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k not in ("before", "after")}
        data["events"] = list(self.events)
        data["messages"] = list(self.messages)
        return data


def config_path(client: str, scope: str, project_dir: str | None = None) -> str:
    if client not in CLIENTS:
        raise InstallError(f"unknown harness {client!r}; expected one of {', '.join(CLIENTS)}")
    if scope not in SCOPES:
        raise InstallError(f"unknown scope {scope!r}; expected user or project")
    if client == "opencode":
        return opencodeplugin.plugin_path(scope, project_dir)
    if scope == "project":
        base = os.path.abspath(project_dir or os.getcwd())
        if client == "copilot":
            # Copilot reads repository hooks at the repository's root, from any folder in it
            from wikimem.capture.project import find_repo_root

            found = find_repo_root(base)
            base = found[0] if found else base
        sub = {
            "claude": ".claude/settings.json",
            "codex": ".codex/hooks.json",
            "cursor": ".cursor/hooks.json",
            "gemini": ".gemini/settings.json",
            "copilot": f".github/hooks/{COPILOT_HOOKS_FILE}",
            "qwen": ".qwen/settings.json",
        }
        return os.path.join(base, sub[client])
    home = os.path.expanduser("~")
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


def qwen_dir() -> str:
    """Qwen Code's own folder (`QWEN_HOME` moves it)."""
    return os.environ.get("QWEN_HOME") or os.path.join(os.path.expanduser("~"), ".qwen")


def entry_script() -> str:
    # The entry lives at the package's top so installed commands survive reorganising modules.
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(package_dir, ENTRY_SCRIPT)


def hook_argv(client: str, home: Home, event: str | None = None) -> list[str]:
    """`<python> -I -S <…/wikimem/hookentry.py> <client> [--home DIR] [--event E]`, every path
    absolute.

    `-I -S` skips site-packages and the environment's PYTHON* variables: faster on every agent
    event and immune to a project's virtualenv or PYTHONPATH. `--event` names the
    event for a harness whose payloads do not (Copilot CLI)."""
    parts = [sys.executable, "-I", "-S", entry_script(), client]
    if home.root != Home(DEFAULT_HOME).root:
        parts += ["--home", home.root]
    if event:
        parts += ["--event", event]
    return parts


def hook_command(client: str, home: Home, event: str | None = None) -> str:
    return " ".join(shlex.quote(p) for p in hook_argv(client, home, event))


def handler_command(handler: dict[str, Any]) -> object:
    """The command of a hook handler: Copilot CLI calls it `bash` (`command` is an alias)."""
    command = handler.get("bash")
    return handler.get("command") if command is None else command


def _load(path: str) -> tuple[dict[str, Any], str]:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return {}, ""
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc.strerror}") from exc
    if not text.strip():
        return {}, text
    try:
        doc = json.loads(text)
    except ValueError as exc:
        if geminitrust.has_comments(text):
            raise InstallError(
                f"{path} has comments, which rewriting it would lose; nothing was changed: "
                "remove them, or add the entries `--dry-run` shows by hand"
            ) from None
        raise InstallError(
            f"{path} is not valid JSON ({exc}); fix it first, nothing was changed"
        ) from None
    if not isinstance(doc, dict):
        raise InstallError(f"{path} does not hold a JSON object; nothing was changed")
    hooks = doc.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise InstallError(f'{path}: "hooks" is not an object; nothing was changed')
    return doc, text


def _strip_ours(client: str, doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """A copy of doc without any wikimem handler for `client` (foreign entries untouched), and,
    per event, the position where our first entry stood (so a reinstall can put it back there:
    moving it would move the foreign entries after it, and Codex keys trust by position)."""
    out: dict[str, Any] = json.loads(json.dumps(doc))
    positions: dict[str, int] = {}
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out, positions
    for event in list(hooks):
        entries = hooks[event]
        if not isinstance(entries, list):
            continue
        kept = []
        for entry in entries:
            if not isinstance(entry, dict):
                kept.append(entry)
                continue
            if client in FLAT:
                if is_wikimem_command(handler_command(entry), client):
                    positions.setdefault(event, len(kept))
                else:
                    kept.append(entry)
                continue
            handlers = entry.get("hooks")
            if not isinstance(handlers, list):
                kept.append(entry)
                continue
            remaining = [
                h
                for h in handlers
                if not (isinstance(h, dict) and is_wikimem_command(h.get("command"), client))
            ]
            if len(remaining) != len(handlers):
                positions.setdefault(event, len(kept) + (1 if remaining else 0))
            if len(remaining) == len(handlers):
                kept.append(entry)
            elif remaining:
                kept.append({**entry, "hooks": remaining})
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
    if not hooks and "hooks" in doc and doc["hooks"]:
        del out["hooks"]
    return out, positions


def _with_ours(client: str, doc: dict[str, Any], home: Home) -> dict[str, Any]:
    out, positions = _strip_ours(client, doc)
    hooks = out.setdefault("hooks", {})
    command = hook_command(client, home)
    for event, matcher, timeout in WIRING[client]:
        entries = hooks.setdefault(event, [])
        if client == "cursor":
            entry: dict[str, Any] = {"command": command, "timeout": timeout}
        elif client == "copilot":
            entry = {
                "type": "command",
                "bash": hook_command(client, home, event),
                "timeoutSec": timeout,
            }
        else:
            entry = {}
            if matcher is not None:
                entry["matcher"] = matcher
            handler: dict[str, Any] = {"type": "command", "command": command, "timeout": timeout}
            if client == "gemini":
                handler = {"name": GEMINI_HOOK_NAME, **handler, "timeout": timeout * 1000}
            entry["hooks"] = [handler]
        entries.insert(positions.get(event, len(entries)), entry)
    if client in FLAT:
        out.setdefault("version", 1)
        # keep "version" first, as Cursor's and Copilot's docs write it
        out = {"version": out.pop("version"), **out}
    return out


def _dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _apply(
    path: str, before_text: str, after: dict[str, Any], dry_run: bool, mode: int | None = None
) -> tuple[bool, str | None, str]:
    after_text = _dump(after)
    if before_text.strip():
        unchanged = json.loads(before_text) == after
    else:
        unchanged = not after
    if unchanged or dry_run:
        return (not unchanged), None, after_text
    backup = backup_copy(path, before_text)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, after_text, mode=None if os.path.exists(path) else mode)
    return True, backup, after_text


def backup_copy(path: str, text: str | None = None) -> str | None:
    """Copy `path` (its current `text`, when the caller already read it) beside it as
    `<path>.wikimem-backup-<UTC time>` before wikimem changes it; None when it does not exist."""
    if not os.path.exists(path):
        return None
    if text is None:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    stem = f"{path}.wikimem-backup-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}"
    backup, n = stem, 1
    while os.path.exists(backup):  # two changes within a second keep both originals
        backup, n = f"{stem}-{n}", n + 1
    with open(backup, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(backup, os.stat(path).st_mode & 0o777)
    return backup


def install(
    client: str,
    home: Home,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
    trust: bool = False,
) -> InstallResult:
    if client == "opencode":
        return _install_plugin(home, scope, project_dir, dry_run)
    path = config_path(client, scope, project_dir)
    doc, before_text = _load(path)
    after = _with_ours(client, doc, home)
    existed = os.path.exists(path)
    if not existed and not dry_run:
        _make_parents(home, path)
    changed, backup, after_text = _apply(path, before_text, after, dry_run)
    if changed and not dry_run and not existed:
        madefiles.record(home, path)
    messages = []
    if client == "codex":
        if changed and not dry_run:
            _keep_foreign_trust(path, doc, after)
        messages.extend(_codex_trust(path, doc, after, trust, dry_run))
    if client == "cursor" and scope == "user":
        messages.append("Cursor also runs Claude Code hooks; wikimem records such events once.")
    if client == "gemini":
        messages.extend(_gemini_messages(scope, project_dir, trust, dry_run))
    if client == "copilot":
        messages.extend(_copilot_messages(scope, path, trust, dry_run))
    return InstallResult(
        client,
        scope,
        path,
        changed,
        dry_run,
        backup,
        tuple(e for e, _, _ in WIRING[client]),
        before_text,
        after_text,
        tuple(messages),
    )


def _make_parents(home: Home, path: str) -> None:
    """Create the missing folders above `path`, each recorded so that uninstall removes it
    again once it is empty (a harness's folder is left as it was found)."""
    missing = []
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.isdir(folder):
        missing.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    for folder in reversed(missing):
        os.makedirs(folder, exist_ok=True)
        madefiles.record(home, folder)


def _remove_made_parents(home: Home, path: str) -> None:
    """Remove the folders above `path` that wikimem created and that are empty now."""
    folder = os.path.dirname(os.path.abspath(path))
    while madefiles.created(home, folder):
        try:
            os.rmdir(folder)
        except OSError:
            return  # not empty: someone else's files live there now
        madefiles.forget(home, folder)
        folder = os.path.dirname(folder)


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}") from exc


def _install_plugin(
    home: Home, scope: str, project_dir: str | None, dry_run: bool
) -> InstallResult:
    """OpenCode: wikimem's plugin file, with this installation's hook command in it."""
    path = config_path("opencode", scope, project_dir)
    before = _read_text(path)
    if before and not opencodeplugin.is_ours(before):
        raise InstallError(f"{path} exists and is not wikimem's plugin; nothing was changed")
    after = opencodeplugin.render(hook_argv("opencode", home))
    changed = before != after
    backup = None
    if changed and not dry_run:
        if before:
            backup = backup_copy(path, before)
        else:
            _make_parents(home, path)
        atomic_write(path, after)
        if not before:
            madefiles.record(home, path)
    messages = ["OpenCode loads plugins when it starts: restart a running OpenCode."]
    if scope == "project" and not before:
        messages.append(
            "OpenCode runs `npm install` in every config folder it finds, this project's "
            ".opencode/ too (wikimem's plugin needs none of it)."
        )
    return InstallResult(
        "opencode",
        scope,
        path,
        changed,
        dry_run,
        backup,
        tuple(e for e, _, _ in WIRING["opencode"]),
        before,
        after,
        tuple(messages),
    )


def _uninstall_plugin(
    scope: str, project_dir: str | None, dry_run: bool, home: Home | None
) -> InstallResult:
    path = config_path("opencode", scope, project_dir)
    before = _read_text(path)
    if not before or not opencodeplugin.is_ours(before):
        return InstallResult("opencode", scope, path, False, dry_run, None, (), before, before)
    backup = None
    if not dry_run:
        # edited by hand: keep those edits beside it
        backup = None if opencodeplugin.pristine(before) else backup_copy(path, before)
        os.unlink(path)
        made_by = home or _plugin_home(before)
        madefiles.forget(made_by, path)
        _remove_made_parents(made_by, path)
    return InstallResult(
        "opencode", scope, path, True, dry_run, backup, (), before, "", removed=True
    )


def _plugin_home(text: str) -> Home:
    argv = opencodeplugin.command_of(text) or []
    if "--home" in argv[:-1]:
        return Home(argv[argv.index("--home") + 1])
    return Home(DEFAULT_HOME)


def _copilot_messages(scope: str, path: str, trust: bool, dry_run: bool) -> list[str]:
    """Explain Copilot CLI's folder trust for repository hooks, and record it when asked."""
    if scope != "project":
        if trust:
            return ["--trust is for --scope project: Copilot CLI runs user hooks in every folder."]
        return []
    folder = os.path.dirname(os.path.dirname(os.path.dirname(path)))  # <repo>/.github/hooks/x
    try:
        state = copilottrust.folder_trust(folder)
    except copilottrust.TrustFileError as exc:
        return [f"Cannot check Copilot CLI's folder trust: {exc}"]
    if state.trusted:
        return [f"Copilot CLI trusts {folder} ({state.why}): the hooks will run there."]
    explain = (
        "Copilot CLI runs repository hooks only in folders you trust, and skips them silently "
        f"elsewhere. {folder} is not trusted ({state.why})"
    )
    refused = copilottrust.refuse_reason(folder)
    if not trust:
        how = "trust it when Copilot asks"
        if not refused:
            how += ", or re-run with --trust to record that trust now"
        return [f"{explain}: {how}."]
    if refused:
        raise InstallError(refused)
    config = copilottrust.config_path()
    if dry_run:
        return [f"{explain}; would add it to trustedFolders in {config}."]
    before = _read_text(config)
    try:
        copilottrust.read_config(config)
        after = copilottrust.with_trust(before, folder)
    except (ValueError, copilottrust.TrustFileError) as exc:
        raise InstallError(f"cannot record trust in {config}: {exc}") from None
    if _read_text(config) != before:  # Copilot rewrites this file itself
        raise InstallError(f"{config} changed while wikimem was editing it; nothing was changed")
    backup = backup_copy(config, before) if before else None
    os.makedirs(os.path.dirname(config), exist_ok=True)
    atomic_write(config, after, mode=None if before else 0o600)
    saved = f"; the previous file is in {backup}" if backup else ""
    return [f"Recorded Copilot CLI trust for {folder} in {config} (--trust){saved}."]


def _ours(handler: dict[str, Any]) -> bool:
    return is_wikimem_command(handler.get("command"), "codex")


def _codex_trust(
    path: str, before: dict[str, Any], after: dict[str, Any], trust: bool, dry_run: bool
) -> list[str]:
    """Tell the user about Codex's hook trust, and record it when asked to, or when wikimem's
    previous hooks were trusted (a reinstall that changes their definition keeps that consent)."""
    config = codextrust.config_path()
    wanted = codextrust.handler_keys(path, after, only=_ours)
    old = codextrust.handler_keys(path, before, only=_ours)
    trusted = codextrust.read_trusted(config)
    missing = [k for k, digest in wanted.items() if trusted.get(k) != digest]
    if not missing:
        return ["Codex already trusts these hooks."]
    kept = any(trusted.get(k) == digest for k, digest in old.items())
    if not trust and not kept:
        return [
            "Codex skips hooks until you trust them: open Codex, run /hooks and trust the "
            f"{len(missing)} wikimem hooks, or re-run with --trust to record that trust now.",
        ]
    if dry_run:
        return [f"would record trust for {len(missing)} hooks in {config}"]
    try:
        # Only entries still holding our old hash: a key may now be another tool's moved hook.
        stale = [k for k, digest in old.items() if k not in wanted and trusted.get(k) == digest]
        text = codextrust.record_trust(config, wanted, drop=stale)
    except Exception as exc:  # a config.toml we cannot parse: leave it alone
        raise InstallError(f"cannot record trust in {config}: {exc}") from exc
    os.makedirs(os.path.dirname(config), exist_ok=True)
    backup = backup_copy(config)
    atomic_write(config, text)
    why = "you trusted the previous ones" if kept and not trust else "--trust"
    saved = f"; the previous file is in {backup}" if backup else ""
    return [f"Recorded Codex trust for {len(wanted)} wikimem hooks in {config} ({why}){saved}."]


def _gemini_messages(scope: str, project_dir: str | None, trust: bool, dry_run: bool) -> list[str]:
    """Explain Gemini's folder trust, and record it for the project folder when asked."""
    folder = os.path.abspath(project_dir or os.getcwd())
    out = []
    if scope == "project":
        out.append(
            "Gemini CLI warns once about project-level hooks the first time it runs in this folder."
        )
    try:
        settings, _ = _load(geminitrust.user_settings_path())
        state = geminitrust.folder_trust(folder, settings)
    except (InstallError, geminitrust.TrustFileError) as exc:
        return [*out, f"Cannot check Gemini's folder trust: {exc}"]
    if state.trusted:
        return [*out, f"Gemini CLI trusts {folder} ({state.why}): the hooks will run there."]
    explain = (
        "Gemini CLI runs hooks (user-scope ones too) only in trusted folders, and `gemini -p` "
        f"in an untrusted folder exits 55. {folder} is not trusted ({state.why})"
    )
    refused = geminitrust.refuse_reason(folder)
    if not trust:
        how = "trust it when Gemini asks"
        if not refused:
            how += ", or re-run with --trust to record that trust now"
        return [*out, f"{explain}: {how}."]
    if refused:
        raise InstallError(refused)
    path = geminitrust.trusted_folders_path()
    if dry_run:
        return [*out, f"{explain}; would record it as TRUST_FOLDER in {path}."]
    try:
        with open(path, encoding="utf-8") as fh:
            before = fh.read()
    except FileNotFoundError:
        before = ""
    try:
        after = geminitrust.with_trust(before, folder)
    except (ValueError, geminitrust.TrustFileError) as exc:
        raise InstallError(f"cannot record trust in {path}: {exc}") from None
    if before.strip() and geminitrust.has_comments(before):
        raise InstallError(
            f"{path} has comments, which rewriting it would lose; trust {folder} in Gemini"
        )
    _apply(path, before, after, dry_run=False, mode=0o600)
    return [*out, f"Recorded Gemini CLI trust for {folder} in {path} (--trust)."]


def _forget_codex_trust(path: str, before: dict[str, Any], dry_run: bool) -> None:
    config = codextrust.config_path()
    old = codextrust.handler_keys(path, before, only=_ours)
    trusted = codextrust.read_trusted(config)
    ours = [k for k, digest in old.items() if trusted.get(k) == digest]
    if dry_run or not ours:
        return
    text = codextrust.record_trust(config, {}, drop=ours)
    backup_copy(config)
    atomic_write(config, text)


def _keep_foreign_trust(path: str, before: dict[str, Any], after: dict[str, Any]) -> None:
    """Codex keys trust by a handler's position. When our entries come or go, another tool's
    hooks behind them move: the trust the user gave them moves with them (same definition, same
    hash), so wikimem never silently switches off someone else's hook."""
    config = codextrust.config_path()
    trusted = codextrust.read_trusted(config)
    if not trusted:
        return

    def foreign(doc: dict[str, Any]) -> dict[str, str]:
        return codextrust.handler_keys(path, doc, only=lambda h: not _ours(h))

    old_keys = {(k.rsplit(":", 3)[1], digest): k for k, digest in foreign(before).items()}
    moved = {}
    for key, digest in foreign(after).items():
        previous = old_keys.get((key.rsplit(":", 3)[1], digest))
        if (
            previous
            and previous != key
            and trusted.get(previous) == digest
            and trusted.get(key) != digest
        ):
            moved[key] = digest
    if moved:
        text = codextrust.record_trust(config, moved)
        backup_copy(config)
        atomic_write(config, text)


def _installed_home(client: str, doc: dict[str, Any]) -> Home:
    """The home our hook commands in `doc` name (`--home DIR`), else the default one."""
    _, command = _our_events(client, doc)
    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    if "--home" in words[:-1]:
        return Home(words[words.index("--home") + 1])
    return Home(DEFAULT_HOME)


def _nothing_left(client: str, doc: dict[str, Any]) -> bool:
    rest = {k: v for k, v in doc.items() if not (client in FLAT and k == "version")}
    return not rest


def uninstall(
    client: str,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
    home: Home | None = None,
) -> InstallResult:
    """Remove exactly our entries. A file wikimem created that holds nothing else afterwards is
    removed, not left as `{}`; any other file keeps what was there besides our entries."""
    if client == "opencode":
        return _uninstall_plugin(scope, project_dir, dry_run, home)
    path = config_path(client, scope, project_dir)
    doc, before_text = _load(path)
    if not before_text.strip():
        return InstallResult(
            client, scope, path, False, dry_run, None, (), before_text, before_text
        )
    after, _ = _strip_ours(client, doc)
    made_by = home or _installed_home(client, doc)
    if after != doc and _nothing_left(client, after) and madefiles.created(made_by, path):
        if not dry_run:
            if client == "codex":
                _forget_codex_trust(path, doc, dry_run)
            os.unlink(path)
            madefiles.forget(made_by, path)
            _remove_made_parents(made_by, path)
        return InstallResult(
            client, scope, path, True, dry_run, None, (), before_text, "", removed=True
        )
    changed, backup, after_text = _apply(path, before_text, after, dry_run)
    if client == "codex" and changed and not dry_run:
        _keep_foreign_trust(path, doc, after)
        _forget_codex_trust(path, doc, dry_run)
    return InstallResult(client, scope, path, changed, dry_run, backup, (), before_text, after_text)


@dataclass(frozen=True)
class Installed:
    client: str
    scope: str
    path: str
    events: tuple[str, ...]
    command: str


def installed(project_dir: str | None = None) -> list[Installed]:
    """Where wikimem hooks are wired now (user configs, and the project configs of project_dir)."""
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
            if client == "opencode":
                events, command = _plugin_events(path)
            else:
                try:
                    doc, _ = _load(path)
                except InstallError:
                    continue
                events, command = _our_events(client, doc)
            if events:
                found.append(Installed(client, scope, path, tuple(events), command))
    return found


def _plugin_events(path: str) -> tuple[list[str], str]:
    """OpenCode: the events wikimem's plugin sends, and the command it runs, when it is there."""
    try:
        text = _read_text(path)
    except InstallError:
        return [], ""
    if not opencodeplugin.is_ours(text):
        return [], ""
    argv = opencodeplugin.command_of(text)
    command = shlex.join(argv) if argv else "wikimem hook opencode"
    return [e for e, _, _ in WIRING["opencode"]], command


def _our_events(client: str, doc: dict[str, Any]) -> tuple[list[str], str]:
    events: list[str] = []
    command = ""
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
