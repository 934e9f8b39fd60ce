"""wikimem's OpenCode plugin, put where OpenCode loads plugins (`wikimem install opencode`).

OpenCode has no shell hooks; it loads every `plugin(s)/*.{js,ts}` of its config folders. The
plugin (`integrations/opencode/wikimem.js`, shipped with the package) is copied to
`<config>/plugins/wikimem.js` — user scope: `$XDG_CONFIG_HOME/opencode` (default
`~/.config/opencode`); project scope: `<project>/.opencode` — with its `COMMAND` line set to this
installation's hook command (an argv list of absolute paths).

Contract: installing twice equals installing once; a wikimem plugin that differs (an older
wikimem's, or one edited by hand) is backed up before it is replaced; a file of that name that
is not wikimem's plugin is refused and left alone; uninstall removes exactly that file, backed
up first when someone edited it. Nothing else in OpenCode's folders is read or written.
"""

from __future__ import annotations

import json
import os

from wikimem.resources import resource

FILE = "wikimem.js"
MARKER = "// wikimem for OpenCode"
COMMAND_PREFIX = "const COMMAND = "
COMMAND_SUFFIX = " // set by `wikimem install opencode`"


def config_dir(scope: str, project_dir: str | None = None) -> str:
    if scope == "project":
        return os.path.join(os.path.abspath(project_dir or os.getcwd()), ".opencode")
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "opencode")


def plugin_path(scope: str, project_dir: str | None = None) -> str:
    return os.path.join(config_dir(scope, project_dir), "plugins", FILE)


def template() -> str:
    with open(resource("integrations", "opencode", FILE), encoding="utf-8") as fh:
        return fh.read()


def _command_line(text: str) -> tuple[int, int] | None:
    """(start, end) of the COMMAND line in the plugin's text."""
    start = text.find("\n" + COMMAND_PREFIX)
    if start < 0:
        return None
    end = text.find("\n", start + 1)
    return start + 1, (end if end >= 0 else len(text))


def render(argv: list[str] | None) -> str:
    """The plugin with COMMAND set to `argv` (None: the shipped `null`)."""
    text = template()
    span = _command_line(text)
    if span is None:  # pragma: no cover - the shipped file always has it
        raise ValueError(f"{FILE} has no COMMAND line")
    value = "null" if argv is None else json.dumps(argv, ensure_ascii=False)
    return text[: span[0]] + COMMAND_PREFIX + value + COMMAND_SUFFIX + text[span[1] :]


def is_ours(text: str) -> bool:
    return text.startswith(MARKER)


def command_of(text: str) -> list[str] | None:
    """The argv an installed plugin runs, None when it has none (or is not ours)."""
    span = _command_line(text) if is_ours(text) else None
    if span is None:
        return None
    value = text[span[0] + len(COMMAND_PREFIX) : span[1]]
    if value.endswith(COMMAND_SUFFIX):
        value = value[: -len(COMMAND_SUFFIX)]
    try:
        argv = json.loads(value)
    except ValueError:
        return None
    if isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv):
        return argv
    return None


def pristine(text: str) -> bool:
    """Whether `text` is exactly what wikimem writes for the command it holds."""
    return is_ours(text) and text == render(command_of(text))
