"""Realistic hook payload sequences for scenario tests (shapes from tests/fixtures/payloads)."""

from __future__ import annotations

from typing import Any


def claude_session(sid: str, cwd: str, turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A Claude Code session. Each turn: {"prompt", "commands": [(cmd, ok, output)], "edits": [file],
    "answer"}."""
    base = {"session_id": sid, "cwd": cwd, "transcript_path": f"/tmp/{sid}.jsonl"}
    out: list[dict[str, Any]] = [{**base, "hook_event_name": "SessionStart", "source": "startup"}]
    for t in turns:
        out.append({**base, "hook_event_name": "UserPromptSubmit", "prompt": t["prompt"]})
        for step in t.get("steps", []):
            if step[0] == "run":
                _, cmd, ok, output = step
                if ok:
                    out.append(
                        {
                            **base,
                            "hook_event_name": "PostToolUse",
                            "tool_name": "Bash",
                            "tool_input": {"command": cmd},
                            "tool_response": {"stdout": output, "stderr": "", "interrupted": False},
                        }
                    )
                else:
                    out.append(
                        {
                            **base,
                            "hook_event_name": "PostToolUseFailure",
                            "tool_name": "Bash",
                            "tool_input": {"command": cmd},
                            "error": f"Exit code 1\n{output}",
                        }
                    )
            elif step[0] == "edit":
                path = f"{cwd}/{step[1]}"
                out.append(
                    {
                        **base,
                        "hook_event_name": "PostToolUse",
                        "tool_name": "Edit",
                        "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"},
                        "tool_response": {"filePath": path, "success": True},
                    }
                )
        out.append(
            {
                **base,
                "hook_event_name": "Stop",
                "stop_hook_active": False,
                "last_assistant_message": t.get("answer", "Done."),
            }
        )
    out.append({**base, "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"})
    return out


def codex_session(sid: str, cwd: str, turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    base = {"session_id": sid, "cwd": cwd, "transcript_path": None, "model": "gpt-5.5"}
    out: list[dict[str, Any]] = [{**base, "hook_event_name": "SessionStart", "source": "startup"}]
    for i, t in enumerate(turns):
        turn = {**base, "turn_id": f"turn-{i}"}
        out.append({**turn, "hook_event_name": "UserPromptSubmit", "prompt": t["prompt"]})
        for step in t.get("steps", []):
            if step[0] == "run":
                _, cmd, ok, output = step
                text = output if ok else f"{output}\nProcess exited with code 1"
                out.append(
                    {
                        **turn,
                        "hook_event_name": "PostToolUse",
                        "tool_name": "Bash",
                        "tool_input": {"command": cmd},
                        "tool_response": text,
                    }
                )
            elif step[0] == "edit":
                patch = f"*** Begin Patch\n*** Update File: {cwd}/{step[1]}\n@@\n-a\n+b\n*** End Patch\n"
                out.append(
                    {
                        **turn,
                        "hook_event_name": "PostToolUse",
                        "tool_name": "apply_patch",
                        "tool_input": {"command": patch},
                        "tool_response": "Success.",
                    }
                )
        out.append(
            {
                **turn,
                "hook_event_name": "Stop",
                "stop_hook_active": False,
                "last_assistant_message": t.get("answer", "Done."),
            }
        )
    out.append({**base, "hook_event_name": "SessionEnd", "reason": "other"})
    return out
