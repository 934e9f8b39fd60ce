"""Typed configuration (docs/configuration.md) for everything off the hook path.

Contract: `load_config(home)` returns frozen dataclasses built from `config.toml` merged over
`rawconfig.DEFAULTS`; a malformed file raises `ConfigError` with a one-line reason that starts
with the file's path.
`default_config_text()` is what `wikimem init` writes: every default, commented, with the real
paths of the docs and templates that came with this installation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wikimem.home import Home
from wikimem.rawconfig import DEFAULTS, ConfigError, load_raw

__all__ = [
    "DEFAULT_CLAUDE_MODEL",
    "DEFAULT_CONFIG_TEXT",
    "Config",
    "ConfigError",
    "GateCommand",
    "default_config_text",
    "load_config",
]

# The model of the Claude backends (anthropic, claude-cli) when `dream.model` is empty.
DEFAULT_CLAUDE_MODEL = "claude-sonnet-5-5"

DEFAULT_CONFIG_TEXT = """\
# wikimem configuration. Every value below is the default; uncomment to change it.
# Every key: {docs}/configuration.md; the write gate: {docs}/gate.md

[inject]
# session_start_chars = 8000   # budget of memory injected when a session starts
# prompt_chars = 3000          # budget of memory injected with each prompt
# min_score = 0.0              # raise to inject only stronger matches per prompt

[dream]
# Which model (if any) a dream sends your sessions to: {docs}/dream-backends.md
# backend = "auto"        # auto = anthropic when ANTHROPIC_API_KEY is set, else offline;
#                         # opt-in: "claude-cli", "codex-cli", "gemini-cli" (spend your plan),
#                         # "openai" (any OpenAI-compatible server: Ollama, LM Studio, vLLM, ...)
# model = ""              # "" = the backend's default (anthropic, claude-cli: claude-sonnet-5-5)
# base_url = ""           # openai: e.g. "http://localhost:11434/v1" (Ollama)
# api_key_env = ""        # openai: the variable holding the key ("" = OPENAI_API_KEY if set)
# max_calls_per_day = 100         # model calls a day at most (0 = no cap); then offline
# max_tokens_per_day = 2000000    # model tokens a day at most (0 = no cap); then offline
# timeout_seconds = 300   # one model call (a CLI run, an HTTP answer)
# auto = true             # spawn a detached dream after a session ends when due
# min_new_events = 50
# min_interval_minutes = 180
# chunk_chars = 24000     # size of one batch of rendered events sent to a model
# notes_chars = 24000     # notes shown to a model with each batch (whole, while they fit)
# related_notes = 12      # existing notes shown to a model with each batch, at most
# index_chars = 6000      # the catalogue of note paths and titles shown to a model
# max_tokens = 8192
# max_retries = 4

[events]
# max_output_bytes = 4096     # tool input, tool output and messages are truncated beyond this
# max_prompt_bytes = 16384
# retention_days = 90

[export]                  # `wikimem export`: {docs}/export.md
# max_chars = 4000        # size of one managed block, its wrapper included
# project_notes = ["conventions", "commands"]  # a project's notes a repository file is given

[gate]
# secrets = "redact"      # or "block": refuse a note that contains a secret
# max_note_bytes = 20000
# protected = []          # globs of note paths no automatic write may touch, e.g. ["profile/**"]
# person_notes = "protect" # a dream/MCP/import never deletes or rewrites a note you wrote; "allow"
# timeout_seconds = 10    # default timeout of a pre/post write command

# [[gate.pre_write]]           # an example; ready-made commands: {templates}/gate/
# command = "python3 ~/bin/no-tokens.py"
# match = "**"
# timeout = 10

# [[gate.post_write]]
# command = "python3 ~/bin/mirror.py"
# match = "projects/**"
# async = true

[git]
# author_name = "wikimem"     # wikimem's own commits use this identity, not your git one;
#                             # sync's merges use your git user.name/email (this if unset)
# author_email = "wikimem@localhost"

[sync]                    # docs/sync.md
# remote = ""             # any git URL or path; `wikimem sync --remote URL` sets it
# auto = false            # sync before and after every dream, and after remember/forget/edit
# share_profile = true    # false: profile/ never goes to `remote` (a team's shared remote)
# profile_remote = ""     # with share_profile = false: a private remote for profile/ alone
# machine = ""            # this machine's name in commits (default: its host name)
"""


def default_config_text() -> str:
    from wikimem.resources import resource

    return DEFAULT_CONFIG_TEXT.replace("{docs}", resource("docs")).replace(
        "{templates}", resource("templates")
    )


@dataclass(frozen=True)
class InjectConfig:
    session_start_chars: int
    prompt_chars: int
    min_score: float


@dataclass(frozen=True)
class ExportConfig:
    max_chars: int
    project_notes: tuple[str, ...]


@dataclass(frozen=True)
class DreamConfig:
    backend: str
    model: str
    auto: bool
    min_new_events: int
    min_interval_minutes: int
    chunk_chars: int
    max_tokens: int
    max_retries: int
    index_chars: int
    related_notes: int
    notes_chars: int = 24000
    base_url: str = ""
    api_key_env: str = ""
    max_calls_per_day: int = 100
    max_tokens_per_day: int = 2000000
    timeout_seconds: int = 300


@dataclass(frozen=True)
class EventsConfig:
    max_output_bytes: int
    max_prompt_bytes: int
    retention_days: int


@dataclass(frozen=True)
class GateCommand:
    command: str
    match: str = "**"
    timeout: float = 10.0
    run_async: bool = False


@dataclass(frozen=True)
class GateConfig:
    secrets: str
    max_note_bytes: int
    protected: tuple[str, ...]
    pre_write: tuple[GateCommand, ...]
    post_write: tuple[GateCommand, ...]
    person_notes: str = "protect"


@dataclass(frozen=True)
class GitConfig:
    author_name: str
    author_email: str


@dataclass(frozen=True)
class SyncConfig:
    remote: str
    auto: bool
    share_profile: bool
    profile_remote: str
    machine: str


@dataclass(frozen=True)
class Config:
    inject: InjectConfig
    dream: DreamConfig
    events: EventsConfig
    gate: GateConfig
    git: GitConfig
    sync: SyncConfig
    export: ExportConfig

    @property
    def sync_remote(self) -> str:
        return self.sync.remote


def _commands(table: str, raw: object, default_timeout: float) -> tuple[GateCommand, ...]:
    if not isinstance(raw, list):
        raise ConfigError(f"gate.{table} must be an array of tables")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or not isinstance(item.get("command"), str):
            raise ConfigError(f"gate.{table}[{i}] needs a string `command`")
        match = item.get("match", "**")
        timeout = item.get("timeout", default_timeout)
        run_async = item.get("async", False)
        if not isinstance(match, str) or not isinstance(timeout, int | float):
            raise ConfigError(f"gate.{table}[{i}]: `match` must be a string, `timeout` a number")
        if not isinstance(run_async, bool):
            raise ConfigError(f"gate.{table}[{i}]: `async` must be true or false")
        out.append(GateCommand(item["command"], match, float(timeout), run_async))
    return tuple(out)


def from_raw(raw: dict[str, Any]) -> Config:
    gate = raw["gate"]
    if gate["secrets"] not in ("redact", "block"):
        raise ConfigError('gate.secrets must be "redact" or "block"')
    protected = gate["protected"]
    if not all(isinstance(p, str) for p in protected):
        raise ConfigError("gate.protected must be a list of strings")
    if gate["person_notes"] not in ("protect", "allow"):
        raise ConfigError('gate.person_notes must be "protect" or "allow"')
    timeout = float(gate["timeout_seconds"])
    return Config(
        inject=InjectConfig(**raw["inject"]),
        # over the defaults: a config cache written by an older wikimem lacks the newer keys
        dream=DreamConfig(**{**DEFAULTS["dream"], **raw["dream"]}),
        events=EventsConfig(**raw["events"]),
        gate=GateConfig(
            secrets=gate["secrets"],
            max_note_bytes=gate["max_note_bytes"],
            protected=tuple(protected),
            pre_write=_commands("pre_write", gate["pre_write"], timeout),
            post_write=_commands("post_write", gate["post_write"], timeout),
            person_notes=gate["person_notes"],
        ),
        git=GitConfig(**raw["git"]),
        sync=_sync(raw["sync"]),
        export=_export(raw.get("export", {})),
    )


def _export(raw: dict[str, Any]) -> ExportConfig:
    # over the defaults: a config cache written by an older wikimem lacks the table
    table = {**DEFAULTS["export"], **raw}
    notes = table["project_notes"]
    if not all(isinstance(n, str) and n and "/" not in n for n in notes):
        raise ConfigError('export.project_notes must be a list of note names, like "conventions"')
    if table["max_chars"] < 200:
        raise ConfigError("export.max_chars must be at least 200")
    return ExportConfig(max_chars=table["max_chars"], project_notes=tuple(notes))


def _sync(raw: dict[str, Any]) -> SyncConfig:
    # over the defaults: a config cache written by an older wikimem lacks the newer keys
    sync = SyncConfig(**{**DEFAULTS["sync"], **raw})
    if sync.profile_remote and sync.share_profile:
        raise ConfigError(
            "[sync] profile_remote needs share_profile = false (otherwise profile/ already "
            "goes to `remote`)"
        )
    return sync


def load_config(home: Home, *, write_cache: bool = True) -> Config:
    """`write_cache=False`: read only, the home is left exactly as it was (`wikimem eval`)."""
    try:
        return from_raw(load_raw(home, write_cache=write_cache))
    except ConfigError as exc:
        # Said the same way by every command: which file, then what is wrong in it.
        message = str(exc)
        if not message.startswith(home.config_path):
            message = f"{home.config_path}: {message}"
        raise ConfigError(message) from None
