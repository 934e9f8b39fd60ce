"""`AnthropicBackend`: the dream backend that asks the Anthropic Messages API for note operations.

Contract:
- One request per chunk: `request.prompt.system` as a cached system block, `request.prompt.user`
  as the user message, and one tool, `apply_operations`, whose input schema is
  `OPERATIONS_SCHEMA`; the tool choice is forced, so the answer is always a tool call.
- The tool input is validated with `parse_operations`. When some operations are invalid (or the
  model did not call the tool, or sent input of the wrong shape) the reasons go back ONCE as an
  error `tool_result`, asking for the corrected complete list; the corrected answer replaces the
  first. Whatever is still invalid comes back in `Proposal.rejected`: invalid operations never
  raise. If the corrected answer is unusable, the first answer's valid operations are kept.
- 429, 5xx (529 overloaded included) and a connection dropped mid-answer are retried with
  exponential backoff, or after the server's `retry-after` when it sends one, at most
  `max_retries` times; then `BackendUnavailable`. A connection that cannot be made at all (no
  network, refused, nothing within `CONNECT_TIMEOUT`), a request that times out, a key refused
  (401, 403) or a model unknown (404) are `BackendUnavailable` at once: the dream then goes on
  offline within seconds (and `wikimem.dream.backends` probes the host before the first
  request of a dream). Another 4xx is a request fault.
- `Proposal.notes` tells the user the token usage and the retries; `Proposal.usage` counts them.

The SDK's own retries are off (`max_retries=0`): the loop here is the only one, and its waits go
through the injected `sleep`, so tests can see them without waiting. The SDK's cannot replace it:
they retry a connection that was never made as often as one dropped mid-answer (a dream offline
would wait half a minute, not seconds), wait as long as any `retry-after` asks, retry 409, and
say nothing about the retries they made (docs/dependencies.md).
"""

from __future__ import annotations

import email.utils
import json
import os
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anthropic
import httpx2
from anthropic.types import (
    Message,
    MessageParam,
    TextBlockParam,
    ToolChoiceToolParam,
    ToolParam,
    ToolResultBlockParam,
    ToolUseBlock,
)

from wikimem.config import DEFAULT_CLAUDE_MODEL, DreamConfig
from wikimem.dream.base import (
    BackendError,
    BackendUnavailable,
    DreamRequest,
    Proposal,
    ReadNote,
)
from wikimem.dream.correction import Answer, correct_once, one_line, what_was_wrong
from wikimem.dream.ops import OPERATIONS_SCHEMA, Operation, Rejected, parse_operations
from wikimem.dream.usage import Usage

TOOL_NAME = "apply_operations"
TOOL_DESCRIPTION = (
    "Apply changes to the wiki: a list of upsert, delete and move operations, applied in order. "
    "Call it exactly once with every change; an empty list when nothing durable was learned."
)
BACKOFF_INITIAL = 2.0  # seconds before the first retry; doubles each time
BACKOFF_MAX = 60.0
RETRY_AFTER_MAX = 600.0  # a server asking for more than this is not worth waiting for in full
# Explicit, so a large configured max_tokens is not refused by the SDK's non-streaming guard.
REQUEST_TIMEOUT = 600.0
CONNECT_TIMEOUT = 5.0  # a host that does not take the connection in this long is not there
API_URL = "https://api.anthropic.com"
PREVIEW_KEY = "not set: preview only"  # a preview builds the request without sending it


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """The wait a response asks for: `retry-after-ms`, or `retry-after` in seconds or as a date."""
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    parsed = email.utils.parsedate_tz(value)
    if parsed is None:
        return None
    return max(0.0, email.utils.mktime_tz(parsed) - (time.time() if now is None else now))


def _retryable(status: int) -> bool:
    return status == 429 or status >= 500


def _status_reason(exc: anthropic.APIStatusError) -> str:
    kind = exc.type or ""
    detail = exc.api_message or ""
    label = f"{exc.status_code} {kind}".strip()
    return f"{label}: {one_line(detail, 200)}" if detail else label


@dataclass
class _Tally:
    """Usage and retries over the requests of one `propose` (mutable: it accumulates)."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read: int = 0
    cache_write: int = 0
    retries: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def add(self, message: Message) -> None:
        usage = message.usage
        self.requests += 1
        self.input_tokens += usage.input_tokens
        self.output_tokens += usage.output_tokens
        self.cache_read += usage.cache_read_input_tokens or 0
        self.cache_write += usage.cache_creation_input_tokens or 0


def _validate(message: Message) -> Answer:
    tool_uses = [b for b in message.content if isinstance(b, ToolUseBlock)]
    truncated = message.stop_reason == "max_tokens"
    cut = " (the answer was cut off at the max_tokens limit: send fewer or shorter operations)"
    calls = [b for b in tool_uses if b.name == TOOL_NAME]
    if not calls:
        why = f"the reply did not call the `{TOOL_NAME}` tool"
        return Answer(message, (), (), why + (cut if truncated else ""), truncated)
    ops: list[Operation] = []
    rejected: list[Rejected] = []
    for call in calls:
        data = call.input
        if not isinstance(data, dict) or not isinstance(data.get("operations"), list):
            why = f'the `{TOOL_NAME}` input must be {{"operations": [...]}}'
            return Answer(message, (), (), why + (cut if truncated else ""), truncated)
        got, bad = parse_operations(data)
        ops += got
        rejected += bad
    # A cut-off reply is never applied as it stands (correct_once sends it back).
    return Answer(message, tuple(ops), tuple(rejected), None, truncated)


def correction_text(answer: Answer) -> str:
    """What the model is told about its unusable reply or rejected operations."""
    head = what_was_wrong(answer, "reply")
    return (
        f"{head}\n\nCall `{TOOL_NAME}` again with the corrected COMPLETE list of operations, the "
        "valid ones included: it replaces your previous call. Drop an operation you cannot fix."
    )


class AnthropicBackend:
    name = "anthropic"
    needs_prompt = True

    def __init__(
        self,
        model: str,
        max_tokens: int = 8192,
        max_retries: int = 4,
        *,
        api_key: str | None = None,
        http_client: httpx2.Client | None = None,
        base_url: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.max_retries = max(0, max_retries)
        self._sleep = sleep
        self._client = anthropic.Anthropic(
            api_key=api_key, http_client=http_client, base_url=base_url, max_retries=0
        )

    @classmethod
    def from_config(cls, config: DreamConfig, *, preview: bool = False) -> AnthropicBackend:
        """`preview`: built only to show the request (nothing is sent), so a key is not needed."""
        api_key = os.environ.get("ANTHROPIC_API_KEY", "").strip()
        if not api_key and preview:
            api_key = PREVIEW_KEY
        if not api_key:
            raise BackendUnavailable(
                "the anthropic dream backend needs ANTHROPIC_API_KEY; set it, or choose "
                'backend = "offline" (or "claude-cli") under [dream] in config.toml'
            )
        return cls(
            config.model or DEFAULT_CLAUDE_MODEL,
            config.max_tokens,
            config.max_retries,
            api_key=api_key,
        )

    def describe(self) -> str:
        return f"anthropic ({self.model})"

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        prompt = request.prompt
        if prompt is None:
            raise BackendError("the anthropic backend was given no prompt")
        tally = _Tally()
        messages: list[MessageParam] = [{"role": "user", "content": prompt.user}]
        first = _validate(self._create(prompt.system, messages, tally))

        def ask_again(answer: Answer) -> Answer:
            assert isinstance(answer.raw, Message)
            again = [*messages, answer.raw.to_param(), self._correction(answer)]
            return _validate(self._create(prompt.system, again, tally))

        final, corrected = correct_once(first, ask_again, "anthropic", "reply", request.check)
        usage = Usage(tally.requests, tally.input_tokens, tally.output_tokens)
        return Proposal(
            final.operations, final.final_rejections, self._notes(tally, corrected), usage
        )

    def _correction(self, answer: Answer) -> MessageParam:
        text = correction_text(answer)
        assert isinstance(answer.raw, Message)
        tool_uses = [b for b in answer.raw.content if isinstance(b, ToolUseBlock)]
        if not tool_uses:
            # A tool_result must answer a tool_use of the previous turn; there is none to answer.
            return {"role": "user", "content": text}
        # Every tool_use of the previous turn needs its result; the first carries the reasons.
        results: list[ToolResultBlockParam] = [
            {
                "type": "tool_result",
                "tool_use_id": use.id,
                "is_error": True,
                "content": text if i == 0 else "See the first tool result.",
            }
            for i, use in enumerate(tool_uses)
        ]
        return {"role": "user", "content": results}

    def params(self, system: str, messages: list[MessageParam]) -> dict[str, Any]:
        """The request's parameters: the JSON body the SDK sends."""
        # Tools are cached together with the system block: the cache prefix is tools, then system.
        system_blocks: list[TextBlockParam] = [
            {"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}
        ]
        tool: ToolParam = {
            "name": TOOL_NAME,
            "description": TOOL_DESCRIPTION,
            "input_schema": OPERATIONS_SCHEMA,
        }
        choice: ToolChoiceToolParam = {"type": "tool", "name": TOOL_NAME}
        return {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system_blocks,
            "messages": messages,
            "tools": [tool],
            "tool_choice": choice,
        }

    def preview(self, request: DreamRequest) -> str:
        prompt = request.prompt
        assert prompt is not None
        body = self.params(prompt.system, [{"role": "user", "content": prompt.user}])
        url = str(self._client.base_url).rstrip("/") + "/v1/messages"
        return f"POST {url}\n" + json.dumps(body, indent=1, ensure_ascii=False)

    def _create(self, system: str, messages: list[MessageParam], tally: _Tally) -> Message:
        params = self.params(system, messages)
        attempt = 0
        while True:
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", DeprecationWarning)
                    message = self._client.messages.create(
                        **params,
                        timeout=httpx2.Timeout(REQUEST_TIMEOUT, connect=CONNECT_TIMEOUT),
                    )
                self._keep_warnings(caught, tally)
            except anthropic.APIStatusError as exc:
                reason = _status_reason(exc)
                if exc.status_code in (401, 403, 404):
                    raise BackendUnavailable(self._fatal(exc, reason)) from None
                if not _retryable(exc.status_code):
                    raise BackendError(
                        self._fatal(exc, reason),
                        request_fault=exc.status_code in (400, 413, 422),
                    ) from None
                wait = retry_after_seconds(exc.response.headers)
                if wait is None:
                    wait = self._backoff(attempt)
                else:
                    wait = min(wait, RETRY_AFTER_MAX)
            except anthropic.APIConnectionError as exc:
                if isinstance(exc, anthropic.APITimeoutError):
                    raise BackendUnavailable(
                        "anthropic: the API did not answer in time (timeout)"
                    ) from None
                cause = exc.__cause__
                if isinstance(cause, httpx2.ConnectError | httpx2.ConnectTimeout) or (
                    isinstance(cause, OSError) and not isinstance(cause, httpx2.HTTPError)
                ):
                    detail = one_line(str(cause), 120) or "no connection"
                    raise BackendUnavailable(
                        f"anthropic: cannot connect to the API ({detail})"
                    ) from None
                reason = "connection error"
                wait = self._backoff(attempt)
            except anthropic.AnthropicError as exc:
                raise BackendError(f"Anthropic API call failed: {one_line(str(exc))}") from None
            except (ValueError, TypeError, RecursionError) as exc:
                # A reply the SDK cannot even read (nested beyond reason, wrong types): this
                # answer is bad, not the events; the dream tries the chunk again later.
                raise BackendError(
                    f"the Anthropic API's reply could not be read: {one_line(str(exc), 200)}",
                    request_fault=True,
                ) from None
            else:
                assert isinstance(message, Message)
                tally.add(message)
                return message
            if attempt >= self.max_retries:
                raise BackendUnavailable(
                    f"Anthropic API still failing after {attempt} "
                    f"retr{'y' if attempt == 1 else 'ies'} (last: {reason})"
                )
            tally.retries.append(reason.split(":")[0])
            self._sleep(wait)
            attempt += 1

    @staticmethod
    def _keep_warnings(caught: list[warnings.WarningMessage], tally: _Tally) -> None:
        # A detached dream's stderr is seldom read: a deprecated model is told in the notes.
        for w in caught:
            if issubclass(w.category, DeprecationWarning):
                text = str(w.message).splitlines()[0] if str(w.message) else ""
                note = f"anthropic: {text} Set `model` under [dream] in config.toml."
                if text and note not in tally.warnings:
                    tally.warnings.append(note)
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)

    @staticmethod
    def _backoff(attempt: int) -> float:
        # No jitter: one dream runs at a time per machine, so there is no herd to spread out.
        return float(min(BACKOFF_INITIAL * 2**attempt, BACKOFF_MAX))

    def _fatal(self, exc: anthropic.APIStatusError, reason: str) -> str:
        if exc.status_code == 401:
            return f"the Anthropic API rejected the key ({reason}); check ANTHROPIC_API_KEY"
        if exc.status_code == 404:
            return f"the Anthropic API does not know model {self.model!r} ({reason})"
        return f"the Anthropic API refused the request ({reason})"

    def _notes(self, tally: _Tally, corrected: str) -> tuple[str, ...]:
        usage = (
            f"anthropic {self.model}: {tally.requests} request{'s' if tally.requests != 1 else ''}, "
            f"{tally.input_tokens} input + {tally.output_tokens} output tokens, "
            f"{tally.cache_read} read from cache"
        )
        if tally.cache_write:
            usage += f", {tally.cache_write} written to cache"
        notes = [usage]
        if tally.retries:
            n = len(tally.retries)
            notes.append(
                f"anthropic: retried {n} time{'s' if n != 1 else ''} ({', '.join(tally.retries)})"
            )
        if corrected:
            notes.append(corrected)
        return (*notes, *tally.warnings)
