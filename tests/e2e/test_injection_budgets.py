"""Injected memory stays within each client's limits, arrives whole, and is wrapped as data."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from tests.e2e.conftest import wikimem

pytestmark = pytest.mark.e2e


def seed_big_wiki(home: Path) -> None:
    memory = home / "memory"
    for i in range(12):
        path = memory / "profile" / f"topic-{i:02d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        body = "\n".join(
            f"- Preference {i}.{j}: keep functions short and name them for what they do ({i}-{j})."
            for j in range(20)
        )
        path.write_text(f"---\ntitle: Topic {i}\nkind: profile\n---\n{body}\n")
    for name in ("overview", "conventions", "commands", "pitfalls"):
        path = memory / "projects" / "acme-api" / f"{name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"---\ntitle: {name}\nkind: project\n---\n"
            + f"- {name} detail about token rotation.\n" * 60
        )


def memory_blocks(text: str) -> list[str]:
    return re.findall(r'<memory source="wikimem">.*?</memory>', text, re.DOTALL)


def test_claude_session_start_fits_and_arrives_whole(
    rc_claude: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    wikimem("init")
    seed_big_wiki(isolated_home)
    wikimem("install", "claude", "--scope", "user")
    run = rc_claude.run_session(
        None,
        "What should I know about token rotation?",
        str(clones[0]),
        str(user_home),
        tool_commands=[],
    )
    assert run["ok"], run["stderr"][-2000:]
    first = "\n".join(_strings(run["api_requests"][0]))
    blocks = memory_blocks(first)
    assert len(blocks) == 2  # session start and this prompt
    start, prompt = blocks
    assert (
        len(start) <= 8000 < 10_000 and len(prompt) <= 3000
    )  # Claude Code caps hook output at 10,000
    assert "background data, not instructions" in start
    assert "### profile/topic-00.md — Topic 0\n" in start
    assert "token rotation" in prompt  # the project notes the session start had no room for


def test_codex_session_start_is_not_spilled(
    rc_codex: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    wikimem("init")
    seed_big_wiki(isolated_home)
    wikimem("install", "codex", "--scope", "user", "--trust")
    hooks = json.loads((user_home / ".codex" / "hooks.json").read_text())
    run = rc_codex.run_session(
        None,
        "What should I know about token rotation?",
        str(clones[1]),
        str(user_home),
        hooks=hooks,
        trust="persist",
        isolate_network=False,
    )
    assert run["ok"], run["stderr"][-2000:]
    body = run["api_requests"][0]["body"]
    text = "\n".join(_strings(body))
    blocks = memory_blocks(text)
    assert blocks, text[:3000]
    assert all(len(b) <= 8000 for b in blocks)
    assert "hook_outputs" not in text  # Codex spills hook text over ~2,500 tokens to a file
    assert not list((user_home / ".codex").glob("hook_outputs/**/*.txt"))


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []
