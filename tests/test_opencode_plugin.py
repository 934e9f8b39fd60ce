"""wikimem's OpenCode plugin (integrations/opencode/wikimem.js) under node, driven the way OpenCode
drives a plugin (inputs shaped on tests/fixtures/observed/opencode/native), against a fake hook
command: what it sends, where the memory goes, and that nothing can make it throw or hang.

The plugin runs inside OpenCode's Bun; node runs the same module here (both provide
node:child_process). The real OpenCode runs it in tests/e2e/test_opencode.py."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from wikimem.setup import opencodeplugin

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

FAKE_HOOK = textwrap.dedent(
    """
    import json, os, sys, time
    raw = sys.stdin.read()
    payload = json.loads(raw)
    with open(os.environ["FAKE_LOG"], "a") as fh:
        fh.write(raw + "\\n")
    mode = os.environ.get("FAKE_MODE", "answer")
    event = payload["hook_event_name"]
    if mode == "crash":
        sys.stderr.write("Traceback: boom\\n")
        sys.exit(1)
    if mode == "garbage":
        print("this is not json {")
    elif mode == "hang":
        time.sleep(30)
    elif mode == "huge":
        sys.stdout.write(json.dumps({"additionalContext": "x" * 3_000_000}))
    elif event in ("SessionStart", "UserPromptSubmit"):
        print(json.dumps({"additionalContext": "MEMORY for " + event}))
    """
)

# Drives the plugin like OpenCode: calls hooks in the order a run makes, prints what changed.
DRIVER = textwrap.dedent(
    """
    import { WikimemPlugin } from "./plugin.mjs"
    const steps = JSON.parse(process.argv[2])
    const base = process.argv[3]
    const out = []
    const instances = {}
    for (const step of steps) {
      const dir = base + "/" + (step.directory || "project")
      if (!instances[dir + (step.copy || "")]) instances[dir + (step.copy || "")] = await WikimemPlugin({ directory: dir })
      const hooks = instances[dir + (step.copy || "")]
      const fn = hooks[step.hook]
      if (!fn) { out.push({ hook: step.hook, missing: true }); continue }
      const started = Date.now()
      let threw = null
      try { await fn(step.input, step.output) } catch (e) { threw = String(e) }
      out.push({ hook: step.hook, threw, output: step.output ?? null, ms: Date.now() - started })
    }
    console.log(JSON.stringify(out))
    """
)


def plugin_source(argv: list[str], wait_ms: int | None = None) -> str:
    text = opencodeplugin.render(argv)
    if wait_ms is not None:  # shorter waits, for the test of a hook that hangs
        text = text.replace("const DEFAULT_WAIT_MS = 5000", f"const DEFAULT_WAIT_MS = {wait_ms}")
        text = text.replace(
            "const WAIT_MS = { SessionStart: 10000, UserPromptSubmit: 10000 }",
            f"const WAIT_MS = {{ SessionStart: {wait_ms}, UserPromptSubmit: {wait_ms} }}",
        )
    return text


def drive(
    tmp_path: Path,
    steps: list[dict[str, Any]],
    mode: str = "answer",
    argv: list[str] | None = None,
    wait_ms: int | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(each step's result, the payloads the hook command received)."""
    hook = tmp_path / "fake_hook.py"
    hook.write_text(FAKE_HOOK)
    log = tmp_path / "payloads.jsonl"
    (tmp_path / "plugin.mjs").write_text(
        plugin_source(argv or [sys.executable, str(hook)], wait_ms)
    )
    (tmp_path / "drive.mjs").write_text(DRIVER)
    for name in ("project", "other"):
        (tmp_path / name).mkdir(exist_ok=True)
    proc = subprocess.run(
        [str(NODE), str(tmp_path / "drive.mjs"), json.dumps(steps), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "FAKE_LOG": str(log), "FAKE_MODE": mode},
    )
    assert proc.returncode == 0, proc.stderr
    sent = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return json.loads(proc.stdout), sent


SID = "ses_dc877c0d5ffe3YqM67PRzAHyE1"
MSG = "msg_237884193001IExQhHDDZwDfbP"
PART = "prt_2378841b2001wgS6lBMS5Do5BA"


def event(kind: str, **props: Any) -> dict[str, Any]:
    return {"hook": "event", "input": {"event": {"type": kind, "properties": props}}}


def chat(session: str = SID, text: str = "Please run a quick check.") -> dict[str, Any]:
    return {
        "hook": "chat.message",
        "input": {"sessionID": session, "agent": "build", "messageID": MSG},
        "output": {
            "message": {"id": MSG, "role": "user", "sessionID": session},
            "parts": [
                {"type": "text", "text": text, "messageID": MSG, "sessionID": session, "id": PART}
            ],
        },
    }


def system(session: str = SID) -> dict[str, Any]:
    return {
        "hook": "experimental.chat.system.transform",
        "input": {"sessionID": session, "model": "mock-model"},
        "output": {"system": ["You are OpenCode."]},
    }


def tool_after(session: str = SID) -> dict[str, Any]:
    return {
        "hook": "tool.execute.after",
        "input": {
            "tool": "edit",
            "sessionID": session,
            "callID": "call_1",
            "args": {"filePath": "/work/a.txt", "oldString": "a", "newString": "b"},
        },
        "output": {
            "title": "a.txt",
            "output": "Edit applied successfully.",
            "metadata": {
                "diff": "-a\n+b\n",
                "truncated": False,
                "filediff": {"before": "whole file", "after": "whole file"},
            },
        },
    }


def answer(session: str = SID) -> list[dict[str, Any]]:
    reply = "msg_reply"
    return [
        event("message.updated", sessionID=session, info={"id": reply, "role": "assistant"}),
        event(
            "message.part.updated",
            sessionID=session,
            part={"type": "text", "text": "Done: tests", "messageID": reply, "id": "prt_a"},
        ),
        event(
            "message.part.updated",
            sessionID=session,
            part={"type": "text", "text": "Done: tests pass.", "messageID": reply, "id": "prt_a"},
        ),
    ]


def test_a_run_sends_each_event_and_places_the_memory(tmp_path: Path) -> None:
    steps = [
        event("session.created", sessionID=SID, info={"id": SID}),
        chat(),
        system(),
        tool_after(),
        {
            "hook": "experimental.session.compacting",
            "input": {"sessionID": SID},
            "output": {"context": []},
        },
        *answer(),
        event("session.idle", sessionID=SID),
        system(),
    ]
    results, sent = drive(tmp_path, steps)
    assert not any(r.get("threw") or r.get("missing") for r in results)
    assert [p["hook_event_name"] for p in sent] == [
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "PreCompact",
        "Stop",
    ]
    start, prompt, tool, compact, stop = sent
    assert start["source"] == "startup" and start["session_id"] == SID
    assert start["cwd"] == str(tmp_path / "project")
    assert prompt["prompt"] == "Please run a quick check." and prompt["message_id"] == MSG
    # the tool's metadata without the whole file before and after
    assert tool["tool_response"]["metadata"] == {"diff": "-a\n+b\n", "truncated": False}
    assert tool["tool_input"]["filePath"] == "/work/a.txt"
    assert "parent_session_id" not in tool
    assert compact["trigger"] == "auto"
    assert stop["last_assistant_message"] == "Done: tests pass."
    # the prompt's memory: a part of the user's message, sorting after the user's text
    parts = results[1]["output"]["parts"]
    assert [p["text"] for p in parts] == [
        "Please run a quick check.",
        "MEMORY for UserPromptSubmit",
    ]
    assert parts[1]["id"] > parts[0]["id"] and parts[1]["synthetic"] is True
    assert parts[1]["messageID"] == MSG
    # the session start's memory: in the system prompt of every request of the session
    for i in (2, 9):
        assert results[i]["output"]["system"] == ["You are OpenCode.", "MEMORY for SessionStart"]


def test_a_session_not_created_in_this_run_is_a_resume(tmp_path: Path) -> None:
    _, sent = drive(tmp_path, [chat(), chat(text="And again.")])
    assert [(p["hook_event_name"], p.get("source")) for p in sent] == [
        ("SessionStart", "resume"),
        ("UserPromptSubmit", None),
        ("UserPromptSubmit", None),
    ]


def test_idle_before_any_message_sends_nothing(tmp_path: Path) -> None:
    _, sent = drive(tmp_path, [event("session.idle", sessionID=SID), system()])
    assert sent == []


def test_a_subagents_work_belongs_to_the_session_that_started_it(tmp_path: Path) -> None:
    child, grandchild = "ses_child", "ses_grandchild"
    steps = [
        event("session.created", sessionID=SID, info={"id": SID}),
        chat(),
        event("session.created", sessionID=child, info={"id": child, "parentID": SID}),
        {**chat(child, "SUBAGENT-TASK: check"), "input": {"sessionID": child, "agent": "general"}},
        tool_after(child),
        event("session.created", sessionID=grandchild, info={"id": grandchild, "parentID": child}),
        tool_after(grandchild),
        *answer(child),
        event("session.idle", sessionID=child),
        system(child),
    ]
    results, sent = drive(tmp_path, steps)
    names = [p["hook_event_name"] for p in sent]
    assert names == ["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUse"]
    assert [p["parent_session_id"] for p in sent[2:]] == [SID, SID]
    assert sent[2]["agent"] == "general"
    assert len(results[3]["output"]["parts"]) == 1  # the task prompt got no memory
    assert results[-1]["output"]["system"] == ["You are OpenCode."]


@pytest.mark.parametrize("mode", ["crash", "garbage", "huge"])
def test_a_failing_hook_changes_nothing_and_throws_nothing(mode: str, tmp_path: Path) -> None:
    results, sent = drive(
        tmp_path,
        [chat(), system(), tool_after(), *answer(), event("session.idle", sessionID=SID)],
        mode,
    )
    assert not any(r["threw"] for r in results)
    assert len(sent) == 4  # every event still went to the hook
    assert len(results[0]["output"]["parts"]) == 1
    assert results[1]["output"]["system"] == ["You are OpenCode."]


def test_a_missing_hook_command_throws_nothing(tmp_path: Path) -> None:
    results, _ = drive(
        tmp_path,
        [chat(), system(), tool_after(), event("session.idle", sessionID=SID)],
        argv=[str(tmp_path / "no-such-wikimem"), "hook", "opencode"],
    )
    assert not any(r["threw"] for r in results)
    assert len(results[0]["output"]["parts"]) == 1


def test_a_hook_that_hangs_is_killed_at_its_timeout(tmp_path: Path) -> None:
    results, sent = drive(
        tmp_path, [chat(), event("session.idle", sessionID=SID)], "hang", wait_ms=400
    )
    assert not any(r["threw"] for r in results)
    assert len(sent) == 3  # SessionStart, UserPromptSubmit, Stop
    assert results[0]["ms"] < 5000 and results[1]["ms"] < 5000  # two waits of 0.4 s, not 30 s
    assert len(results[0]["output"]["parts"]) == 1


def test_hostile_hook_inputs_never_throw(tmp_path: Path) -> None:
    odd: list[Any] = [None, {}, {"sessionID": 5}, {"sessionID": SID, "tool": None}, "text", 3]
    steps = []
    for hook_name in (
        "event",
        "chat.message",
        "experimental.chat.system.transform",
        "tool.execute.after",
        "experimental.session.compacting",
    ):
        for value in odd:
            steps.append({"hook": hook_name, "input": value, "output": value})
    steps.append(
        {"hook": "event", "input": {"event": {"type": "message.part.updated", "properties": None}}}
    )
    steps.append({"hook": "chat.message", "input": {"sessionID": SID}, "output": {"parts": "x"}})
    results, _ = drive(tmp_path, steps)
    assert len(results) == len(steps) and not any(r["threw"] for r in results)


def test_installed_twice_for_one_project_the_first_copy_serves_it(tmp_path: Path) -> None:
    steps = [
        {**chat(), "copy": "user"},
        {**chat(), "copy": "project"},
        {**chat(), "copy": "other", "directory": "other"},
    ]
    results, sent = drive(tmp_path, steps)
    assert results[1] == {"hook": "chat.message", "missing": True}  # the second copy is empty
    assert [p["cwd"] for p in sent if p["hook_event_name"] == "UserPromptSubmit"] == [
        str(tmp_path / "project"),
        str(tmp_path / "other"),
    ]


def test_the_shipped_plugin_runs_wikimem_from_path_and_the_installed_one_its_command() -> None:
    shipped = opencodeplugin.template()
    assert opencodeplugin.is_ours(shipped) and opencodeplugin.command_of(shipped) is None
    installed = opencodeplugin.render(
        ["/usr/bin/python3", "-I", "-S", "/x/hookentry.py", "opencode"]
    )
    assert opencodeplugin.command_of(installed) == [
        "/usr/bin/python3",
        "-I",
        "-S",
        "/x/hookentry.py",
        "opencode",
    ]
    assert opencodeplugin.pristine(installed) and opencodeplugin.pristine(shipped)
    assert not opencodeplugin.pristine(installed.replace("catch (e) {}", "catch (e) { }", 1))
    assert "require(" not in shipped and 'from "node:child_process"' in shipped
    imports = [line for line in shipped.splitlines() if line.startswith("import ")]
    assert imports == ['import { spawn, spawnSync } from "node:child_process"']  # no npm package
