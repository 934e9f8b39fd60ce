"""Compact rendering of recorded events: the facts a consolidation needs, without the noise.

Contract: `render_session(s)` gives one line per meaningful event (prompts, the assistant's
final messages, one line per tool call with its outcome, files touched, errors, compaction
summaries); PreToolUse (PostToolUse carries the same call), session start/end bookkeeping and
notifications are dropped. `shell_outcome`, `shell_command` and `relative_path` are shared with
the offline backend so both read the events the same way.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from wikimem.dream.base import SessionEvents

SHELL_TOOLS = (
    "Bash",
    "Shell",
    "shell",
    "exec_command",
    "local_shell",
    "shell_command",
    "run_shell_command",  # Gemini CLI, Qwen Code
    "bash",  # GitHub Copilot CLI, OpenCode
    "powershell",  # GitHub Copilot CLI on Windows
    "run_command",  # Antigravity CLI (its argument is `CommandLine`)
)
EDIT_TOOLS = (
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "apply_patch",
    "Delete",
    "replace",  # Gemini CLI
    "write_file",
    "edit",  # GitHub Copilot CLI, OpenCode, Qwen Code
    "create",  # GitHub Copilot CLI
    "write",  # OpenCode
    "write_to_file",  # Antigravity CLI
    "replace_file_content",
    "multi_replace_file_content",
)
_CD_PREFIX = re.compile(r"^\s*cd\s+(?:\"[^\"]*\"|'[^']*'|\S+)\s*(?:&&|;)\s*")
_FAILURE_HINT = re.compile(
    r"(?im)^(?:.*\b(?:FAIL(?:ED|URE)?|ERROR|Error:|Traceback \(most recent call last\)|"
    r"command not found|No such file or directory|exit(?:ed)? (?:code|status) [1-9]\d*|"
    r"Process exited with code [1-9]\d*|npm ERR!|error\[E\d+\]|panicked at))"
)
_EXIT_CODE = re.compile(
    r"(?i)(?:exit(?:ed)? (?:code|status)|process exited with code)\D{0,3}(-?\d+)"
)
MAX_LINE = 400


def clip(text: str, n: int = MAX_LINE) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def shell_command(record: dict[str, Any]) -> str | None:
    """The shell command a tool event ran, without a leading `cd <dir> &&` (machine-specific)."""
    if record.get("tool") not in SHELL_TOOLS:
        return None
    data = record.get("input")
    command: Any = None
    if isinstance(data, dict):
        command = data.get("command") or data.get("cmd") or data.get("CommandLine")
        if isinstance(command, list):
            command = " ".join(str(c) for c in command)
    elif isinstance(data, str):
        command = data
    if not isinstance(command, str) or not command.strip():
        return None
    command = command.strip()
    while command.startswith("cd"):  # the pattern's own first word: most commands skip it
        stripped = _CD_PREFIX.sub("", command, count=1)
        if stripped == command:
            break
        command = stripped
    return " ".join(command.split())


def shell_outcome(record: dict[str, Any]) -> str:
    """ "ok", "failed" or "unknown" for a tool event."""
    if record.get("event") == "PostToolUseFailure":
        return "failed"
    if record.get("event") == "PostToolUse" and record.get("error"):
        return "failed"  # Gemini CLI reports a failed tool call inside its AfterTool
    code = record.get("exit_code")
    if isinstance(code, int):
        return "ok" if code == 0 else "failed"
    if record.get("event") != "PostToolUse":
        return "unknown"
    output = record.get("output")
    return _outcome_of_output(output) if isinstance(output, str) else "ok"


@functools.lru_cache(maxsize=1024)  # the digest, the pitfalls and the commands each ask it
def _outcome_of_output(output: str) -> str:
    """ "ok" or "failed" as a tool's output says it (its exit code, its own counts, a hint)."""
    m = _EXIT_CODE.search(output)
    if m:
        return "ok" if m.group(1) == "0" else "failed"
    counted = _counted_failures(output)
    if counted is not None:
        return "failed" if counted else "ok"
    if _FAILURE_HINT.search(output):
        return "failed"
    return "ok"


# What a tool says of its own failures, counted: "FAIL=0", "0 failed", "3 checks, 0 errors",
# "failures: 2", "ERROR=1". Read before any word: "FAIL=0" is a pass.
_COUNT_AFTER = re.compile(r"(?i)\b(?:fail(?:ed|ures?|s)?|errors?|errored|broken)\s*[=:]\s*(\d+)\b")
_COUNT_BEFORE = re.compile(
    r"(?i)(?<![=:])\b(\d+)\s+(?:fail(?:ed|ures?|ing|s)?|errors?|errored|broken)\b(?!\s*[=:])"
)


def _counted_failures(output: str) -> int | None:
    """The failures a tool's output counts itself (None when it counts none)."""
    found = [int(m.group(1)) for m in _COUNT_AFTER.finditer(output)]
    found += [int(m.group(1)) for m in _COUNT_BEFORE.finditer(output)]
    return sum(found) if found else None


def error_excerpt(record: dict[str, Any], n: int = 240) -> str:
    """The most telling lines of a failure: from the first that names an error (with the line
    after it, which usually says why), else the last line."""
    text = record.get("error") or record.get("output") or ""
    if not isinstance(text, str):
        return ""
    lines = [
        ln.strip()
        for ln in text.splitlines()
        if ln.strip() and not ln.strip().startswith("[stderr]")
    ]
    lines = [ln for ln in lines if not re.fullmatch(r"(?i)exit code -?\d+", ln)] or lines
    for i, ln in enumerate(lines):
        if _FAILURE_HINT.search(ln) or "error" in ln.lower():
            return clip(" — ".join(lines[i : i + 2]), n)
    return clip(lines[-1], n) if lines else ""


def relative_path(path: str, cwd: str | None) -> str:
    """A file path relative to the session's cwd when under it (clones differ in location)."""
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path


def touched_files(record: dict[str, Any]) -> list[str]:
    files = record.get("files")
    if not isinstance(files, list):
        return []
    cwd = record.get("cwd") if isinstance(record.get("cwd"), str) else None
    return [relative_path(f, cwd) for f in files if isinstance(f, str)]


def _time(record: dict[str, Any]) -> str:
    ts = str(record.get("ts", ""))
    return ts[11:16] if len(ts) >= 16 else "--:--"


def render_event(record: dict[str, Any]) -> str | None:
    event = record.get("event")
    at = f"[{_time(record)}]"
    if event == "UserPromptSubmit" and isinstance(record.get("prompt"), str):
        return f"{at} user: {clip(record['prompt'], 1200)}"
    if event in ("Stop", "SubagentStop", "AssistantMessage") and isinstance(
        record.get("message"), str
    ):
        who = "subagent" if event == "SubagentStop" else "assistant"
        return f"{at} {who}: {clip(record['message'], 1200)}"
    if event in ("PostToolUse", "PostToolUseFailure"):
        command = shell_command(record)
        outcome = shell_outcome(record)
        if command:
            line = f"{at} ran `{clip(command, 200)}` → {outcome}"
            if outcome == "failed":
                excerpt = error_excerpt(record)
                if excerpt:
                    line += f": {excerpt}"
            return line
        files = touched_files(record)
        tool = record.get("tool", "tool")
        if files:
            verb = "failed to edit" if outcome == "failed" else "edited"
            return f"{at} {verb} {', '.join(files[:5])} ({tool})"
        if outcome == "failed":
            return f"{at} {tool} failed: {error_excerpt(record)}"
        return None  # reads, searches: noise
    if event == "PostCompact" and isinstance(record.get("summary"), str):
        return f"{at} context compacted; summary: {clip(record['summary'], 800)}"
    if event == "Other" and record.get("reason") in ("user", "interrupt"):
        return f"{at} user interrupted the turn"
    return None


def session_header(s: SessionEvents) -> str:
    first = str(s.events[0].get("ts", ""))[:16].replace("T", " ") if s.events else ""
    # The full id too: sources may share their first 8 characters, an `about` names one session
    return f"### session {s.source} ({s.client}, started {first} UTC; id {s.session})"


def render_session(s: SessionEvents) -> list[str]:
    """The session's header and events; each prompt numbered `user (turn N)`, the number an
    `about` operation names (`wikimem.dream.digest.turns_of` counts prompts the same way)."""
    lines: list[str] = []
    turn = 0
    for record in s.events:
        line = render_event(record)
        if not line:
            continue
        if is_prompt(record):
            turn += 1
            line = line.replace(" user: ", f" user (turn {turn}): ", 1)
        lines.append(line)
    return [session_header(s), *lines] if lines else []


def is_prompt(record: dict[str, Any]) -> bool:
    return record.get("event") == "UserPromptSubmit" and isinstance(record.get("prompt"), str)
