"""One record per event when both the harness plugin and `wikimem install` wire wikimem.

A Claude Code or Codex plugin brings its own hooks (`hooks/wikimem-hook <client> --plugin`); a
user may also have run `wikimem install <client>`, whose hooks live in the harness's settings.
The harness then runs both commands for every event. The plugin's invocation defers: when the
settings this session loads already hold a runnable wikimem hook for the same event, it records
and prints nothing, and the installed hook does the work (it is the faster command and the one
the user chose explicitly). A plugin hook is never in settings files, so the installed one never
defers and an event is never lost.

Hook-path module: standard library only, a handful of small file reads, nothing at import time.
"""

from __future__ import annotations

import os

from wikimem import boundedfile
from wikimem.capture import fastjson
from wikimem.harness import is_wikimem_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

PLUGIN_FLAG = "--plugin"
WRAPPER = "wikimem-hook"


def installed_covers(
    client: str, native_event: str, payload: dict[str, Any], env: Mapping[str, str]
) -> bool:
    """Whether a hook from `wikimem install` (or the wrapper committed to a repository) that
    will run for this event is in the settings the harness loads for this session."""
    for path in _settings_files(client, payload, env):
        doc = _load(path)
        if doc is not None and _has_our_hook(client, doc, native_event):
            return True
    return False


def _settings_files(client: str, payload: dict[str, Any], env: Mapping[str, str]) -> list[str]:
    home = os.path.expanduser("~")
    cwd = payload.get("cwd")
    if client == "claude":
        project = env.get("CLAUDE_PROJECT_DIR") or (cwd if isinstance(cwd, str) else None)
        user = env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
        files = [os.path.join(user, "settings.json")]
        if project:
            files += [
                os.path.join(project, ".claude", "settings.json"),
                os.path.join(project, ".claude", "settings.local.json"),
            ]
        return files
    codex_home = env.get("CODEX_HOME") or os.path.join(home, ".codex")
    files = [os.path.join(codex_home, "hooks.json")]
    if isinstance(cwd, str):
        from wikimem.capture.project import find_repo_root

        found = find_repo_root(cwd)
        files.append(os.path.join(found[0] if found else cwd, ".codex", "hooks.json"))
    return files


def _load(path: str) -> dict[str, Any] | None:
    try:
        doc = fastjson.loads(boundedfile.read_text(path))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _has_our_hook(client: str, doc: dict[str, Any], native_event: str) -> bool:
    hooks = doc.get("hooks")
    groups = hooks.get(native_event) if isinstance(hooks, dict) else None
    if not isinstance(groups, list):
        return False
    for group in groups:
        handlers = group.get("hooks") if isinstance(group, dict) else None
        for handler in handlers if isinstance(handlers, list) else []:
            command = handler.get("command") if isinstance(handler, dict) else None
            if _ours_and_runnable(command, client):
                return True
    return False


def _ours_and_runnable(command: object, client: str) -> bool:
    if not isinstance(command, str) or PLUGIN_FLAG in command.split():
        return False
    if is_wikimem_command(command, client):
        return _runnable(command)
    words = command.replace('"', " ").replace("'", " ").split()
    return any(
        os.path.basename(w) == WRAPPER and words[i + 1 : i + 2] == [client]
        for i, w in enumerate(words)
    )


def _runnable(command: str) -> bool:
    """The installed command's interpreter and entry script still exist (a deleted virtualenv
    would otherwise leave the event to a hook that cannot run)."""
    import shlex

    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    paths = [a for a in argv[:4] if os.path.isabs(a)]
    return all(os.path.exists(p) for p in paths)
