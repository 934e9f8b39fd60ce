"""`wikimem hook opencode`: the payloads wikimem's OpenCode plugin sends (tests/fixtures/opencode,
recorded from OpenCode 1.18.33 running integrations/opencode/wikimem.js) become one record each;
a subagent's tool calls belong to its parent session; the answer is a top-level
additionalContext, which the plugin puts into the system prompt or the user's message."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, errors, records
from wikimem.dream.render import shell_command, shell_outcome

SID = "ses_dc81be11fffeMFu2x4xbQ2qjUP"


def fixture(name: str, folder: str = "opencode") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / folder / f"{name}.json").read_text())
    return data


def hook(payload: dict[str, Any]) -> bytes:
    from wikimem.capture.hook import main

    out = io.BytesIO()
    saved = dict(os.environ)
    os.environ.update(json.loads((FIXTURES / "opencode" / "hook_env.json").read_text()))
    try:
        assert main(["opencode"], stdin=io.BytesIO(json.dumps(payload).encode()), stdout=out) == 0
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return out.getvalue()


EXPECTED: dict[str, dict[str, Any]] = {
    "SessionStart": {"event": "SessionStart", "source": "startup", "session": SID},
    "SessionStart.resume": {"event": "SessionStart", "source": "resume"},
    "UserPromptSubmit": {"event": "UserPromptSubmit", "prompt": "Run the tests, please."},
    "PostToolUse": {
        "event": "PostToolUse",
        "tool": "bash",
        "output": "PASS tests/test_auth.py\n",
        "exit_code": 0,
    },
    "PostToolUse.bash_failing": {"event": "PostToolUse", "exit_code": 3},
    "PostToolUse.write": {"event": "PostToolUse", "files": ["/home/user/project/new.txt"]},
    "PostToolUse.edit": {"event": "PostToolUse", "files": ["/home/user/project/notes.txt"]},
    "PostToolUse.read": {"event": "PostToolUse", "tool": "read"},
    "PostToolUse.subagent": {
        "event": "PostToolUse",
        "session": "ses_dc81bc0ddffedYVZu52hvct3xi",  # the parent's
        "agent": "general",
    },
    "PreCompact": {"event": "PreCompact", "trigger": "auto"},
    "Stop": {"event": "Stop", "message": "Tests run; one failed."},
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_event_becomes_one_record(name: str, isolated_home: Path) -> None:
    hook(fixture(name))
    (record,) = records(isolated_home)
    assert record["client"] == "opencode" and record["project"] == "project"
    for key, value in EXPECTED[name].items():
        assert record[key] == value, (key, record.get(key))
    assert errors(isolated_home) == []


def test_every_fixture_has_an_expectation() -> None:
    names = {p.name[: -len(".json")] for p in (FIXTURES / "opencode").glob("*.json")}
    assert names - {"hook_env"} == set(EXPECTED)


def test_an_edit_keeps_the_change_and_a_read_nothing_of_the_file(isolated_home: Path) -> None:
    hook(fixture("PostToolUse.edit"))
    hook(fixture("PostToolUse.read"))
    edit, read = records(isolated_home)
    assert "-beta\n+gamma" in edit["output"]
    assert "output" not in read and "alpha" not in json.dumps(read)


def test_the_dream_reads_opencode_commands(isolated_home: Path) -> None:
    hook(fixture("PostToolUse.bash_failing"))
    (record,) = records(isolated_home)
    assert shell_command(record) == "echo 'FAIL tests/test_auth.py: TOKEN_TTL' >&2; exit 3"
    assert shell_outcome(record) == "failed"


def test_the_driver_bridge_payloads_are_read_too(isolated_home: Path) -> None:
    """observed/opencode: what a Claude-style bridge plugin sent (SessionEnd included)."""
    folder = FIXTURES / "observed" / "opencode"
    for path in sorted(folder.glob("*.json")):
        if path.name != "hook_env.json":
            hook(json.loads(path.read_text()))
    assert sorted(r["event"] for r in records(isolated_home)) == [
        "PostToolUse",
        "PreCompact",
        "PreToolUse",
        "SessionEnd",
        "SessionStart",
        "Stop",
        "UserPromptSubmit",
    ]
    assert errors(isolated_home) == []


def test_injection_is_a_top_level_additional_context(home: Path, tmp_path: Path) -> None:
    from tests.conftest import make_repo
    from tests.test_recall import seed

    seed(home)
    project = str(make_repo(tmp_path / "code" / "api", "git@github.com:acme/api.git"))
    start = json.loads(hook({**fixture("SessionStart"), "cwd": project}))
    assert (
        set(start) == {"additionalContext"} and "Use pnpm, never npm" in start["additionalContext"]
    )
    asked = {**fixture("UserPromptSubmit"), "cwd": project, "prompt": "How does rollback work?"}
    assert "make rollback VERSION=x" in json.loads(hook(asked))["additionalContext"]
    for name in ("PostToolUse", "Stop", "PreCompact"):
        assert hook({**fixture(name), "cwd": project}) == b""
