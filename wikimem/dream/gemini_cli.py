"""`GeminiCliBackend`: the dream request through the Gemini CLI in headless mode (`gemini -p`).

For users signed in to Gemini CLI (a Google account, a Gemini API key, Vertex AI). It is OPT-IN
ONLY (`backend = "gemini-cli"` under [dream]; "auto" never picks it): every dream spends the
user's quota.

Contract:
- One run per chunk: `gemini -p "" --output-format json` with the prompt on stdin and the dream
  rules (plus how to answer: ONLY `{"operations": [...]}`, the schema quoted;
  `wikimem.dream.textreply`) as the system prompt (`GEMINI_SYSTEM_MD`, replacing Gemini CLI's
  coding-agent prompt).
- The run is sealed off from the user's coding setup: a policy file that denies every tool (the
  model is offered none), no extension, no MCP server, the default approval mode; it runs in an
  empty temporary folder whose workspace settings turn hooks off (wikimem's own included: the
  run is not recorded as a session and spawns no dream), trusted for this run only
  (`GEMINI_CLI_TRUST_WORKSPACE`, which nothing records). Gemini CLI still adds the user's global
  `~/.gemini/GEMINI.md` to the system prompt. If the run reports a tool call anyway, its answer
  is refused (`AnswerRefused`) and the chunk is consolidated offline.
- The CLI prints one JSON object: `response` is the model's text (the JSON object is taken from
  it and validated; invalid operations or an unusable answer get ONE correction run), `stats`
  the token counts, `error` a failure.
- Gemini CLI itself keeps retrying a dead connection for minutes: `api_url()` is the host it
  talks to, which `wikimem.dream.backends` probes before the first run of a dream. A missing
  binary, a non-zero exit, an error result or a run past `timeout` raise `BackendUnavailable` with a
  one-line reason.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
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

DENY_ALL_TOOLS = '[[rule]]\ntoolName = "*"\ndecision = "deny"\npriority = 999\n'
WORKSPACE_SETTINGS = {"hooksConfig": {"enabled": False}}
NO_MCP_SERVER = "wikimem-none"  # the only MCP server name allowed: no server has it
_TOO_LONG = re.compile(r"token count|too long|exceeds the maximum|context window", re.I)


def gemini_dir() -> str:
    base = os.environ.get("GEMINI_CLI_HOME") or os.path.expanduser("~")
    return os.path.join(base, ".gemini")


def api_url() -> str:
    """The host the Gemini CLI talks to (for the reachability probe)."""
    if os.environ.get("GOOGLE_GEMINI_BASE_URL"):
        return os.environ["GOOGLE_GEMINI_BASE_URL"]
    if os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true"):
        return "https://aiplatform.googleapis.com"
    if not (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")) and (
        os.path.exists(os.path.join(gemini_dir(), "oauth_creds.json"))
    ):
        return "https://cloudcode-pa.googleapis.com"
    return "https://generativelanguage.googleapis.com"


def signed_in() -> str | None:
    """How Gemini CLI is signed in, as far as can be told without reading a secret."""
    for var in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        if os.environ.get(var):
            return f"{var} set"
    if os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true"):
        return "Vertex AI"
    if os.path.exists(os.path.join(gemini_dir(), "oauth_creds.json")):
        return "signed in with Google"
    if os.path.exists(os.path.join(gemini_dir(), ".env")):
        return "~/.gemini/.env (a key may be set there)"
    return None


def _load(stdout: str) -> dict[str, Any] | None:
    text = stdout.strip()
    if "{" not in text:
        return None
    try:
        data = json.loads(text[text.index("{") :])
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def usage_of(result: dict[str, Any]) -> tuple[Usage, int]:
    """(the tokens of the run's model calls, the tool calls it reports)."""
    stats = result.get("stats")
    usage = Usage()
    tool_calls = 0
    if not isinstance(stats, dict):
        return usage, 0
    models = stats.get("models")
    if isinstance(models, dict):
        for entry in models.values():
            tokens = entry.get("tokens") if isinstance(entry, dict) else None
            if isinstance(tokens, dict):
                prompt = tokens.get("prompt", tokens.get("input"))
                usage = usage + Usage(0, _int(prompt), _int(tokens.get("candidates")))
    tools = stats.get("tools")
    if isinstance(tools, dict):
        tool_calls = _int(tools.get("totalCalls"))
    return usage, tool_calls


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass
class _Tally:
    runs: int = 0
    usage: Usage = field(default_factory=Usage)


class GeminiCliBackend:
    name = "gemini-cli"
    needs_prompt = True

    def __init__(
        self,
        model: str = "",
        *,
        binary: str = "gemini",
        timeout: float = 300.0,
    ) -> None:
        self.model = model
        self.binary = binary
        self.timeout = timeout

    @classmethod
    def from_config(cls, config: DreamConfig) -> GeminiCliBackend:
        return cls(
            config.model,
            timeout=float(config.timeout_seconds),
        )

    def describe(self) -> str:
        return f"gemini-cli ({self.model or 'the Gemini CLI default model'})"

    def command(self, exe: str, policy: str) -> list[str]:
        argv = [
            exe,
            "-p", "",  # headless; the prompt itself comes on stdin (no argument-size limit)
            "--output-format", "json",
            "--approval-mode", "default",
            "--policy", policy,
            "--extensions", "none",
            "--allowed-mcp-server-names", NO_MCP_SERVER,
        ]  # fmt: skip
        if self.model:
            argv += ["--model", self.model]
        return argv

    def preview(self, request: DreamRequest) -> str:
        prompt = request.prompt
        assert prompt is not None
        argv = self.command(self.binary, "NO-TOOLS.toml")
        return (
            f"$ GEMINI_SYSTEM_MD=SYSTEM.md GEMINI_CLI_TRUST_WORKSPACE=true {shlex.join(argv)}\n"
            "(run in an empty temporary folder whose .gemini/settings.json is "
            f"{json.dumps(WORKSPACE_SETTINGS)}; Gemini CLI adds your ~/.gemini/GEMINI.md)\n"
            f"--- NO-TOOLS.toml (--policy) ---\n{DENY_ALL_TOOLS}"
            f"--- SYSTEM.md (GEMINI_SYSTEM_MD) ---\n{textreply.system_prompt(prompt.system)}"
            f"--- stdin ---\n{textreply.first_input(prompt.user)}"
        )

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        prompt = request.prompt
        if prompt is None:
            raise BackendError("the gemini-cli backend was given no prompt")
        exe = shutil.which(self.binary)
        if exe is None:
            raise BackendUnavailable(
                f"gemini-cli: {self.binary!r} is not on PATH (install the Gemini CLI, or choose "
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

        final, corrected = correct_once(first, ask_again, "gemini-cli", "answer", request.check)
        usage = tally.usage
        notes = [
            f"gemini-cli {self.model or '(Gemini CLI default model)'}: {tally.runs} "
            f"run{'s' if tally.runs != 1 else ''}, {usage.input_tokens} input + "
            f"{usage.output_tokens} output tokens"
        ]
        if corrected:
            notes.append(corrected)
        return Proposal(final.operations, final.final_rejections, tuple(notes), usage)

    def _run(self, exe: str, system: str, stdin: str, tally: _Tally) -> str:
        """One `gemini -p` run; the model's answer text."""
        with clirun.scratch() as tmp:
            system_md = os.path.join(tmp, "system.md")
            policy = os.path.join(tmp, "no-tools.toml")
            work = os.path.join(tmp, "work")
            os.makedirs(os.path.join(work, ".gemini"))
            for path, text in (
                (system_md, system),
                (policy, DENY_ALL_TOOLS),
                (os.path.join(work, ".gemini", "settings.json"), json.dumps(WORKSPACE_SETTINGS)),
            ):
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
            env = dict(os.environ)
            env.update(
                {
                    "GEMINI_SYSTEM_MD": system_md,
                    "GEMINI_CLI_TRUST_WORKSPACE": "true",
                    "NO_COLOR": "1",
                    "NO_BROWSER": "true",
                }
            )
            try:
                code, out, err = clirun.run(
                    self.command(exe, policy), stdin, work, env, self.timeout
                )
            except TimeoutError:
                raise BackendUnavailable(
                    f"gemini-cli: no answer within {self.timeout:g} s (timeout)"
                ) from None
            except OSError as exc:
                raise BackendUnavailable(
                    f"gemini-cli: could not run {exe}: {exc.strerror or exc}"
                ) from None
        result = _load(out)
        tally.runs += 1
        usage, tool_calls = usage_of(result or {})
        tally.usage = tally.usage + Usage(1, usage.input_tokens, usage.output_tokens)
        if tool_calls:
            raise AnswerRefused(
                f"gemini-cli: the model called {tool_calls} tool(s) although none is offered; "
                "its answer is not applied"
            )
        error = result.get("error") if result else None
        answer = result.get("response") if result else None
        if code != 0 or error or not isinstance(answer, str):
            detail = ""
            if isinstance(error, dict):
                detail = str(error.get("message") or error.get("type") or "")
            elif error:
                detail = str(error)
            if not detail:
                lines = [ln for ln in err.strip().splitlines() if ln.strip()]
                detail = lines[-1] if lines else f"exit status {code}"
            reason = f"gemini-cli: gemini exited with status {code}: {one_line(detail, 240)}"
            if _TOO_LONG.search(detail):
                raise BackendError(reason, request_fault=True)
            raise BackendUnavailable(reason)
        return answer
