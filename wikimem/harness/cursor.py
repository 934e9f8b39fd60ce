"""Cursor adapter (from Cursor's documented hooks).

Cursor names its events differently and keys sessions by `conversation_id`; a record's `cwd` is
the first workspace root. `beforeSubmitPrompt` cannot inject context: it always answers
`{"continue": true}`, and so does an event name this adapter does not know. `beforeReadFile` carries the file's content (a `.env`, say): only the path
is kept. `postToolUse` gives `tool_output` as a JSON *string*.
"""

from __future__ import annotations

from wikimem.capture import fastjson
from wikimem.harness import (
    HookInputError,
    as_text,
    drop_none,
    opt_str,
    require_str,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

CLIENT = "cursor"
CANONICAL = {
    "sessionStart": "SessionStart",
    "sessionEnd": "SessionEnd",
    "beforeSubmitPrompt": "UserPromptSubmit",
    "preToolUse": "PreToolUse",
    "beforeShellExecution": "PreToolUse",
    "beforeMCPExecution": "PreToolUse",
    "beforeReadFile": "PreToolUse",
    "postToolUse": "PostToolUse",
    "afterShellExecution": "PostToolUse",
    "afterMCPExecution": "PostToolUse",
    "afterFileEdit": "PostToolUse",
    "postToolUseFailure": "PostToolUseFailure",
    "afterAgentResponse": "AssistantMessage",
    "stop": "Stop",
    "subagentStop": "SubagentStop",
    "preCompact": "PreCompact",
}
EDIT_TOOLS = ("Write", "Edit", "Delete")


def _cwd(payload: dict[str, Any], env: Mapping[str, str]) -> str | None:
    roots = payload.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        return roots[0]
    return opt_str(payload, "cwd") or env.get("CURSOR_PROJECT_DIR")


def _tool_output(raw: object) -> tuple[str | None, int | None]:
    """(text, exit code) of a postToolUse `tool_output`, which is usually a JSON string."""
    if isinstance(raw, str):
        try:
            parsed = fastjson.loads(raw)
        except ValueError:
            return raw, None
    else:
        parsed = raw
    if isinstance(parsed, dict) and ("stdout" in parsed or "stderr" in parsed):
        out = str(parsed.get("stdout") or "")
        err = str(parsed.get("stderr") or "")
        code = parsed.get("exitCode", parsed.get("exit_code"))
        text = out if not err else f"{out}\n[stderr]\n{err}"
        return text, code if isinstance(code, int) else None
    return as_text(parsed), None


def normalise(payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
    native = require_str(payload, "hook_event_name")
    session = opt_str(payload, "conversation_id") or opt_str(payload, "session_id")
    if not session:
        raise HookInputError("missing field 'conversation_id'")
    event = CANONICAL.get(native, "Other")
    fields: dict[str, Any] = {
        "session": session,
        "event": event,
        "native_event": native,
        "cwd": _cwd(payload, env),
        "turn": opt_str(payload, "generation_id"),
    }
    if native == "sessionStart":
        fields["model"] = opt_str(payload, "model")
        fields["source"] = "startup"
    elif native == "beforeSubmitPrompt":
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise HookInputError("beforeSubmitPrompt without a string 'prompt'")
        fields["prompt"] = prompt
    elif native in ("preToolUse", "postToolUse", "postToolUseFailure"):
        tool = opt_str(payload, "tool_name")
        tool_input = payload.get("tool_input")
        if isinstance(tool_input, str):
            try:
                tool_input = fastjson.loads(tool_input)
            except ValueError:
                pass
        fields["tool"] = tool
        fields["input"] = tool_input
        fields["tool_use_id"] = opt_str(payload, "tool_use_id")
        if tool in EDIT_TOOLS and isinstance(tool_input, dict):
            path = tool_input.get("file_path") or tool_input.get("path")
            if isinstance(path, str):
                fields["files"] = [path]
        if native == "postToolUse":
            fields["output"], fields["exit_code"] = _tool_output(payload.get("tool_output"))
        elif native == "postToolUseFailure":
            fields["error"] = opt_str(payload, "error_message")
            fields["reason"] = opt_str(payload, "failure_type")
    elif native in ("beforeShellExecution", "afterShellExecution"):
        fields["tool"] = "Shell"
        fields["input"] = {"command": opt_str(payload, "command")}
        if native == "afterShellExecution":
            fields["output"] = opt_str(payload, "output")
    elif native in ("beforeMCPExecution", "afterMCPExecution"):
        fields["tool"] = f"MCP:{opt_str(payload, 'tool_name') or '?'}"
        fields["input"] = payload.get("tool_input")
        if native == "afterMCPExecution":
            fields["output"] = as_text(payload.get("result_json"))
    elif native == "beforeReadFile":
        path = opt_str(payload, "file_path")
        fields["tool"] = "Read"
        fields["input"] = {"file_path": path}  # never the content
    elif native == "afterFileEdit":
        path = opt_str(payload, "file_path")
        fields["tool"] = "Edit"
        fields["input"] = {"file_path": path, "edits": payload.get("edits")}
        fields["files"] = [path] if path else None
    elif native == "afterAgentResponse":
        fields["message"] = opt_str(payload, "text")
    elif native in ("stop", "subagentStop"):
        fields["reason"] = opt_str(payload, "status")
        if native == "subagentStop":
            fields["message"] = opt_str(payload, "summary")
            fields["agent"] = opt_str(payload, "subagent_type")
    elif native == "preCompact":
        fields["trigger"] = opt_str(payload, "trigger")
    elif native == "sessionEnd":
        fields["reason"] = opt_str(payload, "reason")
    return drop_none(fields)


def needs_continue(native_event: str | None) -> bool:
    """Whether to answer `{"continue": true}`: on beforeSubmitPrompt, which Cursor waits for,
    and on any event this adapter does not know (a renamed or new prompt event waits the same
    way; every other Cursor event ignores the answer)."""
    return (
        native_event is None
        or native_event not in CANONICAL
        or native_event == "beforeSubmitPrompt"
    )


def render(native_event: str, event: str, context: str | None) -> str | None:
    if needs_continue(native_event):
        return '{"continue":true}'
    if native_event == "sessionStart" and context:
        return fastjson.dumps({"additional_context": context}, ascii=False)
    return None
