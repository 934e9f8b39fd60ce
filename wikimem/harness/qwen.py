"""Qwen Code adapter (as seen with the real Qwen Code 0.24.4).

Qwen Code is a Gemini CLI fork whose hooks are Claude Code's: the same event names, snake_case
payloads, `hookSpecificOutput.additionalContext`. What differs, and is handled here:
  - UserPromptSubmit fires again with `prompt: ""` before every follow-up model request of a
    turn, and whatever it answers is added to the request each time: such a re-fire is noise,
    recorded as nothing and answered with nothing;
  - the shell tool is `run_shell_command`, whose result is a block of `Command:`, `Output:`,
    `Error:`, `Exit Code:` … lines (the output and exit code are read out of it); a command
    that exits non-zero fires PostToolUseFailure with that block as `error`;
  - an edit's `tool_response.returnDisplay` carries the whole file before and after, and its
    `llmContent` quotes the edited file: only the diff (`returnDisplay.fileDiff`) and the file
    touched are kept; a read's content is never kept;
  - PostToolBatch repeats the batch's PostToolUse events and MessageDisplay the answer Stop
    carries: noise;
  - SessionEnd never fires in `-p` mode: Stop is the last event of such a run, and closes it;
  - the hook environment also carries CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR, so the
    installed command (`wikimem hook qwen`), not the environment, says who is calling.

Hook-path module: standard library only.
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

CLIENT = "qwen"
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
NOISE = {"PostToolBatch", "MessageDisplay"}
INJECTS = ("SessionStart", "UserPromptSubmit")
SHELL_TOOL = "run_shell_command"
EDIT_TOOLS = ("edit", "write_file", "replace")
CONTENT_TOOLS = ("read_file", "read_many_files")  # outputs are file contents: never recorded
# The lines that close a run_shell_command result, after its output
SHELL_TAIL = ("Error: ", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: ")


def shell_result(text: str) -> tuple[str, int | None, str | None]:
    """(output, exit code, error) of a run_shell_command result block; the text unchanged
    (and no exit code) when it is not one."""
    at = text.find("Output: ")
    if at < 0 or (at > 0 and text[at - 1] != "\n"):
        return text, None, None
    lines = text[at + len("Output: ") :].split("\n")
    code: int | None = None
    error: str | None = None
    while len(lines) > 1 and lines[-1].startswith(SHELL_TAIL):
        line = lines.pop()
        if line.startswith("Exit Code: "):
            value = line[len("Exit Code: ") :].strip()
            code = int(value) if value.lstrip("-").isdigit() else None
        elif line.startswith("Error: ") and line != "Error: (none)":
            error = line[len("Error: ") :]
    output = "\n".join(lines)
    return ("" if output == "(empty)" else output), code, error


def tool_fields(payload: dict[str, Any], event: str) -> dict[str, Any]:
    tool = opt_str(payload, "tool_name")
    tool_input = payload.get("tool_input")
    fields: dict[str, Any] = {
        "tool": tool,
        "input": tool_input,
        "tool_use_id": opt_str(payload, "tool_call_id") or opt_str(payload, "tool_use_id"),
    }
    if tool in EDIT_TOOLS and isinstance(tool_input, dict):
        path = tool_input.get("file_path")
        if isinstance(path, str) and path:
            fields["files"] = [path]
    if isinstance(payload.get("duration_ms"), int):
        fields["duration_ms"] = payload["duration_ms"]
    if event == "PostToolUseFailure":
        error = opt_str(payload, "error")
        if tool == SHELL_TOOL and error is not None:
            output, code, _ = shell_result(error)
            if code is not None:  # a command that ran and failed: its output is the evidence
                fields["output"], fields["exit_code"] = output, code
        fields["error"] = error
        if payload.get("is_interrupt") is True:
            fields["reason"] = "interrupt"
        return fields
    if event != "PostToolUse" or tool in CONTENT_TOOLS:
        return fields
    response = payload.get("tool_response")
    content = response.get("llmContent") if isinstance(response, dict) else response
    display = response.get("returnDisplay") if isinstance(response, dict) else None
    if (
        tool in EDIT_TOOLS
        and isinstance(display, dict)
        and isinstance(display.get("fileDiff"), str)
    ):
        fields["output"] = display["fileDiff"]  # the change; llmContent quotes the file
    elif tool == SHELL_TOOL and isinstance(content, str):
        fields["output"], fields["exit_code"], fields["error"] = shell_result(content)
    else:
        fields["output"] = as_text(content)
    return fields


def normalise(payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
    native = require_str(payload, "hook_event_name")
    if native in NOISE:
        return None
    prompt = payload.get("prompt")
    if native == "UserPromptSubmit" and prompt == "":
        return None  # the re-fire before a follow-up request of the same turn
    session = require_str(payload, "session_id")
    event = native if native in KNOWN else "Other"
    fields: dict[str, Any] = {
        "session": session,
        "event": event,
        "native_event": native,
        "cwd": opt_str(payload, "cwd") or env.get("QWEN_PROJECT_DIR"),
        "turn": opt_str(payload, "prompt_id"),
    }
    if event == "SessionStart":
        fields["source"] = opt_str(payload, "source")
        fields["model"] = opt_str(payload, "model")
    elif event == "UserPromptSubmit":
        if not isinstance(prompt, str):
            raise HookInputError("UserPromptSubmit without a string 'prompt'")
        fields["prompt"] = prompt
    elif event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
        fields.update(tool_fields(payload, event))
    elif event in ("Stop", "SubagentStop"):
        fields["message"] = opt_str(payload, "last_assistant_message")
        fields["agent"] = opt_str(payload, "agent_type")
    elif event in ("PreCompact", "PostCompact"):
        fields["trigger"] = opt_str(payload, "trigger")
        fields["summary"] = opt_str(payload, "compact_summary")
    elif event == "Notification":
        fields["message"] = opt_str(payload, "message")
    else:
        fields["reason"] = opt_str(payload, "reason")
    return drop_none(fields)


def render(native_event: str, event: str, context: str | None) -> str | None:
    if event in INJECTS:
        return hook_specific_output(event, context)
    return None
