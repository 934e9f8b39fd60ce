"""OpenAIBackend against a scripted Chat Completions server (an httpx2 MockTransport).

Nothing here touches the network or really sleeps: the transport answers every request, and the
backend's `sleep` records the waits it asked for.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest

from wikimem.config import DreamConfig
from wikimem.dream.base import BackendError, BackendUnavailable, DreamRequest, Prompt
from wikimem.dream.openai_backend import OpenAIBackend
from wikimem.dream.prompt import SYSTEM_PROMPT
from wikimem.rawconfig import DEFAULTS

BASE = "http://127.0.0.1:11434/v1"
USER = (
    "Project: acme-api\nToday: 2026-11-29\n\n## New events since the last consolidation\n"
    "[user] we use pnpm here, never npm\n"
)
REQUEST = DreamRequest("acme-api", (), "2026-11-29", Prompt(system=SYSTEM_PROMPT, user=USER))
PNPM = {
    "op": "claim",
    "path": "projects/acme-api/conventions.md",
    "subject": "JS package manager",
    "text": "Use pnpm, never npm.",
    "sources": ["claude:3f2a9c1e"],
}
ESCAPE = {**PNPM, "path": "../../.bashrc"}


def completion(
    text: str | None, finish: str = "stop", usage: dict[str, int] | None = None
) -> httpx2.Response:
    return httpx2.Response(
        200,
        json={
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": finish,
                }
            ],
            "usage": usage or {"prompt_tokens": 900, "completion_tokens": 40},
        },
    )


def ops(*items: dict[str, Any]) -> str:
    return json.dumps({"operations": list(items)})


def error(status: int, message: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(
        status, json={"error": {"message": message, "type": "x"}}, headers=headers or {}
    )


class Server:
    """Answers each request with the next scripted response (or raises it)."""

    def __init__(self, *answers: httpx2.Response | Exception) -> None:
        self.answers = list(answers)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests if r.method == "POST"]


def backend(server: Server, waits: list[float], **kw: Any) -> OpenAIBackend:
    kw.setdefault("model", "qwen2.5-coder:14b")
    return OpenAIBackend(
        BASE,
        http_client=httpx2.Client(transport=httpx2.MockTransport(server)),
        sleep=waits.append,
        **kw,
    )


def test_one_request_with_the_rules_the_prompt_and_no_tools() -> None:
    server = Server(completion(ops(PNPM)))
    waits: list[float] = []
    proposal = backend(server, waits, api_key="sk-local").propose(REQUEST, lambda p: None)

    [req] = server.requests
    assert req.method == "POST" and str(req.url) == f"{BASE}/chat/completions"
    assert req.headers["authorization"] == "Bearer sk-local"
    body = json.loads(req.content)
    assert body["model"] == "qwen2.5-coder:14b" and body["stream"] is False
    assert body["max_tokens"] == 8192 and "tools" not in body
    system, user = body["messages"]
    assert system["role"] == "system" and "Living notes hold CLAIMS" in system["content"]
    assert '{"operations": [...]}' in system["content"]  # how to answer without the tool
    assert user["role"] == "user" and USER.strip() in user["content"]
    [op] = proposal.operations
    assert op.path == "projects/acme-api/conventions.md" and proposal.rejected == ()
    assert (proposal.usage.calls, proposal.usage.input_tokens, proposal.usage.output_tokens) == (
        1,
        900,
        40,
    )
    assert waits == []


def test_no_key_no_authorization_header() -> None:
    server = Server(completion(ops()))
    backend(server, []).propose(REQUEST, lambda p: None)
    assert "authorization" not in server.requests[0].headers


def test_invalid_operations_get_one_correction_with_the_previous_answer() -> None:
    first = ops(PNPM, ESCAPE)
    server = Server(completion(first), completion(ops(PNPM)))
    proposal = backend(server, []).propose(REQUEST, lambda p: None)

    assert len(server.requests) == 2
    again = server.bodies()[1]["messages"]
    assert again[2] == {"role": "assistant", "content": first}
    assert again[3]["role"] == "user" and "../../.bashrc" in again[3]["content"]
    assert len(proposal.operations) == 1 and proposal.rejected == ()
    assert any("sent 1 invalid operation(s) back" in n for n in proposal.notes)
    assert proposal.usage.calls == 2


def test_prose_and_fences_around_the_object_are_tolerated() -> None:
    text = "Here you go:\n```json\n" + ops(PNPM) + "\n```\nThanks."
    proposal = backend(Server(completion(text)), []).propose(REQUEST, lambda p: None)
    assert len(proposal.operations) == 1


def test_an_answer_without_json_twice_is_rejected_with_the_reason() -> None:
    server = Server(completion("I updated the wiki."), completion("Done!"))
    proposal = backend(server, []).propose(REQUEST, lambda p: None)
    assert proposal.operations == () and "no JSON object" in proposal.rejected[0].reason


def test_a_reply_that_is_not_json_is_an_unusable_answer() -> None:
    server = Server(httpx2.Response(200, text="<html>oops</html>"), completion(ops(PNPM)))
    proposal = backend(server, []).propose(REQUEST, lambda p: None)
    assert len(proposal.operations) == 1 and len(server.requests) == 2


def test_a_reply_cut_at_the_token_limit_twice_is_a_request_fault() -> None:
    cut = completion(ops(PNPM), finish="length")
    with pytest.raises(BackendError, match="cut off") as caught:
        backend(Server(cut, cut), []).propose(REQUEST, lambda p: None)
    assert caught.value.request_fault and not isinstance(caught.value, BackendUnavailable)


def test_a_server_refusing_max_tokens_gets_max_completion_tokens() -> None:
    server = Server(
        error(400, "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens' instead."),
        completion(ops(PNPM)),
    )
    made = backend(server, [])
    made.propose(REQUEST, lambda p: None)
    first, second = server.bodies()
    assert "max_tokens" in first and "max_completion_tokens" in second
    assert "max_tokens" not in second


@pytest.mark.parametrize(
    ("status", "match"),
    [(401, "refused the key"), (403, "refused the key"), (404, "does not serve")],
)
def test_a_refused_key_or_unknown_model_is_unavailable_at_once(status: int, match: str) -> None:
    waits: list[float] = []
    server = Server(error(status, "nope"))
    with pytest.raises(BackendUnavailable, match=match) as caught:
        backend(server, waits).propose(REQUEST, lambda p: None)
    assert len(server.requests) == 1 and waits == []
    assert "\n" not in str(caught.value)


def test_no_connection_is_unavailable_at_once_never_retried() -> None:
    waits: list[float] = []
    server = Server(httpx2.ConnectError("connection refused"))
    with pytest.raises(BackendUnavailable, match="cannot connect"):
        backend(server, waits).propose(REQUEST, lambda p: None)
    assert len(server.requests) == 1 and waits == []


def test_a_read_timeout_is_unavailable() -> None:
    with pytest.raises(BackendUnavailable, match="did not answer in time"):
        backend(Server(httpx2.ReadTimeout("slow")), []).propose(REQUEST, lambda p: None)


def test_rate_limits_honour_retry_after_then_give_up() -> None:
    waits: list[float] = []
    server = Server(error(429, "slow down", {"retry-after": "3"}), completion(ops(PNPM)))
    assert len(backend(server, waits).propose(REQUEST, lambda p: None).operations) == 1
    assert waits == [3.0]

    waits.clear()
    server = Server(*[error(503, "overloaded") for _ in range(3)])
    with pytest.raises(BackendUnavailable, match="after 2 retries"):
        backend(server, waits, max_retries=2).propose(REQUEST, lambda p: None)
    assert waits == [2.0, 4.0]


def test_another_client_error_is_a_request_fault() -> None:
    with pytest.raises(BackendError) as caught:
        backend(Server(error(400, "context length exceeded")), []).propose(REQUEST, lambda p: None)
    assert caught.value.request_fault and not isinstance(caught.value, BackendUnavailable)


def test_no_model_named_takes_the_servers_only_model_or_names_the_choices() -> None:
    listing = httpx2.Response(200, json={"object": "list", "data": [{"id": "llama3.1:8b"}]})
    server = Server(listing, completion(ops(PNPM)))
    backend(server, [], model="").propose(REQUEST, lambda p: None)
    assert server.requests[0].url.path.endswith("/models")
    assert server.bodies()[0]["model"] == "llama3.1:8b"

    two = httpx2.Response(200, json={"data": [{"id": "a"}, {"id": "b"}]})
    with pytest.raises(BackendUnavailable, match=r"one of the server's models \(a, b\)"):
        backend(Server(two), [], model="").propose(REQUEST, lambda p: None)


def config(**overrides: Any) -> DreamConfig:
    return DreamConfig(**{**DEFAULTS["dream"], "backend": "openai", **overrides})


def test_from_config_reads_the_key_from_the_variable_it_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    monkeypatch.setenv("ROUTER_KEY", "sk-router")
    made = OpenAIBackend.from_config(config(base_url=BASE, api_key_env="ROUTER_KEY", model="m"))
    assert made._headers == {"Authorization": "Bearer sk-router"}
    # no variable named: OPENAI_API_KEY goes to api.openai.com only, never to another host
    assert OpenAIBackend.from_config(config(base_url=BASE, model="m"))._headers == {}
    hosted = OpenAIBackend.from_config(config(model="gpt-5.5"))
    assert hosted.base_url == "https://api.openai.com/v1"
    assert hosted._headers == {"Authorization": "Bearer sk-openai"}


def test_from_config_without_the_key_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BackendUnavailable, match="ROUTER_KEY"):
        OpenAIBackend.from_config(config(base_url=BASE, api_key_env="ROUTER_KEY"))
    with pytest.raises(BackendUnavailable, match="OPENAI_API_KEY"):
        OpenAIBackend.from_config(config())


def test_the_preview_is_the_request_body_without_the_key() -> None:
    made = backend(Server(), [], api_key="sk-local-secret")
    text = made.preview(REQUEST)
    assert text.startswith(f"POST {BASE}/chat/completions\nAuthorization: Bearer [the key]\n")
    assert json.loads(text.split("\n", 2)[2]) == made.request_body(
        made.messages(REQUEST.prompt.system, REQUEST.prompt.user)  # type: ignore[union-attr]
    )
    assert "sk-local-secret" not in text
