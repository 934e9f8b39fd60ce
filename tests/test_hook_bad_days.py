"""Regressions from the bad-days probe (issue 12, items 1 and 6): the record is never lost to the
deadline, to size or to nesting, and Cursor always gets its answer."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import errors, payload, records, run_hook
from wikimem.capture import hook


class SlowStdin(io.BytesIO):
    """stdin whose first read comes late: a starved CPU, a slow harness."""

    def __init__(self, data: bytes, delay: float) -> None:
        super().__init__(data)
        self.delay = delay

    def read(self, size: int | None = -1) -> bytes:
        if self.delay:
            time.sleep(self.delay)
            self.delay = 0
        return super().read(size)


def run_in_process(client: str, data: dict[str, Any] | bytes, delay: float = 0.0) -> bytes:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    out = io.BytesIO()
    hook.main([client], stdin=SlowStdin(raw, delay), stdout=out)
    return out.getvalue()


# -- item 1: the deadline cuts optional work only ---------------------------------------------


def test_time_lost_before_the_record_does_not_lose_it(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIKIMEM_HOOK_DEADLINE", "0.1")
    run_in_process("claude", payload("claude_SessionStart"), delay=0.3)
    [rec] = records(home)
    assert rec["event"] == "SessionStart"
    assert any("injection skipped" in line for line in errors(home))


def test_time_lost_while_the_record_is_built_does_not_lose_it(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIKIMEM_HOOK_DEADLINE", "0.1")
    real = hook.build_record

    def slow_build(*args: Any, **kwargs: Any) -> dict[str, Any]:
        time.sleep(0.3)  # a starved process: the deadline's alarm would fire in here
        return real(*args, **kwargs)

    monkeypatch.setattr(hook, "build_record", slow_build)
    run_in_process("codex", payload("codex_UserPromptSubmit"))
    [rec] = records(home)
    assert rec["event"] == "UserPromptSubmit"


def test_injection_is_cut_at_the_deadline_and_the_record_kept(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIKIMEM_HOOK_DEADLINE", "0.2")

    def stuck_inject(*args: Any) -> str:
        time.sleep(5)
        return "never"

    monkeypatch.setattr(hook, "_inject", stuck_inject)
    start = time.monotonic()
    out = run_in_process("claude", payload("claude_SessionStart"))
    assert time.monotonic() - start < 2
    assert out == b""
    assert len(records(home)) == 1
    assert any("injection cut at the deadline" in line for line in errors(home))


def test_cursor_gets_its_answer_when_the_deadline_passed(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIKIMEM_HOOK_DEADLINE", "0.05")
    out = run_in_process("cursor", payload("cursor_beforeSubmitPrompt"), delay=0.2)
    assert json.loads(out) == {"continue": True}
    assert len(records(home)) == 1


# -- item 6: size, nesting and Cursor's answer ---------------------------------------------------


def test_a_prompt_over_sixteen_megabytes_is_recorded(isolated_home: Path) -> None:
    p = payload("claude_UserPromptSubmit")
    p["prompt"] = "Refactor the parser. " + "lorem ipsum " * (17 * 1024 * 1024 // 12)
    raw = json.dumps(p).encode()
    assert len(raw) > hook.MAX_PARSE_BYTES
    proc = run_hook("claude", raw)
    assert proc.returncode == 0 and proc.stderr == b""
    [rec] = records(isolated_home)
    assert rec["event"] == "UserPromptSubmit" and rec["session"] == p["session_id"]
    assert rec["prompt"].startswith("Refactor the parser.")
    assert "wikimem truncated" in rec["prompt"]
    assert len(rec["prompt"].encode()) <= 16384
    assert rec["oversized_bytes"] == len(raw)


@pytest.mark.parametrize("how", ["invalid JSON", "not an object", "prompt not a string", "empty"])
def test_cursor_before_submit_prompt_always_gets_continue(how: str, isolated_home: Path) -> None:
    raw = {
        "invalid JSON": b'{"hook_event_name": "beforeSubmitPrompt", "conversation_id": "c1", ',
        "not an object": b"[1, 2]",
        "prompt not a string": json.dumps(
            {**payload("cursor_beforeSubmitPrompt"), "prompt": {"a": 1}}
        ).encode(),
        "empty": b"",
    }[how]
    proc = run_hook("cursor", raw)
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == {"continue": True}
    assert len(errors(isolated_home)) == 1


def test_cursor_fifty_megabyte_prompt_is_recorded_and_answered(isolated_home: Path) -> None:
    fixture = payload("cursor_beforeSubmitPrompt")
    big = "Why does the login test fail? " + "y" * (50 * 1024 * 1024)
    # The prompt first: the event's name is then only in the input's tail
    p = {"prompt": big, **{k: v for k, v in fixture.items() if k != "prompt"}}
    proc = run_hook("cursor", json.dumps(p).encode())
    assert json.loads(proc.stdout) == {"continue": True}
    [rec] = records(isolated_home)
    assert rec["event"] == "UserPromptSubmit" and rec["client"] == "cursor"
    assert rec["prompt"].startswith("Why does the login test fail?")


def _nested(levels: int) -> str:
    return '{"a":[' * levels + '"bottom"' + "]}" * levels


@pytest.mark.parametrize("depth", [400, 1000, 100_000])
@pytest.mark.parametrize("client", ["claude", "codex", "cursor"])
def test_deeply_nested_tool_input_is_still_recorded(
    client: str, depth: int, isolated_home: Path
) -> None:
    p = payload(
        {
            "claude": "claude_PreToolUse_Bash",
            "codex": "codex_PreToolUse_Bash",
            "cursor": "cursor_preToolUse_Shell",
        }[client]
    )
    del p["tool_input"]
    raw = json.dumps(p)[:-1] + ', "tool_input": ' + _nested(depth // 2) + "}"
    proc = run_hook(client, raw.encode())
    assert proc.returncode == 0 and proc.stderr == b""
    [rec] = records(isolated_home)
    assert rec["event"] == "PreToolUse" and rec["session"]
    line = next((isolated_home / "events").glob("*.jsonl")).stat().st_size
    assert line < 16 * 1024


def test_an_alarm_python_swallows_is_followed_by_another(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under load the deadline's alarm can land where Python ignores exceptions (an import's
    lock callback, a finaliser): it must print nothing, and the work must still stop."""
    monkeypatch.setenv("WIKIMEM_HOOK_DEADLINE", "0.2")
    swallowed: list[str] = []

    class Finaliser:
        def __del__(self) -> None:
            raise hook.HookDeadline("raised where Python ignores it")

    def stubborn_inject(*args: Any) -> str:
        Finaliser()  # an exception Python reports as "ignored"
        try:
            time.sleep(5)
        except hook.HookDeadline:
            swallowed.append("first")  # as if Python had swallowed it
        time.sleep(5)
        return "never"

    monkeypatch.setattr(hook, "_inject", stubborn_inject)
    start = time.monotonic()
    out = run_in_process("claude", payload("claude_SessionStart"))
    assert time.monotonic() - start < 2
    assert out == b"" and swallowed == ["first"]
    assert len(records(home)) == 1
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


def test_the_installed_entry_leaves_without_shutdown_noise(isolated_home: Path) -> None:
    """Found under load: the alarm interrupted an import half way (`types` makes a coroutine
    and closes it a line later), and the interpreter's shutdown warned about it on stderr."""
    import subprocess
    import sys

    from tests.conftest import REPO, hook_env

    entry = str(REPO / "wikimem" / "hookentry.py")
    code = (
        "import runpy, sys\n"
        f"sys.argv = [{entry!r}, 'claude']\n"
        "async def half_made(): pass\n"
        "left_over = half_made()\n"
        f"runpy.run_path({entry!r}, run_name='__main__')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code],
        input=json.dumps(payload("claude_Stop")).encode(),
        capture_output=True,
        env=hook_env(),
    )
    assert proc.returncode == 0 and proc.stderr == b""
    assert len(records(isolated_home)) == 1
