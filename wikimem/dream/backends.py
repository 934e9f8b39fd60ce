"""Which dream backend runs, and the checks every model call passes through.

Contract:
  - `BACKENDS`: the names `dream.backend` and `wikimem dream --backend` take. `auto` is
    `anthropic` when `ANTHROPIC_API_KEY` is set, else `offline`; it never picks a backend that
    spends a plan (`claude-cli`, `codex-cli`, `gemini-cli`) or a server (`openai`): those are
    chosen by name only.
  - `select_backend(name, config)` returns it. A model backend is `Lazy`: nothing is imported
    or built before the first call, and that first call checks, in this order and in seconds,
    that the backend can work here (the key is set, the CLI is installed) and that the host of
    its API takes a TCP connection (`wikimem.dream.reach`; the agent CLIs and the SDK would
    otherwise retry a dead network for a minute or more). A backend that cannot work is not an
    error: every call then raises `BackendUnavailable`, so the dream runs offline and says why
    in one line.
  - `Metered(backend, meter)` is what the dream calls for a model backend: before each call it
    refuses (`BackendUnavailable`) once the model was found unavailable in this dream or the
    day's cap would be passed; it redacts the prompt with the same rules as capture (events are
    redacted when recorded; this catches a secret that reached a note or an older record); it
    counts what each answered call cost. With `preview` set it calls nothing and keeps, per
    chunk, exactly what would have been sent (`wikimem dream --dry-run --show-prompt`), whether
    or not the backend could run here now (a missing key or CLI is said above the request).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from wikimem.capture.redact import redact
from wikimem.config import Config

# (the names live in the package module, which the command line reads without this one)
from wikimem.dream import BACKENDS, MODEL_BACKENDS, reach, resolve
from wikimem.dream.base import (
    Backend,
    BackendError,
    BackendUnavailable,
    DreamRequest,
    Prompt,
    Proposal,
    ReadNote,
)
from wikimem.dream.usage import Meter, estimate_tokens
from wikimem.errors import WikimemError


class Unavailable:
    """A model backend that could not be built: every call says why."""

    needs_prompt = True

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        raise BackendUnavailable(self.reason)

    def describe(self) -> str:
        return f"{self.name} (unavailable: {self.reason})"


def api_url(name: str, config: Config) -> str | None:
    """The host a model backend's requests go to, for the probe (None: not known here)."""
    if name in ("anthropic", "claude-cli"):
        if name == "claude-cli" and any(
            os.environ.get(v) for v in ("CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX")
        ):
            return None
        return os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"
    if name == "codex-cli":
        from wikimem.dream import codex_cli

        return codex_cli.api_url()
    if name == "gemini-cli":
        from wikimem.dream import gemini_cli

        return gemini_cli.api_url()
    if name == "openai":
        return config.dream.base_url or "https://api.openai.com/v1"
    return None


def precondition(name: str) -> str | None:
    """Why `name` cannot work on this machine, known without importing it (None: it may)."""
    if name == "anthropic" and not os.environ.get("ANTHROPIC_API_KEY", "").strip():
        return (
            "the anthropic dream backend needs ANTHROPIC_API_KEY; set it, or choose "
            'backend = "offline" (or another) under [dream] in config.toml'
        )
    binary = {"claude-cli": "claude", "codex-cli": "codex", "gemini-cli": "gemini"}.get(name)
    if binary and shutil.which(binary) is None:
        return f"{name}: {binary!r} is not on PATH (install it, or choose another [dream] backend)"
    return None


def build(name: str, config: Config, *, preview: bool = False) -> Backend:
    """The backend itself (imports its module); `Unavailable` when it cannot be made.
    `preview`: built only to show what it would send, so a missing key does not stop it."""
    try:
        if name == "anthropic":
            from wikimem.dream.anthropic_backend import AnthropicBackend

            return AnthropicBackend.from_config(config.dream, preview=preview)
        if name == "claude-cli":
            from wikimem.dream.claude_cli import ClaudeCliBackend

            return ClaudeCliBackend.from_config(config.dream)
        if name == "codex-cli":
            from wikimem.dream.codex_cli import CodexCliBackend

            return CodexCliBackend.from_config(config.dream)
        if name == "gemini-cli":
            from wikimem.dream.gemini_cli import GeminiCliBackend

            return GeminiCliBackend.from_config(config.dream)
        from wikimem.dream.openai_backend import OpenAIBackend

        return OpenAIBackend.from_config(config.dream, preview=preview)
    except BackendUnavailable as exc:
        return Unavailable(name, str(exc))


class Lazy:
    """A model backend built on its first call, after the checks that take seconds, not
    minutes, to tell the model cannot be reached."""

    needs_prompt = True

    def __init__(
        self,
        name: str,
        config: Config,
        *,
        probe: Callable[[str], str | None] = reach.unreachable,
    ) -> None:
        self.name = name
        self.config = config
        self._probe = probe
        self._backend: Backend | None = None
        self._preview: Backend | None = None
        self._checked = False

    def backend(self) -> Backend:
        if self._backend is None:
            why = precondition(self.name)
            self._backend = Unavailable(self.name, why) if why else build(self.name, self.config)
        return self._backend

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        if not self._checked:
            self._checked = True
            why = precondition(self.name)
            if why:
                self._backend = Unavailable(self.name, why)
            else:
                url = api_url(self.name, self.config)
                problem = self._probe(url) if url else None
                if problem:
                    self._backend = Unavailable(
                        self.name, f"{self.name}: the model's API is unreachable ({problem})"
                    )
        return self.backend().propose(request, read)

    def preview(self, request: DreamRequest) -> str:
        """What it would send, even when it cannot run here (no key, no CLI, no network): a
        preview is how a person decides whether to set it up and pay for it."""
        if self._preview is None:
            self._preview = build(self.name, self.config, preview=True)
        text = preview_of(self._preview, request)
        real = self.backend()
        if isinstance(real, Unavailable) and not isinstance(self._preview, Unavailable):
            text = (
                f"(it cannot run here yet: {real.reason}. It would send this once it can.)\n{text}"
            )
        return text

    def describe(self) -> str:
        return describe(self.backend())


def describe(backend: Backend) -> str:
    shower: Any = getattr(backend, "describe", None)
    return str(shower()) if shower is not None else backend.name


def select_backend(name: str, config: Config) -> Backend:
    name = resolve(name)
    if name == "offline":
        from wikimem.dream.offline import OfflineBackend

        return OfflineBackend()
    if name not in MODEL_BACKENDS:
        raise WikimemError(f"unknown dream backend {name!r}; expected one of {', '.join(BACKENDS)}")
    return Lazy(name, config)


def redacted(prompt: Prompt) -> Prompt:
    user, _ = redact(prompt.user)
    return prompt if user == prompt.user else replace(prompt, user=user)


class Metered:
    """A model backend behind the day's caps, the prompt's redaction and the dream's memory of
    the model being down."""

    needs_prompt = True

    def __init__(
        self, inner: Backend, meter: Meter | None, *, preview: list[str] | None = None
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.meter = meter
        self.down: str | None = None  # why the model is not asked again in this dream
        self.preview = preview

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        if request.prompt is not None:
            request = replace(request, prompt=redacted(request.prompt))
        if self.preview is not None:
            self.preview.append(preview_of(self.inner, request))
            return Proposal(())
        if self.down is not None:
            raise BackendUnavailable(self.down)
        if self.meter is not None:
            size = request.prompt.size if request.prompt is not None else 0
            why = self.meter.over_cap(estimate_tokens(size))
            if why:
                self.down = f"{self.name}: {why}"
                raise BackendUnavailable(self.down)
        try:
            proposal = self.inner.propose(request, read)
        except BackendUnavailable as exc:
            self.down = str(exc)
            raise
        except BackendError:
            raise
        if self.meter is not None:
            self.meter.record(self.name, proposal.usage)
        return proposal


def preview_of(backend: Backend, request: DreamRequest) -> str:
    """Exactly what `backend` would send for `request`."""
    if isinstance(backend, Unavailable):
        return f"({backend.name} is unavailable: {backend.reason}; nothing would be sent)"
    shower: Any = getattr(backend, "preview", None)
    if shower is None:
        prompt = request.prompt
        if prompt is None:
            return "(nothing is sent)"
        return f"--- system ---\n{prompt.system}\n--- user ---\n{prompt.user}"
    text: str = shower(request)
    return text


def as_json(data: object) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)
