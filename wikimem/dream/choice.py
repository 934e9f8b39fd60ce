"""Which dream backends this machine could use, which one a dream uses, and what it would send.

Contract (read-only: nothing is sent to a model, nothing written):
  - `survey(config)` returns one `Option` per backend: whether it could work here (an API key
    set, an agent CLI installed and signed in, a local OpenAI-compatible server answering its
    `/models`), what using it costs, and whether it is the one in use. Sign-in is judged from
    the files and variables each CLI keeps (never their content: no secret is read).
  - `in_use(config)` is the backend a dream uses now and why (`auto` resolved).
  - `estimate(home, config)` is what the next dream would send to a model: the events waiting,
    their rendered characters, the chunks, the characters per chunk with the notes and the
    catalogue, and the tokens that makes (about 4 characters a token).
  - `status_lines(home, config)` are the lines `wikimem status` shows: the backend in use, the
    last dream's fall-back, the events waiting for the model, today's use against the caps.

Spending is opt-in: `auto` picks `anthropic` only when `ANTHROPIC_API_KEY` is set, never a plan
or a server; this module only says what could be chosen and how.
"""

from __future__ import annotations

import os
import shutil
import threading
from dataclasses import dataclass
from typing import Any

from wikimem.config import DEFAULT_CLAUDE_MODEL, Config
from wikimem.dream import BACKENDS, MODEL_BACKENDS, resolve
from wikimem.home import Home

# (name, base URL) of the local servers looked for, on their default ports.
LOCAL_SERVERS = (
    ("Ollama", "http://127.0.0.1:11434/v1"),
    ("LM Studio", "http://127.0.0.1:1234/v1"),
    ("llama.cpp", "http://127.0.0.1:8080/v1"),
    ("vLLM", "http://127.0.0.1:8000/v1"),
)
SCAN_EVENTS = 50000  # events rendered for the estimate at most (a larger backlog: "at least")

COSTS = {
    "offline": "free; nothing leaves this machine",
    "anthropic": "Anthropic API credit, per token",
    "claude-cli": "your Claude plan's usage (Pro/Max) or API credit",
    "codex-cli": "your ChatGPT plan's Codex usage, or OpenAI API credit",
    "gemini-cli": "your Gemini CLI quota (free tier or plan), or Gemini API credit",
    "openai": "free on a local server; per token on a hosted one",
}


@dataclass(frozen=True)
class Option:
    name: str
    usable: bool
    detail: str
    cost: str
    in_use: bool = False

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Estimate:
    events: int
    event_chars: int
    chunks: int
    chunk_chars: int  # per chunk: events, notes, catalogue and rules
    tokens: int  # the whole dream, input
    complete: bool = True  # False: only the first SCAN_EVENTS events were looked at
    call_max: int = 0  # the most one call can carry with these settings

    def line(self) -> str:
        if not self.events:
            return (
                "no events wait yet; one model call carries at most "
                f"{self.call_max:,} characters (about {-(-self.call_max // 4):,} tokens)"
            )
        more = "at least " if not self.complete else ""
        return (
            f"{more}{self.events:,} events wait ({self.event_chars:,} characters rendered): "
            f"{self.chunks} model call(s) of up to {self.chunk_chars:,} characters, about "
            f"{self.tokens:,} input tokens in all (4 characters a token)"
        )


def in_use(config: Config, name: str | None = None) -> tuple[str, str]:
    """(the backend a dream uses, why)."""
    chosen = name or config.dream.backend
    resolved = resolve(chosen)
    if chosen == "auto":
        why = (
            "auto: ANTHROPIC_API_KEY is set"
            if resolved == "anthropic"
            else "auto: no ANTHROPIC_API_KEY, so nothing leaves this machine"
        )
    else:
        why = f'backend = "{chosen}" in config.toml'
    return resolved, why


def _which(binary: str) -> str | None:
    return shutil.which(binary)


def _local(urls: tuple[tuple[str, str], ...], timeout: float) -> dict[str, list[str] | None]:
    """Each local server's models, or None when it did not answer (probed in parallel)."""
    from wikimem.dream.openai_backend import list_models

    found: dict[str, list[str] | None] = {}

    def ask(url: str) -> None:
        found[url] = list_models(url, timeout=timeout)

    threads = [threading.Thread(target=ask, args=(url,), daemon=True) for _, url in urls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout + 1)
    return found


def survey(
    config: Config,
    *,
    local_servers: tuple[tuple[str, str], ...] = LOCAL_SERVERS,
    timeout: float = 0.5,
) -> list[Option]:
    from wikimem.dream import codex_cli, gemini_cli

    current, _ = in_use(config)
    dream = config.dream
    out: list[Option] = [Option("offline", True, "always available", COSTS["offline"])]
    key = bool(os.environ.get("ANTHROPIC_API_KEY", "").strip())
    out.append(
        Option(
            "anthropic",
            key,
            f"ANTHROPIC_API_KEY set; model {dream.model or DEFAULT_CLAUDE_MODEL}"
            if key
            else "ANTHROPIC_API_KEY not set",
            COSTS["anthropic"],
        )
    )
    claude = _which("claude")
    if claude:
        config_dir = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(
            os.path.expanduser("~"), ".claude"
        )
        signed = (
            os.path.exists(os.path.join(config_dir, ".credentials.json"))
            or bool(os.environ.get("CLAUDE_CODE_OAUTH_TOKEN"))
            or key
        )
        detail = f"{claude}; " + (
            "signed in" if signed else "sign-in not found (it may be in the system keychain)"
        )
    else:
        detail = "the `claude` CLI is not installed"
    out.append(Option("claude-cli", bool(claude), detail, COSTS["claude-cli"]))
    codex = _which("codex")
    signed_codex = codex_cli.signed_in() if codex else None
    detail = (
        f"{codex}; {signed_codex or 'not signed in (run `codex login`)'}"
        if codex
        else "the `codex` CLI is not installed"
    )
    out.append(Option("codex-cli", bool(codex and signed_codex), detail, COSTS["codex-cli"]))
    gemini = _which("gemini")
    signed_gemini = gemini_cli.signed_in() if gemini else None
    detail = (
        f"{gemini}; {signed_gemini or 'no sign-in found (run `gemini` once to sign in)'}"
        if gemini
        else "the `gemini` CLI is not installed"
    )
    out.append(Option("gemini-cli", bool(gemini and signed_gemini), detail, COSTS["gemini-cli"]))
    urls = list(local_servers)
    if dream.base_url and all(u != dream.base_url.rstrip("/") for _, u in urls):
        urls.insert(0, ("dream.base_url", dream.base_url.rstrip("/")))
    answers = _local(tuple(urls), timeout) if urls else {}
    answering = [
        (label, url, answers.get(url)) for label, url in urls if answers.get(url) is not None
    ]
    if answering:
        detail = "; ".join(
            f"{label} at {url} ({', '.join((models or [])[:4]) or 'no model listed'})"
            for label, url, models in answering
        )
    elif dream.base_url:
        detail = f"{dream.base_url} does not answer"
    else:
        detail = "no local server answers on the usual ports; set base_url for a hosted one"
    out.append(Option("openai", bool(answering), detail, COSTS["openai"]))
    return [Option(o.name, o.usable, o.detail, o.cost, o.name == current) for o in out]


def how_to_choose(config: Config) -> str:
    current, why = in_use(config)
    return (
        f"dreams use {current} ({why}). To change it, set `backend` under [dream] in "
        f"config.toml to one of {', '.join(BACKENDS)}; a backend that spends a plan or a server "
        "is used only when named there"
    )


def estimate(home: Home, config: Config) -> Estimate:
    from wikimem.dream.prompt import SYSTEM_PROMPT
    from wikimem.dream.reader import new_events
    from wikimem.dream.render import render_event
    from wikimem.dream.textreply import system_prompt
    from wikimem.dream.watermark import load_state
    from wikimem.wiki.plainfile import note_paths

    mark = load_state(home)
    events = 0
    chars = 0
    complete = True
    for _name, _end, record in new_events(home.events_dir, mark, []):
        if events >= SCAN_EVENTS:
            complete = False
            break
        events += 1
        try:
            line = render_event(record)
        except Exception:  # the dream deals with a record it cannot render; skip it here
            continue
        chars += len(line) + 1 if line else 0
    dream = config.dream
    chunks = -(-chars // dream.chunk_chars) if chars else 0
    notes = 0
    catalogue = 0
    if os.path.isdir(home.memory_dir):
        for rel in note_paths(home.memory_dir):
            catalogue += len(rel) + 40
            if "/sessions/" in rel:
                continue
            try:
                notes += os.path.getsize(os.path.join(home.memory_dir, rel))
            except OSError:
                continue
    rules = len(system_prompt(SYSTEM_PROMPT))
    per_chunk_extra = rules + min(notes, dream.notes_chars) + min(catalogue, dream.index_chars)
    per_chunk = min(chars, dream.chunk_chars) + per_chunk_extra
    total = chars + chunks * per_chunk_extra
    call_max = rules + dream.chunk_chars + dream.notes_chars + dream.index_chars
    return Estimate(events, chars, chunks, per_chunk, -(-total // 4), complete, call_max)


def status_lines(home: Home, config: Config) -> dict[str, str]:
    from wikimem.dream import carry, usage
    from wikimem.dream.lastrun import last_dream

    current, why = in_use(config)
    lines = {"dream backend": f"{current} ({why})"}
    last = last_dream(home)
    if last and last.get("fallback"):
        lines["last dream fall-back"] = f"{last.get('ts', '?')}: {last['fallback']}"
    waiting = sum(len(d.records) for d in carry.peek(home).revisit)
    if waiting:
        lines["events to revisit"] = (
            f"{waiting} consolidated offline while the model was unavailable; the next dream "
            "whose model answers sends them to it"
        )
    if current in MODEL_BACKENDS or usage.today_use(home):
        lines["model use today"] = usage.summary(
            home, config.dream.max_calls_per_day, config.dream.max_tokens_per_day
        )
    return lines
