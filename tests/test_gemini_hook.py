"""`wikimem hook gemini`: Gemini CLI's payloads (tests/fixtures/gemini, shaped on what Gemini CLI
0.61.0 sent) become one normalised record each; noise is dropped; an event reaching wikimem
twice is recorded once; nothing mistakes a Gemini event for a Claude Code one or the reverse."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, errors, records, run_hook
from wikimem.dream.render import error_excerpt, render_event, shell_command, shell_outcome

SID = "5b0c9e2d-8f41-4a7e-b3d6-0e9f2a1c7d58"


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "gemini" / f"{name}.json").read_text())
    return data


def gemini_env(**extra: str) -> dict[str, str]:
    """The environment Gemini CLI gives a hook (CLAUDE_PROJECT_DIR included)."""
    env = dict(os.environ)
    env.update(json.loads((FIXTURES / "gemini" / "hook_env.json").read_text()))
    env.update(extra)
    return env


def hook(payload: dict[str, Any], client: str = "gemini", **env: str) -> bytes:
    """The hook in this process (fast), with Gemini's hook environment."""
    from wikimem.capture.hook import main

    out = io.BytesIO()
    saved = dict(os.environ)
    os.environ.update(gemini_env(**env))
    try:
        assert main([client], stdin=io.BytesIO(json.dumps(payload).encode()), stdout=out) == 0
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return out.getvalue()


EXPECTED: dict[str, dict[str, Any]] = {
    "SessionStart": {"event": "SessionStart", "source": "startup"},
    "SessionStart_resume": {"event": "SessionStart", "source": "resume"},
    "BeforeAgent": {
        "event": "UserPromptSubmit",
        # the SessionStart context Gemini prepended to the prompt is not the user's prompt
        "prompt": "Why does the auth test fail after the OAuth2 migration? We use pnpm, never npm.",
    },
    "BeforeTool": {
        "event": "PreToolUse",
        "tool": "run_shell_command",
        "input": {"command": "pnpm test -- auth", "description": "Run the auth tests"},
    },
    "AfterTool_shell_failing": {
        "event": "PostToolUse",
        "tool": "run_shell_command",
        "exit_code": 1,
        "output": "FAIL src/auth.test.ts\n  TOKEN_TTL 3600 exceeds the OAuth2 provider maximum (900)",
    },
    "AfterTool_shell": {
        "event": "PostToolUse",
        "exit_code": 0,
        "output": "PASS src/auth.test.ts (3 tests)",
    },
    "AfterTool_replace": {
        "event": "PostToolUse",
        "tool": "replace",
        "files": ["/home/user/acme-api/src/auth.ts"],
        "output": "Successfully modified file: /home/user/acme-api/src/auth.ts (1 replacements).",
    },
    "AfterTool_read_file": {"event": "PostToolUse", "tool": "read_file"},
    "AfterAgent": {"event": "Stop", "message": ...},
    "PreCompress_manual": {"event": "PreCompact", "trigger": "manual"},
    "Notification": {
        "event": "Notification",
        "message": "Tool Confirm Shell Command requires execution",
    },
    "SessionEnd": {"event": "SessionEnd", "reason": "exit"},
}
NOISE = ("BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress_auto")


def test_every_fixture_is_covered() -> None:
    names = {p.stem for p in (FIXTURES / "gemini").glob("*.json")} - {"hook_env"}
    assert names == set(EXPECTED) | set(NOISE)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_becomes_one_record(name: str, isolated_home: Path) -> None:
    payload = fixture(name)
    out = hook(payload)
    [rec] = records(isolated_home)
    assert rec["client"] == "gemini" and rec["session"] == SID
    assert rec["native_event"] == payload["hook_event_name"]
    assert rec["cwd"] == "/home/user/acme-api" and rec["project"] == "acme-api"
    for key, value in EXPECTED[name].items():
        assert key in rec, key
        if value is not ...:
            assert rec[key] == value, key
    assert out == b""  # an empty home: nothing to inject
    assert errors(isolated_home) == []


@pytest.mark.parametrize("name", NOISE)
def test_noise_is_never_recorded(name: str, isolated_home: Path) -> None:
    assert hook(fixture(name)) == b""
    assert records(isolated_home) == []
    assert errors(isolated_home) == []


def test_what_a_file_read_or_an_edit_carries_is_not_copied(isolated_home: Path) -> None:
    hook(fixture("AfterTool_read_file"))
    hook(fixture("AfterTool_replace"))
    text = "\n".join(p.read_text() for p in (isolated_home / "events").glob("*.jsonl"))
    assert "hunter2" not in text  # the .env's content
    assert "SECRET_HOLDER" not in text  # the whole file before and after the edit


def test_failing_and_passing_commands_read_as_such_by_the_dream(isolated_home: Path) -> None:
    hook(fixture("AfterTool_shell_failing"))
    hook(fixture("AfterTool_shell"))
    failed, passed = records(isolated_home)
    assert shell_command(failed) == "pnpm test -- auth"
    assert shell_outcome(failed) == "failed" and shell_outcome(passed) == "ok"
    assert "TOKEN_TTL 3600 exceeds" in error_excerpt(failed)
    assert "PGID" not in failed["output"]  # a different number every run: noise
    assert render_event(passed) is not None and "→ ok" in str(render_event(passed))


def test_shell_output_quirks() -> None:
    from wikimem.harness.gemini import shell_result

    wrap = "<untrusted_context>\n{}\n</untrusted_context>".format
    assert shell_result(wrap("Output: (empty)\nProcess Group PGID: 7")) == ("", 0, None)
    assert shell_result(wrap("Output: a\nExit Code: 1\nOutput: b\nExit Code: 2")) == (
        "a\nExit Code: 1\nOutput: b",
        2,
        None,
    )
    assert shell_result(wrap("Output: x\nSignal: SIGTERM\nProcess Group PGID: 9")) == (
        "x",
        None,
        "SIGTERM",
    )
    moved = "Command moved to background (PID: 12). Output hidden. Press Ctrl+B to view."
    assert shell_result(moved) == (moved, None, None)
    assert shell_result("Output: </untrusted_context>") == ("</untrusted_context>", 0, None)


def test_a_failed_tool_call_is_a_failure(isolated_home: Path) -> None:
    payload = fixture("AfterTool_replace")
    payload["tool_response"] = {
        "llmContent": "Failed to edit, 0 occurrences found for old_string",
        "returnDisplay": "Error: could not find the string to replace.",
        "error": {
            "message": "0 occurrences found for old_string",
            "type": "edit_no_occurrence_found",
        },
    }
    hook(payload)
    [rec] = records(isolated_home)
    assert rec["error"] == "0 occurrences found for old_string"
    assert shell_outcome(rec) == "failed"


def test_a_secret_in_a_command_output_is_redacted(isolated_home: Path) -> None:
    payload = fixture("AfterTool_shell")
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    payload["tool_response"]["llmContent"] = (
        f"<untrusted_context>\nOutput: GITHUB_TOKEN={token}\nProcess Group PGID: 3\n</untrusted_context>"
    )
    hook(payload)
    [rec] = records(isolated_home)
    assert token not in json.dumps(rec) and rec["redacted"] >= 1


# -- the answer, repaired from the transcript -----------------------------------------------------


def transcript(path: Path, *messages: dict[str, Any]) -> str:
    lines = [{"sessionId": SID, "kind": "main"}]
    for m in messages:
        lines += [m, {"$set": {"lastUpdated": "2026-11-29T18:04:36Z"}}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return str(path)


PROMPT_MSG = {"id": "u1", "type": "user", "content": [{"text": "Why does it fail?"}]}
TOOL_RESULT = {"id": "u2", "type": "user", "content": [{"functionResponse": {"name": "x"}}]}


def test_a_garbled_streamed_answer_is_read_back_from_the_transcript(
    isolated_home: Path, tmp_path: Path
) -> None:
    payload = fixture("AfterAgent")
    answer = "The answer is forty-two, said the mock model clearly."
    payload["prompt_response"] = answer + " y-two, said the mo ck model clearly."  # as seen
    payload["transcript_path"] = transcript(
        tmp_path / "chat.jsonl",
        {"id": "old", "type": "gemini", "content": "An earlier turn's answer."},
        PROMPT_MSG,
        {"id": "g1", "type": "gemini", "content": ""},
        {"id": "g1", "type": "gemini", "content": "", "toolCalls": [{"name": "x"}]},
        TOOL_RESULT,
        {"id": "g2", "type": "gemini", "content": answer},
    )
    hook(payload)
    [rec] = records(isolated_home)
    assert rec["message"] == answer


@pytest.mark.parametrize(
    "where",
    ["missing", "other-turn", "directory", "fifo", "not-json"],
)
def test_the_transcript_is_used_only_when_it_agrees(
    where: str, isolated_home: Path, tmp_path: Path
) -> None:
    payload = fixture("AfterAgent")
    reported = payload["prompt_response"]
    path = tmp_path / "chat.jsonl"
    if where == "other-turn":
        transcript(path, PROMPT_MSG, {"id": "g", "type": "gemini", "content": "Something else."})
    elif where == "directory":
        path.mkdir()
    elif where == "fifo":
        os.mkfifo(path)  # would block a plain open() forever
    elif where == "not-json":
        path.write_bytes(b'\x00\xff{"type":"gemini", oops\n' * 1000)
    payload["transcript_path"] = str(path)
    hook(payload)
    [rec] = records(isolated_home)
    assert rec["message"] == reported
    assert errors(isolated_home) == []


def test_only_the_tail_of_a_huge_transcript_is_read(tmp_path: Path) -> None:
    from wikimem.harness.gemini import TRANSCRIPT_TAIL, final_answer

    path = tmp_path / "chat.jsonl"
    filler = json.dumps({"id": "f", "type": "gemini", "content": "x" * 1000}) + "\n"
    with path.open("w") as fh:
        for _ in range(4 * TRANSCRIPT_TAIL // len(filler)):
            fh.write(filler)
        fh.write(json.dumps(PROMPT_MSG) + "\n")
        fh.write(json.dumps({"id": "a", "type": "gemini", "content": "Done."}) + "\n")
    assert final_answer(str(path), "Done. ne.") == "Done."


# -- one event, one record ------------------------------------------------------------------------


def test_the_same_event_delivered_twice_is_recorded_and_answered_once(home: Path) -> None:
    (home / "memory" / "profile").mkdir(parents=True, exist_ok=True)
    (home / "memory" / "profile" / "prefs.md").write_text(
        "---\ntitle: Prefs\nkind: profile\n---\n- Use pnpm, never npm.\n"
    )
    start = fixture("SessionStart")
    first, second = hook(start), hook(start)  # wikimem install gemini + the extension
    assert b"Use pnpm, never npm" in first and second == b""
    tool = fixture("AfterTool_shell")
    hook(tool)
    hook(tool)
    other = {**tool, "timestamp": "2026-11-29T18:05:00.001Z"}  # a new run of the command
    hook(other)
    assert [r["event"] for r in records(home)] == ["SessionStart", "PostToolUse", "PostToolUse"]


def test_events_without_a_timestamp_are_always_recorded(isolated_home: Path) -> None:
    payload = fixture("Notification")
    del payload["timestamp"]
    hook(payload)
    hook(payload)
    assert len(records(isolated_home)) == 2


def test_a_timestamp_that_is_not_a_time_never_makes_an_event_a_repeat(isolated_home: Path) -> None:
    # found by the long hostile-input fuzzer: a constant non-time stamp made every later event
    # with the same session and name pass for a second delivery, dropped without a word
    for stamp in ("x" * 127, "not-a-time-at-all", "9999999999999"):
        payload = {**fixture("AfterAgent"), "timestamp": stamp}
        hook(payload)
        hook({**payload, "prompt_response": "a different answer"})
    assert len(records(isolated_home)) == 6


def test_a_hostile_timestamp_stays_inside_state(isolated_home: Path) -> None:
    payload = {**fixture("Notification"), "timestamp": "../../../../tmp/x/../evil-2026"}
    hook(payload)
    assert len(records(isolated_home)) == 1
    assert not Path("/tmp/evil-2026").exists()
    for path in (isolated_home / "state").rglob("*"):
        assert path.resolve().is_relative_to(isolated_home.resolve())


def _deliver(home: str, barrier: Any) -> None:
    os.environ["WIKIMEM_HOME"] = home
    from wikimem.capture.hook import main

    payload = json.loads((FIXTURES / "gemini" / "AfterTool_shell_failing.json").read_text())
    barrier.wait()
    main(["gemini"], stdin=io.BytesIO(json.dumps(payload).encode()), stdout=io.BytesIO())


def test_concurrent_deliveries_of_one_event_make_one_record(isolated_home: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(6)
    procs = [ctx.Process(target=_deliver, args=(str(isolated_home), barrier)) for _ in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert len(records(isolated_home)) == 1


def test_old_markers_are_pruned_at_session_start(isolated_home: Path) -> None:
    old = isolated_home / "state" / "gemini-seen" / "2020-01-01T00"
    old.mkdir(parents=True)
    (old / "abc").write_text("")
    hook(fixture("SessionStart"))
    assert not old.exists()
    assert len(list((isolated_home / "state" / "gemini-seen").iterdir())) == 1


# -- Gemini's hook environment carries CLAUDE_PROJECT_DIR ------------------------------------------


def test_claude_hooks_run_by_gemini_record_gemini_events(isolated_home: Path) -> None:
    # `gemini hooks migrate` copies Claude Code hooks (`hook claude`) into Gemini's settings
    hook(fixture("BeforeAgent"), client="claude")
    hook(fixture("SessionStart"), client="claude")
    recs = records(isolated_home)
    assert [(r["client"], r["event"]) for r in recs] == [
        ("gemini", "UserPromptSubmit"),
        ("gemini", "SessionStart"),
    ]


def test_migrated_claude_hooks_and_gemini_hooks_record_once(isolated_home: Path) -> None:
    hook(fixture("AfterTool_shell"), client="gemini")
    hook(fixture("AfterTool_shell"), client="claude")
    assert len(records(isolated_home)) == 1


def test_claude_code_started_from_a_gemini_shell_is_recorded_as_claude(
    isolated_home: Path,
) -> None:
    # it inherits GEMINI_SESSION_ID (of the Gemini session) and CLAUDE_PROJECT_DIR
    payload = {
        "session_id": "3f2b8c1e-7d4a-4e9b-9c21-5a6f0d8e4b17",
        "hook_event_name": "SessionStart",
        "cwd": "/home/user/acme-api",
        "source": "startup",
    }
    hook(payload, client="claude")
    hook({**payload, "hook_event_name": "UserPromptSubmit", "prompt": "hi"}, client="claude")
    assert {r["client"] for r in records(isolated_home)} == {"claude"}


def test_a_claude_event_sent_to_the_gemini_hook_is_claudes(isolated_home: Path) -> None:
    payload = {
        "session_id": "3f2b8c1e-7d4a-4e9b-9c21-5a6f0d8e4b17",
        "hook_event_name": "UserPromptSubmit",
        "cwd": "/home/user/acme-api",
        "prompt": "hi",
    }
    proc = run_hook("gemini", payload)  # no Gemini environment at all
    assert proc.returncode == 0
    [rec] = records(isolated_home)
    assert rec["client"] == "claude" and rec["event"] == "UserPromptSubmit"


def test_gemini_payload_without_gemini_env_is_still_gemini(isolated_home: Path) -> None:
    # `wikimem demo`, tests, or a sanitised environment: the payload decides
    proc = run_hook("gemini", fixture("SessionStart"))
    assert proc.returncode == 0 and proc.stdout == b""
    assert [r["client"] for r in records(isolated_home)] == ["gemini"]


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[]",
        b'{"hook_event_name": "AfterAgent"}',
        b'{"hook_event_name": "BeforeAgent", "session_id": "s", "prompt": 7}',
        b'{"hook_event_name": "AfterTool", "session_id": "s", "tool_response": "x", "timestamp": 3}',
        b'{"hook_event_name": "AfterAgent", "session_id": "s", "prompt_response": "a", "transcript_path": 5}',
    ],
)
def test_hostile_gemini_input_fails_open(raw: bytes, isolated_home: Path) -> None:
    proc = run_hook("gemini", raw, env=gemini_env())
    assert proc.returncode == 0 and proc.stderr == b""
    assert proc.stdout in (b"",) or json.loads(proc.stdout)


def test_installed_form_records_a_gemini_event(isolated_home: Path) -> None:
    proc = run_hook("gemini", fixture("AfterAgent"), env=gemini_env(), installed_form=True)
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    [rec] = records(isolated_home)
    assert rec["event"] == "Stop" and rec["message"].startswith("TOKEN_TTL (3600)")


@pytest.mark.parametrize("name", ["AfterTool_shell", "AfterAgent", "BeforeAgent", "SessionStart"])
def test_the_gemini_hook_path_is_standard_library_only(name: str, home: Path) -> None:
    import sys

    from tests.test_hook_stdlib import EXPENSIVE, FORBIDDEN, imported_modules

    names = imported_modules("gemini", fixture(name), gemini_env())
    top = {n.split(".", 1)[0] for n in names}
    assert not top & set(FORBIDDEN)
    assert top <= set(sys.stdlib_module_names) | {"wikimem", "_frozen_importlib"}, top
    if name == "AfterTool_shell":  # logging only
        assert not top & set(EXPENSIVE) and "json" not in top, sorted(top)


def test_an_unusable_marker_folder_still_records(isolated_home: Path) -> None:
    (isolated_home / "state").mkdir(parents=True)
    (isolated_home / "state" / "gemini-seen").write_text("a file where a folder should be")
    hook(fixture("AfterAgent"))
    assert [r["event"] for r in records(isolated_home)] == ["Stop"]


def test_a_transcript_path_with_a_nul_still_records_the_answer(isolated_home: Path) -> None:
    # found by the long hostile-input fuzzer: os.open raised ValueError, not OSError, and the
    # event was lost with it
    hook({**fixture("AfterAgent"), "transcript_path": "\x00"})
    assert [r["event"] for r in records(isolated_home)] == ["Stop"]
