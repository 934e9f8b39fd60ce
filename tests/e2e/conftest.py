"""End-to-end tests against the real Claude Code, Codex, Gemini CLI, GitHub Copilot CLI, OpenCode
and Qwen Code binaries (../shared/realclients).

The clients run offline against local mock model APIs that log every request, so a test sees
real hook payloads and what reached the model. Every test wires wikimem with `wikimem install
<client> --scope user` into a temporary HOME: the installer is under test too.

Locally these tests skip, with one line saying why, when the clients or npm are missing. CI sets
WIKIMEM_REQUIRE_E2E=1 (after `../shared/realclients/install.sh`), and then a missing client is a
failure, never a skip. The whole test process moves into a network namespace with only loopback
before the first end-to-end test, so nothing a client or a hook tries can leave the machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import NEEDS_KIT, SHARED

REALCLIENTS = SHARED / "realclients"
_state: dict[str, Any] = {}


def _load() -> tuple[ModuleType | None, ModuleType | None, str | None]:
    """(realclient_claude, realclient_codex, why they cannot be used). `_state["missing"]` says,
    per client, what of it is missing (for a test that needs only some: `e2e(clients=...)`)."""
    if "modules" in _state:
        return _state["modules"]  # type: ignore[no-any-return]
    reason = None
    claude = codex = None
    _state["missing"] = {}
    if not (REALCLIENTS / "realclient_claude.py").exists():
        reason = f"end-to-end test: {NEEDS_KIT}"
    else:
        sys.path.insert(0, str(REALCLIENTS))
        import realclient_claude
        import realclient_codex
        import realclient_copilot
        import realclient_gemini
        import realclient_opencode
        import realclient_qwen

        claude, codex = realclient_claude, realclient_codex
        _state["gemini"] = realclient_gemini
        _state["copilot"] = realclient_copilot
        _state["opencode"] = realclient_opencode
        _state["qwen"] = realclient_qwen
        bins = {
            "claude": claude.CLAUDE_BIN,
            "codex": codex.CODEX_BIN,
            "gemini": realclient_gemini.GEMINI_BIN,
            "copilot": realclient_copilot.COPILOT_BIN,
            "opencode": realclient_opencode.OPENCODE_BIN,
        }
        per_client = {c: b for c, b in bins.items() if not os.access(b, os.X_OK)}
        if not os.path.exists(realclient_qwen.QWEN_CLI_JS):
            per_client["qwen"] = realclient_qwen.QWEN_CLI_JS
        elif not shutil.which(realclient_qwen.NODE):
            per_client["qwen"] = f"node ({realclient_qwen.NODE}), which Qwen Code runs on"
        _state["missing"] = per_client
        missing = list(per_client.values())
        if missing:
            reason = (
                f"end-to-end test: the real clients are not installed ({missing[0]}); the "
                "driver kit's realclients/install.sh installs them"
            )
    _state["modules"] = (claude, codex, reason)
    return claude, codex, reason


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    e2e = [i for i in items if i.get_closest_marker("e2e")]
    if not e2e:
        return
    _, _, reason = _load()
    if reason is None:
        return
    for item in e2e:
        marker = item.get_closest_marker("e2e")
        needs = marker.kwargs.get("clients") if marker is not None else None
        if needs and (REALCLIENTS / "realclient_claude.py").exists():
            absent = [_state["missing"][c] for c in needs if c in _state["missing"]]
            if not absent:
                continue  # the clients this test runs are there
            why = f"real client not installed ({absent[0]}); run ../shared/realclients/install.sh"
        else:
            why = reason
        if os.environ.get("WIKIMEM_REQUIRE_E2E"):
            item.add_marker(pytest.mark.usefixtures("_e2e_required_but_missing"))
        else:
            item.add_marker(pytest.mark.skip(reason=why))


@pytest.fixture
def _e2e_required_but_missing() -> None:
    pytest.fail(f"WIKIMEM_REQUIRE_E2E is set but {_load()[2]}")


@pytest.fixture(scope="session")
def loopback_only() -> bool:
    claude, _, _ = _load()
    assert claude is not None
    if "netns" not in _state:
        _state["netns"] = claude.isolate_network()
    return bool(_state["netns"])


@pytest.fixture
def rc_claude(loopback_only: bool) -> ModuleType:
    return _load()[0]  # type: ignore[return-value]


@pytest.fixture
def rc_codex(loopback_only: bool) -> ModuleType:
    return _load()[1]  # type: ignore[return-value]


@pytest.fixture
def rc_gemini(loopback_only: bool) -> ModuleType:
    """The Gemini CLI driver; it runs every session in a loopback-only namespace of its own."""
    _load()
    return _state["gemini"]  # type: ignore[no-any-return]


@pytest.fixture
def rc_copilot() -> ModuleType:
    """The GitHub Copilot CLI driver; every session runs in a loopback-only namespace of its own."""
    _load()
    return _state["copilot"]  # type: ignore[no-any-return]


@pytest.fixture
def rc_opencode() -> ModuleType:
    """The OpenCode driver; every session runs in a loopback-only namespace of its own."""
    _load()
    return _state["opencode"]  # type: ignore[no-any-return]


@pytest.fixture
def rc_qwen() -> ModuleType:
    """The Qwen Code driver; every session runs in a loopback-only namespace of its own."""
    _load()
    return _state["qwen"]  # type: ignore[no-any-return]


def wikimem(
    *args: str, env: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=os.environ["HOME"],
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"wikimem {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


@pytest.fixture
def user_home() -> Path:
    """The temporary HOME the clients run in (also CODEX_HOME/..): set by tests/conftest.py."""
    return Path(os.environ["HOME"])


@pytest.fixture
def clones(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """Two clones of one project at different paths (same remote), as on two machines."""
    paths = []
    for rel in ("work/acme-api", "laptop/src/api"):
        path = tmp_path / rel
        path.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(path)], check=True)
        subprocess.run(
            ["git", "-C", str(path), "remote", "add", "origin", "git@github.com:acme/api.git"],
            check=True,
        )
        (path / "Makefile").write_text(
            "test:\n\t@if [ -f .fixed ]; then echo 'PASS tests/test_auth.py (3 tests)'; else "
            "echo 'FAIL tests/test_auth.py: TOKEN_TTL 3600 exceeds the provider maximum of 900' >&2; "
            "touch .fixed; exit 1; fi\n"
        )
        paths.append(path)
    yield paths[0], paths[1]


def records(home: Path) -> list[dict[str, Any]]:
    out = []
    for f in sorted((home / "events").glob("*.jsonl")):
        out += [json.loads(line) for line in f.read_text().splitlines()]
    return out


def in_requests(needle: str, bodies: list[Any]) -> bool:
    return any(needle in json.dumps(b) for b in bodies)
