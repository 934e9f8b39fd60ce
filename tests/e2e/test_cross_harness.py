"""What one agent learned, another knows: real Claude Code, Codex, GitHub Copilot CLI, OpenCode and
Qwen Code sessions sharing one memory."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.e2e.conftest import in_requests, records, wikimem

pytestmark = pytest.mark.e2e

TEACH = (
    "We use pnpm, never npm, in this repo. Remember that the staging database listens on "
    "port 5433. Then run the tests."
)
ASK = "How do we run the tests here, which package manager do we use, and which port is staging's database on?"


def codex_hooks(user_home: Path) -> dict[str, object]:
    return json.loads((user_home / ".codex" / "hooks.json").read_text())


def test_claude_to_codex(
    rc_claude: ModuleType,
    rc_codex: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    wikimem("install", "claude", "--scope", "user")
    wikimem("install", "codex", "--scope", "user", "--trust")
    a, b = clones
    teach = rc_claude.run_session(
        None, TEACH, str(a), str(user_home), tool_commands=["make test", "make test"]
    )
    assert teach["ok"], teach["stderr"][-2000:]
    events = records(isolated_home)
    assert {r["event"] for r in events} >= {
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUseFailure",
        "PostToolUse",
        "Stop",
        "SessionEnd",
    }
    assert all(r["project"] == "acme-api" for r in events)
    wikimem("dream", "--backend", "offline")
    assert "5433" in (isolated_home / "memory" / "projects" / "acme-api" / "facts.md").read_text()

    ask = rc_codex.run_session(
        None,
        ASK,
        str(b),
        str(user_home),
        hooks=codex_hooks(user_home),
        trust="persist",
        tool_command="make test",
        isolate_network=False,
    )
    assert ask["ok"], ask["stderr"][-2000:]
    bodies = [r["body"] for r in ask["api_requests"]]
    assert in_requests("never npm", bodies) and in_requests("5433", bodies)
    assert in_requests("make test", bodies)  # the command that works, from commands.md
    assert in_requests('<memory source=\\"wikimem\\">', bodies)


def test_codex_to_claude(
    rc_claude: ModuleType,
    rc_codex: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    wikimem("install", "claude", "--scope", "user")
    wikimem("install", "codex", "--scope", "user", "--trust")
    a, b = clones
    teach = rc_codex.run_session(
        None,
        TEACH,
        str(b),
        str(user_home),
        hooks=codex_hooks(user_home),
        trust="persist",
        tool_command="make test",
        isolate_network=False,
    )
    assert teach["ok"], teach["stderr"][-2000:]
    assert {r["client"] for r in records(isolated_home)} == {"codex"}
    wikimem("dream", "--backend", "offline")
    ask = rc_claude.run_session(None, ASK, str(a), str(user_home))
    assert ask["ok"], ask["stderr"][-2000:]
    assert in_requests("never npm", ask["api_requests"]) and in_requests(
        "5433", ask["api_requests"]
    )


@pytest.mark.timeout(900)
def test_a_chain_through_all_the_harnesses(
    rc_claude: ModuleType,
    rc_copilot: ModuleType,
    rc_opencode: ModuleType,
    rc_qwen: ModuleType,
    rc_codex: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    """Claude Code → Copilot CLI → OpenCode → Qwen Code → Codex: what each session is told, the
    next one (on the other clone, after a dream) finds in what it sends to its model."""
    a, b = clones
    for client in ("claude", "copilot", "opencode", "qwen"):
        wikimem("install", client)
    wikimem("install", "codex", "--trust")

    def learned(bodies: list[object], fact: str) -> None:
        assert in_requests(fact, bodies), fact
        wikimem("dream", "--backend", "offline")

    told = rc_claude.run_session(
        None,
        "Remember that the staging database listens on port 5433.",
        str(a),
        str(user_home),
        tool_commands=[],
    )
    assert told["ok"], told["stderr"][-2000:]
    wikimem("dream", "--backend", "offline")

    # `opencode run` would read a word like "9464." as a number: none ends a sentence here
    run = rc_copilot.run_session(
        None,
        "Which port does staging's database use? Remember that release branches are named release/YYYY-MM.",
        str(b),
        str(user_home),
        tool_commands=[],
        trust="none",
    )
    assert run["ok"], run["stderr"][-2000:]
    learned(run["api_requests"], "5433")

    run = rc_opencode.run_session(
        None,
        "How are release branches named? Remember that the metrics collector listens on port 9464, please.",
        str(a),
        str(user_home),
        tool_commands=[],
    )
    assert run["ok"], run["stderr"][-2000:]
    learned(run["api_requests"], "release/YYYY-MM")

    run = rc_qwen.run_session(
        None,
        "Where does the metrics collector listen? Remember that deploys need the VPN profile acme-prod.",
        str(b),
        str(user_home),
        tool_commands=[],
    )
    assert run["ok"], run["stderr"][-2000:]
    learned(run["api_requests"], "9464")

    ask = rc_codex.run_session(
        None,
        "Which VPN profile do deploys need?",
        str(a),
        str(user_home),
        hooks=codex_hooks(user_home),
        trust="persist",
        tool_command="true",
        isolate_network=False,
    )
    assert ask["ok"], ask["stderr"][-2000:]
    assert in_requests("acme-prod", [r["body"] for r in ask["api_requests"]])
    assert {r["client"] for r in records(isolated_home)} == {
        "claude",
        "copilot",
        "opencode",
        "qwen",
        "codex",
    }
