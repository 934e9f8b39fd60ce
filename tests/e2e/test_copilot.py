"""The real GitHub Copilot CLI 1.0.102 (../shared/realclients/realclient_copilot.py) with wikimem
wired in by `wikimem install copilot`, at user and repository scope at once: capture (one record
per event though both scopes' hooks fire), the memory where Copilot puts it, --resume, the MCP
server, and an uninstall that leaves Copilot's configuration as it was.

The driver writes no hooks of its own (hook_command=None) and no folder trust (trust="none"): the
repository hooks run only because `install --trust` recorded it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.e2e.conftest import records, wikimem

pytestmark = pytest.mark.e2e

TEACH = "We use pnpm, never npm, in this repo. Remember that the staging database listens on port 5433. Then run the tests."
ANSWER = "The first run failed on TOKEN_TTL; after the fix the tests pass."
STANDING = "Release branches are named release/YYYY-MM"


def copilot(rc: ModuleType, prompt: str, cwd: Path, home: Path, **kw: Any) -> dict[str, Any]:
    kw.setdefault("tool_commands", [])
    kw.setdefault("trust", "none")
    run: dict[str, Any] = rc.run_session(None, prompt, str(cwd), str(home), **kw)
    assert run["ok"], (run["exit"], run["stderr"][-3000:])
    return run


def log_runs(path: Path, log: Path, label: str) -> None:
    """Make each command of a hooks file also append `label` to `log`, so a test sees that it
    ran (Copilot's own events.jsonl logs one hook.start per event, however many commands)."""
    doc = json.loads(path.read_text())
    for entries in doc["hooks"].values():
        for entry in entries:
            entry["bash"] = f"echo {label} >> {log}; {entry['bash']}"
    path.write_text(json.dumps(doc))


def test_capture_at_two_scopes_once_per_event_then_resume(
    rc_copilot: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    a, _ = clones
    wikimem("init")
    wikimem("remember", STANDING, "--project", "acme-api")
    wikimem("install", "copilot")
    proc = wikimem("install", "copilot", "--scope", "project", "--project-dir", str(a), "--trust")
    assert "Recorded Copilot CLI trust" in proc.stdout
    log = user_home / "runs.log"
    log_runs(user_home / ".copilot" / "hooks" / "wikimem.json", log, "user")
    log_runs(a / ".github" / "hooks" / "wikimem.json", log, "repository")

    first = copilot(
        rc_copilot, TEACH, a, user_home, tool_commands=["make test", "make test"], final_text=ANSWER
    )
    sid = first["session_id"]
    # both scopes' hooks ran for each of the 6 events; each event was recorded once
    assert Counter(log.read_text().split()) == {"user": 6, "repository": 6}
    mine = [r for r in records(isolated_home) if r["session"] == sid]
    assert Counter(r["event"] for r in mine) == Counter(
        {"SessionStart": 1, "UserPromptSubmit": 1, "PostToolUse": 2, "Stop": 1, "SessionEnd": 1}
    )
    assert {r["client"] for r in mine} == {"copilot"} and {r["project"] for r in mine} == {
        "acme-api"
    }
    prompt = next(r for r in mine if r["event"] == "UserPromptSubmit")
    assert prompt["prompt"] == TEACH
    failed, passed = [r for r in mine if r["event"] == "PostToolUse"]
    assert failed["exit_code"] == 2 and "TOKEN_TTL 3600 exceeds" in failed["output"]
    assert passed["exit_code"] == 0 and "PASS tests/test_auth.py" in passed["output"]
    assert next(r for r in mine if r["event"] == "Stop")["message"] == ANSWER
    assert not (isolated_home / "state" / "errors.log").exists()
    # the standing note: its own user message after the system prompt, once
    body = first["api_requests"][0]
    assert rc_copilot.locate(STANDING, [body]) == ["messages[1].user"]
    assert json.dumps(body).count(STANDING) == 1

    resumed = copilot(rc_copilot, "Which branch do releases go to?", a, user_home, resume=sid)
    assert resumed["session_id"] == sid
    again = [r for r in records(isolated_home) if r["session"] == sid]
    assert [r.get("source") for r in again if r["event"] == "SessionStart"] == ["new", "resume"]
    # Copilot put the resumed start's context in place of the first one's: once, not twice
    last = resumed["api_requests"][-1]
    assert rc_copilot.locate(STANDING, [last]) == ["messages[1].user"]
    assert json.dumps(last).count(STANDING) == 1


def _copilot_config(home: Path) -> dict[str, object]:
    """Copilot's configuration (its session state, logs and caches left out); JSON files by
    their content (a file wikimem edited and restored may be laid out differently), and
    wikimem's backups aside (they stay beside a file it changed, by design)."""
    root = home / ".copilot"
    out: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] in ("session-state", "logs", "pkg", "installed-plugins") or (
            rel.parts[0].startswith(("session-store", "command-history"))
            or path.suffix == ".lock"
            or ".wikimem-backup-" in path.name
        ):
            continue
        text = path.read_text() if path.is_file() else None
        out[str(rel)] = json.loads(text) if text and path.name == "mcp-config.json" else text
    return out


def test_install_then_uninstall_leaves_copilots_config_as_it_was(
    rc_copilot: ModuleType, isolated_home: Path, user_home: Path, clones: tuple[Path, Path]
) -> None:
    a, _ = clones
    copilot(rc_copilot, "Hello.", a, user_home)  # Copilot writes its own files
    (user_home / ".copilot" / "mcp-config.json").write_text(
        json.dumps({"mcpServers": {"docs": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}})
    )
    before = _copilot_config(user_home)
    wikimem("install", "copilot", "--mcp")
    run = copilot(rc_copilot, "Hello again.", a, user_home)
    assert {r["event"] for r in records(isolated_home)} >= {"SessionStart", "Stop", "SessionEnd"}
    tools = {t["function"]["name"] for b in run["api_requests"] for t in b.get("tools") or []}
    assert "wikimem-memory_search" in tools  # the MCP server started and its tools are offered
    wikimem("uninstall", "copilot", "--mcp")
    assert _copilot_config(user_home) == before
