"""Codex hook trust (as seen with the real Codex CLI 0.171.0).

Codex runs a non-managed hook only if `$CODEX_HOME/config.toml` records the hash of its definition
as trusted, under `[hooks.state."<abs hooks.json>:<snake_case event>:<group>:<handler>"]`; any
other hook is skipped silently. The hash is SHA-256 of the compact, key-sorted JSON of
`{event_name, matcher?, hooks: [{type, command, timeout, async, statusMessage?}]}` (timeout
always present, default 600, SessionEnd clamped to 1..3 s; matchers dropped for events that
ignore them). Any edit of a definition un-trusts it.

wikimem records trust only with the user's explicit consent (`wikimem install codex --trust`);
`wikimem doctor` uses `untrusted_handlers` to say which of our hooks Codex will skip.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from typing import Any

from wikimem import boundedfile

SNAKE = {
    "PreModelRequest": "pre_model_request",
    "SessionStart": "session_start",
    "UserPromptSubmit": "user_prompt_submit",
    "PreToolUse": "pre_tool_use",
    "PermissionRequest": "permission_request",
    "PostToolUse": "post_tool_use",
    "PreCompact": "pre_compact",
    "PostCompact": "post_compact",
    "Stop": "stop",
    "SessionEnd": "session_end",
    "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop",
    "Interrupt": "interrupt",
}
MATCHERLESS = {"UserPromptSubmit", "Stop", "PreCompact", "PostCompact"}
SHORT_TIMEOUT = {"SessionEnd", "Interrupt"}


def codex_home() -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")


def config_path() -> str:
    """Codex's config.toml, where trust is recorded."""
    return os.path.join(codex_home(), "config.toml")


def trust_hash(event: str, group: dict[str, Any], handler: dict[str, Any]) -> str:
    timeout = int(handler.get("timeout", 600))
    timeout = min(max(timeout, 1), 3) if event in SHORT_TIMEOUT else max(timeout, 1)
    norm: dict[str, Any] = {
        "type": "command",
        "command": handler["command"],
        "timeout": timeout,
        "async": bool(handler.get("async", False)),
    }
    if handler.get("statusMessage") is not None:
        norm["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": SNAKE[event], "hooks": [norm]}
    if group.get("matcher") is not None and event not in MATCHERLESS:
        identity["matcher"] = group["matcher"]
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    import hashlib

    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def handler_keys(hooks_json_path: str, doc: dict[str, Any], only: Any = None) -> dict[str, str]:
    """{state key: hash} of the command handlers in a hooks.json document (`only(handler)`
    filters which ones)."""
    out: dict[str, str] = {}
    hooks = doc.get("hooks", {})
    if not isinstance(hooks, dict):
        return out
    for event, groups in hooks.items():
        if event not in SNAKE or not isinstance(groups, list):
            continue
        for gi, group in enumerate(groups):
            if not isinstance(group, dict):
                continue
            for hi, handler in enumerate(group.get("hooks", []) or []):
                if not isinstance(handler, dict) or handler.get("type") != "command":
                    continue
                if only is not None and not only(handler):
                    continue
                key = f"{hooks_json_path}:{SNAKE[event]}:{gi}:{hi}"
                out[key] = trust_hash(event, group, handler)
    return out


def read_trusted(config_path: str) -> dict[str, str]:
    """{state key: trusted hash} recorded in Codex's config.toml."""
    try:
        return trusted_in(boundedfile.read_text(config_path))
    except (OSError, UnicodeDecodeError):
        return {}


def trusted_in(text: str) -> dict[str, str]:
    """{state key: trusted hash} recorded in the text of a config.toml ({} if it does not
    parse)."""
    import tomllib  # here, not at the top: `status` asks where Codex lives, never its trust

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    state = data.get("hooks", {}).get("state", {}) if isinstance(data.get("hooks"), dict) else {}
    return {
        k: v["trusted_hash"]
        for k, v in state.items()
        if isinstance(v, dict) and isinstance(v.get("trusted_hash"), str)
    }


def untrusted_handlers(config_path: str, wanted: dict[str, str]) -> list[str]:
    trusted = read_trusted(config_path)
    return [key for key, digest in wanted.items() if trusted.get(key) != digest]


_TABLE = re.compile(r'^\[hooks\.state\."((?:[^"\\]|\\.)*)"\]\s*$')


def record_trust(config_path: str, wanted: dict[str, str], drop: Iterable[str] = ()) -> str:
    """`with_trust` of the config.toml at `config_path` (absent: empty)."""
    try:
        text = boundedfile.read_text(config_path)
    except FileNotFoundError:
        text = ""
    return with_trust(text, wanted, drop)


def with_trust(text: str, wanted: dict[str, str], drop: Iterable[str] = ()) -> str:
    """config.toml's text with `wanted` recorded as trusted and the tables of `drop` (our own
    handlers that moved or went away) removed; every other table is kept. Returns the new text
    (the caller writes it atomically); nothing but blank lines when nothing is left."""
    import tomllib

    tomllib.loads(text)  # refuse to touch a config.toml that does not parse
    dropped = set(drop)
    lines = text.splitlines()
    out: list[str] = []
    skip = False
    for line in lines:
        m = _TABLE.match(line.strip())
        if m:
            key = json.loads(f'"{m.group(1)}"')
            skip = key in wanted or key in dropped
            if skip:
                continue
        elif line.strip().startswith("["):
            skip = False
        if not skip:
            out.append(line)
    while out and not out[-1].strip():
        out.pop()
    for key, digest in wanted.items():
        out += [
            "",
            f"[hooks.state.{json.dumps(key)}]",
            "enabled = true",
            f"trusted_hash = {json.dumps(digest)}",
        ]
    new_text = "\n".join(out).lstrip("\n") + "\n"
    tomllib.loads(new_text)
    return new_text
