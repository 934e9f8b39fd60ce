"""OpenCode adapter (as seen with the real OpenCode 1.18.33).

OpenCode has no shell hooks. wikimem's own plugin (`integrations/opencode/wikimem.js`, put in
place by `wikimem install opencode`) runs `wikimem hook opencode` with Claude-shaped payloads:
SessionStart on a session's first message in an OpenCode process (`source` "startup" for a new
session, else "resume"), UserPromptSubmit on every message, PostToolUse after every tool
(`tool_response: {output, title, metadata}`, metadata reduced to its scalar fields), PreCompact
before a compaction, and Stop when the session goes idle (`last_assistant_message`, gathered by
the plugin from the answer's text parts). OpenCode has no session end: Stop is the last event a
run sends. A subagent's tool calls carry `parent_session_id` and are recorded under that session
(with `agent`); the plugin sends nothing else of a subagent's.

The answer is `{"additionalContext": TEXT}`, which the plugin puts into the system prompt (session
start) or a text part of the user's message (prompt).

Hook-path module: standard library only.
"""

from __future__ import annotations

from wikimem.harness import (
    HookInputError,
    additional_context,
    as_text,
    drop_none,
    opt_str,
    require_str,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

CLIENT = "opencode"
KNOWN = {
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "PreCompact",
    "SessionEnd",
}
INJECTS = ("SessionStart", "UserPromptSubmit")
SHELL_TOOL = "bash"
EDIT_TOOLS = ("edit", "write", "patch", "multiedit")
CONTENT_TOOLS = ("read",)  # outputs are file contents: never recorded


def tool_fields(payload: dict[str, Any], event: str) -> dict[str, Any]:
    tool = opt_str(payload, "tool_name")
    tool_input = payload.get("tool_input")
    fields: dict[str, Any] = {
        "tool": tool,
        "input": tool_input,
        "tool_use_id": opt_str(payload, "tool_use_id"),
    }
    if tool in EDIT_TOOLS and isinstance(tool_input, dict):
        path = tool_input.get("filePath") or tool_input.get("file_path")
        if isinstance(path, str) and path:
            fields["files"] = [path]
    if event == "PostToolUseFailure":
        fields["error"] = as_text(payload.get("error"))
    if event != "PostToolUse":
        return fields
    response = payload.get("tool_response")
    if not isinstance(response, dict):
        if response is not None and tool not in CONTENT_TOOLS:
            fields["output"] = as_text(response)
        return fields
    metadata = response.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    if tool in CONTENT_TOOLS:
        return fields
    output = response.get("output")
    fields["output"] = output if isinstance(output, str) else as_text(output)
    code = metadata.get("exit")
    if tool == SHELL_TOOL and isinstance(code, int) and not isinstance(code, bool):
        fields["exit_code"] = code
    if tool in EDIT_TOOLS and isinstance(metadata.get("diff"), str):
        fields["output"] = metadata["diff"]  # what changed, rather than "Edit applied"
    return fields


def normalise(payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
    native = require_str(payload, "hook_event_name")
    session = require_str(payload, "session_id")
    parent = opt_str(payload, "parent_session_id")
    event = native if native in KNOWN else "Other"
    fields: dict[str, Any] = {
        "session": parent or session,
        "event": event,
        "native_event": native,
        "cwd": opt_str(payload, "cwd") or env.get("OPENCODE_PROJECT_DIR"),
        "agent": opt_str(payload, "agent") if parent else None,
    }
    if event == "SessionStart":
        fields["source"] = opt_str(payload, "source")
        fields["model"] = opt_str(payload, "model")
    elif event == "UserPromptSubmit":
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise HookInputError("UserPromptSubmit without a string 'prompt'")
        fields["prompt"] = prompt
    elif event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
        fields.update(tool_fields(payload, event))
    elif event == "Stop":
        fields["message"] = opt_str(payload, "last_assistant_message")
    elif event == "PreCompact":
        fields["trigger"] = opt_str(payload, "trigger")
    else:
        fields["reason"] = opt_str(payload, "reason")
    return drop_none(fields)


def render(native_event: str, event: str, context: str | None) -> str | None:
    if event in INJECTS:
        return additional_context(context)
    return None
