"""Hook payloads shaped like each harness's real ones, and how each harness reads our answer.

Shapes follow the payloads the real clients sent (tests/fixtures/): only the events `wikimem
install` wires are sent (no PreToolUse), failing commands arrive the way each harness reports
them (Claude Code: PostToolUseFailure; Codex: PostToolUse with the failure in its output; Cursor:
postToolUse whose `tool_output` carries a non-zero `exitCode`; Gemini CLI: AfterTool with
`Exit Code: N` in `llmContent`).

Session ids are opaque and share prefixes on purpose (one digest per session even so): `proj-session_N` for Claude
Code, UUIDv7 ids with the same time bits for Codex, and UUIDs with a common head for Cursor and
Gemini CLI.

Adding a harness: write its `session`, `opening`, `injected` and `session_id` functions and add a
`ClientSpec` to `CLIENTS`; cases name clients by key.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Payload = dict[str, Any]


@dataclass(frozen=True)
class Run:
    """A shell command the agent ran, whether it exited 0, and what it printed."""

    command: str
    ok: bool = True
    output: str = ""


@dataclass(frozen=True)
class Edit:
    """A file the agent edited (relative to the project)."""

    path: str


Step = Run | Edit


@dataclass(frozen=True)
class Turn:
    """One prompt, the tool calls it led to, and the agent's final message.

    `model` holds what a good model would write into the wiki for this turn (see
    `scripted_model`); the offline backend never sees it."""

    prompt: str
    steps: tuple[Step, ...] = ()
    answer: str = "Done."
    model: tuple[Any, ...] = field(default=())


# -- Claude Code -----------------------------------------------------------------------------


def claude_session(sid: str, cwd: str, turns: Sequence[Turn]) -> list[Payload]:
    base = {
        "session_id": sid,
        "transcript_path": f"/home/user/.claude/projects/p/{sid}.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
    }
    out: list[Payload] = [
        {**base, "hook_event_name": "SessionStart", "source": "startup", "model": "claude-opus-4"}
    ]
    for i, t in enumerate(turns):
        out.append({**base, "hook_event_name": "UserPromptSubmit", "prompt": t.prompt})
        for j, step in enumerate(t.steps):
            use = f"toolu_{i:03d}_{j:04d}"
            if isinstance(step, Edit):
                path = f"{cwd}/{step.path}"
                out.append(
                    {
                        **base,
                        "hook_event_name": "PostToolUse",
                        "tool_name": "Edit",
                        "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"},
                        "tool_response": {"filePath": path, "success": True},
                        "tool_use_id": use,
                    }
                )
            elif step.ok:
                out.append(
                    {
                        **base,
                        "hook_event_name": "PostToolUse",
                        "tool_name": "Bash",
                        "tool_input": {"command": step.command, "description": "Run a command"},
                        "tool_response": {
                            "stdout": step.output,
                            "stderr": "",
                            "interrupted": False,
                            "isImage": False,
                        },
                        "tool_use_id": use,
                    }
                )
            else:
                out.append(
                    {
                        **base,
                        "hook_event_name": "PostToolUseFailure",
                        "tool_name": "Bash",
                        "tool_input": {"command": step.command, "description": "Run a command"},
                        "tool_use_id": use,
                        "error": f"Exit code 1\n{step.output}",
                        "is_interrupt": False,
                        "duration_ms": 420,
                    }
                )
        out.append(
            {
                **base,
                "hook_event_name": "Stop",
                "stop_hook_active": False,
                "last_assistant_message": t.answer,
            }
        )
    out.append({**base, "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"})
    return out


def claude_opening(sid: str, cwd: str, prompt: str) -> list[Payload]:
    return claude_session(sid, cwd, [Turn(prompt)])[:2]


def hook_specific_context(stdout: str) -> str:
    """`hookSpecificOutput.additionalContext` (Claude Code, Codex, Gemini CLI), or ''."""
    if not stdout.strip():
        return ""
    data = json.loads(stdout)
    return str(data.get("hookSpecificOutput", {}).get("additionalContext") or "")


# -- Codex CLI -------------------------------------------------------------------------------


def codex_session(sid: str, cwd: str, turns: Sequence[Turn]) -> list[Payload]:
    base = {
        "session_id": sid,
        "transcript_path": f"/home/user/.codex/sessions/2026/03/02/rollout-{sid}.jsonl",
        "cwd": cwd,
        "model": "gpt-5.5",
        "permission_mode": "bypassPermissions",
    }
    out: list[Payload] = [{**base, "hook_event_name": "SessionStart", "source": "startup"}]
    for i, t in enumerate(turns):
        turn = {**base, "turn_id": f"{sid[:24]}{i:012x}"}
        out.append({**turn, "hook_event_name": "UserPromptSubmit", "prompt": t.prompt})
        for j, step in enumerate(t.steps):
            call = f"call_{i:03d}_{j:04d}"
            if isinstance(step, Edit):
                patch = (
                    f"*** Begin Patch\n*** Update File: {cwd}/{step.path}\n@@\n-a\n+b\n"
                    "*** End Patch\n"
                )
                out.append(
                    {
                        **turn,
                        "hook_event_name": "PostToolUse",
                        "tool_name": "apply_patch",
                        "tool_input": {"command": patch},
                        "tool_response": "Success. Updated the following files:\nM "
                        + step.path
                        + "\n",
                        "tool_use_id": call,
                    }
                )
            else:
                # Codex reports a failing command as a PostToolUse whose output shows the failure
                # (observed/codex_PostToolUse_failing.json).
                text = step.output if step.ok else f"{step.output}\nProcess exited with code 1"
                out.append(
                    {
                        **turn,
                        "hook_event_name": "PostToolUse",
                        "tool_name": "Bash",
                        "tool_input": {"command": step.command},
                        "tool_response": text,
                        "tool_use_id": call,
                    }
                )
        out.append(
            {
                **turn,
                "hook_event_name": "Stop",
                "stop_hook_active": False,
                "last_assistant_message": t.answer,
            }
        )
    out.append({**base, "hook_event_name": "SessionEnd", "reason": "other"})
    return out


def codex_opening(sid: str, cwd: str, prompt: str) -> list[Payload]:
    return codex_session(sid, cwd, [Turn(prompt)])[:2]


# -- Cursor ----------------------------------------------------------------------------------


def cursor_session(sid: str, cwd: str, turns: Sequence[Turn]) -> list[Payload]:
    base = {
        "conversation_id": sid,
        "model": "claude-opus-4-7-thinking-max",
        "cursor_version": "3.12.17",
        "workspace_roots": [cwd],
        "user_email": "user@example.com",
        "transcript_path": f"/home/user/.cursor/projects/p/agent-transcripts/{sid}.jsonl",
    }
    out: list[Payload] = [
        {
            **base,
            "generation_id": f"{sid[:24]}{0:012x}",
            "hook_event_name": "sessionStart",
            "session_id": sid,
            "is_background_agent": False,
            "composer_mode": "agent",
        }
    ]
    for i, t in enumerate(turns):
        gen = {**base, "generation_id": f"{sid[:24]}{i + 1:012x}"}
        out.append(
            {**gen, "hook_event_name": "beforeSubmitPrompt", "prompt": t.prompt, "attachments": []}
        )
        for j, step in enumerate(t.steps):
            use = f"tool_{i:03d}_{j:04d}"
            if isinstance(step, Edit):
                path = f"{cwd}/{step.path}"
                out.append(
                    {
                        **gen,
                        "hook_event_name": "postToolUse",
                        "tool_name": "Edit",
                        "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"},
                        "tool_output": json.dumps({"success": True}),
                        "tool_use_id": use,
                        "cwd": cwd,
                        "duration": 12,
                    }
                )
            else:
                result = (
                    {"exitCode": 0, "stdout": step.output}
                    if step.ok
                    else {"exitCode": 1, "stdout": "", "stderr": step.output}
                )
                out.append(
                    {
                        **gen,
                        "hook_event_name": "postToolUse",
                        "tool_name": "Shell",
                        "tool_input": {"command": step.command, "working_directory": cwd},
                        "tool_output": json.dumps(result),
                        "tool_use_id": use,
                        "cwd": cwd,
                        "duration": 840,
                    }
                )
        out.append({**gen, "hook_event_name": "afterAgentResponse", "text": t.answer})
        out.append({**gen, "hook_event_name": "stop", "status": "completed", "loop_count": 0})
    out.append(
        {
            **base,
            "generation_id": f"{sid[:24]}{len(turns) + 1:012x}",
            "hook_event_name": "sessionEnd",
            "session_id": sid,
            "reason": "user_close",
            "duration_ms": 60000,
            "is_background_agent": False,
            "final_status": "completed",
        }
    )
    return out


def cursor_opening(sid: str, cwd: str, prompt: str) -> list[Payload]:
    return cursor_session(sid, cwd, [Turn(prompt)])[:2]


def cursor_context(stdout: str) -> str:
    """Cursor injects only at sessionStart (`additional_context`); beforeSubmitPrompt's answer
    is `{"continue": true}`."""
    if not stdout.strip():
        return ""
    return str(json.loads(stdout).get("additional_context") or "")


# -- Gemini CLI ------------------------------------------------------------------------------


def gemini_session(sid: str, cwd: str, turns: Sequence[Turn]) -> list[Payload]:
    base = {
        "session_id": sid,
        "transcript_path": f"/home/user/.gemini/tmp/project/chats/session-{sid[:8]}.jsonl",
        "cwd": cwd,
    }
    out: list[Payload] = [{**base, "hook_event_name": "SessionStart", "source": "startup"}]
    for t in turns:
        out.append({**base, "hook_event_name": "BeforeAgent", "prompt": t.prompt})
        for step in t.steps:
            if isinstance(step, Edit):
                out.append(
                    {
                        **base,
                        "hook_event_name": "AfterTool",
                        "tool_name": "replace",
                        "tool_input": {
                            "file_path": f"{cwd}/{step.path}",
                            "old_string": "a",
                            "new_string": "b",
                        },
                        "tool_response": {
                            "llmContent": f"Successfully modified file: {cwd}/{step.path}",
                            "returnDisplay": "ok",
                        },
                    }
                )
            else:
                code = 0 if step.ok else 1
                content = f"Output: {step.output}\n"
                if code:
                    content += f"Exit Code: {code}\n"
                out.append(
                    {
                        **base,
                        "hook_event_name": "AfterTool",
                        "tool_name": "run_shell_command",
                        "tool_input": {"command": step.command, "description": "run"},
                        "tool_response": {
                            "llmContent": f"<untrusted_context>\n{content}Process Group PGID: "
                            "12672\n</untrusted_context>",
                            "returnDisplay": step.output,
                        },
                    }
                )
        out.append(
            {
                **base,
                "hook_event_name": "AfterAgent",
                "prompt": t.prompt,
                "prompt_response": t.answer,
                "stop_hook_active": False,
            }
        )
    out.append({**base, "hook_event_name": "SessionEnd", "reason": "exit"})
    # Gemini CLI stamps each event when it fires; every hook run for one event shares it, and
    # wikimem records one delivery per (session, event, timestamp, tool call).
    for i, payload in enumerate(out):
        payload["timestamp"] = (
            f"2026-03-02T09:{i // 60000 % 60:02d}:{i // 1000 % 60:02d}.{i % 1000:03d}Z"
        )
    return out


def gemini_opening(sid: str, cwd: str, prompt: str) -> list[Payload]:
    return gemini_session(sid, cwd, [Turn(prompt)])[:2]


# -- the registry ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ClientSpec:
    name: str
    session: Callable[[str, str, Sequence[Turn]], list[Payload]]
    opening: Callable[[str, str, str], list[Payload]]  # session start + the first prompt
    injected: Callable[[str], str]  # the context a hook's stdout gives the agent
    session_id: Callable[[int], str]
    prompt_injects: bool  # whether the prompt hook can carry context at all


CLIENTS: dict[str, ClientSpec] = {
    "claude": ClientSpec(
        "claude",
        claude_session,
        claude_opening,
        hook_specific_context,
        lambda n: f"proj-session_{n}",
        True,
    ),
    "codex": ClientSpec(
        "codex",
        codex_session,
        codex_opening,
        hook_specific_context,
        lambda n: f"019d7a2e-6351-7{n:03x}-abfe-3ec6f9fa{n:04x}",
        True,
    ),
    "cursor": ClientSpec(
        "cursor",
        cursor_session,
        cursor_opening,
        cursor_context,
        lambda n: f"8d1e4f2a-3b5c-4d6e-9f70-{n:012x}",
        False,
    ),
    "gemini": ClientSpec(
        "gemini",
        gemini_session,
        gemini_opening,
        hook_specific_context,
        lambda n: f"46273cfa-b29d-4627-b60a-{n:012x}",
        True,
    ),
}
