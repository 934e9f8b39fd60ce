"""`wikimem demo`: a recorded multi-harness scenario, run end to end in a temporary home.

Contract: needs no API key and no network. It creates a throwaway home and two clones of one
project (same remote, different paths), replays real-shaped hook payloads from Claude Code, Codex,
Cursor and Gemini CLI through the actual hook entry point (a subprocess per event, as a harness would run
it), and returns what happened at each step so the CLI can show it. The user's own home is never
touched.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from wikimem import gitrun
from wikimem.dream.offline import OfflineBackend
from wikimem.dream.runner import run_dream
from wikimem.home import Home
from wikimem.layout import init_home
from wikimem.setup.install import hook_command

REMOTE = "git@github.com:acme/api.git"


@dataclass
class Step:
    client: str
    event: str
    summary: str
    output: str = ""


@dataclass
class DemoResult:
    home: str
    steps: list[Step] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def _claude(session: str, cwd: str) -> list[dict[str, Any]]:
    base = {"session_id": session, "cwd": cwd, "transcript_path": f"/tmp/{session}.jsonl"}
    return [
        {**base, "hook_event_name": "SessionStart", "source": "startup"},
        {
            **base,
            "hook_event_name": "UserPromptSubmit",
            "prompt": "We use pnpm, never npm, in this repo. Remember that the staging database "
            "listens on port 5433. Now fix the failing auth test.",
        },
        {
            **base,
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "pnpm install"},
            "tool_response": {"stdout": "Done in 2.1s", "stderr": "", "interrupted": False},
        },
        {
            **base,
            "hook_event_name": "PostToolUseFailure",
            "tool_name": "Bash",
            "tool_input": {"command": "pnpm test"},
            "error": "Exit code 1\nFAIL src/auth.test.ts\n  TOKEN_TTL 3600 exceeds the OAuth2 provider maximum (900)",
        },
        {
            **base,
            "hook_event_name": "PostToolUse",
            "tool_name": "Edit",
            "tool_input": {
                "file_path": f"{cwd}/src/auth.ts",
                "old_string": "const TOKEN_TTL = 3600;",
                "new_string": "const TOKEN_TTL = 900;",
            },
            "tool_response": {"filePath": f"{cwd}/src/auth.ts", "success": True},
        },
        {
            **base,
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "pnpm test"},
            "tool_response": {
                "stdout": "PASS src/auth.test.ts (3 tests)",
                "stderr": "",
                "interrupted": False,
            },
        },
        {
            **base,
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {
                "command": "curl -H 'Authorization: Bearer sk-demo0000000000000000000000000' https://staging.acme.dev/health"
            },
            "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False},
        },
        {
            **base,
            "hook_event_name": "Stop",
            "stop_hook_active": False,
            "last_assistant_message": "The auth test failed because TOKEN_TTL (3600) exceeded the OAuth2 "
            "provider maximum of 900 seconds; I lowered it in src/auth.ts and "
            "`pnpm test` passes.",
        },
        {**base, "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"},
    ]


def _codex(session: str, cwd: str) -> list[dict[str, Any]]:
    base = {"session_id": session, "cwd": cwd, "transcript_path": None, "model": "gpt-5.5"}
    return [
        {**base, "hook_event_name": "SessionStart", "source": "startup"},
        {
            **base,
            "hook_event_name": "UserPromptSubmit",
            "turn_id": "t1",
            "prompt": "How do I run the tests in this project, and which port is the staging database on?",
        },
        {
            **base,
            "hook_event_name": "PostToolUse",
            "turn_id": "t1",
            "tool_name": "Bash",
            "tool_input": {"command": "pnpm test"},
            "tool_response": "PASS src/auth.test.ts (3 tests)\n",
        },
        {
            **base,
            "hook_event_name": "Stop",
            "turn_id": "t1",
            "stop_hook_active": False,
            "last_assistant_message": "Run `pnpm test`; staging's database is on port 5433.",
        },
        {**base, "hook_event_name": "SessionEnd", "reason": "other"},
    ]


def _cursor(session: str, cwd: str) -> list[dict[str, Any]]:
    base = {
        "conversation_id": session,
        "generation_id": "g1",
        "workspace_roots": [cwd],
        "cursor_version": "3.12.17",
        "model": "claude-opus-4-7",
        "user_email": None,
    }
    return [
        {
            **base,
            "hook_event_name": "sessionStart",
            "session_id": session,
            "is_background_agent": False,
        },
        {
            **base,
            "hook_event_name": "beforeSubmitPrompt",
            "prompt": "Add a refresh-token test",
            "attachments": [],
        },
        {**base, "hook_event_name": "afterAgentResponse", "text": "Added tests/refresh.test.ts."},
        {**base, "hook_event_name": "sessionEnd", "session_id": session, "reason": "completed"},
    ]


def _gemini(session: str, cwd: str) -> list[dict[str, Any]]:
    base = {
        "session_id": session,
        "transcript_path": f"/tmp/gemini/chats/session-{session[:8]}.jsonl",
        "cwd": cwd,
    }
    clock = iter(range(10, 60))

    def at() -> str:
        return f"2026-11-30T09:15:{next(clock):02d}.000Z"

    command = {"command": "pnpm test", "description": "Run the test suite"}
    return [
        {**base, "hook_event_name": "SessionStart", "timestamp": at(), "source": "startup"},
        {
            **base,
            "hook_event_name": "BeforeAgent",
            "timestamp": at(),
            "prompt": "How did we check the staging health endpoint last time? "
            "The auth test fails again.",
        },
        # what Gemini sends before every model call: noise, never recorded
        {**base, "hook_event_name": "PreCompress", "timestamp": at(), "trigger": "auto"},
        {
            **base,
            "hook_event_name": "AfterTool",
            "timestamp": at(),
            "tool_name": "run_shell_command",
            "tool_input": command,
            "tool_response": {
                "llmContent": "<untrusted_context>\nOutput: FAIL src/auth.test.ts\n  TOKEN_TTL 3600 "
                "exceeds the OAuth2 provider maximum (900)\nExit Code: 1\nProcess Group PGID: 4121"
                "\n</untrusted_context>",
                "returnDisplay": "FAIL src/auth.test.ts",
            },
        },
        {
            **base,
            "hook_event_name": "AfterAgent",
            "timestamp": at(),
            "prompt": "How did we check the staging health endpoint last time? "
            "The auth test fails again.",
            "prompt_response": "TOKEN_TTL was set back to 3600 on this branch; the provider "
            "allows at most 900 seconds, as fixed before in src/auth.ts.",
            "stop_hook_active": False,
        },
        {**base, "hook_event_name": "SessionEnd", "timestamp": at(), "reason": "exit"},
    ]


@contextmanager
def demo_workspace() -> Iterator[tuple[Home, str, str]]:
    """A temporary home plus two clones (different paths) of the same project."""
    with tempfile.TemporaryDirectory(prefix="wikimem-demo-") as tmp:
        home = Home(os.path.join(tmp, "home"))
        clones = []
        for name in ("work/acme-api", "laptop/src/api-checkout"):
            path = os.path.join(tmp, name)
            os.makedirs(path)
            # (gitrun: the person's hooks and templates' hooks do not run)
            for args in (("init", "-q"), ("remote", "add", "origin", REMOTE)):
                done = gitrun.run(path, *args)
                if done.returncode != 0:
                    raise subprocess.CalledProcessError(done.returncode, args)
            clones.append(path)
        yield home, clones[0], clones[1]


def replay(
    home: Home, client: str, payloads: list[dict[str, Any]], on_step: Callable[[Step], None]
) -> None:
    """Each payload through the installed hook command, as the harness would run it."""
    command = shlex.split(hook_command(client, home))
    for payload in payloads:
        proc = subprocess.run(
            command,
            input=json.dumps(payload).encode(),
            capture_output=True,
            timeout=30,
            check=False,
            cwd=payload.get("cwd") or (payload.get("workspace_roots") or [None])[0],
        )
        output = proc.stdout.decode("utf-8", "replace")
        on_step(Step(client, payload["hook_event_name"], _summary(payload), output))


def _summary(payload: dict[str, Any]) -> str:
    if "prompt_response" in payload:
        return f"answer: {payload['prompt_response']}"
    if "prompt" in payload:
        return f"prompt: {payload['prompt']}"
    if payload.get("trigger") == "auto":
        return "(fires before every model call: not recorded)"
    if "tool_input" in payload:
        response = str(payload.get("tool_response"))
        failed = payload["hook_event_name"] == "PostToolUseFailure" or "Exit Code: " in response
        status = "failed" if failed else "ran"
        detail = payload["tool_input"].get("command") or payload["tool_input"].get("file_path", "")
        return f"{payload.get('tool_name')} {status}: {detail}"
    if "last_assistant_message" in payload:
        return f"answer: {payload['last_assistant_message']}"
    if "text" in payload:
        return f"answer: {payload['text']}"
    return ""


def run_demo(on_step: Callable[[Step], None], on_phase: Callable[[str], None]) -> DemoResult:
    with demo_workspace() as (home, clone_a, clone_b):
        init_home(home)
        result = DemoResult(home=home.root)

        def record(step: Step) -> None:
            result.steps.append(step)
            on_step(step)

        on_phase(f"Claude Code session in {clone_a}")
        replay(home, "claude", _claude("5e1d0c1a-demo-4e9b-9c21-5a6f0d8e4b17", clone_a), record)
        on_phase("wikimem dream (offline backend): consolidate what was recorded")
        dream = run_dream(home, OfflineBackend())
        result.extra["dream"] = {
            "events": dream.events,
            "created": dream.created,
            "commit": (dream.commit or "")[:10],
        }
        for path in dream.created:
            on_step(Step("wikimem", "dream", f"created {path}"))
        on_phase(f"Codex session in another clone of the same repository: {clone_b}")
        replay(home, "codex", _codex("019e0000-demo-7f30-9a8e-2b6c5d4e3f10", clone_b), record)
        on_phase("Cursor session")
        replay(home, "cursor", _cursor("8d1e4f2a-demo-4d6e-9f70-1a2b3c4d5e6f", clone_a), record)
        on_phase(f"Gemini CLI session in {clone_b}")
        replay(home, "gemini", _gemini("2c7e9a41-demo-4b8d-a6f3-7d0e1c5b9a28", clone_b), record)
        from wikimem.status import collect

        status = collect(home)
        result.extra["events"] = status.events_total
        result.extra["by_client"] = status.events_by_client
        result.extra["projects"] = sorted({s.project for s in status.sessions})
        with open(
            os.path.join(home.events_dir, os.listdir(home.events_dir)[0]), encoding="utf-8"
        ) as fh:
            text = fh.read()
        result.extra["secret_redacted"] = "sk-demo" not in text and "[REDACTED:" in text
        for rel in ("projects/acme-api/conventions.md", "projects/acme-api/pitfalls.md"):
            with open(os.path.join(home.memory_dir, rel), encoding="utf-8") as fh:
                result.extra[rel] = fh.read().split("---\n", 2)[-1].strip()
        return result
