"""ClaudeCliBackend against a fake `claude` executable first on PATH.

The fake is a small Python script: it records its argv, stdin, working directory and CLAUDE*
environment to calls.jsonl and answers with the next scripted reply (stdout, stderr, exit status,
an optional delay), the way `claude -p --output-format json` does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wikimem.config import DreamConfig
from wikimem.dream.base import AnswerRefused, BackendError, DreamRequest, Prompt
from wikimem.dream.claude_cli import ClaudeCliBackend, extract_json
from wikimem.dream.ops import OPERATIONS_SCHEMA, Upsert
from wikimem.dream.prompt import SYSTEM_PROMPT

MODEL = "claude-sonnet-4-6"
USER = (
    "Project: acme-api\nToday: 2026-11-29\n\n## New events since the last consolidation\n"
    "[user] we use pnpm here, never npm\n\nCall apply_operations exactly once."
)
REQUEST = DreamRequest(
    project="acme-api",
    sessions=(),
    today="2026-11-29",
    prompt=Prompt(system=SYSTEM_PROMPT, user=USER),
)
PNPM: dict[str, Any] = {
    "op": "upsert",
    "path": "projects/acme-api/conventions.md",
    "title": "acme-api conventions",
    "kind": "project",
    "tags": ["pnpm"],
    "body": "Use pnpm, never npm (stated 2026-11-29).\n\n```bash\npnpm install\n```",
    "sources": ["claude:3f2a9c1e"],
}
ESCAPE = {**PNPM, "path": "../../.bashrc"}
NO_TITLE = {k: v for k, v in PNPM.items() if k != "title"} | {
    "path": "projects/acme-api/commands.md"
}
COMMANDS = {
    **PNPM,
    "path": "projects/acme-api/commands.md",
    "title": "acme-api commands",
    "body": "Run the tests with `pnpm test`.",
}

FAKE_CLAUDE = """\
#!{python}
import json, os, pathlib, sys, time
here = pathlib.Path(__file__).resolve().parent
log = here / "calls.jsonl"
n = len(log.read_text().splitlines()) if log.exists() else 0
call = {{"argv": sys.argv[1:], "stdin": sys.stdin.read(), "cwd": os.getcwd(),
        "env": {{k: v for k, v in os.environ.items() if k.startswith("CLAUDE")}}}}
with log.open("a") as f:
    f.write(json.dumps(call) + "\\n")
replies = json.loads((here / "replies.json").read_text())
reply = replies[min(n, len(replies) - 1)]
time.sleep(reply.get("sleep", 0))
sys.stdout.write(reply.get("stdout", ""))
sys.stderr.write(reply.get("stderr", ""))
sys.exit(reply.get("exit", 0))
"""


def cli_output(text: str, *, is_error: bool = False, subtype: str = "success") -> str:
    """What `claude -p --output-format json` prints: one result object."""
    return json.dumps(
        {
            "type": "result",
            "subtype": subtype,
            "is_error": is_error,
            "duration_ms": 8123,
            "duration_api_ms": 7990,
            "num_turns": 1,
            "result": text,
            "stop_reason": "end_turn",
            "session_id": "5b0c2d1e-8f3a-4c6b-9d2e-1a7f3e5c9b20",
            "total_cost_usd": 0.0231,
            "usage": {
                "input_tokens": 3,
                "cache_creation_input_tokens": 2100,
                "cache_read_input_tokens": 4000,
                "output_tokens": 412,
                "service_tier": "standard",
            },
            "permission_denials": [],
            "uuid": "0f9e8d7c-6b5a-4938-8271-605f4e3d2c1b",
        }
    )


def fenced(ops: list[dict[str, Any]], prose: str = "Here are the changes:\n\n") -> str:
    return prose + "```json\n" + json.dumps({"operations": ops}, indent=2) + "\n```"


class FakeClaude:
    def __init__(self, bin_dir: Path) -> None:
        self.dir = bin_dir
        self.path = bin_dir / "claude"

    def script(self, *replies: dict[str, Any]) -> None:
        (self.dir / "replies.json").write_text(json.dumps(list(replies)))

    def answer(self, *texts: str) -> None:
        self.script(*({"stdout": cli_output(t)} for t in texts))

    @property
    def calls(self) -> list[dict[str, Any]]:
        log = self.dir / "calls.jsonl"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]


@pytest.fixture
def fake_claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeClaude:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = FakeClaude(bin_dir)
    fake.path.write_text(FAKE_CLAUDE.format(python=sys.executable))
    fake.path.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return fake


def no_note(path: str) -> str | None:
    return None


def propose(**kw: Any) -> Any:
    return ClaudeCliBackend(MODEL, **kw).propose(REQUEST, no_note)


def arg(argv: list[str], flag: str) -> str:
    return argv[argv.index(flag) + 1]


def test_runs_claude_in_print_mode_with_the_prompt_on_stdin(
    fake_claude: FakeClaude, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDECODE", "1")  # as when a session's hook spawned the dream
    monkeypatch.chdir(tmp_path)
    fake_claude.answer(fenced([PNPM]))
    propose()

    [call] = fake_claude.calls
    argv = call["argv"]
    assert argv[0] == "-p"
    assert arg(argv, "--output-format") == "json"
    assert arg(argv, "--model") == MODEL
    system = arg(argv, "--system-prompt")
    assert system.startswith(SYSTEM_PROMPT.rstrip())
    assert json.dumps(OPERATIONS_SCHEMA, indent=1) in system
    assert "ONLY" in system and '{"operations": [...]}' in system
    assert arg(argv, "--tools") == ""  # no tools at all
    assert json.loads(arg(argv, "--settings")) == {"disableAllHooks": True}
    assert "--no-session-persistence" in argv
    assert not any(USER in a for a in argv)  # the prompt goes on stdin, not in argv
    assert call["stdin"].startswith(USER)
    assert "reply with ONLY the JSON object" in call["stdin"]
    assert "CLAUDECODE" not in call["env"]
    assert Path(call["cwd"]) != tmp_path
    assert not Path(call["cwd"]).exists()  # a temporary directory, removed afterwards


@pytest.mark.parametrize(
    "answer",
    [
        fenced([PNPM]),
        fenced([PNPM], prose="I looked at the events.\n\n") + "\n\nLet me know if you need more.",
        json.dumps({"operations": [PNPM]}),
        "Sure! " + json.dumps({"operations": [PNPM]}) + " That is all.",
        "```\n" + json.dumps({"operations": [PNPM]}) + "\n```",
    ],
    ids=["fenced", "fenced-in-prose", "bare", "bare-in-prose", "plain-fence"],
)
def test_the_json_object_is_found_in_the_answer(fake_claude: FakeClaude, answer: str) -> None:
    fake_claude.answer(answer)
    proposal = propose()

    assert len(fake_claude.calls) == 1
    assert proposal.operations == (
        Upsert(
            path="projects/acme-api/conventions.md",
            title="acme-api conventions",
            kind="project",
            body=PNPM["body"] + "\n",
            tags=("pnpm",),
            sources=("claude:3f2a9c1e",),
        ),
    )
    assert proposal.rejected == ()


def test_usage_and_cost_are_in_the_notes(fake_claude: FakeClaude) -> None:
    fake_claude.answer(fenced([PNPM]))
    [usage] = propose().notes

    assert "1 run" in usage
    assert "2103 input + 412 output tokens" in usage
    assert "4000 read from cache" in usage
    assert "$0.0231" in usage


def test_invalid_operations_get_one_correction_run(fake_claude: FakeClaude) -> None:
    fake_claude.answer(fenced([PNPM, ESCAPE, NO_TITLE]), fenced([PNPM, COMMANDS]))
    proposal = propose()

    first, second = fake_claude.calls
    assert first["argv"] == second["argv"]
    retry = second["stdin"]
    assert retry.startswith(USER)
    assert "## Your previous answer" in retry and '"../../.bashrc"' in retry
    assert "2 of your operations were rejected; 1 was valid." in retry
    assert "../../.bashrc" in retry.split("## What was wrong with it")[1]
    assert "upsert needs a non-empty `title`" in retry
    assert "COMPLETE JSON object" in retry

    assert [op.path for op in proposal.operations] == [
        "projects/acme-api/conventions.md",
        "projects/acme-api/commands.md",
    ]
    assert proposal.rejected == ()
    assert any("correction" in n for n in proposal.notes)
    assert "2 runs" in proposal.notes[0]


def test_still_invalid_after_the_correction_is_rejected_not_raised(fake_claude: FakeClaude) -> None:
    fake_claude.answer(fenced([PNPM, ESCAPE]), fenced([PNPM, ESCAPE]))
    proposal = propose()

    assert len(fake_claude.calls) == 2  # never a third run
    assert [op.path for op in proposal.operations] == ["projects/acme-api/conventions.md"]
    [rejected] = proposal.rejected
    assert rejected.raw["path"] == "../../.bashrc"


def test_answer_without_json_gets_a_correction_run(fake_claude: FakeClaude) -> None:
    fake_claude.answer("I would update the conventions note to say pnpm.", fenced([COMMANDS]))
    proposal = propose()

    assert len(fake_claude.calls) == 2
    assert "no JSON object" in fake_claude.calls[1]["stdin"]
    assert [op.path for op in proposal.operations] == ["projects/acme-api/commands.md"]


def test_unusable_correction_keeps_the_first_answers_valid_operations(
    fake_claude: FakeClaude,
) -> None:
    fake_claude.answer(fenced([PNPM, NO_TITLE]), "Sorry, I cannot.")
    proposal = propose()

    assert [op.path for op in proposal.operations] == ["projects/acme-api/conventions.md"]
    [rejected] = proposal.rejected
    assert "title" in rejected.reason
    assert any("unusable" in n for n in proposal.notes)


def test_missing_binary_is_a_backend_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(BackendError, match="'claude' is not on PATH") as info:
        propose()
    assert "\n" not in str(info.value)


def test_non_zero_exit_is_a_backend_error(fake_claude: FakeClaude) -> None:
    fake_claude.script({"exit": 1, "stderr": "Error: something broke\nInvalid model name\n"})
    with pytest.raises(BackendError, match="status 1: Invalid model name"):
        propose()


def test_error_result_names_the_cause(fake_claude: FakeClaude) -> None:
    login = cli_output("Invalid API key · Please run /login", is_error=True)
    fake_claude.script({"exit": 1, "stdout": login})
    with pytest.raises(BackendError, match="Please run /login"):
        propose()


def test_error_result_with_status_zero_is_a_backend_error(fake_claude: FakeClaude) -> None:
    fake_claude.script({"stdout": cli_output("", is_error=True, subtype="error_during_execution")})
    with pytest.raises(BackendError, match="error_during_execution"):
        propose()


def test_an_answer_after_a_tool_attempt_is_refused(fake_claude: FakeClaude) -> None:
    # no tool is offered: a second turn means the model called one and Claude Code refused it
    out = json.loads(cli_output(fenced([PNPM])))
    fake_claude.script({"stdout": json.dumps({**out, "num_turns": 2})})
    with pytest.raises(AnswerRefused, match="tried to use a tool"):
        propose()


def test_output_that_is_not_json_is_a_backend_error(fake_claude: FakeClaude) -> None:
    fake_claude.script({"stdout": "Done.\n"})
    with pytest.raises(BackendError, match="no JSON result"):
        propose()


def test_timeout_is_a_backend_error(fake_claude: FakeClaude) -> None:
    fake_claude.script({"sleep": 20, "stdout": cli_output(fenced([PNPM]))})
    with pytest.raises(BackendError, match=r"within 0\.2 s"):
        propose(timeout=0.2)


def test_injected_runner_gets_the_command_and_input(tmp_path: Path) -> None:
    seen: list[tuple[list[str], dict[str, Any]]] = []

    def runner(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        seen.append((cmd, kw))
        return subprocess.CompletedProcess(cmd, 0, cli_output(fenced([PNPM])), "")

    binary = tmp_path / "claude-nightly"
    binary.write_text("#!/bin/sh\nexit 99\n")  # never run: the runner stands in for it
    binary.chmod(0o755)
    proposal = propose(binary=str(binary), timeout=42.0, runner=runner)

    [(cmd, kw)] = seen
    assert cmd[0] == str(binary)
    assert kw["input"].startswith(USER)
    assert kw["timeout"] == 42.0
    assert kw["text"] is True
    assert kw["encoding"] == "utf-8"  # claude's pipes are UTF-8 whatever the user's locale
    assert len(proposal.operations) == 1


def test_from_config_takes_the_model() -> None:
    config = DreamConfig(
        backend="claude-cli",
        model="claude-haiku-4-5",
        auto=True,
        min_new_events=50,
        min_interval_minutes=180,
        chunk_chars=24000,
        max_tokens=8192,
        max_retries=4,
        index_chars=6000,
        related_notes=12,
    )
    backend = ClaudeCliBackend.from_config(config)
    assert backend.model == "claude-haiku-4-5"
    assert backend.binary == "claude"
    assert (backend.name, backend.needs_prompt) == ("claude-cli", True)


def test_extract_json_survives_code_fences_inside_note_bodies() -> None:
    body = "Run:\n```bash\npnpm test\n```\n"
    text = "Changes:\n```json\n" + json.dumps({"operations": [{**PNPM, "body": body}]}) + "\n```"
    assert extract_json(text)["operations"][0]["body"] == body


def test_an_answer_cut_at_max_tokens_is_sent_back_even_when_it_parses(
    fake_claude: FakeClaude,
) -> None:
    cut = json.loads(cli_output(fenced([PNPM])))
    cut["stop_reason"] = "max_tokens"
    fake_claude.script(
        {"stdout": json.dumps(cut)}, {"stdout": cli_output(fenced([PNPM, COMMANDS]))}
    )
    proposal = propose()
    assert len(fake_claude.calls) == 2
    assert "cut off at the max_tokens limit" in fake_claude.calls[1]["stdin"]
    assert [op.path for op in proposal.operations] == [
        "projects/acme-api/conventions.md",
        "projects/acme-api/commands.md",
    ]


def test_an_answer_cut_twice_is_a_backend_error_so_the_chunk_is_retried(
    fake_claude: FakeClaude,
) -> None:
    cut = json.loads(cli_output(fenced([PNPM])))
    cut["stop_reason"] = "max_tokens"
    fake_claude.script({"stdout": json.dumps(cut)})
    with pytest.raises(BackendError, match="cut off at the max_tokens limit twice") as caught:
        propose()
    assert caught.value.request_fault
