"""`CodexCliBackend`: the dream request through the Codex CLI, non-interactively (`codex exec`).

For users signed in to Codex with a ChatGPT plan (or an OpenAI key in Codex's own config). It
is OPT-IN ONLY (`backend = "codex-cli"` under [dream]; "auto" never picks it): every dream
spends the user's plan.

Contract:
- One run per chunk: `codex exec --json -` with the prompt on stdin and the dream rules (plus
  how to answer: ONLY `{"operations": [...]}`, the schema quoted; `wikimem.dream.textreply`) as
  the model's instructions (`model_instructions_file`, replacing Codex's coding-agent prompt).
- The run is sealed off from the user's coding setup: read-only sandbox, approvals never asked
  (`approval_policy="never"`), `--ephemeral` (no session file), every tool Codex lets a config
  switch off switched off (shell, exec, web search, images, plugins, apps, sub-agents, skills,
  memories, plan), the user's MCP servers disabled by name, hooks off (wikimem's own included:
  the run is not recorded as a session and spawns no dream), no AGENTS.md read, and it runs in
  an empty temporary directory. Codex 0.171 still offers `apply_patch`, which the read-only
  sandbox refuses. The answer of a run in which the model tried any tool (a tool item in the
  JSON events, or Codex's log of a tool call it refused) is refused (`AnswerRefused`): the
  model was talked into acting, so its operations are not trusted, and the chunk is
  consolidated offline.
- The model's reply is the last `agent_message` of the JSON event stream; the JSON object is
  taken from it and validated; invalid operations or an unusable answer get ONE correction run
  (`correct_once`). Token usage comes from `turn.completed`.
- Codex itself keeps retrying a dead connection for minutes: `api_url()` is the host it is
  configured for, which `wikimem.dream.backends` probes before the first run of a dream. A
  missing binary, a non-zero exit or a run past `timeout` raise
  `BackendUnavailable` with a one-line reason (a prompt too long for the model is a request
  fault instead: the chunk is retried later).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import tomllib
from dataclasses import dataclass, field
from typing import Any

from wikimem.config import DreamConfig
from wikimem.dream import clirun, textreply
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

# Switched off with `-c features.<name>=false`, which a Codex that does not know a name only
# warns about (`--disable <name>` would fail the run).
FEATURES_OFF = (
    "shell_tool",
    "unified_exec",
    "view_image",
    "image_generation",
    "apps",
    "plugins",
    "hooks",
    "multi_agent",
    "multi_agent_v2",
    "memories",
    "goals",
    "sleep_tool",
    "browser_use",
    "computer_use",
    "skill_search",
    "tool_suggest",
    "shell_snapshot",
)
SETTINGS = (
    'approval_policy="never"',
    'web_search="disabled"',
    "skills.include_instructions=false",
    "project_doc_max_bytes=0",
    "tools.experimental_request_user_input.enabled=false",
    "tools.update_plan.enabled=false",
    "check_for_update_on_startup=false",
)
# Items of the JSON event stream that are not a tool at work.
QUIET_ITEMS = frozenset({"agent_message", "reasoning", "error"})
# Codex 0.171 reports a tool call it refused (the sandbox, a tool not offered) only in its log on
# stderr, not in the JSON events.
_TOOL_REFUSED = re.compile(r"tools::router: error=([^\n]{0,160})")
_TOO_LONG = re.compile(r"context[_ ](length|window)|too long|maximum context", re.I)
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def codex_home() -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")


def _user_config() -> dict[str, Any]:
    try:
        with open(os.path.join(codex_home(), "config.toml"), "rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def api_url(config: dict[str, Any] | None = None) -> str:
    """The host the configured Codex provider talks to (for the reachability probe)."""
    config = _user_config() if config is None else config
    provider = config.get("model_provider") or "openai"
    providers = config.get("model_providers")
    if isinstance(providers, dict) and isinstance(providers.get(provider), dict):
        base = providers[provider].get("base_url")
        if isinstance(base, str) and base:
            return base
    if provider == "ollama":
        return "http://localhost:11434/v1"
    if provider == "lmstudio":
        return "http://localhost:1234/v1"
    if os.environ.get("OPENAI_BASE_URL"):
        return os.environ["OPENAI_BASE_URL"]
    signed_in = os.path.exists(os.path.join(codex_home(), "auth.json"))
    if signed_in and not os.environ.get("OPENAI_API_KEY"):
        return "https://chatgpt.com/backend-api/codex"
    return "https://api.openai.com/v1"


def signed_in() -> str | None:
    """How Codex is signed in, as far as can be told without reading a secret (None: it is not)."""
    if os.path.exists(os.path.join(codex_home(), "auth.json")):
        return "signed in (auth.json)"
    for var in ("CODEX_API_KEY", "OPENAI_API_KEY"):
        if os.environ.get(var):
            return f"{var} set"
    config = _user_config()
    provider = config.get("model_provider")
    providers = config.get("model_providers")
    if isinstance(provider, str) and isinstance(providers, dict):
        entry = providers.get(provider)
        if isinstance(entry, dict):
            env_key = entry.get("env_key")
            if not env_key or os.environ.get(str(env_key)):
                return f"provider {provider!r}" + (f" ({env_key} set)" if env_key else "")
    return None


def _toml_key(name: str) -> str:
    return name if _BARE_KEY.match(name) else json.dumps(name)


def parse_events(stdout: str) -> tuple[str | None, list[str], list[str], Usage]:
    """(the last agent message, tool items seen, error messages, usage) of a `--json` run."""
    message: str | None = None
    tools: list[str] = []
    errors: list[str] = []
    usage = Usage()
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict):
            continue
        kind = event.get("type")
        item = event.get("item")
        if isinstance(item, dict) and isinstance(kind, str) and kind.startswith("item."):
            item_type = str(item.get("type", "?"))
            if item_type not in QUIET_ITEMS:
                if item_type not in tools:
                    tools.append(item_type)
            elif item_type == "agent_message" and kind == "item.completed":
                text = item.get("text")
                if isinstance(text, str):
                    message = text
            elif item_type == "error" and kind == "item.completed":
                errors.append(str(item.get("message", "")))
        elif kind == "turn.completed":
            raw = event.get("usage")
            if isinstance(raw, dict):
                usage = usage + Usage(
                    0, _int(raw.get("input_tokens")), _int(raw.get("output_tokens"))
                )
        elif kind in ("turn.failed", "error"):
            err = event.get("error")
            text = err.get("message") if isinstance(err, dict) else event.get("message")
            errors.append(str(text or kind))
    return message, tools, errors, usage


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass
class _Tally:
    runs: int = 0
    usage: Usage = field(default_factory=Usage)


class CodexCliBackend:
    name = "codex-cli"
    needs_prompt = True

    def __init__(
        self,
        model: str = "",
        *,
        binary: str = "codex",
        timeout: float = 300.0,
    ) -> None:
        self.model = model
        self.binary = binary
        self.timeout = timeout

    @classmethod
    def from_config(cls, config: DreamConfig) -> CodexCliBackend:
        return cls(
            config.model,
            timeout=float(config.timeout_seconds),
        )

    def describe(self) -> str:
        return f"codex-cli ({self.model or 'the model in your Codex config'})"

    def command(self, exe: str, instructions: str) -> list[str]:
        argv = [
            exe, "exec",
            "--skip-git-repo-check",
            "--ephemeral",
            "--sandbox", "read-only",
            "--json",
            "--color", "never",
            "-c", f"model_instructions_file={json.dumps(instructions)}",
        ]  # fmt: skip
        for setting in SETTINGS:
            argv += ["-c", setting]
        for feature in FEATURES_OFF:
            argv += ["-c", f"features.{feature}=false"]
        servers = _user_config().get("mcp_servers")
        if isinstance(servers, dict):
            for name in servers:
                argv += ["-c", f"mcp_servers.{_toml_key(str(name))}.enabled=false"]
        if self.model:
            argv += ["-m", self.model]
        return [*argv, "-"]  # the prompt is read from stdin

    def preview(self, request: DreamRequest) -> str:
        prompt = request.prompt
        assert prompt is not None
        argv = self.command(self.binary, "INSTRUCTIONS.md")
        return (
            f"$ {shlex.join(argv)}\n(run in an empty temporary directory)\n"
            f"--- INSTRUCTIONS.md (model_instructions_file) ---\n"
            f"{textreply.system_prompt(prompt.system)}"
            f"--- stdin ---\n{textreply.first_input(prompt.user)}"
        )

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        prompt = request.prompt
        if prompt is None:
            raise BackendError("the codex-cli backend was given no prompt")
        exe = shutil.which(self.binary)
        if exe is None:
            raise BackendUnavailable(
                f"codex-cli: {self.binary!r} is not on PATH (install the Codex CLI, or choose "
                "another [dream] backend)"
            )
        tally = _Tally()
        system = textreply.system_prompt(prompt.system)
        first = textreply.validate(
            self._run(exe, system, textreply.first_input(prompt.user), tally)
        )

        def ask_again(answer: Answer) -> Answer:
            stdin = textreply.correction_input(prompt.user, answer)
            return textreply.validate(self._run(exe, system, stdin, tally))

        final, corrected = correct_once(first, ask_again, "codex-cli", "answer", request.check)
        usage = tally.usage
        notes = [
            f"codex-cli {self.model or '(Codex default model)'}: {tally.runs} "
            f"run{'s' if tally.runs != 1 else ''}, {usage.input_tokens} input + "
            f"{usage.output_tokens} output tokens"
        ]
        if corrected:
            notes.append(corrected)
        return Proposal(final.operations, final.final_rejections, tuple(notes), usage)

    def _run(self, exe: str, system: str, stdin: str, tally: _Tally) -> str:
        """One `codex exec` run; the model's answer text."""
        with clirun.scratch() as tmp:
            instructions = os.path.join(tmp, "instructions.md")
            with open(instructions, "w", encoding="utf-8") as fh:
                fh.write(system)
            work = os.path.join(tmp, "work")
            os.mkdir(work)
            try:
                code, out, err = clirun.run(
                    self.command(exe, instructions), stdin, work, os.environ, self.timeout
                )
            except TimeoutError:
                raise BackendUnavailable(
                    f"codex-cli: no answer within {self.timeout:g} s (timeout)"
                ) from None
            except OSError as exc:
                raise BackendUnavailable(
                    f"codex-cli: could not run {exe}: {exc.strerror or exc}"
                ) from None
        message, tools, errors, usage = parse_events(out)
        tally.runs += 1
        tally.usage = tally.usage + Usage(1, usage.input_tokens, usage.output_tokens)
        refused = _TOOL_REFUSED.search(err)
        if tools or refused:
            what = ", ".join(tools) if tools else one_line(refused.group(1) if refused else "", 120)
            raise AnswerRefused(
                f"codex-cli: the model tried to use a tool ({what}) although none is offered; "
                "its answer is not applied"
            )
        if code != 0 or message is None:
            detail = next((e for e in reversed(errors) if e.strip()), "")
            if not detail:
                lines = [ln for ln in err.strip().splitlines() if ln.strip()]
                detail = lines[-1] if lines else f"exit status {code}"
            reason = f"codex-cli: codex exited with status {code}: {one_line(detail, 240)}"
            if code == 0:
                reason = f"codex-cli: codex gave no answer ({one_line(detail, 240)})"
            if _TOO_LONG.search(detail):
                raise BackendError(reason, request_fault=True)
            raise BackendUnavailable(reason)
        return message
