"""AnthropicBackend against a scripted Messages API (an httpx2 MockTransport handed to the SDK).

Nothing here touches the network or really sleeps: the transport answers every request, and the
backend's `sleep` records the waits it asked for.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import httpx2
import pytest

from wikimem.config import DreamConfig
from wikimem.dream.anthropic_backend import AnthropicBackend
from wikimem.dream.base import BackendError, BackendUnavailable, DreamRequest, Prompt
from wikimem.dream.ops import OPERATIONS_SCHEMA, Delete, Upsert
from wikimem.dream.prompt import SYSTEM_PROMPT

MODEL = "claude-sonnet-4-6"
USER = (
    "Project: acme-api\nToday: 2026-11-29\n\n## New events since the last consolidation\n"
    "[user] we use pnpm here, never npm\n"
)
REQUEST = DreamRequest(
    project="acme-api",
    sessions=(),
    today="2026-11-29",
    prompt=Prompt(system=SYSTEM_PROMPT, user=USER),
)

PNPM: dict[str, Any] = {
    "op": "upsert",
    "path": "projects/acme-api/conventions.md",
    "title": "acme-api conventions",
    "kind": "project",
    "tags": ["pnpm"],
    "body": "Use pnpm, never npm (stated 2026-11-29).",
    "sources": ["claude:3f2a9c1e"],
}
ESCAPE = {**PNPM, "path": "../../.bashrc", "title": "shell"}
NO_TITLE = {k: v for k, v in PNPM.items() if k != "title"} | {
    "path": "projects/acme-api/commands.md"
}
COMMANDS = {
    **PNPM,
    "path": "projects/acme-api/commands.md",
    "title": "acme-api commands",
    "body": "Run the tests with `pnpm test`.",
}
STALE = {"op": "delete", "path": "projects/acme-api/npm-setup.md", "reason": "replaced by pnpm"}


def tool_use(ops: Any, block_id: str = "toolu_01A9q8mZk3") -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": block_id,
        "name": "apply_operations",
        "input": {"operations": ops},
    }


def message(
    *content: dict[str, Any],
    stop_reason: str = "tool_use",
    msg_id: str = "msg_01XFDUDYJgAACzvnptvVoYEL",
    cache_read: int = 1800,
) -> dict[str, Any]:
    return {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": list(content),
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": 2048,
            "output_tokens": 512,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": cache_read,
        },
    }


def error(
    status: int, kind: str, text: str, headers: dict[str, str] | None = None
) -> httpx2.Response:
    body = {"type": "error", "error": {"type": kind, "message": text}}
    return httpx2.Response(status, json=body, headers=headers or {})


Reply = dict[str, Any] | httpx2.Response | Exception


class ScriptedAPI:
    """Answers each POST with the next scripted reply and keeps what was sent."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.requests: list[httpx2.Request] = []

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        if not self.replies:
            raise AssertionError("the backend sent more requests than the test scripted")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        if isinstance(reply, httpx2.Response):
            return reply
        return httpx2.Response(
            200, json=reply, headers={"request-id": "req_011CSHoEeqs5C35K2UUqR7Fy"}
        )


def backend(api: ScriptedAPI, waits: list[float], max_retries: int = 3) -> AnthropicBackend:
    return AnthropicBackend(
        MODEL,
        max_tokens=4096,
        max_retries=max_retries,
        api_key="sk-ant-test-key",
        http_client=httpx2.Client(transport=httpx2.MockTransport(api)),
        sleep=waits.append,
    )


def no_note(path: str) -> str | None:
    return None


@pytest.fixture
def waits() -> list[float]:
    return []


def run(api: ScriptedAPI, waits: list[float], **kw: Any) -> Any:
    return backend(api, waits, **kw).propose(REQUEST, no_note)


def test_request_carries_the_prompt_one_forced_tool_and_a_cached_system_block(
    waits: list[float],
) -> None:
    api = ScriptedAPI(message(tool_use([PNPM])))
    run(api, waits)

    [req] = api.requests
    assert req.method == "POST"
    assert req.url.path == "/v1/messages"
    assert "sk-ant-test-key" in req.headers.get("authorization", "") + req.headers.get(
        "x-api-key", ""
    )
    body = api.bodies[0]
    assert body["model"] == MODEL
    assert body["max_tokens"] == 4096
    assert [t["name"] for t in body["tools"]] == ["apply_operations"]
    assert body["tools"][0]["input_schema"] == OPERATIONS_SCHEMA
    assert body["tool_choice"] == {"type": "tool", "name": "apply_operations"}
    assert body["system"] == [
        {"type": "text", "text": SYSTEM_PROMPT, "cache_control": {"type": "ephemeral"}}
    ]
    assert body["messages"] == [{"role": "user", "content": USER}]
    assert not body.get("stream")


def test_valid_tool_call_becomes_operations_with_usage_in_notes(waits: list[float]) -> None:
    api = ScriptedAPI(message(tool_use([PNPM, STALE])))
    proposal = run(api, waits)

    assert len(api.requests) == 1
    assert proposal.operations == (
        Upsert(
            path="projects/acme-api/conventions.md",
            title="acme-api conventions",
            kind="project",
            body="Use pnpm, never npm (stated 2026-11-29).\n",
            tags=("pnpm",),
            sources=("claude:3f2a9c1e",),
        ),
        Delete(path="projects/acme-api/npm-setup.md", reason="replaced by pnpm"),
    )
    assert proposal.rejected == ()
    usage = " ".join(proposal.notes)
    assert "2048 input" in usage and "512 output" in usage and "1800 read from cache" in usage
    assert "retried" not in usage and "correction" not in usage
    assert waits == []


def test_invalid_operations_are_sent_back_once_and_the_corrected_list_is_used(
    waits: list[float],
) -> None:
    api = ScriptedAPI(
        message(tool_use([PNPM, ESCAPE, NO_TITLE], block_id="toolu_first")),
        message(tool_use([PNPM, COMMANDS], block_id="toolu_second"), msg_id="msg_02"),
    )
    proposal = run(api, waits)

    assert len(api.requests) == 2
    second = api.bodies[1]
    # The same system, tool and forced choice, so the cached prefix is reused.
    assert second["system"] == api.bodies[0]["system"]
    assert second["tool_choice"] == {"type": "tool", "name": "apply_operations"}
    user, assistant, correction = second["messages"]
    assert user == {"role": "user", "content": USER}
    assert assistant["role"] == "assistant"
    assert [b["type"] for b in assistant["content"]] == ["tool_use"]
    assert assistant["content"][0]["id"] == "toolu_first"
    assert correction["role"] == "user"
    [result] = correction["content"]
    assert result["type"] == "tool_result"
    assert result["tool_use_id"] == "toolu_first"
    assert result["is_error"] is True
    text = result["content"]
    assert "../../.bashrc" in text
    assert "title" in text
    assert "COMPLETE list" in text
    assert "2 of your operations were rejected" in text

    assert [op.path for op in proposal.operations] == [
        "projects/acme-api/conventions.md",
        "projects/acme-api/commands.md",
    ]
    assert proposal.rejected == ()
    assert any("correction" in n for n in proposal.notes)
    assert "2 requests, 4096 input + 1024 output tokens" in proposal.notes[0]


def test_operations_still_invalid_after_the_correction_are_rejected_not_raised(
    waits: list[float],
) -> None:
    api = ScriptedAPI(
        message(tool_use([PNPM, ESCAPE])),
        message(tool_use([PNPM, ESCAPE])),
    )
    proposal = run(api, waits)

    assert len(api.requests) == 2  # one correction round, never a third request
    assert [op.path for op in proposal.operations] == ["projects/acme-api/conventions.md"]
    [rejected] = proposal.rejected
    assert rejected.raw["path"] == "../../.bashrc"
    assert rejected.reason


def test_reply_without_a_tool_call_gets_one_correction_round(waits: list[float]) -> None:
    api = ScriptedAPI(
        message(
            {"type": "text", "text": "Here is what I would change: ..."}, stop_reason="end_turn"
        ),
        message(tool_use([COMMANDS])),
    )
    proposal = run(api, waits)

    assert len(api.requests) == 2
    _user, assistant, correction = api.bodies[1]["messages"]
    assert assistant["content"][0]["text"].startswith("Here is what I would change")
    # No tool_use to answer, so the reasons go back as plain user text.
    content = correction["content"]
    text = content if isinstance(content, str) else content[0]["text"]
    assert "did not call the `apply_operations` tool" in text
    assert [op.path for op in proposal.operations] == ["projects/acme-api/commands.md"]
    assert proposal.rejected == ()


def test_malformed_tool_input_gets_one_correction_round(waits: list[float]) -> None:
    bad = {
        "type": "tool_use",
        "id": "toolu_bad",
        "name": "apply_operations",
        "input": {"operations": "upsert conventions.md"},
    }
    api = ScriptedAPI(message(bad), message(tool_use([PNPM])))
    proposal = run(api, waits)

    [result] = api.bodies[1]["messages"][2]["content"]
    assert result["tool_use_id"] == "toolu_bad" and result["is_error"] is True
    assert '{"operations": [...]}' in result["content"]
    assert [op.path for op in proposal.operations] == ["projects/acme-api/conventions.md"]


def test_unusable_correction_keeps_the_first_replys_valid_operations(waits: list[float]) -> None:
    api = ScriptedAPI(
        message(tool_use([PNPM, NO_TITLE])),
        message({"type": "text", "text": "Sorry."}, stop_reason="end_turn"),
    )
    proposal = run(api, waits)

    assert len(api.requests) == 2
    assert [op.path for op in proposal.operations] == ["projects/acme-api/conventions.md"]
    [rejected] = proposal.rejected
    assert rejected.raw["path"] == "projects/acme-api/commands.md"
    assert "title" in rejected.reason
    assert any("unusable" in n for n in proposal.notes)


def test_two_unusable_replies_give_no_operations_and_say_why(waits: list[float]) -> None:
    text_only = message({"type": "text", "text": "I cannot help."}, stop_reason="end_turn")
    proposal = run(ScriptedAPI(text_only, text_only), waits)

    assert proposal.operations == ()
    [rejected] = proposal.rejected
    assert "apply_operations" in rejected.reason


def test_overloaded_529_is_retried_after_a_backoff_wait(waits: list[float]) -> None:
    api = ScriptedAPI(error(529, "overloaded_error", "Overloaded"), message(tool_use([PNPM])))
    proposal = run(api, waits)

    assert len(api.requests) == 2
    assert waits == [2.0]
    assert len(proposal.operations) == 1
    assert any("retried 1 time" in n and "529" in n for n in proposal.notes)


def test_persistent_500_raises_after_max_retries_with_growing_waits(waits: list[float]) -> None:
    api = ScriptedAPI(*[error(500, "api_error", "Internal server error") for _ in range(4)])
    with pytest.raises(BackendError, match=r"after 3 retries .*500 api_error"):
        run(api, waits, max_retries=3)

    assert len(api.requests) == 4  # the first try and 3 retries
    assert waits == [2.0, 4.0, 8.0]


def test_rate_limit_honours_retry_after(waits: list[float]) -> None:
    api = ScriptedAPI(
        error(
            429,
            "rate_limit_error",
            "Number of request tokens has exceeded your per-minute rate limit",
            headers={"retry-after": "7"},
        ),
        message(tool_use([PNPM])),
    )
    proposal = run(api, waits)

    assert waits == [7.0]
    assert len(proposal.operations) == 1


def test_a_connection_dropped_mid_answer_is_retried(waits: list[float]) -> None:
    api = ScriptedAPI(httpx2.RemoteProtocolError("peer closed"), message(tool_use([PNPM])))
    proposal = run(api, waits)

    assert len(api.requests) == 2
    assert waits == [2.0]
    assert len(proposal.operations) == 1


def test_no_connection_at_all_gives_up_at_once_so_the_dream_falls_back(
    waits: list[float],
) -> None:
    # (was: retried 4 times with growing waits; a dream with no network sat 89 s, then failed)
    api = ScriptedAPI(httpx2.ConnectError("connection refused"), message(tool_use([PNPM])))
    with pytest.raises(BackendUnavailable, match="cannot connect"):
        run(api, waits)
    assert len(api.requests) == 1 and waits == []


def test_a_server_that_keeps_failing_makes_the_backend_unavailable(waits: list[float]) -> None:
    api = ScriptedAPI(*[error(529, "overloaded_error", "Overloaded") for _ in range(3)])
    with pytest.raises(BackendUnavailable, match="after 2 retries"):
        run(api, waits, max_retries=2)


def test_bad_key_fails_at_once_with_a_hint(waits: list[float]) -> None:
    api = ScriptedAPI(error(401, "authentication_error", "invalid x-api-key"))
    with pytest.raises(BackendError, match="ANTHROPIC_API_KEY") as info:
        run(api, waits)

    assert len(api.requests) == 1 and waits == []
    assert "\n" not in str(info.value)


def dream_config(**overrides: Any) -> DreamConfig:
    values: dict[str, Any] = dict(
        backend="anthropic",
        model="claude-haiku-4-5",
        auto=True,
        min_new_events=50,
        min_interval_minutes=180,
        chunk_chars=24000,
        max_tokens=2048,
        max_retries=2,
        index_chars=6000,
        related_notes=12,
    )
    values.update(overrides)
    return DreamConfig(**values)


def test_from_config_needs_an_api_key() -> None:
    with pytest.raises(BackendError, match="ANTHROPIC_API_KEY") as info:
        AnthropicBackend.from_config(dream_config())
    assert "\n" not in str(info.value)


def test_from_config_uses_model_tokens_and_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-env")
    made = AnthropicBackend.from_config(dream_config())
    assert (made.model, made.max_tokens, made.max_retries) == ("claude-haiku-4-5", 2048, 2)
    assert made.name == "anthropic" and made.needs_prompt is True


class DeprecatingAPI(ScriptedAPI):
    """Warns the way the SDK does for a model in its deprecation table, from inside the call.

    The SDK's own table changes between releases (2.15 dropped the model an earlier version of
    this test relied on), so the test states the warning itself and checks what wikimem does
    with it.
    """

    def __init__(self, model: str, *replies: Reply) -> None:
        super().__init__(*replies)
        self.model = model

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        warnings.warn(
            f"The model '{self.model}' is deprecated and will reach end-of-life on "
            "January 5th, 2026.\nPlease migrate to a newer model.",
            DeprecationWarning,
            stacklevel=2,
        )
        return super().__call__(request)


def test_a_deprecated_model_is_named_in_the_notes(waits: list[float]) -> None:
    api = DeprecatingAPI("claude-retired-1", message(tool_use([PNPM])))
    old = AnthropicBackend(
        "claude-retired-1",
        api_key="sk-ant-test-key",
        sleep=waits.append,
        http_client=httpx2.Client(transport=httpx2.MockTransport(api)),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing may leak to stderr, where nobody reads it
        proposal = old.propose(REQUEST, no_note)

    assert len(proposal.operations) == 1
    told = [n for n in proposal.notes if "'claude-retired-1' is deprecated" in n]
    assert len(told) == 1 and "[dream]" in told[0] and "\n" not in told[0]


def test_other_warnings_during_the_call_are_not_swallowed(waits: list[float]) -> None:
    class Warns(ScriptedAPI):
        def __call__(self, request: httpx2.Request) -> httpx2.Response:
            warnings.warn("something else", UserWarning, stacklevel=2)
            return super().__call__(request)

    api = Warns(message(tool_use([PNPM])))
    with pytest.warns(UserWarning, match="something else"):
        proposal = backend(api, waits).propose(REQUEST, no_note)
    assert not any("deprecated" in n for n in proposal.notes)


def test_missing_prompt_is_a_backend_error(waits: list[float]) -> None:
    bare = DreamRequest(project="acme-api", sessions=(), today="2026-11-29")
    with pytest.raises(BackendError):
        backend(ScriptedAPI(), waits).propose(bare, no_note)
