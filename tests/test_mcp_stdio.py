"""`wikimem mcp` over real stdio, driven by the official SDK's own client (a subprocess per
session, in the test home): what an agent harness sees."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

from tests.conftest import make_repo
from wikimem.home import Home
from wikimem.wiki.batch import Wiki
from wikimem.wiki.remember import remember

TOOLS = {
    "memory_search",
    "memory_read",
    "memory_list",
    "memory_write",
    "memory_delete",
    "memory_recent",
}


def session(home: Path, cwd: Path, body: Callable[[ClientSession], Awaitable[None]]) -> None:
    env = {
        k: os.environ[k]
        for k in ("HOME", "WIKIMEM_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "PATH")
        if k in os.environ
    }
    env["WIKIMEM_HOME"] = str(home)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "wikimem", "mcp"], env=env, cwd=str(cwd)
    )

    async def run() -> None:
        # stdio_client + ClientSession: the SDK's client API since 1.x, so the oldest 2.x the
        # package allows is tested the same way
        with anyio.fail_after(60):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                await body(client)

    anyio.run(run)


async def call(client: ClientSession, tool: str, **args: Any) -> tuple[bool, Any]:
    """(is_error, structured result or the error text)."""
    result = await client.call_tool(tool, args)
    text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
    if result.is_error:
        return True, text
    return False, result.structured_content or json.loads(text)


def git_log(home: Path) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(home / "memory"), "log", "--format=%s"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.splitlines()


def test_search_read_write_delete_recent_over_stdio(home: Path, tmp_path: Path) -> None:
    # The notes below are written with `remember`, so they are the person's: an MCP client may
    # delete them only with the person's consent (docs/gate.md), given here.
    config = home / "config.toml"
    config.write_text(config.read_text().replace("[gate]\n", '[gate]\nperson_notes = "allow"\n', 1))
    wiki = Wiki(Home(str(home)))
    remember(wiki, "The API is deployed blue-green on Fly", project="acme-api")
    remember(wiki, "The billing service deploys with make release", project="billing")
    project = make_repo(tmp_path / "api", remote="git@github.com:acme/api.git")
    seen: dict[str, Any] = {}

    async def body(client: ClientSession) -> None:
        listed = await client.list_tools()
        seen["tools"] = {t.name for t in listed.tools}
        seen["search"] = await call(client, "memory_search", query="how do deploys go out")
        seen["read"] = await call(client, "memory_read", path="projects/acme-api/facts.md")
        seen["write"] = await call(client, "memory_write", text="The staging port is 5433")
        seen["recent"] = await call(client, "memory_recent", limit=5)
        seen["other"] = await call(client, "memory_read", path="projects/billing/facts.md")
        seen["named"] = await call(client, "memory_search", query="deploys in billing")
        seen["hostile"] = await call(client, "memory_write", text="x", path="../../.bashrc")
        seen["nul"] = await call(client, "memory_read", path="general/a\u0000.md")
        seen["delete"] = await call(client, "memory_delete", path="projects/acme-api/facts.md")
        seen["after"] = await call(client, "memory_list")

    session(home, project, body)
    assert seen["tools"] == TOOLS
    error, found = seen["search"]
    assert not error and found["project"] == "acme-api"
    assert [r["path"] for r in found["results"]] == ["projects/acme-api/facts.md"]
    error, note = seen["read"]
    assert not error and "blue-green on Fly" in note["content"]
    error, written = seen["write"]
    assert not error and written["path"] == "projects/acme-api/facts.md" and written["commit"]
    error, recent = seen["recent"]
    assert not error and recent["notes"][0]["path"] == "projects/acme-api/facts.md"
    assert recent["notes"][0]["source"] == "mcp"
    error, text = seen["other"]
    assert error and "belongs to project 'billing'" in text
    error, named = seen["named"]
    assert not error and "projects/billing/facts.md" in [r["path"] for r in named["results"]]
    error, text = seen["hostile"]
    assert error and "'..' would leave memory/" in text
    assert not (tmp_path / ".bashrc").exists() and not (home.parent / ".bashrc").exists()
    error, text = seen["nul"]
    assert error and "NUL" in text
    error, deleted = seen["delete"]
    assert not error and deleted["operation"] == "delete"
    error, after = seen["after"]
    assert not error and after["notes"] == []
    assert git_log(home)[:2] == [
        "mcp: delete projects/acme-api/facts.md",
        "mcp: update projects/acme-api/facts.md",
    ]


def test_a_blocked_write_is_reported_as_a_tool_error(home: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "no-deploy-notes.sh"
    blocker.write_text("#!/bin/sh\necho 'deploy notes are reviewed by hand' >&2\nexit 2\n")
    blocker.chmod(0o755)
    config = home / "config.toml"
    config.write_text(
        config.read_text() + f'\n[[gate.pre_write]]\ncommand = "{blocker}"\nmatch = "**"\n'
    )
    before = git_log(home)
    seen: dict[str, Any] = {}

    async def body(client: ClientSession) -> None:
        seen["write"] = await call(client, "memory_write", text="We deploy on Tuesdays")

    session(home, make_repo(tmp_path / "api"), body)
    error, text = seen["write"]
    assert error and "blocked by the write gate" in text
    assert "deploy notes are reviewed by hand" in text
    assert git_log(home) == before
