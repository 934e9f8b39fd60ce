"""Gemini CLI adapter (as seen with the real Gemini CLI 0.61.0).

Gemini names its events its own way: BeforeAgent is UserPromptSubmit, AfterTool is PostToolUse
(a failing shell command too: its exit code is a line inside `tool_response.llmContent`),
AfterAgent is Stop, and only a `manual` PreCompress is a PreCompact. BeforeModel, AfterModel,
BeforeToolSelection and the `auto` PreCompress that fires before every model call are noise:
never recorded (and not wired by `install`).

Three quirks of the real client are undone here:
  - the prompt of BeforeAgent starts with the SessionStart context Gemini prepended to it
    (`<hook_context>…</hook_context>`): it is cut off, so neither the record nor the prompt's
    search carries our own memory back;
  - AfterAgent's `prompt_response` is garbled when the answer streamed in several chunks (the
    chunks are repeated after it, joined by spaces); the answer is read back from the tail of
    the session transcript, and used only when it matches what Gemini reported;
  - one event can reach wikimem twice (wired by `wikimem install gemini` and by the Gemini
    extension, or through Claude Code hooks migrated into Gemini's settings): both deliveries
    carry the same payload, and `first_delivery` lets only one of them record and inject.

Hook-path module: standard library only.
"""

from __future__ import annotations

import os

from wikimem.capture import fastjson, once
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

CLIENT = "gemini"
CANONICAL = {
    "SessionStart": "SessionStart",
    "BeforeAgent": "UserPromptSubmit",
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "AfterAgent": "Stop",
    "PreCompress": "PreCompact",
    "SessionEnd": "SessionEnd",
    "Notification": "Notification",
}
NOISE = {"BeforeModel", "AfterModel", "BeforeToolSelection"}
# Events only Gemini CLI sends: a `wikimem hook claude` that receives one is running inside
# Gemini (Claude Code hooks migrated into Gemini's settings).
GEMINI_ONLY = {"BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool", "PreCompress", *NOISE}
# Events only Claude Code sends (SessionStart, SessionEnd and Notification are both clients').
CLAUDE_ONLY = {
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
}
INJECTS = ("SessionStart", "BeforeAgent")
SHELL_TOOL = "run_shell_command"
EDIT_TOOLS = ("replace", "write_file")
CONTENT_TOOLS = ("read_file", "read_many_files")  # outputs are file contents: never recorded
CONTEXT_OPEN = "<hook_context>"
CONTEXT_CLOSE = "</hook_context>"
UNTRUSTED_OPEN = "<untrusted_context>\n"
UNTRUSTED_CLOSE = "\n</untrusted_context>"
SHELL_TAIL = ("Process Group PGID: ", "Background PIDs: ", "Signal: ", "Exit Code: ")
TRANSCRIPT_TAIL = 256 * 1024  # how much of a transcript is read back for the last answer
SEEN_DIR = "gemini-seen"


def sent_by_gemini(payload: dict[str, Any], env: Mapping[str, str]) -> bool:
    """Gemini CLI sets GEMINI_SESSION_ID to the payload's own session id for every hook it runs.
    A Claude Code started from a Gemini shell inherits the variable, but its payloads carry its
    own session id; and Gemini's hooks also see CLAUDE_PROJECT_DIR, which therefore proves
    nothing either way."""
    sid = env.get("GEMINI_SESSION_ID")
    if sid:
        return sid == payload.get("session_id")
    return payload.get("hook_event_name") in GEMINI_ONLY


def strip_hook_context(prompt: str) -> str:
    """The prompt without the hook context Gemini prepended to it (`<` and `>` inside that
    context are escaped by Gemini, so the first closing tag is the real end)."""
    text = prompt
    while text.startswith(CONTEXT_OPEN):
        end = text.find(CONTEXT_CLOSE)
        if end < 0:
            break
        text = text[end + len(CONTEXT_CLOSE) :].lstrip("\n")
    return text


def shell_result(llm_content: str) -> tuple[str, int | None, str | None]:
    """(output, exit code, signal) of a run_shell_command result. Gemini reports
    `Output: …` then `Exit Code: N` (only when not 0), `Signal: …` and the process group, all
    inside `<untrusted_context>`; a cancelled or backgrounded command has no exit code."""
    text = llm_content
    if text.startswith(UNTRUSTED_OPEN) and text.endswith(UNTRUSTED_CLOSE):
        text = text[len(UNTRUSTED_OPEN) : -len(UNTRUSTED_CLOSE)]
    if not text.startswith("Output: "):
        return text, None, None
    lines = text[len("Output: ") :].split("\n")
    code: int | None = 0
    signal: str | None = None
    while len(lines) > 1 and lines[-1].startswith(SHELL_TAIL):
        line = lines.pop()
        if line.startswith("Exit Code: "):
            value = line[len("Exit Code: ") :].strip()
            code = int(value) if value.lstrip("-").isdigit() else None
        elif line.startswith("Signal: "):
            signal = line[len("Signal: ") :].strip()
            code = None if code == 0 else code
    output = "\n".join(lines)
    return ("" if output == "(empty)" else output), code, signal


def tool_fields(payload: dict[str, Any]) -> dict[str, Any]:
    tool = opt_str(payload, "tool_name")
    tool_input = payload.get("tool_input")
    fields: dict[str, Any] = {"tool": tool, "input": tool_input}
    if tool in EDIT_TOOLS and isinstance(tool_input, dict):
        path = tool_input.get("file_path")
        if isinstance(path, str) and path:
            fields["files"] = [path]
    response = payload.get("tool_response")
    if not isinstance(response, dict):
        if response is not None and tool not in CONTENT_TOOLS:
            fields["output"] = as_text(response)
        return fields
    error = response.get("error")
    if isinstance(error, dict):
        fields["error"] = opt_str(error, "message") or as_text(error)
    elif isinstance(error, str) and error:
        fields["error"] = error
    content = response.get("llmContent")
    if tool == SHELL_TOOL and isinstance(content, str):
        fields["output"], fields["exit_code"], signal = shell_result(content)
        if signal:
            fields["reason"] = f"signal {signal}"
    elif tool not in CONTENT_TOOLS:
        fields["output"] = as_text(content)
    return fields


def normalise(payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
    native = require_str(payload, "hook_event_name")
    if native in NOISE:
        return None
    if native == "PreCompress" and payload.get("trigger") != "manual":
        return None  # `auto` fires before every model call, compressing or not
    session = require_str(payload, "session_id")
    event = CANONICAL.get(native, "Other")
    fields: dict[str, Any] = {
        "session": session,
        "event": event,
        "native_event": native,
        "cwd": opt_str(payload, "cwd") or env.get("GEMINI_CWD"),
    }
    if native == "SessionStart":
        fields["source"] = opt_str(payload, "source")
    elif native == "BeforeAgent":
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise HookInputError("BeforeAgent without a string 'prompt'")
        fields["prompt"] = strip_hook_context(prompt)
    elif native in ("BeforeTool", "AfterTool"):
        fields.update(tool_fields(payload))
        if native == "BeforeTool":
            fields.pop("output", None)
    elif native == "AfterAgent":
        reported = opt_str(payload, "prompt_response")
        transcript = payload.get("transcript_path")
        if reported and isinstance(transcript, str) and transcript:
            reported = final_answer(transcript, reported)
        fields["message"] = reported
    elif native == "PreCompress":
        fields["trigger"] = opt_str(payload, "trigger")
    elif native == "SessionEnd" or event == "Other":
        fields["reason"] = opt_str(payload, "reason")
    elif native == "Notification":
        fields["message"] = opt_str(payload, "message")
    return drop_none(fields)


def render(native_event: str, event: str, context: str | None) -> str | None:
    # Gemini reads additionalContext from SessionStart and BeforeAgent and ignores
    # hookEventName; `<`/`>` in it arrive escaped, inside its own <hook_context> wrapper.
    if native_event in INJECTS:
        return hook_specific_output(native_event, context)
    return None


# -- the answer, read back from the transcript -------------------------------------------------


def final_answer(transcript_path: str, reported: str) -> str:
    """The answer of the last turn as the transcript has it, when it agrees with `reported`
    (which starts with the first of the turn's texts, each followed by repeated chunks when it
    was streamed); else `reported` unchanged."""
    texts = _last_turn_texts(transcript_path)
    if not texts or not reported.startswith(texts[0]):
        return reported
    at = 0
    for text in texts:  # every text, in order: the transcript is this very turn
        at = reported.find(text, at)
        if at < 0:
            return reported
        at += len(text)
    return "\n".join(texts)


def _last_turn_texts(path: str) -> list[str]:
    """Texts of the model's messages after the last user prompt, oldest first, from the last
    TRANSCRIPT_TAIL bytes of a Gemini chat file (JSON lines; a message rewritten later repeats
    its id, and the last version counts)."""
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
    if start > 0:
        lines = lines[1:]  # the first line is cut
    seen: set[str] = set()
    texts: list[str] = []
    for line in reversed(lines):
        if '"type"' not in line:
            continue
        try:
            message = fastjson.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "user" and _is_prompt(message.get("content")):
            break
        ident = message.get("id")
        if kind != "gemini" or (isinstance(ident, str) and ident in seen):
            continue
        if isinstance(ident, str):
            seen.add(ident)
        content = message.get("content")
        if isinstance(content, str) and content:
            texts.append(content)
    texts.reverse()
    return texts


def _is_prompt(content: object) -> bool:
    """A user message that opens a turn (text), not one carrying tool results back."""
    if isinstance(content, str):
        return True
    if not isinstance(content, list):
        return False
    return any(isinstance(p, dict) and "text" in p for p in content)


# -- one event, one record -----------------------------------------------------------------------


def first_delivery(state_dir: str, payload: dict[str, Any], now: float) -> bool:
    """True for the first delivery of this event to this home, False for a repeat.

    Every hook Gemini runs for one event gets the same payload (one `timestamp`, taken when the
    event fired); a marker file created with O_EXCL under `state/gemini-seen/<hour>/` decides
    which delivery records and injects. A payload without a timestamp, or with one that is not
    Gemini's ISO time, is always first: the stamp is what tells two events apart, so a constant
    one (a hostile or broken client's) must not make later events pass for repeats."""
    stamp = payload.get("timestamp")
    bucket = once.iso_hour(stamp)
    if bucket is None:
        return True
    key = "\0".join(
        (
            str(payload.get("session_id")),
            str(payload.get("hook_event_name")),
            str(stamp),
            str(payload.get("tool_name") or ""),
            fastjson.dumps(payload.get("tool_input")) if "tool_input" in payload else "",
        )
    )
    return once.first(
        state_dir,
        SEEN_DIR,
        key,
        bucket,
        now,
        prune=payload.get("hook_event_name") == "SessionStart",
    )
