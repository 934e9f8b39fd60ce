"""A model dream that cannot use its model runs offline, says why, and the model sees those
sessions later; the day's caps; the prompt redacted before it leaves; `--show-prompt`.

The model is a FakeBackend (it records every request it gets), an httpx2 MockTransport behind
the openai backend, or a backend whose reachability probe is scripted; nothing touches the
network.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.test_bad_days import record, status, write_events
from tests.test_dream import git
from tests.test_wiki_cli import wikimem
from wikimem.config import load_config
from wikimem.dream import carry
from wikimem.dream.backends import Lazy
from wikimem.dream.base import (
    AnswerRefused,
    BackendUnavailable,
    DreamRequest,
    Proposal,
    ReadNote,
)
from wikimem.dream.fake import FakeBackend
from wikimem.dream.ops import ClaimOp
from wikimem.dream.prompt import REVISIT_NOTE
from wikimem.dream.runner import run_dream
from wikimem.dream.usage import Meter, Usage
from wikimem.home import Home

TEACH = "Remember that the staging database listens on port 5433."


def unreachable(url: str) -> str:
    return "127.0.0.1:9: connection refused"


def down(home: Path, name: str = "openai") -> Lazy:
    """A model backend whose API does not take the connection."""
    return Lazy(name, load_config(Home(str(home))), probe=unreachable)


def claim(project: str, text: str, subject: str, path: str = "decisions.md") -> ClaimOp:
    return ClaimOp(f"projects/{project}/{path}", text, subject, "Decisions", ("claude:s1",))


class Costly(FakeBackend):
    """A FakeBackend whose every answer cost one call and some tokens."""

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        p = super().propose(request, read)
        return Proposal(p.operations, p.rejected, p.notes, Usage(1, 1000, 100))


def test_an_unavailable_model_gives_way_to_offline_and_says_so(home: Path) -> None:
    write_events(home, record("s1", "acme", TEACH))
    start = time.monotonic()
    result = run_dream(Home(str(home)), down(home))
    assert time.monotonic() - start < 5

    assert result.backend == "openai" and result.model_chunks == 0 and result.offline_chunks == 1
    line = result.fallback_line()
    assert line == (
        "openai: 1 of 1 chunk(s) consolidated offline: the model's API is unreachable "
        "(127.0.0.1:9: connection refused)"
    )
    assert "5433" in (home / "memory" / "projects" / "acme" / "facts.md").read_text()
    assert result.commit and result.revisit_pending == 1
    extra = status(home)
    assert extra["last dream fall-back"].endswith(line)
    assert extra["events to revisit"].startswith("1 consolidated offline")


def test_the_cli_prints_one_line_and_exits_0(home: Path) -> None:
    write_events(home, record("s1", "acme", TEACH))
    (home / "config.toml").write_text(
        '[dream]\nauto = false\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n'
        'model = "m"\n'
    )
    start = time.monotonic()
    proc = wikimem("dream")
    seconds = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "dream: openai: 1 of 1 chunk(s) consolidated offline: the model's API is unreachable "
        "(127.0.0.1:9: connection refused)"
    ]
    assert "dream (openai, ran offline)" in proc.stdout
    assert seconds < 5, seconds


def test_a_later_dream_with_the_model_revisits_those_sessions_once(home: Path) -> None:
    h = Home(str(home))
    write_events(home, record("s1", "acme", TEACH + " We chose Postgres 16 for its JSON paths."))
    run_dream(h, down(home))
    digest = next((home / "memory" / "projects" / "acme" / "sessions").glob("*.md"))
    digest_before = digest.read_text()

    # an offline dream leaves them waiting for a model
    write_events(home, record("s2", "acme", "Remember that CI runs on ci-7."))
    offline = run_dream(h, backend_name="offline")
    assert offline.revisit_pending == 1 and offline.revisited == 0

    write_events(home, record("s3", "acme", "Remember that the release day is Thursday."))
    model = FakeBackend(
        [
            [claim("acme", "Postgres 16 was chosen for its JSON path queries.", "database choice")],
            [],
        ]
    )
    result = run_dream(h, model)
    first, second = model.requests
    assert first.revisit and REVISIT_NOTE.splitlines()[1] in first.prompt.user  # type: ignore[union-attr]
    assert "s1" in {s.session for s in first.sessions}
    assert not second.revisit and {s.session for s in second.sessions} == {"s3"}
    assert result.revisited == 1 and result.revisit_pending == 0
    decisions = (home / "memory" / "projects" / "acme" / "decisions.md").read_text()
    assert "Postgres 16" in decisions
    assert digest.read_text() == digest_before  # its digest is not written twice
    assert "events to revisit" not in status(home)

    again = FakeBackend()
    run_dream(h, again)
    assert again.requests == []  # revisited once, then let go


def test_revisits_wait_while_the_model_is_still_down(home: Path) -> None:
    h = Home(str(home))
    write_events(home, record("s1", "acme", TEACH))
    run_dream(h, down(home))
    write_events(home, record("s2", "acme", "Remember that CI runs on ci-7."))
    result = run_dream(h, down(home))
    assert result.revisit_pending == 2 and result.offline_chunks == 1
    assert "ci-7" in (home / "memory" / "projects" / "acme" / "facts.md").read_text()


def test_a_refused_answer_runs_the_chunk_offline_and_is_not_revisited(home: Path) -> None:
    write_events(home, record("s1", "acme", TEACH))
    hostile = {
        "operations": [
            {"op": "upsert", "path": "../../.bashrc", "title": "x", "kind": "general", "body": "x"}
        ]
    }
    result = run_dream(Home(str(home)), FakeBackend([hostile]))
    assert result.offline_chunks == 1 and result.model_chunks == 0
    assert "refused" in result.fallback[0] and result.rejected
    assert "5433" in (home / "memory" / "projects" / "acme" / "facts.md").read_text()
    assert result.revisit_pending == 0


def test_an_answer_after_a_tool_attempt_runs_the_chunk_offline(home: Path) -> None:
    class Acting(FakeBackend):
        def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
            raise AnswerRefused("codex-cli: the model tried to use a tool (file_change)")

    write_events(home, record("s1", "acme", TEACH))
    result = run_dream(Home(str(home)), Acting())
    assert result.offline_chunks == 1 and "tried to use a tool" in result.fallback[0]
    assert result.revisit_pending == 0


def test_a_model_failing_mid_dream_is_not_asked_again(home: Path) -> None:
    class Flaky(FakeBackend):
        def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
            self.requests.append(request)
            raise BackendUnavailable("openai: cannot connect to http://127.0.0.1:9/v1")

    write_events(
        home, record("a1", "alpha", TEACH), record("b1", "beta", "Remember that CI is ci-7.")
    )
    flaky = Flaky()
    result = run_dream(Home(str(home)), flaky)
    assert len(flaky.requests) == 1  # the second chunk went offline without asking
    assert result.offline_chunks == 2 and len(result.fallback) == 1


def test_the_day_cap_on_calls_sends_the_rest_offline(home: Path) -> None:
    (home / "config.toml").write_text("[dream]\nauto = false\nmax_calls_per_day = 1\n")
    write_events(
        home, record("a1", "alpha", TEACH), record("b1", "beta", "Remember that CI is ci-7.")
    )
    model = Costly([[claim("alpha", "Staging's database is on port 5433.", "staging db port")]])
    result = run_dream(Home(str(home)), model)
    assert len(model.requests) == 1 and result.model_chunks == 1 and result.offline_chunks == 1
    assert "today's cap of 1 model calls" in result.fallback[0]
    usage = json.loads((home / "state" / "model-usage.json").read_text())
    [today] = usage.values()
    assert today == {"fake": {"calls": 1, "input_tokens": 1000, "output_tokens": 100}}
    assert "fake 1 call, 1,100 tokens (cap 1 calls" in status(home)["model use today"]

    # the next dream the same day does not ask the model at all
    write_events(home, record("a2", "alpha", "Remember that the release day is Thursday."))
    again = Costly()
    assert run_dream(Home(str(home)), again).offline_chunks >= 1 and again.requests == []


def test_the_day_cap_on_tokens_counts_the_prompt_before_sending(home: Path) -> None:
    (home / "config.toml").write_text("[dream]\nauto = false\nmax_tokens_per_day = 500\n")
    write_events(home, record("a1", "alpha", TEACH))
    model = Costly()
    result = run_dream(Home(str(home)), model)
    assert model.requests == [] and "model tokens would be passed" in result.fallback[0]


def test_a_secret_in_a_note_is_redacted_from_the_prompt(home: Path) -> None:
    write_events(home, record("s1", "acme", TEACH))
    note = home / "memory" / "projects" / "acme" / "facts.md"
    note.parent.mkdir(parents=True)
    note.write_text("---\ntitle: Facts\nkind: project\n---\n- CI key: AKIAZ7QW3ERTY5UIOP2X\n")
    model = FakeBackend()
    run_dream(Home(str(home)), model)
    [request] = model.requests
    assert request.prompt is not None
    assert "AKIAZ7QW3ERTY5UIOP2X" not in request.prompt.user
    assert "[REDACTED:aws_access_key]" in request.prompt.user


def test_show_prompt_sends_nothing_writes_nothing_and_prints_the_request(home: Path) -> None:
    write_events(home, record("s1", "acme", TEACH))
    head = git(home, "rev-parse", "HEAD")
    model = FakeBackend()
    result = run_dream(Home(str(home)), model, show_prompt=True)
    assert model.requests == [] and git(home, "rev-parse", "HEAD") == head
    assert status(home)["events pending"] == 1

    (home / "config.toml").write_text(
        '[dream]\nauto = false\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n'
        'model = "m"\napi_key_env = "LOCAL_KEY"\n'
    )
    proc = wikimem("dream", "--dry-run", "--show-prompt", env={"LOCAL_KEY": "sk-local-1"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "POST http://127.0.0.1:9/v1/chat/completions" in out and TEACH in out
    assert "Authorization: Bearer [the key]" in out and "sk-local-1" not in out
    assert git(home, "rev-parse", "HEAD") == head
    assert result.prompts and "Project: acme" in result.prompts[0]
    refused = wikimem("dream", "--show-prompt")
    assert refused.returncode == 2


@pytest.mark.parametrize(
    ("backend", "request_line"),
    [
        ("anthropic", "POST https://api.anthropic.com/v1/messages"),
        ("openai", "POST https://api.openai.com/v1/chat/completions"),
        ("claude-cli", "$ claude "),
        ("codex-cli", "$ codex exec "),
        ("gemini-cli", "gemini -p "),
    ],
)
def test_the_preview_needs_no_key_no_cli_and_no_network(
    home: Path, tmp_path: Path, backend: str, request_line: str
) -> None:
    """`--show-prompt` is how a person decides whether to set a model up and pay for it: it
    shows the request without the key, the CLI or the network the backend would need, and says
    what is missing."""
    write_events(home, record("s1", "acme", TEACH))
    head = git(home, "rev-parse", "HEAD")
    proc = wikimem(
        "dream", "--dry-run", "--show-prompt", "--backend", backend,
        env={"ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": "", "PATH": only_git(tmp_path)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert request_line in out and TEACH in out, out
    assert "it cannot run here yet" in out and "is unavailable" not in out
    assert git(home, "rev-parse", "HEAD") == head
    assert status(home)["events pending"] == 1


def only_git(tmp_path: Path) -> str:
    """A PATH with git on it and no agent CLI."""
    bin_dir = tmp_path / "only-git"
    bin_dir.mkdir()
    (bin_dir / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
    return str(bin_dir)


def test_a_missing_key_or_cli_is_a_fall_back_not_an_error(home: Path, tmp_path: Path) -> None:
    write_events(home, record("s1", "acme", TEACH))
    proc = wikimem("dream", "--backend", "codex-cli", env={"PATH": only_git(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert "'codex' is not on PATH" in proc.stderr


def test_the_model_answers_through_the_openai_backend_and_usage_is_counted(
    home: Path,
) -> None:
    from wikimem.dream.openai_backend import OpenAIBackend

    seen: list[dict[str, Any]] = []

    def server(request: httpx2.Request) -> httpx2.Response:
        seen.append(json.loads(request.content))
        text = json.dumps(
            {
                "operations": [
                    {
                        "op": "claim",
                        "path": "projects/acme/decisions.md",
                        "subject": "db port",
                        "text": "Staging's database listens on port 5433.",
                        "title": "Decisions",
                        "sources": ["claude:s1"],
                    }
                ]
            }
        )
        return httpx2.Response(
            200,
            json={
                "choices": [{"message": {"content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 2000, "completion_tokens": 60},
            },
        )

    write_events(home, record("s1", "acme", TEACH))
    backend = OpenAIBackend(
        "http://local/v1", "m", http_client=httpx2.Client(transport=httpx2.MockTransport(server))
    )
    result = run_dream(Home(str(home)), backend)
    assert len(seen) == 1 and result.model_chunks == 1
    assert "5433" in (home / "memory" / "projects" / "acme" / "decisions.md").read_text()
    usage = json.loads((home / "state" / "model-usage.json").read_text())
    assert next(iter(usage.values()))["openai"] == {
        "calls": 1,
        "input_tokens": 2000,
        "output_tokens": 60,
    }


def test_old_revisits_and_too_many_are_let_go() -> None:
    def entry(since: str, n: int) -> carry.Deferred:
        recs = tuple({"i": i} for i in range(n))
        return carry.Deferred("p", "down", recs, 0, since)

    kept, notes = carry.prune_revisit(
        [entry("2026-11-01T00:00:00Z", 2), entry("2026-11-25T00:00:00Z", 3)],
        "2026-12-01T00:00:00Z",
    )
    assert [len(e.records) for e in kept] == [3] and "2 event(s)" in notes[0]
    capped, notes = carry.cap_revisit([entry("a", carry.REVISIT_RECORDS), entry("b", 10)])
    assert [e.since for e in capped] == ["b"] and str(carry.REVISIT_RECORDS) in notes[0]


def test_the_meter_counts_per_day_and_caps(home: Path) -> None:
    meter = Meter(Home(str(home)), max_calls=3, max_tokens=10_000)
    assert meter.over_cap(100) is None
    meter.record("codex-cli", Usage(2, 4000, 500))
    meter.record("openai", Usage(1, 1000, 0))
    assert meter.used() == Usage(3, 5000, 500)
    assert "3 model calls" in (meter.over_cap(10) or "")
    assert "tokens would be passed" in (Meter(Home(str(home)), 0, 6000).over_cap(1000) or "")
    assert Meter(Home(str(home)), 0, 0).over_cap(10**9) is None


def test_init_and_doctor_say_which_backend_dreams_use_and_what_could(
    home: Path, tmp_path: Path
) -> None:
    proc = wikimem("init", "--json")
    data = json.loads(proc.stdout)
    names = [o["name"] for o in data["dream_backends"]]
    assert names == ["offline", "anthropic", "claude-cli", "codex-cli", "gemini-cli", "openai"]
    assert [o["name"] for o in data["dream_backends"] if o["in_use"]] == ["offline"]
    text = wikimem("init").stdout
    assert "dream backends on this machine" in text and "what a model dream would send" in text

    write_events(home, record("s1", "acme", TEACH))
    out = " ".join(wikimem("doctor", env={"COLUMNS": "2000"}).stdout.split())
    assert "dreams use offline (auto: no ANTHROPIC_API_KEY" in out
    assert "what a model dream would send now: 1 events wait" in out
    out = " ".join(
        wikimem("doctor", env={"COLUMNS": "2000", "ANTHROPIC_API_KEY": "sk-ant-x"}).stdout.split()
    )
    assert "dreams use anthropic (auto: ANTHROPIC_API_KEY is set)" in out
    assert "model use today: no model calls today" in out


def test_doctor_warns_when_the_chosen_backend_cannot_work(home: Path, tmp_path: Path) -> None:
    (home / "config.toml").write_text('[dream]\nbackend = "gemini-cli"\n')
    proc = wikimem("doctor", env={"COLUMNS": "2000", "PATH": only_git(tmp_path)})
    out = " ".join(proc.stdout.split())
    assert "dreams use gemini-cli" in out and "cannot work here" in out
    assert "dreams run offline until it can" in out


def test_the_survey_finds_a_local_server_and_signed_in_clis(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from wikimem.dream.choice import survey

    class Models(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            data = json.dumps({"object": "list", "data": [{"id": "llama3.1:8b"}]}).encode()
            self.send_response(200)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Models)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("codex", "gemini"):
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("GEMINI_API_KEY", "x")
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
        options = {
            o.name: o
            for o in survey(load_config(Home(str(home))), local_servers=(("Ollama", url),))
        }
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert options["openai"].usable and "llama3.1:8b" in options["openai"].detail
    assert not options["codex-cli"].usable and "codex login" in options["codex-cli"].detail
    assert options["gemini-cli"].usable and "GEMINI_API_KEY set" in options["gemini-cli"].detail
    assert not options["claude-cli"].usable and options["offline"].in_use
