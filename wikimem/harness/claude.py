"""Claude Code adapter (its documented hooks, as seen with the real Claude Code 2.1.332).

A failing Bash command arrives as PostToolUseFailure with `error` ("Exit code 3\\n<stderr>") and
no `tool_response`. Edit's `tool_response` repeats the whole original file (`originalFile`) and
Read's is the file itself: neither is kept, only what changed or which file was read.
"""

from __future__ import annotations

from wikimem.harness import (
    HookInputError,
    as_text,
    drop_none,
    hook_specific_output,
    opt_str,
    require_str,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

CLIENT = "claude"
KNOWN = {
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "Notification",
}
INJECTS = ("SessionStart", "UserPromptSubmit")
EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")
CONTENT_TOOLS = ("Read",)  # outputs are file contents: never recorded


def tool_fields(payload: dict[str, Any]) -> dict[str, Any]:
    tool = opt_str(payload, "tool_name")
    tool_input = payload.get("tool_input")
    fields: dict[str, Any] = {
        "tool": tool,
        "input": tool_input,
        "tool_use_id": opt_str(payload, "tool_use_id"),
    }
    if isinstance(tool_input, dict):
        path = tool_input.get("file_path") or tool_input.get("notebook_path")
        if isinstance(path, str) and tool in EDIT_TOOLS:
            fields["files"] = [path]
    response = payload.get("tool_response")
    if response is not None and tool not in CONTENT_TOOLS:
        fields["output"] = _response_text(tool, response)
    if isinstance(payload.get("duration_ms"), int):
        fields["duration_ms"] = payload["duration_ms"]
    return fields


def _response_text(tool: str | None, response: object) -> str | None:
    if isinstance(response, dict):
        if "stdout" in response or "stderr" in response:
            out = str(response.get("stdout") or "")
            err = str(response.get("stderr") or "")
            text = out if not err else (f"{out}\n[stderr]\n{err}" if out else f"[stderr]\n{err}")
            if response.get("interrupted"):
                text += "\n[interrupted]"
            return text
        if tool in EDIT_TOOLS:
            # Only the patch; `originalFile` would copy the whole file into the log.
            slim = {
                k: response[k] for k in ("filePath", "structuredPatch", "success") if k in response
            }
            return as_text(slim)
    return as_text(response)


def _exit_code(error: str | None) -> int | None:
    if error and error.startswith("Exit code "):
        head = error[len("Exit code ") :].split("\n", 1)[0].strip()
        if head.lstrip("-").isdigit():
            return int(head)
    return None


def normalise(payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
    native = require_str(payload, "hook_event_name")
    session = require_str(payload, "session_id")
    event = native if native in KNOWN else "Other"
    fields: dict[str, Any] = {
        "session": session,
        "event": event,
        "native_event": native,
        "cwd": opt_str(payload, "cwd") or env.get("CLAUDE_PROJECT_DIR"),
        "turn": opt_str(payload, "prompt_id"),
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
        fields.update(tool_fields(payload))
        if event == "PostToolUseFailure":
            error = opt_str(payload, "error")
            fields["error"] = error
            fields["exit_code"] = _exit_code(error)
            if payload.get("is_interrupt") is True:
                fields["reason"] = "interrupt"
    elif event in ("Stop", "SubagentStop"):
        fields["message"] = opt_str(payload, "last_assistant_message")
        fields["agent"] = opt_str(payload, "agent_type")
    elif event in ("PreCompact", "PostCompact"):
        fields["trigger"] = opt_str(payload, "trigger")
        fields["summary"] = opt_str(payload, "compact_summary")
    elif event == "SessionEnd":
        fields["reason"] = opt_str(payload, "reason")
    elif event == "Notification":
        fields["message"] = opt_str(payload, "message")
    return drop_none(fields)


def render(native_event: str, event: str, context: str | None) -> str | None:
    if event in INJECTS:
        return hook_specific_output(event, context)
    return None
