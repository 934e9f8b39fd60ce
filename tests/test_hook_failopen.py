"""The hook never breaks the agent: hostile input, an unwritable home, a held lock, a stuck pipe."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.conftest import REPO, errors, hook_env, payload, records, run_hook


def assert_failed_open(proc: subprocess.CompletedProcess[bytes], home: Path) -> None:
    assert proc.returncode == 0
    out = proc.stdout.decode()
    if out.strip():
        json.loads(out)  # valid JSON or nothing
    assert b"Traceback" not in proc.stderr
    assert proc.stderr == b""
    assert len(errors(home)) == 1, errors(home)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"   \n",
        b"not json at all",
        b'{"hook_event_name": "PostToolUse", "session_id": ',
        b"[1, 2, 3]",
        b'"just a string"',
        b"\x00\xff\xfe\x80binary\x00",
        b'{"session_id": "s1", "conversation_id": "s1"}',  # no event name
        b'{"hook_event_name": "PROMPT_EVENT"}',  # no session
        b'{"hook_event_name": "PROMPT_EVENT", "session_id": "s", "conversation_id": "s", "prompt": 42}',
        b'{"hook_event_name": 7, "session_id": "s", "conversation_id": "s"}',
    ],
    ids=[
        "empty",
        "blank",
        "text",
        "truncated",
        "array",
        "string",
        "binary",
        "no-event",
        "no-session",
        "prompt-not-string",
        "event-not-string",
    ],
)
@pytest.mark.parametrize("client", ["claude", "codex", "cursor"])
def test_hostile_input_fails_open(raw: bytes, client: str, isolated_home: Path) -> None:
    event = "beforeSubmitPrompt" if client == "cursor" else "UserPromptSubmit"
    proc = run_hook(client, raw.replace(b"PROMPT_EVENT", event.encode()))
    assert_failed_open(proc, isolated_home)
    assert records(isolated_home) == []


def test_unknown_event_is_recorded_as_other(isolated_home: Path) -> None:
    proc = run_hook(
        "claude", {"hook_event_name": "TeammateIdle", "session_id": "s1", "cwd": "/tmp"}
    )
    assert proc.returncode == 0 and proc.stdout == b""
    [rec] = records(isolated_home)
    assert rec["event"] == "Other" and rec["native_event"] == "TeammateIdle"


def test_unknown_client_fails_open(isolated_home: Path) -> None:
    proc = run_hook("windsurf", payload("claude_Stop"))
    assert_failed_open(proc, isolated_home)


def test_fifty_megabytes_of_input(isolated_home: Path) -> None:
    big = payload("claude_PostToolUse_Bash")
    big["tool_response"]["stdout"] = "x" * (50 * 1024 * 1024)
    raw = json.dumps(big).encode()
    start = time.monotonic()
    proc = run_hook("claude", raw)
    elapsed = time.monotonic() - start
    assert proc.returncode == 0 and proc.stderr == b""
    assert elapsed < 5
    [rec] = records(isolated_home)
    assert rec["event"] == "PostToolUse" and rec["session"] == big["session_id"]
    assert rec["oversized_bytes"] == len(raw)
    line = next((isolated_home / "events").glob("*.jsonl")).stat().st_size
    assert line < 64 * 1024


def test_large_output_is_truncated_with_marker_and_tail(isolated_home: Path) -> None:
    big = payload("claude_PostToolUse_Bash")
    big["tool_response"]["stdout"] = "line of output\n" * 20000 + "FINAL ERROR: boom\n"
    run_hook("claude", big)
    [rec] = records(isolated_home)
    assert len(rec["output"].encode()) <= 4096
    assert "wikimem truncated" in rec["output"]
    assert "FINAL ERROR: boom" in rec["output"]  # the tail survives


def test_prompt_limit_is_16k(isolated_home: Path) -> None:
    p = payload("claude_UserPromptSubmit")
    p["prompt"] = "word " * 10000
    run_hook("claude", p)
    [rec] = records(isolated_home)
    assert len(rec["prompt"].encode()) <= 16384 and "wikimem truncated" in rec["prompt"]


def test_unwritable_home_fails_open(tmp_path: Path) -> None:
    home = tmp_path / "ro-home"
    home.mkdir()
    (home / "events").mkdir()
    os.chmod(home / "events", 0o500)
    try:
        if os.access(home / "events", os.W_OK):
            pytest.skip("running as a user who can write anywhere (root)")
        proc = run_hook("claude", payload("claude_Stop"), env=hook_env(WIKIMEM_HOME=str(home)))
        assert_failed_open(proc, home)
    finally:
        os.chmod(home / "events", 0o700)


def test_home_that_is_a_file_fails_open_without_traceback(tmp_path: Path) -> None:
    home = tmp_path / "afile"
    home.write_text("not a directory")
    proc = run_hook("claude", payload("claude_Stop"), env=hook_env(WIKIMEM_HOME=str(home)))
    assert proc.returncode == 0 and proc.stdout == b""
    assert b"Traceback" not in proc.stderr
    assert len(proc.stderr.decode().splitlines()) <= 1


def test_held_lock_gives_up_after_the_record_wait(isolated_home: Path) -> None:
    run_hook("claude", payload("claude_Stop"))  # creates the events folder
    # The hook writes to the file of its UTC day: hold today's and tomorrow's, so a run that
    # straddles midnight still meets a held lock.
    now = time.time()
    days = {time.strftime("%Y-%m-%d", time.gmtime(now + d * 86400)) for d in (0, 1)}
    with ExitStack() as held:
        for day in days:
            fh = held.enter_context(open(isolated_home / "events" / f"{day}.jsonl", "a"))
            fcntl.flock(fh, fcntl.LOCK_EX)
        start = time.monotonic()
        proc = run_hook(
            "claude", payload("claude_Stop"), env=hook_env(WIKIMEM_HOOK_RECORD_WAIT="0.3")
        )
        elapsed = time.monotonic() - start
    assert proc.returncode == 0 and proc.stderr == b""
    assert elapsed < 2.0
    assert any(
        "lock" in line.lower() or "deadline" in line.lower() for line in errors(isolated_home)
    )
    assert len(records(isolated_home)) == 1


def test_stdin_never_closed_gives_up_after_the_record_wait(isolated_home: Path) -> None:
    cmd = [sys.executable, "-I", "-S", str(REPO / "wikimem" / "hookentry.py"), "claude"]
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=hook_env(WIKIMEM_HOOK_RECORD_WAIT="0.3"),
    )
    assert proc.stdin is not None
    proc.stdin.write(b'{"hook_event_name": "Stop", ')
    proc.stdin.flush()
    start = time.monotonic()
    try:
        code = proc.wait(timeout=5)
    finally:
        proc.stdin.close()
    assert code == 0
    assert time.monotonic() - start < 3
    assert proc.stderr is not None and proc.stderr.read() == b""
    assert any("stdin did not close" in line for line in errors(isolated_home))


def test_config_error_still_records_with_defaults(isolated_home: Path) -> None:
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "config.toml").write_text("[events\nbroken")
    proc = run_hook("claude", payload("claude_Stop"))
    assert proc.returncode == 0
    assert len(records(isolated_home)) == 1
    assert any("TOML" in line for line in errors(isolated_home))


def test_events_file_is_private(isolated_home: Path) -> None:
    run_hook("claude", payload("claude_Stop"))
    [f] = list((isolated_home / "events").glob("*.jsonl"))
    assert f.stat().st_mode & 0o777 == 0o600
    assert (isolated_home / "events").stat().st_mode & 0o777 == 0o700


def test_events_path_that_is_a_file_fails_open_even_as_root(isolated_home: Path) -> None:
    isolated_home.mkdir(parents=True)
    (isolated_home / "events").write_text("in the way")
    proc = run_hook("cursor", payload("cursor_beforeSubmitPrompt"))
    assert_failed_open(proc, isolated_home)
    # Cursor's beforeSubmitPrompt still gets its answer although recording failed.
    assert json.loads(proc.stdout) == {"continue": True}


def test_closed_stdin_or_stdout_fails_open(isolated_home: Path) -> None:
    entry = str(REPO / "wikimem" / "hookentry.py")
    for redirect in ("<&-", ">&-"):
        proc = subprocess.run(
            f"{sys.executable} -I -S {entry} claude {redirect}",
            shell=True,
            capture_output=True,
            input=b"" if redirect == ">&-" else None,
        )
        assert proc.returncode == 0, redirect
        assert b"Traceback" not in proc.stderr


def test_lone_surrogate_in_tool_input_is_recorded(isolated_home: Path) -> None:
    raw = payload("claude_PreToolUse_Edit")
    raw["tool_input"]["new_string"] = "emoji cut in half \ud83d" + "x" * 5000
    proc = run_hook("claude", json.dumps(raw, ensure_ascii=True))
    assert proc.returncode == 0 and errors(isolated_home) == []
    [rec] = records(isolated_home)
    assert rec["tool"] == "Edit"


def test_a_private_key_beyond_the_truncation_cut_is_still_redacted(isolated_home: Path) -> None:
    key_body = "\n".join("MIIEpAIBAAKCAQEA" + "x" * 48 for _ in range(25))
    key = f"-----BEGIN RSA PRIVATE KEY-----\n{key_body}\n-----END RSA PRIVATE KEY-----"
    big = payload("claude_PostToolUse_Bash")
    big["tool_response"]["stdout"] = (
        "build log line\n" * 800 + key + "\n" + "-rw-r--r-- file\n" * 20
    )
    run_hook("claude", big)
    [rec] = records(isolated_home)
    text = json.dumps(rec)
    assert "MIIEpAIBAAKCAQEA" not in text and "[REDACTED:private_key]" in text


def test_a_toml_date_in_the_users_own_table_does_not_stop_recording(isolated_home: Path) -> None:
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "config.toml").write_text("[mine]\nreviewed = 2026-01-01\n")
    run_hook("claude", payload("claude_Stop"))
    run_hook("claude", payload("claude_Stop"))
    assert len(records(isolated_home)) == 2 and errors(isolated_home) == []


@pytest.mark.parametrize(
    "name", ["beforeSubmitPromptV2", "BeforeSubmitPrompt", "beforeSubmitPrompt ", "userPrompt"]
)
@pytest.mark.parametrize("recording_fails", [False, True], ids=["recorded", "failing"])
def test_cursor_gets_continue_for_a_prompt_event_name_it_has_not_told_us(
    isolated_home: Path, name: str, recording_fails: bool
) -> None:
    """A Cursor that renames its prompt event (or sends a new one) still waits for
    `{"continue": true}`: an event name the adapter does not know gets it, recorded or not."""
    if recording_fails:
        isolated_home.mkdir(parents=True)
        (isolated_home / "events").write_text("in the way")
    raw = payload("cursor_beforeSubmitPrompt")
    raw["hook_event_name"] = name
    proc = run_hook("cursor", raw)
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == {"continue": True}
    known = payload("cursor_beforeSubmitPrompt")
    known["hook_event_name"] = "afterAgentResponse"  # a known event: nothing to answer
    assert run_hook("cursor", known).stdout == b""
