"""Shared test setup: every test runs against a temporary home and a temporary $HOME.

Tests never touch the real home directory or the network: the autouse fixture below removes
every variable of the developer's environment that could steer wikimem, git, an SDK or rich
(LEAKY_ENV*), points WIKIMEM_HOME, HOME, CODEX_HOME and git's global config into tmp_path and
fails loudly if the memory home would resolve anywhere else. Git runs for real, with a fixed
identity.
"""

from __future__ import annotations

import json
import locale
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

# CI must be reproducible: a red run has to mean the change broke something, not that the
# fuzzers met a new example that day. `.ci/run` sets WIKIMEM_HYPOTHESIS=ci (a fixed seed per
# test); anywhere else every run explores new examples, and what they find becomes a test.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("WIKIMEM_HYPOTHESIS", "default"))

# The terminal the tests happen to run in must not shape the CLI's output: rich reads these when
# the CLI's consoles are created (at import, before any fixture runs), so they go first; tests
# that want a terminal set its width themselves.
for _var in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "LINES"):
    os.environ.pop(_var, None)

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
SHARED = REPO.parent / "shared"
# What a skipped test needs, said so that someone with a clone alone knows what it is: the
# project's shared folder is not part of the repository (README, Development).
NEEDS_KIT = (
    "needs the real-client driver kit, which is not part of this repository (README: Development)"
)
REAL_HOME = os.path.expanduser("~")

# What a developer's shell, a CI runner or a harness session may export that would reach
# wikimem, git, the SDKs or rich inside a test: every test starts without any of it.
LEAKY_ENV_PREFIXES = (
    "WIKIMEM_",  # the memory home, hook deadlines, fault injection, debug tracebacks
    "GIT_",  # GIT_DIR/GIT_INDEX_FILE (set inside git hooks), identities, dates, -c parameters
    "ANTHROPIC_",  # key, base URL, auth token, model: the SDK reads them
    "CLAUDE",  # CLAUDECODE, CLAUDE_CONFIG_DIR, CLAUDE_PROJECT_DIR, CLAUDE_CODE_*
    "CODEX_",
    "CURSOR_",
    "GEMINI_",
    "GOOGLE_",
    "OPENAI_",
    "COPILOT_",  # COPILOT_HOME moves ~/.copilot; the rest is Copilot CLI's hook environment
    "OPENCODE",  # OPENCODE_CONFIG_DIR and friends; OPENCODE=1 inside OpenCode
    "QWEN_",  # QWEN_HOME moves ~/.qwen
    "XDG_CONFIG_",  # git and the harnesses read config from XDG_CONFIG_HOME
    "XDG_DATA_",
    "XDG_STATE_",
    "XDG_CACHE_",
)
LEAKY_ENV = frozenset(
    {
        "EDITOR",
        "VISUAL",
        "PAGER",
        "HTTP_PROXY",  # the SDKs' HTTP clients honour proxies, even for a local test server
        "HTTPS_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "no_proxy",
        "FORCE_COLOR",  # rich and others colour even a pipe with these
        "CLICOLOR_FORCE",
        "PY_COLORS",
        "TTY_COMPATIBLE",
        "TTY_INTERACTIVE",
        "LANGUAGE",  # translated git messages; LC_ALL is set instead (TEST_LOCALE)
        "PYTHONIOENCODING",
        "PYTHONUTF8",
        "PYTHONCOERCECLOCALE",
    }
)
KEEP_ENV = frozenset({"WIKIMEM_REQUIRE_E2E"})  # CI's own switch (tests/e2e/conftest.py)

# The suite's own text (subprocess output read with text=True, files opened without an
# encoding, ../shared's mock servers) is UTF-8 whatever the developer's locale, and the autouse
# fixture gives every child process the same locale. tests/test_locale.py runs wikimem under a
# non-UTF-8 locale on purpose.
TEST_LOCALE = "C.UTF-8"
try:
    locale.setlocale(locale.LC_CTYPE, TEST_LOCALE)
except locale.Error:
    pass  # no C.UTF-8 here: children fall back to C, where Python reads and writes UTF-8


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `long` run only when WIKIMEM_LONG=1 (docs/reliability.md)."""
    if os.environ.get("WIKIMEM_LONG") == "1":
        return
    skip = pytest.mark.skip(reason="long suite: run with WIKIMEM_LONG=1 pytest -m long")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    userhome = tmp_path / "userhome"
    userhome.mkdir()
    home = tmp_path / "wikimem-home"
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text(
        "[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"
    )
    for var in list(os.environ):
        if var not in KEEP_ENV and (var in LEAKY_ENV or var.startswith(LEAKY_ENV_PREFIXES)):
            monkeypatch.delenv(var)
    monkeypatch.setenv("LC_ALL", TEST_LOCALE)
    monkeypatch.setenv("HOME", str(userhome))
    monkeypatch.setenv("WIKIMEM_HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(userhome / ".codex"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in (
        "CLAUDE_CONFIG_DIR",
        "CURSOR_VERSION",
        "ANTHROPIC_API_KEY",
        "EDITOR",
        "VISUAL",
        "CLAUDE_PROJECT_DIR",
        "CURSOR_PROJECT_DIR",
        "WIKIMEM_HOOK_DEADLINE",
        # Gemini CLI: its hook environment, and what moves or overrides its home and trust
        "GEMINI_SESSION_ID",
        "GEMINI_CWD",
        "GEMINI_PROJECT_DIR",
        "GEMINI_CLI_HOME",
        "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
        "GEMINI_CLI_TRUST_WORKSPACE",
        "GEMINI_RESTRICTED_MODE",
        "WIKIMEM_HOOK_RECORD_WAIT",
    ):
        monkeypatch.delenv(var, raising=False)
    from wikimem.home import resolve_home

    resolved = resolve_home().root
    if not resolved.startswith(str(tmp_path)) or resolved.startswith(
        os.path.join(REAL_HOME, ".wikimem")
    ):
        pytest.fail(f"test would use a real memory home: {resolved}")
    yield home
    assert not resolve_home().root.startswith(os.path.join(REAL_HOME, ".wikimem"))


@pytest.fixture
def home(isolated_home: Path) -> Path:
    """An initialised memory home."""
    from wikimem.home import Home
    from wikimem.layout import init_home

    init_home(Home(str(isolated_home)))
    return isolated_home


def hook_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(extra)
    return env


def run_hook(
    client: str,
    payload: bytes | str | dict[str, Any],
    *,
    env: dict[str, str] | None = None,
    installed_form: bool = False,
    timeout: float = 30,
) -> subprocess.CompletedProcess[bytes]:
    """Run the real hook entry point in a subprocess (`python -m wikimem hook`, or the command
    `wikimem install` writes when installed_form)."""
    if isinstance(payload, dict):
        payload = json.dumps(payload)
    if isinstance(payload, str):
        payload = payload.encode()
    if installed_form:
        cmd = [sys.executable, "-I", "-S", str(REPO / "wikimem" / "hookentry.py"), client]
    else:
        cmd = [sys.executable, "-m", "wikimem", "hook", client]
    return subprocess.run(
        cmd, input=payload, capture_output=True, env=env or hook_env(), timeout=timeout
    )


def records(home: Path) -> list[dict[str, Any]]:
    out = []
    for f in sorted((home / "events").glob("*.jsonl")):
        for line in f.read_text().splitlines():
            out.append(json.loads(line))
    return out


def errors(home: Path) -> list[str]:
    path = home / "state" / "errors.log"
    return path.read_text().splitlines() if path.exists() else []


def payload(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "payloads" / f"{name}.json").read_text())
    return data


def make_repo(path: Path, remote: str | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    if remote:
        subprocess.run(["git", "-C", str(path), "remote", "add", "origin", remote], check=True)
    return path


def own_lines(home: Path, *rels: str, via: str = "claude", day: str = "2026-12-01") -> None:
    """Record every line of the notes at `rels` as the person's, as this machine would have had
    them written through wikimem (a test that writes a note by hand writes no record:
    `wikimem.wiki.origins`, and a line nobody recorded is never the person's)."""
    from wikimem.wiki import origins

    said = origins.code(origins.PERSON, via, day)
    memory = home / "memory"
    origins.save(
        str(home / "state"),
        {
            rel: {k: said for k in origins.body_keys((memory / rel).read_text(encoding="utf-8"))}
            for rel in rels
        },
    )
