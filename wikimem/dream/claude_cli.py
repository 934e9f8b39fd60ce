"""`ClaudeCliBackend`: the dream request through the Claude Code CLI in print mode.

For users with a Claude subscription and no API key. It is OPT-IN ONLY (`backend = "claude-cli"`
under [dream]; "auto" never picks it): every dream spends the user's plan usage.

Contract:
- One run per chunk: `claude -p --output-format json --model <model>` with the prompt on stdin
  and `request.prompt.system` (plus how to answer: ONLY a JSON object `{"operations": [...]}`
  matching `OPERATIONS_SCHEMA`, which is quoted) as the session's system prompt.
- The run is sealed off from the user's coding setup: `--system-prompt` replaces Claude Code's
  coding-agent prompt (irrelevant here, and costly); `--tools ""` and `--strict-mcp-config` leave
  no tools; `--settings {"disableAllHooks": true}` keeps hooks, wikimem's own included, from
  recording this run as a session or spawning another dream; `--no-session-persistence` keeps it
  out of the user's resumable sessions. It runs in an empty temporary directory, so no project's
  CLAUDE.md or settings apply, and without the variables that mark a nested Claude Code session.
- The CLI prints one JSON object whose `result` is the model's text; the JSON object is taken
  from that text (```json fences and prose around it are tolerated) and validated with
  `parse_operations`. Invalid operations, or an answer without a usable object, are sent back
  ONCE in a second run (the prompt, the previous answer and each rejection with its reason); the
  corrected answer replaces the first, whatever is still invalid is returned in
  `Proposal.rejected`, and an unusable correction keeps the first answer's valid operations.
- A missing binary, a non-zero exit, an error result or a run longer than `timeout` seconds
  raise `BackendUnavailable` with a one-line reason (the dream then runs offline). A run of
  more than one turn (the model called a tool, which Claude Code refused: none is offered)
  raises `AnswerRefused`. Token usage and the reported cost go in the notes.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wikimem.config import DEFAULT_CLAUDE_MODEL, DreamConfig
from wikimem.dream import textreply
from wikimem.dream.base import (
    AnswerRefused,
    BackendError,
    BackendUnavailable,
    DreamRequest,
    Proposal,
    ReadNote,
)
from wikimem.dream.correction import Answer, correct_once, one_line
from wikimem.dream.usage import Usage

Runner = Callable[..., subprocess.CompletedProcess[str]]

HOOKS_OFF = json.dumps({"disableAllHooks": True})
# Set by Claude Code for the processes it starts (hooks, and so a dream a hook spawned); a run
# that inherits them counts as nested in the user's session.
NESTED_SESSION_VARS = (
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_CHILD_SESSION",
    "CLAUDE_PROJECT_DIR",
)
# Kept here too: tests and callers import them from this module.
system_prompt = textreply.system_prompt
extract_json = textreply.extract_json
correction_prompt = textreply.correction_input
_validate = textreply.validate


@dataclass
class _Tally:
    """Usage over the runs of one `propose` (mutable: it accumulates)."""

    runs: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read: int = 0
    cost_usd: float = 0.0

    def add(self, result: dict[str, Any]) -> None:
        self.runs += 1
        usage = result.get("usage")
        if isinstance(usage, dict):
            self.input_tokens += _int(usage.get("input_tokens"))
            self.input_tokens += _int(usage.get("cache_creation_input_tokens"))
            self.output_tokens += _int(usage.get("output_tokens"))
            self.cache_read += _int(usage.get("cache_read_input_tokens"))
        cost = result.get("total_cost_usd")
        if isinstance(cost, int | float) and not isinstance(cost, bool):
            self.cost_usd += float(cost)


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _child_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in NESTED_SESSION_VARS}


def _load_result(stdout: str) -> dict[str, Any] | None:
    """The `--output-format json` object; tolerates stray lines printed around it."""
    text = stdout.strip()
    candidates = [text] + [line.strip() for line in reversed(text.splitlines())]
    for candidate in candidates:
        if not candidate.startswith("{"):
            continue
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(data, dict):
            return data
    return None


class ClaudeCliBackend:
    name = "claude-cli"
    needs_prompt = True

    def __init__(
        self,
        model: str,
        *,
        binary: str = "claude",
        timeout: float = 300.0,
        runner: Runner = subprocess.run,
    ) -> None:
        self.model = model
        self.binary = binary
        self.timeout = timeout
        self._runner = runner

    @classmethod
    def from_config(cls, config: DreamConfig) -> ClaudeCliBackend:
        return cls(
            config.model or DEFAULT_CLAUDE_MODEL,
            timeout=float(config.timeout_seconds),
        )

    def describe(self) -> str:
        return f"claude-cli ({self.model})"

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        prompt = request.prompt
        if prompt is None:
            raise BackendError("the claude-cli backend was given no prompt")
        exe = shutil.which(self.binary)
        if exe is None:
            raise BackendUnavailable(
                f"the claude-cli dream backend needs the Claude Code CLI, but {self.binary!r} "
                "is not on PATH; install Claude Code, or choose another [dream] backend"
            )
        system = system_prompt(prompt.system)
        tally = _Tally()
        first = _validate(*self._run(exe, system, textreply.first_input(prompt.user), tally))

        def ask_again(answer: Answer) -> Answer:
            return _validate(*self._run(exe, system, correction_prompt(prompt.user, answer), tally))

        final, corrected = correct_once(first, ask_again, "claude-cli", "answer", request.check)
        usage = Usage(tally.runs, tally.input_tokens + tally.cache_read, tally.output_tokens)
        return Proposal(
            final.operations, final.final_rejections, self._notes(tally, corrected), usage
        )

    def command(self, exe: str, system: str) -> list[str]:
        return [
            exe, "-p",
            "--output-format", "json",
            "--model", self.model,
            "--system-prompt", system,
            "--tools", "",
            "--strict-mcp-config",
            "--settings", HOOKS_OFF,
            "--no-session-persistence",
        ]  # fmt: skip

    def preview(self, request: DreamRequest) -> str:
        prompt = request.prompt
        assert prompt is not None
        argv = self.command(self.binary, "SYSTEM_PROMPT")
        return (
            f"$ {shlex.join(argv)}\n(run in an empty temporary directory)\n"
            f"--- SYSTEM_PROMPT (--system-prompt) ---\n{system_prompt(prompt.system)}"
            f"--- stdin ---\n{textreply.first_input(prompt.user)}"
        )

    def _run(self, exe: str, system: str, stdin: str, tally: _Tally) -> tuple[str, bool]:
        """One CLI run; the model's answer text, and whether it was cut off at max_tokens."""
        with tempfile.TemporaryDirectory(
            prefix="wikimem-dream-", ignore_cleanup_errors=True
        ) as cwd:
            try:
                done = self._runner(
                    self.command(exe, system),
                    input=stdin,
                    capture_output=True,
                    text=True,
                    encoding="utf-8",  # claude speaks UTF-8 whatever the user's locale is
                    errors="replace",
                    timeout=self.timeout,
                    cwd=cwd,
                    env=_child_env(),
                    check=False,
                )
            except subprocess.TimeoutExpired:
                raise BackendUnavailable(
                    f"claude did not answer within {self.timeout:g} s (timeout); try again later"
                ) from None
            except OSError as exc:
                raise BackendUnavailable(f"could not run {exe}: {exc.strerror or exc}") from None
        result = _load_result(done.stdout or "")
        if done.returncode != 0:
            detail = ""
            if result is not None and isinstance(result.get("result"), str):
                detail = result["result"]
            if not detail.strip():
                lines = (done.stderr or "").strip().splitlines()
                detail = lines[-1] if lines else "no message"
            raise BackendUnavailable(
                f"claude exited with status {done.returncode}: {one_line(detail)}"
            )
        if result is None:
            shown = one_line(done.stdout or "", 120) or "nothing"
            raise BackendError(f"claude printed no JSON result (got: {shown})")
        tally.add(result)
        subtype = result.get("subtype", "success")
        text = result.get("result")
        if result.get("is_error") or subtype != "success" or not isinstance(text, str):
            detail = (
                text if isinstance(text, str) and text.strip() else str(result.get("errors") or "")
            )
            raise BackendUnavailable(
                f"claude reported an error ({subtype}): {one_line(detail) or 'no message'}"
            )
        turns = result.get("num_turns")
        if (isinstance(turns, int) and turns > 1) or result.get("permission_denials"):
            # No tool is offered, so a second turn means the model called one anyway (Claude
            # Code answered "no such tool"): a model talked into acting is not trusted.
            raise AnswerRefused(
                f"claude-cli: the model tried to use a tool ({turns} turns) although none is "
                "offered; its answer is not applied"
            )
        return text, result.get("stop_reason") == "max_tokens"

    def _notes(self, tally: _Tally, corrected: str) -> tuple[str, ...]:
        usage = (
            f"claude-cli {self.model}: {tally.runs} run{'s' if tally.runs != 1 else ''}, "
            f"{tally.input_tokens} input + {tally.output_tokens} output tokens, "
            f"{tally.cache_read} read from cache"
        )
        if tally.cost_usd:
            usage += f", ${tally.cost_usd:.4f} as estimated by Claude Code"
        return (usage, corrected) if corrected else (usage,)
