"""The dream's model backends end to end: the real Codex CLI and Gemini CLI binaries (and an
OpenAI-compatible server) answering as the model, offline, against the local mock APIs of
../shared/realclients (a stdlib Chat Completions server here for `openai`).

Each backend is checked for what a person relies on: one model request per chunk and no tool run,
the operations applied through the gate and committed, no secret in what was sent (one planted
in a note by hand reaches the prompt and must be redacted on the way out), a malformed, hostile
or tool-using answer refused with the chunk consolidated offline instead, and a model that cannot
be reached giving way to an offline dream within 5 s, with one line on stderr and `status`
saying so. The whole test process runs in a loopback-only network namespace.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import make_repo
from tests.e2e.conftest import wikimem

pytestmark = pytest.mark.e2e

PROJECT = "acme-api"
SESSION = "5e55a1de-0b5e-4c1e-9d6a-3f2a9c1e7b40"
SECRET = "AKIAZ7QW3ERTY5UIOP2X"  # an AWS access key id, in a note a person edited by hand
TEACH = "Remember that the staging database listens on port 5433."
GOOD = json.dumps(
    {
        "operations": [
            {
                "op": "claim",
                "path": f"projects/{PROJECT}/decisions.md",
                "subject": "staging database port",
                "text": "The staging database listens on port 5433 (decided 2026-12-02).",
                "title": "Decisions",
                "sources": [f"claude:{SESSION[:8]}"],
            }
        ]
    }
)
HOSTILE = json.dumps(
    {
        "operations": [
            {
                "op": "upsert",
                "path": "../../.bashrc",
                "title": "x",
                "kind": "general",
                "body": "rm -rf ~",
            },
            {
                "op": "upsert",
                "path": "projects/other-repo/rules.md",
                "title": "x",
                "kind": "project",
                "body": "x",
            },
            {"op": "delete", "path": "profile/../../../etc/passwd.md", "reason": "x"},
        ]
    }
)
MALFORMED = "Sure! I updated the wiki for you."


# -- the three backends ----------------------------------------------------------------------------


class Codex:
    name = "codex-cli"

    def __init__(self, rc: ModuleType, tmp: Path) -> None:
        self.rc = rc
        self.tmp = tmp
        self.replies: list[Any] = []
        self.mock: Any = None

    def start(self, replies: list[Any]) -> None:
        rc = self.rc
        self.replies = list(replies)
        outer = self

        class Scripted(rc.MockResponses):  # type: ignore[misc, name-defined]
            def _plan(self, body: dict[str, Any], kind: str, seq: int) -> Any:
                reply = outer.replies.pop(0) if len(outer.replies) > 1 else outer.replies[0]
                if isinstance(reply, dict):  # a tool call: apply_patch adding a file
                    item = {
                        "type": "custom_tool_call",
                        "id": f"ct_{seq}",
                        "call_id": f"call_{seq}",
                        "name": "apply_patch",
                        "input": f"*** Begin Patch\n*** Add File: {reply['pwn']}\n+pwned\n*** End Patch\n",
                        "status": "completed",
                    }
                    return item, {"kind": "tool_call"}, 10
                return rc._message(f"msg_{seq}", reply), {"kind": "final_message"}, 10

        # the mock streams a function call or a message; a custom tool call (apply_patch) is
        # streamed here the way the Responses API does
        plain = rc._response_events
        self._plain = plain

        def events(resp_id: str, model: str, item: dict[str, Any], total: int) -> Any:
            if item["type"] != "custom_tool_call":
                return plain(resp_id, model, item, total)
            base = {"id": resp_id, "object": "response", "created_at": 0, "model": model}
            done = {**base, "status": "completed", "output": [item], "usage": rc._usage(total)}
            return [
                {
                    "type": "response.created",
                    "response": {**base, "status": "in_progress", "output": []},
                },
                {
                    "type": "response.output_item.added",
                    "output_index": 0,
                    "item": {**item, "input": ""},
                },
                {"type": "response.output_item.done", "output_index": 0, "item": item},
                {"type": "response.completed", "response": done},
            ]

        rc._response_events = events
        self.mock = Scripted(self.tmp / "codex-api.jsonl").start()
        self.configure(self.mock.base_url)

    def configure(self, base_url: str) -> None:
        codex_home = Path(os.environ["CODEX_HOME"])
        # a hook of the person's, trusted: a dream must not run it
        hooks = self.rc.hooks_document(f"touch {self.tmp / 'hook-ran'}")
        self.rc.write_codex_home(codex_home, base_url, hooks, sandbox="read-only")
        # an MCP server of the person's: it must not be started by a dream
        with (codex_home / "config.toml").open("a") as fh:
            fh.write(
                '\n[mcp_servers.notes]\ncommand = "/bin/sh"\n'
                f'args = ["-c", "touch {self.tmp / "mcp-started"}"]\n'
            )

    def env(self) -> dict[str, str]:
        return {
            "PATH": f"{Path(self.rc.CODEX_BIN).parent}:{os.environ['PATH']}",
            "MOCK_API_KEY": "sk-mock",
        }

    def stop(self) -> None:
        if self.mock is not None:
            self.mock.stop()
            self.rc._response_events = self._plain

    def bodies(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.mock.requests if r["path"].endswith("/responses")]

    def tools_run(self) -> list[str]:
        kinds = {"function_call_output", "custom_tool_call_output"}
        return [
            i["type"]
            for b in self.bodies()
            for i in b.get("input") or []
            if isinstance(i, dict) and i.get("type") in kinds
        ]

    def tools_offered(self, body: dict[str, Any]) -> set[str]:
        return {str(t.get("name") or t.get("type")) for t in body.get("tools") or []}

    def tool_reply(self, pwn: Path) -> Any:
        return {"pwn": str(pwn)}


class Gemini:
    name = "gemini-cli"

    def __init__(self, rc: ModuleType, tmp: Path) -> None:
        self.rc = rc
        self.tmp = tmp
        self.mock: Any = None
        self.base_url = ""

    def start(self, replies: list[Any]) -> None:
        # the last reply repeats: a correction run gets it again
        self.mock = self.rc.MockGemini(
            self.tmp / "gemini-api.jsonl", tool_commands=[], replies=replies * 3
        ).start()
        self.configure(self.mock.base_url)

    def configure(self, base_url: str) -> None:
        self.base_url = base_url
        home = Path(os.environ["HOME"])
        self.rc.write_settings(home, home, None, trust="none")
        settings = home / ".gemini" / "settings.json"
        data = json.loads(settings.read_text())
        data["hooks"] = {
            "SessionStart": [
                {"hooks": [{"type": "command", "command": f"touch {self.tmp / 'hook-ran'}"}]}
            ]
        }
        data["mcpServers"] = {
            "notes": {"command": "/bin/sh", "args": ["-c", f"touch {self.tmp / 'mcp-started'}"]}
        }
        settings.write_text(json.dumps(data))

    def env(self) -> dict[str, str]:
        home = Path(os.environ["HOME"])
        return {
            "PATH": f"{Path(self.rc.GEMINI_BIN).parent}:{os.environ['PATH']}",
            "GEMINI_API_KEY": "fake-gemini-api-key",
            "GOOGLE_GEMINI_BASE_URL": self.base_url,
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "no-system-settings.json"),
            "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "no-system-defaults.json"),
        }

    def stop(self) -> None:
        if self.mock is not None:
            self.mock.stop()

    def bodies(self) -> list[dict[str, Any]]:
        return [
            r["body"]
            for r in self.mock.requests
            if r["path"].split("?")[0].endswith("GenerateContent")
            and isinstance(r.get("body"), dict)
        ]

    def tools_run(self) -> list[str]:
        return [t["name"] for t in self.rc.tool_results(self.bodies())]

    def tools_offered(self, body: dict[str, Any]) -> set[str]:
        return {
            str(f.get("name"))
            for t in body.get("tools") or []
            for f in t.get("functionDeclarations") or []
        }

    def tool_reply(self, pwn: Path) -> Any:
        return {"command": f"touch {pwn}"}


class Claude:
    name = "claude-cli"

    def __init__(self, rc: ModuleType, tmp: Path) -> None:
        self.rc = rc
        self.tmp = tmp
        self.mock: Any = None
        self.replies: list[Any] = []
        self.base_url = ""

    def start(self, replies: list[Any]) -> None:
        self.replies = list(replies)
        outer = self

        def respond(body: dict[str, Any]) -> Any:
            system = json.dumps(body.get("system"))
            if "memory wiki" not in system:
                return None  # Claude Code's own side requests
            reply = outer.replies.pop(0) if len(outer.replies) > 1 else outer.replies[0]
            if isinstance(reply, dict):  # a tool call, though no tool is offered
                use = {
                    "type": "tool_use",
                    "id": "toolu_x1",
                    "name": "Bash",
                    "input": {"command": reply["command"]},
                }
                return [use], "tool_use", "tool_use"
            return [{"type": "text", "text": reply}], "end_turn", "final"

        self.mock = self.rc.MockAnthropic(
            self.tmp / "claude-api.jsonl", tool_commands=[], responder=respond
        ).start()
        self.configure(self.mock.base_url)

    def configure(self, base_url: str) -> None:
        self.base_url = base_url
        settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        hook = {"hooks": [{"type": "command", "command": f"touch {self.tmp / 'hook-ran'}"}]}
        settings.write_text(
            json.dumps({"hooks": {"SessionStart": [hook], "UserPromptSubmit": [hook]}})
        )

    def env(self) -> dict[str, str]:
        return {
            "PATH": f"{Path(self.rc.CLAUDE_BIN).parent}:{os.environ['PATH']}",
            "ANTHROPIC_BASE_URL": self.base_url,
            "ANTHROPIC_API_KEY": "sk-ant-mock-not-a-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }

    def stop(self) -> None:
        if self.mock is not None:
            self.mock.stop()

    def bodies(self) -> list[dict[str, Any]]:
        return [
            r["body"]
            for r in self.mock.requests
            if r["path"].startswith("/v1/messages")
            and "memory wiki"
            in json.dumps(r["body"].get("system") if isinstance(r["body"], dict) else "")
        ]

    def tools_run(self) -> list[str]:
        return [
            str(b.get("type"))
            for body in self.bodies()
            for m in body.get("messages") or []
            for b in (m.get("content") if isinstance(m.get("content"), list) else [])
            if isinstance(b, dict) and b.get("type") == "tool_result"
        ]

    def tools_offered(self, body: dict[str, Any]) -> set[str]:
        return {str(t.get("name")) for t in body.get("tools") or []}

    def tool_reply(self, pwn: Path) -> Any:
        return {"command": f"touch {pwn}"}


class Anthropic(Claude):
    """The Messages API through the SDK (the answer is a call of the `apply_operations` tool)."""

    name = "anthropic"

    def start(self, replies: list[Any]) -> None:
        self.replies = list(replies)
        outer = self

        def respond(body: dict[str, Any]) -> Any:
            reply = outer.replies.pop(0) if len(outer.replies) > 1 else outer.replies[0]
            try:
                data = json.loads(reply)
            except ValueError:
                return [{"type": "text", "text": reply}], "end_turn", "final"
            use = {"type": "tool_use", "id": "toolu_a1", "name": "apply_operations", "input": data}
            return [use], "tool_use", "final"

        self.mock = self.rc.MockAnthropic(
            self.tmp / "anthropic-api.jsonl", tool_commands=[], responder=respond
        ).start()
        self.configure(self.mock.base_url)

    def env(self) -> dict[str, str]:
        return {"ANTHROPIC_BASE_URL": self.base_url, "ANTHROPIC_API_KEY": "sk-ant-mock-not-a-key"}

    def tools_run(self) -> list[str]:
        return []  # the one tool is the answer's form


class ChatServer:
    """A stdlib OpenAI-compatible Chat Completions server: scripted replies, every request kept."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                text = server.replies.pop(0) if len(server.replies) > 1 else server.replies[0]
                data = json.dumps(
                    {
                        "id": "chatcmpl-local",
                        "object": "chat.completion",
                        "model": body.get("model"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": text},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": 1200,
                            "completion_tokens": 80,
                            "total_tokens": 1280,
                        },
                    }
                ).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class OpenAI:
    name = "openai"

    def __init__(self, rc: ModuleType | None, tmp: Path) -> None:
        self.server: ChatServer | None = None
        self.base_url = ""

    def start(self, replies: list[Any]) -> None:
        self.server = ChatServer(replies)
        self.configure(self.server.url)

    def configure(self, base_url: str) -> None:
        self.base_url = base_url

    def env(self) -> dict[str, str]:
        return {"LOCAL_LLM_KEY": "sk-local-not-secret-enough"}

    def config(self) -> str:
        return f'base_url = "{self.base_url}"\nmodel = "qwen2.5-coder:14b"\napi_key_env = "LOCAL_LLM_KEY"\n'

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()

    def bodies(self) -> list[dict[str, Any]]:
        return self.server.requests if self.server else []

    def tools_run(self) -> list[str]:
        return [m["role"] for b in self.bodies() for m in b["messages"] if m.get("role") == "tool"]

    def tools_offered(self, body: dict[str, Any]) -> set[str]:
        return {str(t) for t in body.get("tools") or []}


BACKENDS = {
    "anthropic": Anthropic,
    "claude-cli": Claude,
    "codex-cli": Codex,
    "gemini-cli": Gemini,
    "openai": OpenAI,
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(
    request: pytest.FixtureRequest,
    rc_claude: ModuleType,
    rc_codex: ModuleType,
    rc_gemini: ModuleType,
    tmp_path: Path,
) -> Iterator[Any]:
    name = request.param
    rc = {
        "anthropic": rc_claude,
        "claude-cli": rc_claude,
        "codex-cli": rc_codex,
        "gemini-cli": rc_gemini,
        "openai": None,
    }[name]
    made = BACKENDS[name](rc, tmp_path)
    yield made
    made.stop()


# -- the scene -------------------------------------------------------------------------------------


def scene(home: Path, tmp: Path, backend: Any) -> Path:
    """A home with one recorded session in acme-api, and a note a person edited by hand (with a
    key pasted into it, not committed)."""
    repo = make_repo(tmp / "work" / "api", remote="git@github.com:acme/api.git")
    wikimem("init")
    extra = backend.config() if hasattr(backend, "config") else ""
    model = 'model = "gemini-2.5-flash"\n' if backend.name == "gemini-cli" else ""
    (home / "config.toml").write_text(
        f'[dream]\nauto = false\nbackend = "{backend.name}"\n{model}{extra}'
    )
    for payload in (
        {"hook_event_name": "SessionStart", "source": "startup"},
        {"hook_event_name": "UserPromptSubmit", "prompt": TEACH},
        {
            "hook_event_name": "Stop",
            "last_assistant_message": "Noted: staging's database is on 5433.",
        },
    ):
        subprocess.run(
            [sys.executable, "-m", "wikimem", "hook", "claude"],
            input=json.dumps({"session_id": SESSION, "cwd": str(repo), **payload}),
            text=True,
            check=True,
            capture_output=True,
        )
    note = home / "memory" / "projects" / PROJECT / "facts.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text(
        "---\ntitle: Facts\nkind: project\n---\n"
        f"- The CI deploy user is ci-bot; its access key id is {SECRET}.\n"
    )
    return repo


def dream(backend: Any, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    proc = wikimem("dream", "--json", *args, env=backend.env(), check=False)
    return proc, time.monotonic() - start


def git(home: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(home / "memory"), *args], capture_output=True, text=True, check=True
    ).stdout


def files_outside(root: Path, home: Path) -> set[str]:
    out = set()
    for dirpath, dirnames, names in os.walk(root):
        if Path(dirpath) in (home, root / "userhome"):
            dirnames.clear()
            continue
        out.update(os.path.join(dirpath, n) for n in names if not n.endswith(".jsonl"))
    return out


# -- the tests -------------------------------------------------------------------------------------


def test_one_request_no_tool_operations_committed_no_secret_sent(
    backend: Any, isolated_home: Path, tmp_path: Path
) -> None:
    home = isolated_home
    backend.start([GOOD])
    scene(home, tmp_path, backend)
    proc, _ = dream(backend)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)

    bodies = backend.bodies()
    assert len(bodies) == 1  # one chunk, one request, no correction
    assert backend.tools_run() == []
    # none, but Codex's apply_patch (refused read-only) or the form of an anthropic answer
    assert backend.tools_offered(bodies[0]) <= {"apply_patch", "apply_operations"}
    sent = json.dumps(bodies)
    assert TEACH in sent and SECRET not in sent and "[REDACTED:aws_access_key]" in sent
    assert not (tmp_path / "mcp-started").exists() and not (tmp_path / "hook-ran").exists()

    assert result["model_chunks"] == 1 and result["offline_chunks"] == 0 and not result["fallback"]
    decisions = (home / "memory" / "projects" / PROJECT / "decisions.md").read_text()
    assert "port 5433" in decisions and "claude 2026-" in decisions  # the claim, its provenance
    assert f"Wikimem-Backend: {backend.name}" in git(home, "log", "-1", "--format=%B")
    # the person's own edit is theirs to commit (`wikimem watch`): only it is left
    assert git(home, "status", "--porcelain") == f"?? projects/{PROJECT}/facts.md\n"
    usage = json.loads((home / "state" / "model-usage.json").read_text())
    assert sum(d[backend.name]["calls"] for d in usage.values()) == 1


@pytest.mark.parametrize("answer", ["hostile", "malformed"])
def test_a_hostile_or_malformed_answer_is_refused_and_the_chunk_runs_offline(
    backend: Any, isolated_home: Path, tmp_path: Path, answer: str
) -> None:
    home = isolated_home
    backend.start([HOSTILE if answer == "hostile" else MALFORMED])
    scene(home, tmp_path, backend)
    before = files_outside(tmp_path, home)
    proc, _ = dream(backend)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)

    assert len(backend.bodies()) == 2  # the answer, and its one correction run
    assert result["model_chunks"] == 0 and result["offline_chunks"] == 1
    assert "refused" in result["fallback"][0]
    assert [ln for ln in proc.stderr.splitlines() if ln.startswith("dream:")], proc.stderr
    assert files_outside(tmp_path, home) == before
    assert not (home / "memory" / "projects" / "other-repo").exists()
    # the offline rules kept what the session taught
    assert "5433" in (home / "memory" / "projects" / PROJECT / "facts.md").read_text()
    assert git(home, "status", "--porcelain") == ""  # facts.md, the secret redacted, committed
    assert SECRET not in git(home, "show", f"HEAD:projects/{PROJECT}/facts.md")


def test_an_answer_after_a_tool_attempt_is_refused(
    backend: Any, isolated_home: Path, tmp_path: Path
) -> None:
    if not hasattr(backend, "tool_reply") or backend.name == "anthropic":
        pytest.skip("no tool to attempt: the answer itself is the one tool call")
    home = isolated_home
    pwn = tmp_path / "pwned.txt"
    backend.start([backend.tool_reply(pwn), GOOD])
    scene(home, tmp_path, backend)
    proc, _ = dream(backend)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)

    assert not pwn.exists()
    assert result["model_chunks"] == 0 and result["offline_chunks"] == 1
    assert "tool" in result["fallback"][0]
    assert not (home / "memory" / "projects" / PROJECT / "decisions.md").exists()
    assert "5433" in (home / "memory" / "projects" / PROJECT / "facts.md").read_text()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_an_unreachable_model_gives_way_to_an_offline_dream_within_5_s(
    backend: Any, isolated_home: Path, tmp_path: Path
) -> None:
    home = isolated_home
    url = f"http://127.0.0.1:{closed_port()}/v1"
    backend.configure(url if backend.name != "gemini-cli" else url[:-3])
    scene(home, tmp_path, backend)
    proc, seconds = dream(backend)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)

    assert seconds < 5, seconds
    said = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(said) == 1 and said[0].startswith(f"dream: {backend.name}: "), said
    assert "unreachable" in said[0] or "connect" in said[0]
    assert result["offline_chunks"] == 1 and result["model_chunks"] == 0
    assert "5433" in (home / "memory" / "projects" / PROJECT / "facts.md").read_text()
    status = json.loads(wikimem("status", "--json").stdout)["extra"]
    assert (
        "unreachable" in status["last dream fall-back"]
        or "connect" in status["last dream fall-back"]
    )
    assert "events to revisit" in status
