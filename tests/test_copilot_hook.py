"""`wikimem hook copilot`: GitHub Copilot CLI's payloads (tests/fixtures/copilot, recorded from
Copilot CLI 1.0.102; tests/fixtures/observed/copilot) become one record each. The installed command
names the event (camelCase payloads carry none); injection is a top-level additionalContext; a
subagent's events belong to its session; one event wired at two scopes is recorded once."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, REPO, errors, records
from tests.corpus.payloads import event_of
from wikimem.dream.render import render_event, shell_command, shell_outcome
from wikimem.harness import copilot

SID = "aa8d5ced-9241-4e93-8f0b-851ed9460197"
SUBAGENT_PARENT = "64762678-b9ba-4049-a8e1-093cfd62fe3a"


def fixture(name: str, folder: str = "copilot") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / folder / f"{name}.json").read_text())
    return data


def hook(payload: dict[str, Any], event: str | None, **env: str) -> bytes:
    """The hook in this process, run as the installed command runs it (`--event`)."""
    from wikimem.capture.hook import main

    out = io.BytesIO()
    argv = ["copilot"] + (["--event", event] if event else [])
    saved = dict(os.environ)
    os.environ.update(json.loads((FIXTURES / "copilot" / "hook_env.json").read_text()))
    os.environ.update(env)
    try:
        assert main(argv, stdin=io.BytesIO(json.dumps(payload).encode()), stdout=out) == 0
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return out.getvalue()


EXPECTED: dict[str, dict[str, Any]] = {
    "sessionStart": {"event": "SessionStart", "source": "new", "session": SID},
    "sessionStart.resume": {"event": "SessionStart", "source": "resume"},
    "userPromptSubmitted": {"event": "UserPromptSubmit", "prompt": "Run the tests, please."},
    "preToolUse": {"event": "PreToolUse", "tool": "bash"},
    "postToolUse": {
        "event": "PostToolUse",
        "tool": "bash",
        "input": {"command": "echo 'PASS tests/test_auth.py'", "description": "Mock step 1"},
        "output": "PASS tests/test_auth.py",
        "exit_code": 0,
    },
    # exit 3 is still postToolUse/"success" for Copilot: the code is only in the text
    "postToolUse.bash_failing": {
        "event": "PostToolUse",
        "exit_code": 3,
        "output": "FAIL tests/test_auth.py: TOKEN_TTL",
    },
    "postToolUse.create": {
        "event": "PostToolUse",
        "tool": "create",
        "files": ["/home/user/project/new.txt"],
    },
    "postToolUse.edit": {"event": "PostToolUse", "files": ["/home/user/project/notes.txt"]},
    "postToolUse.view": {"event": "PostToolUse", "tool": "view"},  # content never kept
    "postToolUseFailure": {"event": "PostToolUseFailure", "error": "Path does not exist"},
    "agentStop": {"event": "Stop", "reason": "end_turn"},
    "subagentStop": {
        "event": "SubagentStop",
        "agent": "task",
        "message": "mock-subagent-final: ok",
        "session": SUBAGENT_PARENT,
    },
    "postToolUse.subagent": {
        "event": "PostToolUse",
        "session": SUBAGENT_PARENT,  # not the subagent's own id
        "agent": "task",
        "input": {"command": "echo from-subagent", "description": "Mock subagent step"},
    },
    "sessionEnd": {"event": "SessionEnd", "reason": "complete"},
    # PascalCase aliases: snake_case payloads naming their event
    "SessionStart.pascal": {"event": "SessionStart", "source": "new"},
    "UserPromptSubmit.pascal": {"event": "UserPromptSubmit", "prompt": "Run the tests, please."},
    "PostToolUse.pascal": {"event": "PostToolUse", "tool": "Bash", "exit_code": 3},
    "Stop.pascal": {"event": "Stop", "reason": "end_turn"},
    "SessionEnd.pascal": {"event": "SessionEnd"},
}
NOTHING = ("userPromptTransformed", "permissionRequest", "userPromptSubmitted.subagent")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_event_becomes_one_record(name: str, isolated_home: Path) -> None:
    payload = fixture(name)
    event = None if "hook_event_name" in payload else event_of(Path(name + ".json"))
    assert hook(payload, event) in (b"", b'{"additionalContext":""}') or name in (
        "sessionStart",
        "userPromptSubmitted",
    )
    (record,) = records(isolated_home)
    assert record["client"] == "copilot" and record["project"] == "project"
    assert record["native_event"] == (event or payload["hook_event_name"])
    for key, value in EXPECTED[name].items():
        assert record[key] == value, (key, record.get(key))
    if name == "postToolUse.view":
        assert "output" not in record
    assert errors(isolated_home) == []


@pytest.mark.parametrize("name", NOTHING)
def test_noise_and_a_subagents_prompt_are_not_recorded(name: str, isolated_home: Path) -> None:
    assert hook(fixture(name), event_of(Path(name + ".json"))) == b""
    assert records(isolated_home) == [] and errors(isolated_home) == []


def test_every_fixture_has_an_expectation() -> None:
    names = {p.name[: -len(".json")] for p in (FIXTURES / "copilot").glob("*.json")}
    names -= {"hook_env", "agentStop.subagent", "subagentStart"}
    assert names == set(EXPECTED) | set(NOTHING)


def test_the_real_payloads_copilot_sent(isolated_home: Path) -> None:
    """observed/copilot, one per event, as the installed command would get them."""
    folder = FIXTURES / "observed" / "copilot"
    recorded = 0
    for path in sorted(folder.glob("*.json")):
        if path.name == "hook_env.json":
            continue
        hook(json.loads(path.read_text()), event_of(path))
        recorded += 1
    events = {r["native_event"]: r["event"] for r in records(isolated_home)}
    assert errors(isolated_home) == []
    assert events["sessionStart"] == "SessionStart"
    assert events["userPromptSubmitted"] == "UserPromptSubmit"
    assert events["postToolUseFailure"] == "PostToolUseFailure"
    assert events["agentStop"] == "Stop" and events["preCompact"] == "PreCompact"
    assert "userPromptTransformed" not in events and "permissionRequest" not in events
    assert len(records(isolated_home)) == recorded - 2


def test_the_event_comes_from_the_command_not_the_payload(isolated_home: Path) -> None:
    # a camelCase payload without --event cannot be placed: an error line, no record, no output
    assert hook(fixture("sessionEnd"), None) == b""
    assert records(isolated_home) == [] and "no event name" in errors(isolated_home)[0]
    # the command's word wins over a name inside the payload
    hook({**fixture("sessionEnd"), "hook_event_name": "sessionStart"}, "sessionEnd")
    assert records(isolated_home)[0]["event"] == "SessionEnd"


STANDING = "Use pnpm, never npm"  # tests/test_recall.py's profile/preferences.md
PASSAGE = "make rollback VERSION=x"  # its general/deploys.md: not a standing note
ASK = "How does a deploy rollback work?"


@pytest.fixture
def project(home: Path, tmp_path: Path) -> str:
    from tests.conftest import make_repo
    from tests.test_recall import seed

    seed(home)
    return str(make_repo(tmp_path / "code" / "api", "git@github.com:acme/api.git"))


def context(payload: dict[str, Any], event: str) -> str:
    out = hook(payload, event)
    if not out:
        return ""
    data = json.loads(out)
    assert set(data) == {"additionalContext"}  # Copilot ignores hookSpecificOutput
    return str(data["additionalContext"])


def test_injection_is_a_top_level_additional_context(project: str) -> None:
    start = context({**fixture("sessionStart"), "cwd": project}, "sessionStart")
    assert STANDING in start and start.startswith('<memory source="wikimem">')
    asked = {**fixture("userPromptSubmitted"), "cwd": project, "prompt": ASK}
    assert PASSAGE in context(asked, "userPromptSubmitted")
    # nothing for the events that cannot carry context
    for name in ("postToolUse", "agentStop", "sessionEnd"):
        assert hook({**fixture(name), "cwd": project}, event_of(Path(name + ".json"))) == b""


def test_a_resumed_start_gives_the_standing_notes_again_but_not_old_passages(
    project: str,
) -> None:
    """Copilot replaces the session-start context on --resume (so the standing notes come
    again) and keeps the context of earlier prompts (so their passages do not)."""
    base = {"sessionId": "s-resume", "cwd": project}
    assert STANDING in context({**base, "timestamp": 1, "source": "new"}, "sessionStart")
    asked = {**base, "timestamp": 2, "prompt": ASK}
    assert PASSAGE in context(asked, "userPromptSubmitted")
    again = context({**base, "timestamp": 3, "source": "resume"}, "sessionStart")
    assert STANDING in again
    assert PASSAGE not in context({**asked, "timestamp": 4}, "userPromptSubmitted")


def test_one_event_wired_at_two_scopes_is_recorded_and_answered_once(
    home: Path, project: str
) -> None:
    payload = {**fixture("sessionStart"), "cwd": project}
    assert b"pnpm" in hook(payload, "sessionStart")  # the user hook
    assert hook(payload, "sessionStart") == b""  # the repository hook, same payload
    later = {**payload, "timestamp": payload["timestamp"] + 1}
    hook(later, "sessionStart")  # a later event of the same kind is new
    assert [r["event"] for r in records(home)] == ["SessionStart", "SessionStart"]
    assert list((home / "state" / "copilot-seen").iterdir())


def test_a_payload_without_a_time_is_never_taken_for_a_repeat(isolated_home: Path) -> None:
    payload = {k: v for k, v in fixture("postToolUse").items() if k != "timestamp"}
    hook(payload, "postToolUse")
    hook(payload, "postToolUse")
    assert len(records(isolated_home)) == 2


def test_agent_stop_reads_the_answer_from_the_session_transcript(
    isolated_home: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / "events.jsonl"
    shutil.copy(FIXTURES / "copilot" / "transcript.events.jsonl", transcript)
    hook({**fixture("agentStop"), "transcriptPath": str(transcript)}, "agentStop")
    assert records(isolated_home)[0]["message"] == "mock-final-answer: done"
    # with a subagent in the turn: the parent's answer, not the subagent's
    shutil.copy(FIXTURES / "copilot" / "transcript.subagent.events.jsonl", transcript)
    stop = {**fixture("agentStop"), "transcriptPath": str(transcript), "timestamp": 5}
    hook(stop, "agentStop")
    assert records(isolated_home)[1]["message"] == "mock-final-answer: done"
    # a transcript that is missing, a folder, or garbage: recorded without an answer
    bad = (tmp_path / "missing.jsonl", tmp_path, FIXTURES / "copilot" / "agentStop.json")
    for n, path in enumerate(bad):
        hook({**fixture("agentStop"), "transcriptPath": str(path), "timestamp": 9 + n}, "agentStop")
    assert [r.get("message") for r in records(isolated_home)[2:]] == [None, None, None]
    assert errors(isolated_home) == []


def test_a_turn_that_ended_without_text_has_no_answer(tmp_path: Path) -> None:
    lines = [
        {"type": "user.message", "data": {"content": "first"}},
        {"type": "assistant.message", "data": {"content": "old answer"}},
        {"type": "user.message", "data": {"content": "second"}},
        {"type": "assistant.message", "data": {"content": "", "toolRequests": [{}]}},
    ]
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert copilot.final_answer(str(path)) is None  # not the previous turn's


@pytest.mark.parametrize(
    "text,output,code",
    [
        ("ok\n<shellId: 0 completed with exit code 0>", "ok", 0),
        ("bad\n<shellId: 12 completed with exit code 127>", "bad", 127),
        ("<shellId: 1 completed with exit code 3>", "", 3),
        ("no trailer", "no trailer", None),
        ("x\n<shellId: 1 still running>", "x\n<shellId: 1 still running>", None),
        ("x <shellId: 1 completed with exit code 2> then more", None, None),
    ],
)
def test_shell_result_trailer(text: str, output: str | None, code: int | None) -> None:
    got = copilot.shell_result(text)
    assert got == ((text if output is None else output), code)


def test_the_dream_reads_copilot_commands(isolated_home: Path) -> None:
    hook(fixture("postToolUse.bash_failing"), "postToolUse")
    (record,) = records(isolated_home)
    assert shell_command(record) == "echo 'FAIL tests/test_auth.py: TOKEN_TTL' >&2; exit 3"
    assert shell_outcome(record) == "failed"
    assert "→ failed" in (render_event(record) or "")


def test_the_installed_hook_imports_only_the_standard_library(home: Path) -> None:
    from tests.test_hook_stdlib import EXPENSIVE, FORBIDDEN

    cmd = [sys.executable, "-I", "-S", "-X", "importtime", str(REPO / "wikimem" / "hookentry.py")]
    for event, name in (("postToolUse", "postToolUse"), ("sessionStart", "sessionStart")):
        proc = subprocess.run(
            [*cmd, "copilot", "--event", event],
            input=(FIXTURES / "copilot" / f"{name}.json").read_bytes(),
            capture_output=True,
        )
        assert proc.returncode == 0
        top = {
            line.rsplit("|", 1)[1].strip().split(".", 1)[0]
            for line in proc.stderr.decode().splitlines()
            if line.startswith("import time:") and "|" in line
        }
        assert "wikimem" in top and not top & set(FORBIDDEN)
        if event == "postToolUse":
            assert not top & set(EXPENSIVE), sorted(top & set(EXPENSIVE))


def test_a_first_prompt_before_its_session_start_leaves_the_standing_notes_to_it(
    project: str,
) -> None:
    """Copilot starts the sessionStart and the userPromptSubmitted hooks together: whichever
    finishes first, one request carries each note once, and what the prompt was given stays
    recorded."""
    base = {"sessionId": "s-race", "cwd": project}
    asked = {**base, "timestamp": 1, "prompt": "npm or pnpm for a deploy rollback?"}
    first = context(asked, "userPromptSubmitted")  # the prompt's hook won the race
    assert PASSAGE in first and STANDING not in first
    start = context({**base, "timestamp": 2, "source": "new"}, "sessionStart")
    assert STANDING in start and PASSAGE not in start
    again = context({**asked, "timestamp": 3}, "userPromptSubmitted")
    assert PASSAGE not in again and STANDING not in again  # what was given is still recorded


def test_session_start_and_first_prompt_at_once(project: str, isolated_home: Path) -> None:
    import threading

    env = {**os.environ, **json.loads((FIXTURES / "copilot" / "hook_env.json").read_text())}
    cmd = [sys.executable, "-I", "-S", str(REPO / "wikimem" / "hookentry.py"), "copilot"]
    for n in range(4):
        base = {"sessionId": f"s-parallel-{n}", "cwd": project, "timestamp": 10 + n}
        runs = [
            ("sessionStart", {**base, "source": "new"}),
            ("userPromptSubmitted", {**base, "prompt": "npm or pnpm for a deploy rollback?"}),
        ]
        outs: dict[str, str] = {}

        def run(event: str, payload: dict[str, Any], outs: dict[str, str] = outs) -> None:
            proc = subprocess.run(
                [*cmd, "--event", event],
                input=json.dumps(payload).encode(),
                capture_output=True,
                env=env,
            )
            outs[event] = proc.stdout.decode()

        threads = [threading.Thread(target=run, args=r) for r in runs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        both = outs["sessionStart"] + outs["userPromptSubmitted"]
        assert both.count(STANDING) == 1 and both.count(PASSAGE) == 1, outs
        again = {**base, "timestamp": 99, "prompt": "npm or pnpm for a deploy rollback?"}
        later = hook(again, "userPromptSubmitted").decode()
        assert PASSAGE not in later and STANDING not in later
    assert errors(isolated_home) == []


def test_agent_stop_waits_for_copilots_log_to_catch_up(isolated_home: Path, tmp_path: Path) -> None:
    """Copilot writes events.jsonl in batches, some milliseconds after it starts the agentStop
    hook; for a new session the file may not exist yet when the hook reads it."""
    import threading
    import time

    transcript = tmp_path / "session" / "events.jsonl"
    transcript.parent.mkdir()
    text = (FIXTURES / "copilot" / "transcript.events.jsonl").read_text()
    head, tail = text.split('{"type":"assistant.turn_end"', 1)[0], text  # the batch still to come
    timer = threading.Timer(0.15, transcript.write_text, args=(tail,))
    timer.start()
    start = time.monotonic()
    hook({**fixture("agentStop"), "transcriptPath": str(transcript)}, "agentStop")
    timer.join()
    assert records(isolated_home)[0]["message"] == "mock-final-answer: done"
    assert time.monotonic() - start < 0.5 + 1.0  # bounded, whatever happens
    assert head  # (the fixture holds a whole turn)
