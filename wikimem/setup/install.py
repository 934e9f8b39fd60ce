"""Wiring wikimem into a harness's hook config (`wikimem install` / `uninstall`).

Contract: our entries are merged into the harness's own file (Claude Code, Gemini CLI and Qwen
Code `settings.json`, Codex and Cursor `hooks.json`, GitHub Copilot CLI `hooks/wikimem.json`,
user or project scope) keeping every foreign key and hook; for OpenCode, which has no shell
hooks, wikimem's plugin file is put into its plugin folder (`opencodeplugin`). Installing twice
equals installing once. A command is all or nothing (`changeset`): every refusal is found before
anything is written, and a failure half-way puts every file back. A person's file is backed up
before it changes; a file wikimem created is not. Uninstall removes exactly our entries, the
folder trust recorded with them, and every file (or folder) wikimem created that holds nothing
else afterwards; a person's file that holds their own settings only again gets its own bytes
back. A file that is not a JSON object is refused and left untouched. Hook commands use absolute
paths (interpreter, entry script, home), so they work from any cwd. Codex hook trust and Gemini
CLI and Copilot CLI folder trust are recorded only when asked (`trust=True`), never silently.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar, cast

from wikimem.harness import ENTRY_SCRIPT, is_wikimem_command
from wikimem.home import DEFAULT_HOME, Home
from wikimem.setup import codextrust, copilottrust, geminitrust, madefiles, opencodeplugin
from wikimem.setup.changeset import Changes
from wikimem.setup.wiring import (
    ANTIGRAVITY_HOOK_NAME,
    FLAT,
    GEMINI_HOOK_NAME,
    WIRING,
    InstallError,
    antigravity_context_file,
    antigravity_handlers,
    config_path,
    handler_command,
    installed_home,
    parse_hooks,
    project_folder,
)


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


class _Result(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def messages(self) -> tuple[str, ...]: ...


R = TypeVar("R", bound=_Result)  # InstallResult or mcpconfig.McpResult (frozen dataclasses)


def entry_script() -> str:
    # The entry lives at the package's top so installed commands survive reorganising modules.
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(package_dir, ENTRY_SCRIPT)


def hook_argv(client: str, home: Home, event: str | None = None) -> list[str]:
    """`<python> -I -S <…/wikimem/hookentry.py> <client> [--home DIR] [--event E]`, every path
    absolute.

    `-I -S` skips site-packages and the environment's PYTHON* variables: faster on every agent
    event (the hook path loads only the standard library) and immune to a project's virtualenv or PYTHONPATH. `--event` names the
    event for a harness whose payloads do not (Copilot CLI)."""
    parts = [sys.executable, "-I", "-S", entry_script(), client]
    if home.root != Home(DEFAULT_HOME).root:
        parts += ["--home", home.root]
    if event:
        parts += ["--event", event]
    return parts


def hook_command(client: str, home: Home, event: str | None = None) -> str:
    return " ".join(shlex.quote(p) for p in hook_argv(client, home, event))


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


def _antigravity_ours(doc: dict[str, Any], home: Home | None) -> dict[str, Any]:
    """Antigravity's hooks.json with wikimem's named hook (None: without it). Its hooks are
    named at the top level; wikimem owns one name, and refuses to take it from someone else."""
    out: dict[str, Any] = json.loads(json.dumps(doc))
    current = out.get(ANTIGRAVITY_HOOK_NAME)
    if current is not None:
        handlers = [
            h
            for event, entries in (current.items() if isinstance(current, dict) else [])
            if event != "enabled"
            for h in antigravity_handlers(event, entries)
        ]
        if not isinstance(current, dict) or not all(
            is_wikimem_command(h.get("command"), "antigravity") for h in handlers
        ):
            raise InstallError(
                f'the hook named "{ANTIGRAVITY_HOOK_NAME}" in this hooks.json is not wikimem\'s; '
                "nothing was changed"
            )
        del out[ANTIGRAVITY_HOOK_NAME]
    if home is None:
        return out
    named: dict[str, Any] = {}
    for event, matcher, timeout in WIRING["antigravity"]:
        handler = {
            "type": "command",
            "command": hook_command("antigravity", home, event),
            "timeout": timeout,
        }
        named[event] = (
            [{"matcher": matcher, "hooks": [handler]}] if matcher is not None else [handler]
        )
    out[ANTIGRAVITY_HOOK_NAME] = named
    return out


def _with_ours(client: str, doc: dict[str, Any], home: Home) -> dict[str, Any]:
    if client == "antigravity":
        return _antigravity_ours(doc, home)
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


def _unchanged(before_text: str, after: dict[str, Any]) -> bool:
    return json.loads(before_text) == after if before_text.strip() else not after


def carry_out(changes: Changes, result: R, dry_run: bool) -> R:
    """One planned result: written (all or nothing) and settled, or as planned on a dry run."""
    if dry_run:
        return result
    changes.commit()
    return settle(changes, result)[0]


def settle(changes: Changes, *results: R) -> list[R]:
    """The results of a committed change set: each with the backup made of its own file, the
    first one also naming the backups of the other files changed (trust files), and saying
    which of the person's files got their own bytes back."""
    out = []
    own = {os.path.abspath(r.path) for r in results}
    for i, result in enumerate(results):
        path = os.path.abspath(result.path)
        notes = []
        if path in changes.restored:
            notes.append(
                f"{path} is back to exactly what it held before wikimem first changed it; its "
                f"backup from then, identical now, was removed ({changes.restored[path]})"
            )
        if i == 0:
            notes += [
                f"backup of {p} (before this change): {b}"
                for p, b in changes.backups.items()
                if p not in own
            ]
            notes += [
                f"removed {p}: wikimem created it and nothing else is left in it"
                for p in changes.removed
                if p not in own
            ]
        settled = replace(
            cast(Any, result), backup=changes.backups.get(path), messages=(*result.messages, *notes)
        )
        out.append(cast(R, settled))
    return out


def install(
    client: str,
    home: Home,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
    trust: bool = False,
) -> InstallResult:
    """Wire wikimem's hooks (and record trust when asked): every file changes, or none."""
    changes = Changes(home)
    result = plan_install(changes, client, home, scope, project_dir, dry_run, trust)
    return carry_out(changes, result, dry_run)


def plan_install(
    changes: Changes,
    client: str,
    home: Home,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
    trust: bool = False,
) -> InstallResult:
    """Plan `install` into `changes` (nothing is written here; a refusal raises InstallError)."""
    changes.confine(project_folder(client, scope, project_dir))
    if client == "opencode":
        return _plan_plugin(changes, home, scope, project_dir)
    path = config_path(client, scope, project_dir)
    before_text = changes.read(path)
    doc = parse_hooks(path, before_text)
    after = _with_ours(client, doc, home)
    changed = not _unchanged(before_text, after)
    if changed:
        changes.put(path, _dump(after))
    messages = []
    if client == "codex":
        if changed:
            _keep_foreign_trust(changes, path, doc, after)
        messages.extend(_codex_trust(changes, path, doc, after, trust, dry_run))
    if client == "cursor" and scope == "user":
        messages.append("Cursor also runs Claude Code hooks; wikimem records such events once.")
    if client == "gemini":
        messages.extend(_gemini_messages(changes, path, scope, project_dir, trust, dry_run))
    if client == "copilot":
        messages.extend(_copilot_messages(changes, scope, path, trust, dry_run))
    if client == "antigravity":
        messages.extend(_antigravity_block(changes, home, scope, project_dir, dry_run))
    return InstallResult(
        client,
        scope,
        path,
        changed,
        dry_run,
        None,
        tuple(e for e, _, _ in WIRING[client]),
        before_text,
        _dump(after),
        tuple(messages),
    )


def _plan_plugin(
    changes: Changes, home: Home, scope: str, project_dir: str | None
) -> InstallResult:
    """OpenCode: wikimem's plugin file, with this installation's hook command in it."""
    path = config_path("opencode", scope, project_dir)
    before = changes.read(path)
    if before and not opencodeplugin.is_ours(before):
        raise InstallError(f"{path} exists and is not wikimem's plugin; nothing was changed")
    after = opencodeplugin.render(hook_argv("opencode", home))
    changed = before != after
    if changed:  # an older wikimem's plugin, or one edited by hand, is kept beside it
        changes.put(path, after, backup=bool(before) and not opencodeplugin.pristine(before))
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
        False,
        None,
        tuple(e for e, _, _ in WIRING["opencode"]),
        before,
        after,
        tuple(messages),
    )


def _plan_uninstall_plugin(
    changes: Changes, scope: str, project_dir: str | None, dry_run: bool
) -> InstallResult:
    path = config_path("opencode", scope, project_dir)
    before = changes.read(path)
    if not before or not opencodeplugin.is_ours(before):
        return InstallResult("opencode", scope, path, False, dry_run, None, (), before, before)
    # edited by hand: keep those edits beside it
    changes.remove(path, backup=not opencodeplugin.pristine(before))
    return InstallResult("opencode", scope, path, True, dry_run, None, (), before, "", removed=True)


def _trust_rule(
    changes: Changes, client: str, config: str, file: str, folder: str
) -> madefiles.TrustRule | None:
    """The rule wikimem recorded (for any install) that trusts `folder` in `file`."""
    for rule in changes.manifest.trust:
        if rule.client == client and rule.file == file and rule.folder == folder:
            return replace(rule, config=os.path.abspath(config))
    return None


def _copilot_messages(
    changes: Changes, scope: str, path: str, trust: bool, dry_run: bool
) -> list[str]:
    """Explain Copilot CLI's folder trust for repository hooks, and record it when asked."""
    if scope != "project":
        if trust:
            return ["--trust is for --scope project: Copilot CLI runs user hooks in every folder."]
        return []
    folder = os.path.dirname(os.path.dirname(os.path.dirname(path)))  # <repo>/.github/hooks/x
    config = os.path.abspath(copilottrust.config_path())
    try:
        state = copilottrust.folder_trust(folder)
    except copilottrust.TrustFileError as exc:
        return [f"Cannot check Copilot CLI's folder trust: {exc}"]
    if state.trusted:
        # trust wikimem recorded for another install: this one relies on it too
        shared = _trust_rule(changes, "copilot", path, config, copilottrust.real(folder))
        if shared is not None:
            changes.add_trust(shared)
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
    if dry_run:
        return [f"{explain}; would add it to trustedFolders in {config}."]
    before = changes.read(config)
    try:
        copilottrust.read_config(config)
        after = copilottrust.with_trust(before, folder)
    except (ValueError, copilottrust.TrustFileError) as exc:
        raise InstallError(f"cannot record trust in {config}: {exc}") from None
    changes.put(config, after, mode=0o600)
    changes.add_trust(
        madefiles.TrustRule("copilot", os.path.abspath(path), config, copilottrust.real(folder))
    )
    return [f"Recorded Copilot CLI trust for {folder} in {config} (--trust)."]


def _ours(handler: dict[str, Any]) -> bool:
    return is_wikimem_command(handler.get("command"), "codex")


def _codex_trust(
    changes: Changes,
    path: str,
    before: dict[str, Any],
    after: dict[str, Any],
    trust: bool,
    dry_run: bool,
) -> list[str]:
    """Tell the user about Codex's hook trust, and record it when asked to, or when wikimem's
    previous hooks were trusted (a reinstall that changes their definition keeps that consent)."""
    config = codextrust.config_path()
    wanted = codextrust.handler_keys(path, after, only=_ours)
    old = codextrust.handler_keys(path, before, only=_ours)
    trusted = codextrust.trusted_in(changes.read(config))
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
        text = codextrust.with_trust(changes.read(config), wanted, drop=stale)
    except Exception as exc:  # a config.toml we cannot parse: leave it alone
        raise InstallError(f"cannot record trust in {config}: {exc}") from exc
    changes.put(config, text)
    why = "you trusted the previous ones" if kept and not trust else "--trust"
    return [f"Recorded Codex trust for {len(wanted)} wikimem hooks in {config} ({why})."]


def _gemini_messages(
    changes: Changes,
    config: str,
    scope: str,
    project_dir: str | None,
    trust: bool,
    dry_run: bool,
) -> list[str]:
    """Explain Gemini's folder trust, and record it for the project folder when asked."""
    folder = os.path.abspath(project_dir or os.getcwd())
    path = os.path.abspath(geminitrust.trusted_folders_path())
    out = []
    if scope == "project":
        out.append(
            "Gemini CLI warns once about project-level hooks the first time it runs in this folder."
        )
    try:
        settings_path = geminitrust.user_settings_path()
        settings = parse_hooks(settings_path, changes.read(settings_path))
        state = geminitrust.folder_trust(folder, settings)
    except (InstallError, geminitrust.TrustFileError) as exc:
        return [*out, f"Cannot check Gemini's folder trust: {exc}"]
    if state.trusted:
        # trust wikimem recorded for another install: this one relies on it too
        shared = _trust_rule(changes, "gemini", config, path, geminitrust.real(folder))
        if shared is not None:
            changes.add_trust(shared)
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
    if dry_run:
        return [*out, f"{explain}; would record it as TRUST_FOLDER in {path}."]
    before = changes.read(path)
    if before.strip() and geminitrust.has_comments(before):
        raise InstallError(
            f"{path} has comments, which rewriting it would lose; trust {folder} in Gemini"
        )
    try:
        was = geminitrust.read_rules_text(before).get(geminitrust.real(folder))
        after = geminitrust.with_trust(before, folder)
    except (ValueError, geminitrust.TrustFileError) as exc:
        raise InstallError(f"cannot record trust in {path}: {exc}") from None
    changes.put(path, _dump(after), mode=0o600)
    changes.add_trust(
        madefiles.TrustRule("gemini", os.path.abspath(config), path, geminitrust.real(folder), was)
    )
    return [*out, f"Recorded Gemini CLI trust for {folder} in {path} (--trust)."]


def _take_back_trust(changes: Changes, config: str, dry_run: bool) -> list[str]:
    """Remove the folder trust wikimem recorded for the install of `config`, unless another
    install of wikimem's still relies on it or someone changed the rule since."""
    config = os.path.abspath(config)
    mine = [r for r in changes.manifest.trust if r.config == config]
    out = []
    for rule in mine:
        changes.drop_trust(rule)
        others = [
            r
            for r in changes.manifest.trust
            if r.config != config
            and (r.client, r.file, r.folder) == (rule.client, rule.file, rule.folder)
        ]
        if others:
            continue
        text = changes.read(rule.file)
        try:
            if rule.client == "gemini":
                doc = geminitrust.without_trust(text, rule.folder, rule.was)
                after, empty = (None, False) if doc is None else (_dump(doc), not doc)
            else:
                after = copilottrust.without_trust(text, rule.folder)
                empty = after is not None and not copilottrust.read_config_text(after)[1]
        except (ValueError, geminitrust.TrustFileError, copilottrust.TrustFileError):
            continue  # a file that no longer parses is left alone
        if after is not None:
            changes.put(rule.file, after, empty=empty)
            did = "would take back" if dry_run else "took back"
            out.append(f"wikimem {did} the trust it recorded for {rule.folder} in {rule.file}.")
    return out


def _forget_codex_trust(changes: Changes, path: str, before: dict[str, Any]) -> None:
    config = codextrust.config_path()
    old = codextrust.handler_keys(path, before, only=_ours)
    text = changes.read(config)
    trusted = codextrust.trusted_in(text)
    ours = [k for k, digest in old.items() if trusted.get(k) == digest]
    if not ours:
        return
    new_text = codextrust.with_trust(text, {}, drop=ours)
    changes.put(config, new_text, empty=not new_text.strip())


def _keep_foreign_trust(
    changes: Changes, path: str, before: dict[str, Any], after: dict[str, Any]
) -> None:
    """Codex keys trust by a handler's position. When our entries come or go, another tool's
    hooks behind them move: the trust the user gave them moves with them (same definition, same
    hash), so wikimem never silently switches off someone else's hook."""
    config = codextrust.config_path()
    text = changes.read(config)
    trusted = codextrust.trusted_in(text)
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
        changes.put(config, codextrust.with_trust(text, moved))


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
    """Remove exactly our entries (and the folder trust recorded with them): every file changes,
    or none. A file wikimem created that holds nothing else afterwards is removed, not left as
    `{}`; any other file keeps what was there besides our entries."""
    changes = Changes(home or installed_home(client, scope, project_dir) or Home(DEFAULT_HOME))
    result = plan_uninstall(changes, client, scope, project_dir, dry_run)
    return carry_out(changes, result, dry_run)


def plan_uninstall(
    changes: Changes,
    client: str,
    scope: str = "user",
    project_dir: str | None = None,
    dry_run: bool = False,
) -> InstallResult:
    """Plan `uninstall` into `changes` (nothing is written here)."""
    changes.confine(project_folder(client, scope, project_dir))
    if client == "opencode":
        return _plan_uninstall_plugin(changes, scope, project_dir, dry_run)
    path = config_path(client, scope, project_dir)
    before_text = changes.read(path)
    doc = parse_hooks(path, before_text)
    if client == "antigravity":
        after = _antigravity_ours(doc, None)
    else:
        after, _ = _strip_ours(client, doc)
    changed = after != doc
    removed = False
    if changed:
        removed = changes.put(path, _dump(after), empty=_nothing_left(client, after))
        if client == "codex":
            _keep_foreign_trust(changes, path, doc, after)
            _forget_codex_trust(changes, path, doc)
    messages = _take_back_trust(changes, path, dry_run)
    if client == "antigravity":
        messages += _antigravity_unblock(changes, scope, project_dir, dry_run)
    after_text = "" if removed else (_dump(after) if changed else before_text)
    return InstallResult(
        client,
        scope,
        path,
        changed,
        dry_run,
        None,
        (),
        before_text,
        after_text,
        tuple(messages),
        removed=removed,
    )


def _antigravity_block(
    changes: Changes, home: Home, scope: str, project_dir: str | None, dry_run: bool
) -> list[str]:
    """Antigravity's hooks cannot give a conversation memory: the GEMINI.md it reads gets
    wikimem's managed block (`wikimem.export`), in the same change set as the hooks."""
    from wikimem.errors import WikimemError
    from wikimem.export.files import plan_export

    context = antigravity_context_file(scope, project_dir)
    try:
        outcome = plan_export(changes, home, context, scope, "antigravity")
    except WikimemError as exc:
        raise InstallError(f"{exc}; nothing was changed") from None
    would = "would keep" if dry_run else "keeps"
    out = [
        "Antigravity CLI support is built from its documentation and not yet proven with a real "
        f"agy. Its hooks record sessions but cannot give one memory: wikimem {would} a managed "
        f"block in {context}, which it reads (rewritten after each dream)."
    ]
    if outcome.state == "written":
        out.append(f"{'would write' if dry_run else 'wrote'} wikimem's block into {context}")
    return out


def _antigravity_unblock(
    changes: Changes, scope: str, project_dir: str | None, dry_run: bool
) -> list[str]:
    from wikimem.export.files import plan_remove

    context = antigravity_context_file(scope, project_dir)
    outcome = plan_remove(changes, changes.home, context, "antigravity")
    if outcome is None:
        return []
    if outcome.state == "kept":
        return [f"kept the managed block in {context}: {outcome.detail}"]
    return [f"{'would remove' if dry_run else 'removed'} wikimem's managed block from {context}"]
