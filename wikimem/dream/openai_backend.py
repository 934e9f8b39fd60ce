"""`OpenAIBackend`: the dream request to any OpenAI-compatible Chat Completions endpoint.

A local Ollama, LM Studio, llama.cpp or vLLM server, or a hosted one (OpenAI itself, OpenRouter,
Groq, …). OPT-IN ONLY (`backend = "openai"` under [dream], with `base_url` and `model`).

Contract:
- One `POST {base_url}/chat/completions` per chunk: a system message (the dream rules plus how
  to answer: ONLY `{"operations": [...]}`, the schema quoted; `wikimem.dream.textreply`) and
  the prompt as the user message; no tools, no streaming, `max_tokens` (or
  `max_completion_tokens`, for a server that refuses the older name). The JSON object is taken
  from the reply's text and validated; invalid operations or an unusable reply get ONE
  correction call (the previous answer as an assistant message, what was wrong as a user one).
- The key: the variable named by `api_key_env`; without one, `OPENAI_API_KEY` is sent only to
  api.openai.com. A local server gets no key unless you name one.
- `model` empty: the server's only model (`GET /models`), else `BackendUnavailable` naming them.
- Failures: no connection (refused, no route, name lookup, nothing within the 3 s connect
  timeout; `wikimem.dream.backends` also probes the host once per dream) → `BackendUnavailable` at once, never retried; 401/403 (the
  key refused), 404 (no such model or endpoint) → `BackendUnavailable`; 429 and 5xx → retried
  with backoff (honouring `retry-after`) at most `max_retries` times, then `BackendUnavailable`;
  another 4xx → a request fault (this chunk is retried by a later dream); no answer within
  `timeout` → `BackendUnavailable`.

A small httpx client rather than the `openai` SDK: one endpoint and a handful of fields, the
retry and timeout policy above (the SDK retries on its own), and servers that are compatible
only in part (docs/dependencies.md).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx2

from wikimem.config import DreamConfig
from wikimem.dream import textreply
from wikimem.dream.anthropic_backend import BACKOFF_MAX, RETRY_AFTER_MAX, retry_after_seconds
from wikimem.dream.base import (
    BackendError,
    BackendUnavailable,
    DreamRequest,
    Proposal,
    ReadNote,
)
from wikimem.dream.correction import Answer, correct_once, one_line, what_was_wrong
from wikimem.dream.usage import Usage

OPENAI_URL = "https://api.openai.com/v1"
CONNECT_TIMEOUT = 3.0
BACKOFF_INITIAL = 2.0


def default_key_env(base_url: str) -> str:
    """The variable a key is read from when `api_key_env` is empty ("" for none)."""
    host = urlsplit(base_url).hostname or ""
    return "OPENAI_API_KEY" if host == "api.openai.com" else ""


class _Unusable(Exception):
    """The server's 200 answer could not be read as a Chat Completions reply."""


@dataclass
class _Tally:
    calls: int = 0
    usage: Usage = field(default_factory=Usage)
    retries: int = 0


class OpenAIBackend:
    name = "openai"
    needs_prompt = True

    def __init__(
        self,
        base_url: str,
        model: str = "",
        *,
        api_key: str | None = None,
        max_tokens: int = 8192,
        max_retries: int = 2,
        timeout: float = 300.0,
        http_client: httpx2.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = (base_url or OPENAI_URL).rstrip("/")
        self.model = model
        self.max_tokens = max_tokens
        self.max_retries = max(0, max_retries)
        self._sleep = sleep
        self._tokens_field = "max_tokens"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = http_client or httpx2.Client(
            timeout=httpx2.Timeout(timeout, connect=CONNECT_TIMEOUT)
        )
        self._headers = headers

    @classmethod
    def from_config(cls, config: DreamConfig, *, preview: bool = False) -> OpenAIBackend:
        """`preview`: built only to show the request (nothing is sent), so a key is not needed."""
        base_url = config.base_url or OPENAI_URL
        env_name = config.api_key_env or default_key_env(base_url)
        key = os.environ.get(env_name, "").strip() if env_name else ""
        if not key and env_name and preview:
            key = "not set: preview only"  # shown as "[the key]"; never sent
        if config.api_key_env and not key:
            raise BackendUnavailable(
                f"openai: api_key_env names {config.api_key_env}, which is not set"
            )
        if not key and default_key_env(base_url):
            raise BackendUnavailable("openai: api.openai.com needs OPENAI_API_KEY (not set)")
        return cls(
            base_url,
            config.model,
            api_key=key or None,
            max_tokens=config.max_tokens,
            max_retries=min(config.max_retries, 2),
            timeout=float(config.timeout_seconds),
        )

    def describe(self) -> str:
        return f"openai ({self.model or 'the server model'} at {self.base_url})"

    def request_body(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": messages,
            self._tokens_field: self.max_tokens,
            "stream": False,
        }

    def messages(self, system: str, user: str) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": textreply.system_prompt(system)},
            {"role": "user", "content": textreply.first_input(user)},
        ]

    def preview(self, request: DreamRequest) -> str:
        prompt = request.prompt
        assert prompt is not None
        body = self.request_body(self.messages(prompt.system, prompt.user))
        auth = "Authorization: Bearer [the key]\n" if self._headers else ""
        return f"POST {self.base_url}/chat/completions\n{auth}" + json.dumps(
            body, indent=1, ensure_ascii=False
        )

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        prompt = request.prompt
        if prompt is None:
            raise BackendError("the openai backend was given no prompt")
        if not self.model:
            self.model = self._only_model()
        tally = _Tally()
        messages = self.messages(prompt.system, prompt.user)
        first = self._answer(messages, tally)

        def ask_again(answer: Answer) -> Answer:
            again = [
                *messages,
                {"role": "assistant", "content": str(answer.raw)[: textreply.ANSWER_CLIP]},
                {
                    "role": "user",
                    "content": what_was_wrong(answer, "answer")
                    + "\n\nAnswer again with ONLY the corrected COMPLETE JSON object "
                    '{"operations": [...]}, the valid operations included: it replaces your '
                    "previous answer. Drop an operation you cannot fix.",
                },
            ]
            return self._answer(again, tally)

        final, corrected = correct_once(first, ask_again, "openai", "answer", request.check)
        usage = tally.usage
        notes = [
            f"openai {self.model}: {tally.calls} request{'s' if tally.calls != 1 else ''}, "
            f"{usage.input_tokens} input + {usage.output_tokens} output tokens"
        ]
        if tally.retries:
            notes.append(f"openai: retried {tally.retries} time(s)")
        if corrected:
            notes.append(corrected)
        return Proposal(final.operations, final.final_rejections, tuple(notes), usage)

    def _answer(self, messages: list[dict[str, str]], tally: _Tally) -> Answer:
        try:
            text, truncated = self._complete(messages, tally)
        except _Unusable as exc:
            return Answer(str(exc), (), (), str(exc))
        return textreply.validate(text, truncated)

    def _only_model(self) -> str:
        try:
            response = self._client.get(f"{self.base_url}/models", headers=self._headers)
            data = response.json() if response.status_code == 200 else {}
        except (httpx2.HTTPError, ValueError) as exc:
            raise BackendUnavailable(
                f"openai: set `model` under [dream] (the models of {self.base_url} could not be "
                f"listed: {one_line(str(exc), 120)})"
            ) from None
        items = data.get("data") if isinstance(data, dict) else None
        names = [
            str(m["id"])
            for m in items or []
            if isinstance(m, dict) and isinstance(m.get("id"), str)
        ]
        if len(names) == 1:
            return names[0]
        offered = ", ".join(names[:8]) or "none listed"
        raise BackendUnavailable(
            f"openai: set `model` under [dream] to one of the server's models ({offered})"
        )

    def _complete(self, messages: list[dict[str, str]], tally: _Tally) -> tuple[str, bool]:
        """One chat completion: (the reply's text, whether it was cut at the token limit)."""
        attempt = 0
        switched = False
        while True:
            try:
                response = self._client.post(
                    f"{self.base_url}/chat/completions",
                    json=self.request_body(messages),
                    headers=self._headers,
                )
            except (httpx2.ConnectError, httpx2.ConnectTimeout) as exc:
                raise BackendUnavailable(
                    f"openai: cannot connect to {self.base_url} ({one_line(str(exc), 120) or 'connection failed'})"
                ) from None
            except httpx2.TimeoutException:
                raise BackendUnavailable(
                    f"openai: {self.base_url} did not answer in time (timeout)"
                ) from None
            except httpx2.HTTPError as exc:
                raise BackendUnavailable(
                    f"openai: {self.base_url}: {one_line(str(exc), 160) or exc.__class__.__name__}"
                ) from None
            tally.calls += 1
            status = response.status_code
            if status == 200:
                return self._read(response, tally)
            tally.usage = tally.usage + Usage(1, 0, 0)
            detail = _error_text(response)
            if (
                status == 400
                and not switched
                and "max_completion_tokens" in detail
                and self._tokens_field == "max_tokens"
            ):
                self._tokens_field = "max_completion_tokens"
                switched = True
                continue
            reason = f"{status}: {detail}" if detail else str(status)
            if status in (401, 403):
                raise BackendUnavailable(f"openai: the server refused the key ({reason})")
            if status == 404:
                raise BackendUnavailable(
                    f"openai: {self.base_url} does not serve model {self.model!r} ({reason})"
                )
            if status != 429 and status < 500:
                raise BackendError(
                    f"openai: the request was refused ({reason})", request_fault=True
                )
            if attempt >= self.max_retries:
                raise BackendUnavailable(
                    f"openai: still failing after {attempt} retr{'y' if attempt == 1 else 'ies'} "
                    f"(last: {reason})"
                )
            wait = retry_after_seconds(response.headers)
            wait = (
                min(BACKOFF_INITIAL * 2**attempt, BACKOFF_MAX)
                if wait is None
                else min(wait, RETRY_AFTER_MAX)
            )
            tally.retries += 1
            self._sleep(wait)
            attempt += 1

    @staticmethod
    def _read(response: httpx2.Response, tally: _Tally) -> tuple[str, bool]:
        try:
            data = response.json()
        except (ValueError, RecursionError):
            tally.usage = tally.usage + Usage(1, 0, 0)
            raise _Unusable("the server's answer was not JSON") from None
        usage = data.get("usage") if isinstance(data, dict) else None
        if isinstance(usage, dict):
            tally.usage = tally.usage + Usage(
                1, _int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens"))
            )
        else:
            tally.usage = tally.usage + Usage(1, 0, 0)
        choices = data.get("choices") if isinstance(data, dict) else None
        choice = choices[0] if isinstance(choices, list) and choices else None
        message = choice.get("message") if isinstance(choice, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):  # content parts
            content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        if not isinstance(content, str) or not content.strip():
            raise _Unusable("the reply held no text (a JSON object was expected)")
        truncated = isinstance(choice, dict) and choice.get("finish_reason") == "length"
        return content, truncated


def _error_text(response: httpx2.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return one_line(response.text, 200)
    err = data.get("error") if isinstance(data, dict) else None
    if isinstance(err, dict):
        return one_line(str(err.get("message") or err.get("type") or ""), 200)
    if isinstance(err, str):
        return one_line(err, 200)
    return one_line(json.dumps(data), 200)


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def list_models(
    base_url: str, api_key: str | None = None, timeout: float = 1.0
) -> list[str] | None:
    """The models a server lists (None: it did not answer as a Chat Completions server)."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        with httpx2.Client(timeout=timeout) as client:
            response = client.get(f"{base_url.rstrip('/')}/models", headers=headers)
        if response.status_code != 200:
            return None
        data = response.json()
    except (httpx2.HTTPError, ValueError):
        return None
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    return [str(m["id"]) for m in items if isinstance(m, dict) and isinstance(m.get("id"), str)]
