"""The hook path imports only the standard library (DESIGN §4), measured on the installed form."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, hook_env, payload

FORBIDDEN = (
    "typer",
    "rich",
    "git",
    "anthropic",
    "watchdog",
    "yaml",
    "frontmatter",
    "httpx",
    "click",
)
# Not third-party, but each costs milliseconds the hook budget does not have.
EXPENSIVE = ("pathlib", "typing", "dataclasses", "tomllib", "subprocess", "datetime")


def imported_modules(
    client: str, raw: dict[str, object], extra_env: dict[str, str] | None = None
) -> set[str]:
    cmd = [
        sys.executable,
        "-I",
        "-S",
        "-X",
        "importtime",
        str(REPO / "wikimem" / "hookentry.py"),
        client,
    ]
    proc = subprocess.run(
        cmd, input=json.dumps(raw).encode(), capture_output=True, env=hook_env(**(extra_env or {}))
    )
    assert proc.returncode == 0
    names = set()
    for line in proc.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line and "imported package" not in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert "wikimem.capture.hook" in names  # the measurement itself works
    return names


@pytest.mark.parametrize(
    "client,fixture",
    [
        ("claude", "claude_PostToolUse_Bash"),
        ("claude", "claude_SessionStart"),
        ("claude", "claude_UserPromptSubmit"),
        ("claude", "claude_Stop"),
        ("codex", "codex_SessionEnd"),
        ("cursor", "cursor_sessionStart"),
        ("cursor", "cursor_beforeSubmitPrompt"),
    ],
)
def test_hook_imports_only_the_standard_library(client: str, fixture: str, home: Path) -> None:
    names = imported_modules(client, payload(fixture))
    top = {n.split(".", 1)[0] for n in names}
    assert not top & set(FORBIDDEN), sorted(top & set(FORBIDDEN))
    stdlib = set(sys.stdlib_module_names) | {
        "wikimem",
        "_frozen_importlib",
        "_frozen_importlib_external",
    }
    assert top <= stdlib, sorted(top - stdlib)


def test_logging_only_event_avoids_expensive_modules(home: Path) -> None:
    names = imported_modules("claude", payload("claude_PostToolUse_Bash"))
    top = {n.split(".", 1)[0] for n in names}
    assert not top & set(EXPENSIVE), sorted(top & set(EXPENSIVE))
    assert "json" not in top and "re" not in top  # see wikimem/capture/fastjson.py and redact.py


@pytest.mark.parametrize(
    "client,fixture",
    [
        ("qwen", "PostToolUse"),
        ("qwen", "UserPromptSubmit"),
        ("opencode", "PostToolUse"),
        ("opencode", "SessionStart"),
    ],
)
def test_newer_harnesses_import_only_the_standard_library(
    client: str, fixture: str, home: Path
) -> None:
    """Qwen Code and OpenCode (Copilot CLI's `--event` form: tests/test_copilot_hook.py)."""
    from tests.conftest import FIXTURES

    raw = json.loads((FIXTURES / client / f"{fixture}.json").read_text())
    top = {n.split(".", 1)[0] for n in imported_modules(client, raw)}
    assert not top & set(FORBIDDEN), sorted(top & set(FORBIDDEN))
    assert top <= set(sys.stdlib_module_names) | {"wikimem", "_frozen_importlib_external"}
    if fixture == "PostToolUse":
        assert not top & set(EXPENSIVE), sorted(top & set(EXPENSIVE))
