"""Codex CLI adapter (its documented hooks, as seen with the real Codex CLI 0.171.0).

Codex fires PreModelRequest before every model request: noise, never recorded. Tool output is
plain text (not an object), file edits arrive as apply_patch documents, and Stop/SubagentStop
accept only JSON or nothing on stdout, so nothing is printed for them.
"""

from __future__ import annotations

from wikimem.harness import (
    HookInputError,
    as_text,
    drop_none,
    hook_specific_output,
    opt_str,
    patch_files,
    require_str,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

CLIENT = "codex"
KNOWN = {
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
}
NOISE = {"PreModelRequest"}
INJECTS = ("SessionStart", "UserPromptSubmit")


def normalise(payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
    native = require_str(payload, "hook_event_name")
    if native in NOISE:
        return None
    session = require_str(payload, "session_id")
    event = native if native in KNOWN else "Other"
    fields: dict[str, Any] = {
        "session": session,
        "event": event,
        "native_event": native,
        "cwd": opt_str(payload, "cwd"),
        "turn": opt_str(payload, "turn_id"),
    }
    if event == "SessionStart":
        fields["source"] = opt_str(payload, "source")
        fields["model"] = opt_str(payload, "model")
    elif event == "UserPromptSubmit":
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise HookInputError("UserPromptSubmit without a string 'prompt'")
        fields["prompt"] = prompt
    elif event in ("PreToolUse", "PostToolUse"):
        tool = opt_str(payload, "tool_name")
        tool_input = payload.get("tool_input")
        fields["tool"] = tool
        fields["input"] = tool_input
        fields["tool_use_id"] = opt_str(payload, "tool_use_id")
        if tool == "apply_patch" and isinstance(tool_input, dict):
            patch = tool_input.get("command")
            if isinstance(patch, str):
                fields["files"] = patch_files(patch)
        if event == "PostToolUse":
            fields["output"] = as_text(payload.get("tool_response"))
    elif event in ("Stop", "SubagentStop"):
        fields["message"] = opt_str(payload, "last_assistant_message")
        fields["agent"] = opt_str(payload, "agent_type")
    elif event in ("PreCompact", "PostCompact"):
        fields["trigger"] = opt_str(payload, "trigger")
    elif event in ("SessionEnd", "Other"):
        fields["reason"] = opt_str(payload, "reason")
    return drop_none(fields)


def render(native_event: str, event: str, context: str | None) -> str | None:
    if event in INJECTS:
        return hook_specific_output(event, context)
    return None
