"""Which dream backend runs, and the checks every model call passes through.

Contract:
  - `BACKENDS`: the names `dream.backend` and `wikimem dream --backend` take. `auto` is
    `anthropic` when `ANTHROPIC_API_KEY` is set, else `offline`; it never picks a backend that
    spends a plan (`claude-cli`, `codex-cli`, `gemini-cli`) or a server (`openai`): those are
    chosen by name only.
  - `select_backend(name, config)` builds it. A model backend that cannot be built (no key, no
    binary) is not an error: it comes back as `Unavailable`, whose every call raises
    `BackendUnavailable`, so the dream runs offline and says why in one line.
  - `Metered(backend, meter)` is what the dream calls for a model backend: before each call it
    refuses (`BackendUnavailable`) once the model was found unavailable in this dream or the
    day's cap would be passed; it redacts the prompt with the same rules as capture (events are
    redacted when recorded; this catches a secret that reached a note or an older record); it
    counts what each answered call cost. With `preview` set it calls nothing and keeps, per
    chunk, exactly what would have been sent (`wikimem dream --dry-run --show-prompt`).
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any

from wikimem.capture.redact import redact
from wikimem.config import Config
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

MODEL_BACKENDS = ("anthropic", "claude-cli", "codex-cli", "gemini-cli", "openai")
BACKENDS = ("auto", "offline", *MODEL_BACKENDS)
PLAN_BACKENDS = ("claude-cli", "codex-cli", "gemini-cli")  # spend a subscription plan


def resolve(name: str) -> str:
    """The backend `name` stands for (`auto` resolved)."""
    if name == "auto":
        return "anthropic" if os.environ.get("ANTHROPIC_API_KEY", "").strip() else "offline"
    return name


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


def select_backend(name: str, config: Config) -> Backend:
    name = resolve(name)
    if name == "offline":
        from wikimem.dream.offline import OfflineBackend

        return OfflineBackend()
    if name not in MODEL_BACKENDS:
        raise WikimemError(f"unknown dream backend {name!r}; expected one of {', '.join(BACKENDS)}")
    try:
        if name == "anthropic":
            from wikimem.dream.anthropic_backend import AnthropicBackend

            return AnthropicBackend.from_config(config.dream)
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

        return OpenAIBackend.from_config(config.dream)
    except BackendUnavailable as exc:
        return Unavailable(name, str(exc))


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
