"""CodexCliBackend and GeminiCliBackend against fake `codex` and `gemini` executables on PATH.

Each fake is a small Python script: it records how it was run (argv, stdin, working directory,
the files the backend handed it: Codex's instructions file, Gemini's system prompt, policy and
workspace settings) and answers with the next scripted reply (stdout, stderr, exit status, an
optional delay), the way `codex exec --json` and `gemini -p --output-format json` do. The real
binaries are exercised in tests/e2e/test_dream_backends.py.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from wikimem.dream.base import (
    AnswerRefused,
    BackendError,
    BackendUnavailable,
    DreamRequest,
    Prompt,
)
from wikimem.dream.codex_cli import CodexCliBackend, api_url, signed_in
from wikimem.dream.gemini_cli import GeminiCliBackend
from wikimem.dream.prompt import SYSTEM_PROMPT

USER = "Project: acme-api\nToday: 2026-11-29\n\n[user] we use pnpm here, never npm\n"
REQUEST = DreamRequest("acme-api", (), "2026-11-29", Prompt(system=SYSTEM_PROMPT, user=USER))
PNPM = {
    "op": "claim",
    "path": "projects/acme-api/conventions.md",
    "subject": "JS package manager",
    "text": "Use pnpm, never npm.",
    "sources": ["codex:019d7a2e"],
}
ESCAPE = {**PNPM, "path": "../../.bashrc"}

FAKE = """\
#!{python}
import json, os, pathlib, sys, time
here = pathlib.Path(__file__).resolve().parent
log = here / "calls.jsonl"
n = len(log.read_text().splitlines()) if log.exists() else 0
argv = sys.argv[1:]
def read(path):
    try:
        return pathlib.Path(path).read_text()
    except OSError:
        return None
files = {{}}
for a in argv:
    if a.startswith("model_instructions_file="):
        files["instructions"] = read(json.loads(a.split("=", 1)[1]))
if "--policy" in argv:
    files["policy"] = read(argv[argv.index("--policy") + 1])
if os.environ.get("GEMINI_SYSTEM_MD"):
    files["system"] = read(os.environ["GEMINI_SYSTEM_MD"])
files["workspace"] = read(".gemini/settings.json")
call = {{"argv": argv, "stdin": sys.stdin.read(), "cwd": os.getcwd(), "files": files,
        "cwd_entries": sorted(p.name for p in pathlib.Path(".").iterdir()),
        "trust": os.environ.get("GEMINI_CLI_TRUST_WORKSPACE")}}
with log.open("a") as f:
    f.write(json.dumps(call) + "\\n")
replies = json.loads((here / "replies.json").read_text())
reply = replies[min(n, len(replies) - 1)]
time.sleep(reply.get("sleep", 0))
sys.stdout.write(reply.get("stdout", ""))
sys.stderr.write(reply.get("stderr", ""))
sys.exit(reply.get("exit", 0))
"""


class Fake:
    def __init__(self, bin_dir: Path, name: str) -> None:
        self.dir = bin_dir
        (bin_dir / name).write_text(FAKE.format(python=sys.executable))
        (bin_dir / name).chmod(0o755)

    def script(self, *replies: dict[str, Any]) -> None:
        (self.dir / "replies.json").write_text(json.dumps(list(replies)))

    @property
    def calls(self) -> list[dict[str, Any]]:
        log = self.dir / "calls.jsonl"
        return [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []


def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> Fake:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return Fake(bin_dir, name)


def no_note(path: str) -> str | None:
    return None


# -- codex -----------------------------------------------------------------------------------------


def codex_events(text: str | None, *items: dict[str, Any], usage: bool = True) -> str:
    lines: list[dict[str, Any]] = [
        {"type": "thread.started", "thread_id": "t1"},
        {"type": "turn.started"},
        *({"type": "item.completed", "item": item} for item in items),
    ]
    if text is not None:
        lines.append(
            {"type": "item.completed", "item": {"id": "i9", "type": "agent_message", "text": text}}
        )
    if usage:
        lines.append(
            {
                "type": "turn.completed",
                "usage": {"input_tokens": 5000, "cached_input_tokens": 4000, "output_tokens": 300},
            }
        )
    return "\n".join(json.dumps(x) for x in lines) + "\n"


def ops(*items: dict[str, Any]) -> str:
    return json.dumps({"operations": list(items)})


@pytest.fixture
def codex(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Fake:
    return fake(tmp_path, monkeypatch, "codex")


def test_codex_runs_exec_sealed_off_with_the_prompt_on_stdin(
    codex: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Path(os.environ["CODEX_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        '[mcp_servers.docs]\ncommand = "docs-mcp"\n[mcp_servers."my notes"]\ncommand = "x"\n'
    )
    monkeypatch.chdir(tmp_path)
    codex.script({"stdout": codex_events(ops(PNPM))})
    proposal = CodexCliBackend("gpt-5.5").propose(REQUEST, no_note)

    [call] = codex.calls
    argv = call["argv"]
    assert argv[0] == "exec" and argv[-1] == "-"
    for flag in ("--ephemeral", "--json", "--skip-git-repo-check"):
        assert flag in argv
    assert argv[argv.index("--sandbox") + 1] == "read-only"
    assert argv[argv.index("-m") + 1] == "gpt-5.5"
    settings = [argv[i + 1] for i, a in enumerate(argv) if a == "-c"]
    for setting in (
        'approval_policy="never"',
        'web_search="disabled"',
        "features.shell_tool=false",
        "features.unified_exec=false",
        "features.hooks=false",
        "project_doc_max_bytes=0",
        "mcp_servers.docs.enabled=false",
        'mcp_servers."my notes".enabled=false',
    ):
        assert setting in settings, setting
    assert USER.strip() in call["stdin"] and "reply with ONLY" in call["stdin"]
    assert "Living notes hold CLAIMS" in call["files"]["instructions"]
    assert "There are no tools here" in call["files"]["instructions"]
    assert call["cwd"] != str(tmp_path) and call["cwd_entries"] == []  # an empty folder
    [op] = proposal.operations
    assert op.path == "projects/acme-api/conventions.md"
    assert (proposal.usage.calls, proposal.usage.input_tokens, proposal.usage.output_tokens) == (
        1,
        5000,
        300,
    )


def test_codex_without_a_model_uses_its_own_and_takes_the_last_message(codex: Fake) -> None:
    first = {"id": "i1", "type": "agent_message", "text": "Thinking…"}
    codex.script({"stdout": codex_events(ops(PNPM), first, {"id": "r", "type": "reasoning"})})
    proposal = CodexCliBackend("").propose(REQUEST, no_note)
    assert "-m" not in codex.calls[0]["argv"] and len(proposal.operations) == 1


def test_codex_invalid_operations_get_one_correction_run(codex: Fake) -> None:
    codex.script({"stdout": codex_events(ops(PNPM, ESCAPE))}, {"stdout": codex_events(ops(PNPM))})
    proposal = CodexCliBackend("").propose(REQUEST, no_note)
    assert len(codex.calls) == 2
    second = codex.calls[1]["stdin"]
    assert "## Your previous answer" in second and "../../.bashrc" in second
    assert len(proposal.operations) == 1 and proposal.usage.calls == 2


@pytest.mark.parametrize(
    "reply",
    [
        {
            "stdout": codex_events(
                ops(PNPM), {"id": "c", "type": "command_execution", "command": "ls"}
            )
        },
        {
            "stdout": codex_events(ops(PNPM)),
            "stderr": "2026-12-02T18:24:28Z ERROR codex_core::tools::router: error=patch "
            "rejected: writing is blocked by read-only sandbox\n",
        },
    ],
    ids=["tool item", "tool refused by codex"],
)
def test_codex_an_answer_after_a_tool_attempt_is_refused(
    codex: Fake, reply: dict[str, Any]
) -> None:
    codex.script(reply)
    with pytest.raises(AnswerRefused, match="tried to use a tool"):
        CodexCliBackend("").propose(REQUEST, no_note)


def test_codex_failing_is_unavailable_with_its_reason(codex: Fake) -> None:
    failed = json.dumps({"type": "turn.failed", "error": {"message": "401 Unauthorized: bad key"}})
    codex.script({"stdout": failed + "\n", "exit": 1})
    with pytest.raises(BackendUnavailable, match="401 Unauthorized") as caught:
        CodexCliBackend("").propose(REQUEST, no_note)
    assert "\n" not in str(caught.value)


def test_codex_a_prompt_too_long_is_a_request_fault(codex: Fake) -> None:
    failed = json.dumps({"type": "error", "message": "context_length_exceeded: too many tokens"})
    codex.script({"stdout": failed + "\n", "exit": 1})
    with pytest.raises(BackendError) as caught:
        CodexCliBackend("").propose(REQUEST, no_note)
    assert caught.value.request_fault and not isinstance(caught.value, BackendUnavailable)


def test_codex_a_run_past_the_timeout_is_killed_and_unavailable(codex: Fake) -> None:
    codex.script({"stdout": codex_events(ops()), "sleep": 30})
    start = time.monotonic()
    with pytest.raises(BackendUnavailable, match="no answer within 1 s"):
        CodexCliBackend("", timeout=1).propose(REQUEST, no_note)
    assert time.monotonic() - start < 10


def test_codex_missing_is_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BackendUnavailable, match="not on PATH"):
        CodexCliBackend("").propose(REQUEST, no_note)


def test_codex_api_url_and_sign_in_follow_its_config(monkeypatch: pytest.MonkeyPatch) -> None:
    home = Path(os.environ["CODEX_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    assert api_url() == "https://api.openai.com/v1" and signed_in() is None
    (home / "auth.json").write_text("{}")
    assert api_url() == "https://chatgpt.com/backend-api/codex"
    assert signed_in() == "signed in (auth.json)"
    (home / "config.toml").write_text(
        'model_provider = "corp"\n[model_providers.corp]\nbase_url = "https://llm.corp/v1"\n'
    )
    assert api_url() == "https://llm.corp/v1"


# -- gemini ----------------------------------------------------------------------------------------


def gemini_output(
    text: str | None, tool_calls: int = 0, error: dict[str, Any] | None = None
) -> str:
    data: dict[str, Any] = {
        "session_id": "s",
        "stats": {
            "models": {"gemini-2.5-pro": {"tokens": {"prompt": 7000, "candidates": 250}}},
            "tools": {"totalCalls": tool_calls},
        },
    }
    if text is not None:
        data["response"] = text
    if error is not None:
        data["error"] = error
    return json.dumps(data, indent=2)


@pytest.fixture
def gemini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Fake:
    return fake(tmp_path, monkeypatch, "gemini")


def test_gemini_runs_headless_with_no_tool_no_hook_and_its_own_system_prompt(
    gemini: Fake,
) -> None:
    gemini.script({"stdout": "Loaded cached credentials.\n" + gemini_output(ops(PNPM))})
    proposal = GeminiCliBackend("gemini-2.5-pro").propose(REQUEST, no_note)

    [call] = gemini.calls
    argv = call["argv"]
    assert argv[:2] == ["-p", ""]
    assert argv[argv.index("--output-format") + 1] == "json"
    assert argv[argv.index("--approval-mode") + 1] == "default"
    assert argv[argv.index("--extensions") + 1] == "none"
    assert argv[argv.index("--allowed-mcp-server-names") + 1] == "wikimem-none"
    assert argv[argv.index("--model") + 1] == "gemini-2.5-pro"
    assert (
        'toolName = "*"' in call["files"]["policy"]
        and 'decision = "deny"' in call["files"]["policy"]
    )
    assert json.loads(call["files"]["workspace"]) == {"hooksConfig": {"enabled": False}}
    assert call["trust"] == "true"
    assert "Living notes hold CLAIMS" in call["files"]["system"]
    assert USER.strip() in call["stdin"]
    [op] = proposal.operations
    assert op.path == "projects/acme-api/conventions.md"
    assert (proposal.usage.calls, proposal.usage.input_tokens, proposal.usage.output_tokens) == (
        1,
        7000,
        250,
    )


def test_gemini_a_run_that_called_a_tool_is_refused(gemini: Fake) -> None:
    gemini.script({"stdout": gemini_output(ops(PNPM), tool_calls=1)})
    with pytest.raises(AnswerRefused, match="called 1 tool"):
        GeminiCliBackend("").propose(REQUEST, no_note)


def test_gemini_an_error_result_is_unavailable(gemini: Fake) -> None:
    error = {"type": "FatalAuthenticationError", "message": "Please set an Auth method", "code": 41}
    gemini.script({"stdout": gemini_output(None, error=error), "exit": 41})
    with pytest.raises(BackendUnavailable, match="status 41: Please set an Auth method"):
        GeminiCliBackend("").propose(REQUEST, no_note)


def test_gemini_invalid_operations_get_one_correction_run(gemini: Fake) -> None:
    gemini.script({"stdout": gemini_output(ops(ESCAPE))}, {"stdout": gemini_output(ops(PNPM))})
    proposal = GeminiCliBackend("").propose(REQUEST, no_note)
    assert len(gemini.calls) == 2 and len(proposal.operations) == 1
    assert "../../.bashrc" in gemini.calls[1]["stdin"]


def test_the_previews_show_the_command_the_rules_and_the_input() -> None:
    for made in (CodexCliBackend("gpt-5.5"), GeminiCliBackend("")):
        text = made.preview(REQUEST)
        assert "Living notes hold CLAIMS" in text and USER.strip() in text
        assert "--- stdin ---" in text
