"""Harness adapters: one module per client turns its native hook payload into our record.

Contract of an adapter module (`claude`, `codex`, `cursor`, `gemini`, `copilot`, `opencode`,
`qwen`, `antigravity`):
  - `CLIENT`: the client's name in records;
  - `normalise(payload, env) -> dict | None`: the record's fields (`session`, `event`,
    `native_event`, `cwd`, and whichever of `prompt`, `tool`, `input`, `output`, `error`,
    `exit_code`, `message`, `source`, `reason`, `trigger`, `summary`, `files`, `agent`, `turn`,
    `model` the event carries), or None for an event that is noise and must not be recorded;
    raises `HookInputError` when a required field is missing or has the wrong type;
  - `render(native_event, event, context) -> str | None`: what to print on stdout, in the
    client's own format, given the memory to inject (None: nothing to inject);
  - optionally `first_delivery(state_dir, payload, now) -> bool`: False for a second delivery of
    one event (the harness runs every registration of a hook, and the user wired two);
  - optionally `CAN_INJECT = False`: no hook output of the client reaches the model, so no
    memory is looked up for it (it is given memory through a file it reads: `wikimem export`).

Hook-path package: standard library only. Writing these entries into each harness's config (and
the trust a harness asks for) is `wikimem.setup`'s, which only the command line imports.
"""

from __future__ import annotations

from wikimem.capture import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CLIENTS = ("claude", "codex", "cursor", "gemini", "copilot", "opencode", "qwen", "antigravity")

# What identifies a hook command as ours in a harness config (install, uninstall, doctor, and
# the Cursor double-fire check all use these).
ENTRY_SCRIPT = "hookentry.py"


class HookInputError(ValueError):
    """The payload is not what the harness's contract promises."""


def is_wikimem_command(command: object, client: str | None = None) -> bool:
    if not isinstance(command, str):
        return False
    if ENTRY_SCRIPT in command and "wikimem" in command:
        rest = command.split(ENTRY_SCRIPT, 1)[1]
    elif "wikimem" in command and " hook " in command:
        rest = command.split(" hook ", 1)[1]
    else:
        return False
    if client is None:
        return True
    words = rest.replace("'", " ").replace('"', " ").split()
    return bool(words) and words[0] == client


def require_str(payload: dict[str, Any], key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise HookInputError(f"missing or non-string field {key!r}")
    return value


def opt_str(payload: dict[str, Any], key: str) -> str | None:
    value = payload.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float | bool):
        return str(value)
    raise HookInputError(f"field {key!r} should be a string")


def as_text(value: object) -> str | None:
    """A tool output of any shape as text: strings as they are, anything else as JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return fastjson.dumps(value, ascii=False)


def patch_files(patch: str) -> list[str]:
    """Paths named in an apply_patch document (`*** Update File: path` and friends)."""
    files = []
    for line in patch.splitlines():
        for prefix in ("*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "):
            if line.startswith(prefix):
                path = line[len(prefix) :].strip()
                if path and path not in files:
                    files.append(path)
    return files


def hook_specific_output(event: str, context: str | None) -> str | None:
    """Claude Code's and Codex's injection format (docs/architecture.md)."""
    if not context:
        return None
    return fastjson.dumps(
        {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}, ascii=False
    )


def additional_context(context: str | None) -> str | None:
    """GitHub Copilot CLI's injection format (top-level `additionalContext`), which
    wikimem's OpenCode plugin reads too."""
    if not context:
        return None
    return fastjson.dumps({"additionalContext": context}, ascii=False)


def drop_none(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None and v != [] and v != ""}
