"""GitHub Copilot CLI adapter (as seen with the real Copilot CLI 1.0.102).

Copilot's camelCase hooks (`sessionStart`, `userPromptSubmitted`, …) get camelCase payloads
(`sessionId`, `toolName`, `toolArgs`, `toolResult`, epoch-millisecond `timestamp`) that carry
no event name: each installed command names its event (`--event sessionStart`, which the hook
entry puts into `hook_event_name`). Its PascalCase aliases (`SessionStart`, `Stop`, …) get
snake_case payloads with `hook_event_name`; both shapes are read here.

What the real client does, and what is done about it:
  - only a top-level `{"additionalContext": …}` is honoured (`hookSpecificOutput` is ignored):
    session start → its own user message, userPromptSubmitted → appended to the prompt;
  - a shell command that exits non-zero is still postToolUse (`resultType: "success"`), its
    exit code only in the text's last line (`<shellId: 0 completed with exit code 3>`), read
    here; postToolUseFailure is for a tool that could not run (`error`);
  - inside a subagent (the `task` tool) `sessionId` is the subagent's own id, with
    `parentAgentId` naming the session: its tool events are recorded under that session (with
    `agent`); its prompt (written by the model) and its stop are not recorded, since the task's
    input and the parent's subagentStop (`response`) carry them;
  - agentStop carries no answer: the last one is read back from the tail of the session's
    `events.jsonl` (`transcriptPath`, at most 256 KB read, never copied), which Copilot writes
    in batches a few milliseconds behind: up to half a second is waited for it to catch up;
  - user and repository hooks both run for one event, with the same payload: `first_delivery`
    lets one of them record and inject;
  - preToolUse is never wired: any non-zero exit of a preToolUse hook denies the tool.

Hook-path module: standard library only.
"""

from __future__ import annotations

import os

from wikimem.capture import fastjson, once
from wikimem.harness import (
    HookInputError,
    additional_context,
    as_text,
    drop_none,
    opt_str,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

CLIENT = "copilot"
CANONICAL = {
    "sessionStart": "SessionStart",
    "userPromptSubmitted": "UserPromptSubmit",
    "preToolUse": "PreToolUse",
    "postToolUse": "PostToolUse",
    "postToolUseFailure": "PostToolUseFailure",
    "agentStop": "Stop",
    "subagentStop": "SubagentStop",
    "preCompact": "PreCompact",
    "sessionEnd": "SessionEnd",
    "notification": "Notification",
    # the PascalCase aliases
    "SessionStart": "SessionStart",
    "UserPromptSubmit": "UserPromptSubmit",
    "PreToolUse": "PreToolUse",
    "PostToolUse": "PostToolUse",
    "PostToolUseFailure": "PostToolUseFailure",
    "Stop": "Stop",
    "SubagentStop": "SubagentStop",
    "PreCompact": "PreCompact",
    "SessionEnd": "SessionEnd",
    "Notification": "Notification",
}
# The prompt again after Copilot's own rewriting, and permission prompts: never recorded.
NOISE = {
    "userPromptTransformed",
    "permissionRequest",
    "PermissionRequest",
    "preMcpToolCall",
    "PreMcpToolCall",
}
INJECTS = ("SessionStart", "UserPromptSubmit")
SHELL_TOOLS = ("bash", "powershell", "Bash")
EDIT_TOOLS = ("edit", "create")
CONTENT_TOOLS = ("view",)  # outputs are file contents: never recorded
SHELL_TRAILER = "<shellId: "
TRANSCRIPT_TAIL = 256 * 1024
TRANSCRIPT_WAIT = 0.5  # longest wait for Copilot's log to catch up with agentStop
TRANSCRIPT_POLL = 0.01
SEEN_DIR = "copilot-seen"


def _field(payload: dict[str, Any], camel: str, snake: str) -> object:
    value = payload.get(camel)
    return payload.get(snake) if value is None else value


def _str(payload: dict[str, Any], camel: str, snake: str) -> str | None:
    value = _field(payload, camel, snake)
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float | bool):
        return str(value)
    raise HookInputError(f"field {camel!r} should be a string")


def shell_result(text: str) -> tuple[str, int | None]:
    """(output, exit code) of a shell tool's result text: Copilot ends it with
    `<shellId: N completed with exit code K>`, which is cut off here."""
    head, sep, tail = text.rpartition(SHELL_TRAILER)
    if not sep or "\n" in tail or not tail.endswith(">"):
        return text, None
    words = tail[:-1].split()
    code = words[-1] if words else ""
    if len(words) < 2 or words[-2:-1] != ["code"] or not code.lstrip("-").isdigit():
        return text, None
    return head.rstrip("\n"), int(code)


def tool_fields(payload: dict[str, Any], event: str) -> dict[str, Any]:
    tool = _str(payload, "toolName", "tool_name")
    tool_input = _field(payload, "toolArgs", "tool_input")
    fields: dict[str, Any] = {"tool": tool, "input": tool_input}
    if tool in EDIT_TOOLS and isinstance(tool_input, dict):
        path = tool_input.get("path") or tool_input.get("file_path")
        if isinstance(path, str) and path:
            fields["files"] = [path]
    if event == "PostToolUseFailure":
        error = payload.get("error")
        fields["error"] = error if isinstance(error, str) else as_text(error)
        return fields
    if event != "PostToolUse":
        return fields
    result = _field(payload, "toolResult", "tool_result")
    if not isinstance(result, dict):
        if result is not None and tool not in CONTENT_TOOLS:
            fields["output"] = as_text(result)
        return fields
    kind = _str(result, "resultType", "result_type")
    text = _field(result, "textResultForLlm", "text_result_for_llm")
    if kind not in (None, "success"):
        fields["reason"] = kind
        fields["error"] = text if isinstance(text, str) else as_text(text)
        return fields
    if tool in CONTENT_TOOLS:
        return fields
    if isinstance(text, str) and tool in SHELL_TOOLS:
        fields["output"], fields["exit_code"] = shell_result(text)
    else:
        fields["output"] = as_text(text)
    return fields


def normalise(payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
    native = payload.get("hook_event_name")
    if not isinstance(native, str) or not native:
        raise HookInputError(
            "no event name: Copilot sends none, the installed command must pass --event"
        )
    if native in NOISE:
        return None
    session = _str(payload, "sessionId", "session_id")
    if not session:
        raise HookInputError("missing or non-string field 'sessionId'")
    event = CANONICAL.get(native, "Other")
    parent = _str(payload, "parentAgentId", "parent_agent_id")
    agent = None
    if parent and parent != session:  # inside a subagent: its session is its own agent id
        if event not in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
            return None
        session = parent
        agent = _str(payload, "agentType", "agent_type") or _str(payload, "agentName", "agent_name")
    fields: dict[str, Any] = {
        "session": session,
        "event": event,
        "native_event": native,
        "cwd": opt_str(payload, "cwd") or env.get("COPILOT_PROJECT_DIR"),
        "agent": agent,
    }
    if event == "SessionStart":
        fields["source"] = opt_str(payload, "source")
    elif event == "UserPromptSubmit":
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise HookInputError(f"{native} without a string 'prompt'")
        fields["prompt"] = prompt
    elif event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
        fields.update(tool_fields(payload, event))
    elif event == "Stop":
        fields["reason"] = _str(payload, "stopReason", "stop_reason")
        transcript = _field(payload, "transcriptPath", "transcript_path")
        if isinstance(transcript, str) and transcript:
            fields["message"] = final_answer(transcript)
    elif event == "SubagentStop":
        fields["message"] = opt_str(payload, "response")
        fields["agent"] = _str(payload, "agentType", "agent_type") or _str(
            payload, "agentName", "agent_name"
        )
    elif event == "PreCompact":
        fields["trigger"] = opt_str(payload, "trigger")
    elif event == "Notification":
        fields["message"] = opt_str(payload, "message")
    else:
        fields["reason"] = opt_str(payload, "reason") or opt_str(payload, "errorContext")
        error = payload.get("error")
        if isinstance(error, dict):  # errorOccurred: {message, name, stack}
            fields["message"] = opt_str(error, "message")
    return drop_none(fields)


def render(native_event: str, event: str, context: str | None) -> str | None:
    # Copilot reads only a top-level additionalContext, with either event-name case.
    if event in INJECTS:
        return additional_context(context)
    return None


# -- the answer, read back from the transcript -------------------------------------------------


def final_answer(path: str, wait: float | None = None) -> str | None:
    """The last answer of the current turn in a Copilot session's `events.jsonl`: the newest
    `assistant.message` with text that is not a subagent's, looked for back to the turn's
    `user.message`; None when there is none (or the file cannot be read).

    Copilot writes that log in batches, some milliseconds after it starts the agentStop hook
    (a new session's file may not exist yet): the log has caught up once it shows this hook's
    own `hook.start`, which is waited for, `wait` seconds at most (TRANSCRIPT_WAIT)."""
    import time

    give_up = time.monotonic() + (TRANSCRIPT_WAIT if wait is None else wait)
    while True:
        answer, caught_up = _last_answer(_tail_lines(path))
        if caught_up or time.monotonic() >= give_up:
            return answer
        time.sleep(TRANSCRIPT_POLL)


def _last_answer(lines: list[str]) -> tuple[str | None, bool]:
    """(the turn's last answer, whether the log already shows this turn's agentStop hook)."""
    caught_up = False
    answer = None
    for line in reversed(lines):
        if '"hook.start"' in line and '"agentStop"' in line and answer is None:
            caught_up = True
            continue
        if '"assistant.message"' not in line and '"user.message"' not in line:
            continue
        try:
            entry = fastjson.loads(line)
        except ValueError:
            continue
        data = entry.get("data") if isinstance(entry, dict) else None
        if not isinstance(data, dict):
            continue
        kind = entry.get("type")
        if kind == "user.message" and not str(data.get("source") or "").startswith("agent-"):
            break  # the turn began here
        if kind != "assistant.message" or data.get("parentToolCallId"):
            continue
        content = data.get("content")
        if isinstance(content, str) and content.strip():
            answer = content
            break
    return answer, caught_up


def _tail_lines(path: str) -> list[str]:
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):  # ValueError: a NUL in a path the payload gave
        return []
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return []
        start = max(0, info.st_size - TRANSCRIPT_TAIL)
        os.lseek(fd, start, os.SEEK_SET)
        data = os.read(fd, TRANSCRIPT_TAIL)
    except OSError:
        return []
    finally:
        os.close(fd)
    lines = data.decode("utf-8", "replace").split("\n")
    return lines[1:] if start > 0 else lines  # the first line of a tail is cut


# -- one event, one record -----------------------------------------------------------------------


def first_delivery(state_dir: str, payload: dict[str, Any], now: float) -> bool:
    """True for the first delivery of this event to this home, False for a repeat.

    Copilot runs user hooks and repository hooks alike: wired at both scopes, one event reaches
    wikimem twice with one payload (its `timestamp`, in milliseconds, taken when it fired). A
    payload without such a time is always first."""
    stamp = payload.get("timestamp")
    bucket = once.epoch_ms_hour(stamp) or once.iso_hour(stamp)
    if bucket is None:
        return True
    tool_input = _field(payload, "toolArgs", "tool_input")
    try:
        args = fastjson.dumps(tool_input) if tool_input is not None else ""
    except (ValueError, TypeError, RecursionError):
        return True
    key = "\0".join(
        (
            str(_field(payload, "sessionId", "session_id")),
            str(payload.get("hook_event_name")),
            str(stamp),
            str(_field(payload, "toolName", "tool_name") or ""),
            args,
        )
    )
    native = payload.get("hook_event_name")
    return once.first(
        state_dir, SEEN_DIR, key, bucket, now, prune=native in ("sessionStart", "SessionStart")
    )
