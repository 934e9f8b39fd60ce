"""The real Gemini CLI 0.61.0 (../shared/realclients/realclient_gemini.py) with wikimem wired in by
`wikimem install gemini --trust` and by the Gemini extension (integrations/gemini): capture, one
record per event, --resume, auto-dream, and memory shared with Claude Code and Codex both ways.

Each Gemini session costs seconds, so the tests are few and each checks much. The driver writes
no folder trust (trust="none"): the sessions run only because `install --trust` recorded it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO
from tests.e2e.conftest import in_requests, records, wikimem

pytestmark = pytest.mark.e2e

TEACH = (
    "We use pnpm, never npm, in this repo. Remember that the staging database listens on "
    "port 5433. Then run the tests."
)
ASK = "How do we run the tests here, which package manager do we use, and which port is staging's database on?"
ANSWER = "The first run failed on TOKEN_TTL; after the fix the tests pass."
STANDING = "Release branches are named release/YYYY-MM"


def gemini(rc: ModuleType, prompt: str, cwd: Path, home: Path, **kw: Any) -> dict[str, Any]:
    """One `gemini -p` run with the hooks wikimem wrote under `home` (trust: ours only)."""
    kw.setdefault("tool_commands", [])
    run: dict[str, Any] = rc.run_session(None, prompt, str(cwd), str(home), trust="none", **kw)
    assert run["ok"], (run["exit"], run["stderr"][-3000:])
    return run


def counts(home: Path, session: str) -> Counter[str]:
    return Counter(r["event"] for r in records(home) if r["session"] == session)


def logged(path: Path) -> Counter[str]:
    return Counter(path.read_text().split()) if path.exists() else Counter()


def test_capture_once_per_event_with_install_and_extension_then_resume(
    rc_gemini: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
    tmp_path: Path,
) -> None:
    a, _ = clones
    wikimem("init")
    wikimem("remember", STANDING, "--project", "acme-api")
    proc = wikimem("install", "gemini", "--trust", "--project-dir", str(a))
    assert "Recorded Gemini CLI trust" in proc.stdout
    # Both registrations log each run, so the test sees that both really fired.
    log = tmp_path / "deliveries.log"
    settings_path = user_home / ".gemini" / "settings.json"
    settings = json.loads(settings_path.read_text())
    for groups in settings["hooks"].values():
        for handler in groups[0]["hooks"]:
            handler["command"] = f"echo install >> {log}; {handler['command']}"
    settings_path.write_text(json.dumps(settings))
    logger = tmp_path / "wikimem-logged"
    logger.write_text(
        f'#!/bin/sh\n[ "$1" = hook ] && echo extension >> {log}\n'
        f'exec {Path(sys.executable).parent / "wikimem"} "$@"\n'
    )
    logger.chmod(0o755)
    extension = str(REPO / "integrations" / "gemini")
    link = subprocess.run(
        [rc_gemini.GEMINI_BIN, "extensions", "link", extension, "--consent"],
        env={**os.environ, "HOME": str(user_home), "GEMINI_CLI_TRUST_WORKSPACE": "true"},
        cwd=a,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert link.returncode == 0, link.stderr[-2000:]
    env = {"WIKIMEM_BIN": str(logger)}

    first = gemini(
        rc_gemini,
        TEACH,
        a,
        user_home,
        tool_commands=["make test", "make test"],
        final_text=ANSWER,
        text_chunks=3,  # streamed: Gemini's own AfterAgent text comes out garbled
        env=env,
    )
    sid = first["session_id"]
    c = counts(isolated_home, sid)
    assert c == Counter(
        {"SessionStart": 1, "UserPromptSubmit": 1, "PostToolUse": 2, "Stop": 1, "SessionEnd": 1}
    )
    assert logged(log) == {"install": 6, "extension": 6}  # both fired; recorded once
    recs = [r for r in records(isolated_home) if r["session"] == sid]
    assert {r["client"] for r in recs} == {"gemini"} and {r["project"] for r in recs} == {
        "acme-api"
    }
    prompt = next(r for r in recs if r["event"] == "UserPromptSubmit")
    assert prompt["prompt"] == TEACH  # the SessionStart context Gemini prepended is cut off
    failed, passed = [r for r in recs if r["event"] == "PostToolUse"]
    assert failed["exit_code"] == 2 and "TOKEN_TTL 3600 exceeds" in failed["output"]
    assert passed["exit_code"] == 0 and "PASS tests/test_auth.py" in passed["output"]
    assert next(r for r in recs if r["event"] == "Stop")["message"] == ANSWER
    assert not (isolated_home / "state" / "errors.log").exists()
    # the standing note arrived at session start, prepended to the first prompt
    assert rc_gemini.locate("release/YYYY-MM", first["api_requests"][:1]) == [
        "contents[0].user/parts[1].text"
    ]

    log.unlink()
    resumed = gemini(
        rc_gemini, "Which branch do releases go to?", a, user_home, resume="latest", env=env
    )
    assert resumed["session_id"] == sid
    c = counts(isolated_home, sid)
    assert c["SessionStart"] == 2 and c["UserPromptSubmit"] == 2 and c["Stop"] == 2
    starts = [r.get("source") for r in records(isolated_home) if r["event"] == "SessionStart"]
    assert starts == ["startup", "resume"]
    assert logged(log) == {"install": 4, "extension": 4}
    # Gemini rebuilt the history without the first prompt (it began with SessionStart context);
    # the standing note came back once, with the new prompt, through BeforeAgent
    last = resumed["api_requests"][-1]
    spots = rc_gemini.locate("release/YYYY-MM", [last])
    assert len(spots) == 1, spots
    i, j = _indices(spots[0])
    parts = last["contents"][i]["parts"]
    assert j >= 1 and parts[j]["text"].startswith("<hook_context>")
    assert "Which branch do releases go to?" in parts[j - 1]["text"]


def _indices(spot: str) -> tuple[int, int]:
    """(content, part) of a `contents[i].user/parts[j].text` location."""
    head, tail = spot.split("/parts[")
    return int(head.split("[")[1].split("]")[0]), int(tail.split("]")[0])


def test_told_in_gemini_recalled_in_claude_and_codex_after_an_auto_dream(
    rc_gemini: ModuleType,
    rc_claude: ModuleType,
    rc_codex: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    wikimem("init")
    (isolated_home / "config.toml").write_text(
        '[dream]\nbackend = "offline"\nauto = true\nmin_new_events = 3\nmin_interval_minutes = 0\n'
    )
    a, b = clones
    wikimem("install", "gemini", "--trust", "--project-dir", str(a))
    teach = gemini(rc_gemini, TEACH, a, user_home, tool_commands=["make test", "make test"])
    project_notes = isolated_home / "memory" / "projects" / "acme-api"
    for _ in range(300):  # the dream the session's end started, detached
        if (isolated_home / "state" / "dream.log").exists():
            break
        time.sleep(0.1)
    assert any("5433" in p.read_text() for p in project_notes.glob("*.md"))
    log = [json.loads(x) for x in (isolated_home / "state" / "dream.log").read_text().splitlines()]
    assert log[0]["backend"] == "offline" and log[0]["commit"]
    digests = list((isolated_home / "memory" / "projects" / "acme-api" / "sessions").glob("*.md"))
    assert len(digests) == 1 and "make test" in digests[0].read_text()
    assert teach["session_id"]

    wikimem("install", "claude", "--scope", "user")
    ask = rc_claude.run_session(None, ASK, str(b), str(user_home), tool_commands=[])
    assert ask["ok"], ask["stderr"][-2000:]
    assert in_requests("never npm", ask["api_requests"])
    assert in_requests("5433", ask["api_requests"])

    wikimem("install", "codex", "--scope", "user", "--trust")
    hooks = json.loads((user_home / ".codex" / "hooks.json").read_text())
    ask = rc_codex.run_session(
        None, ASK, str(b), str(user_home), hooks=hooks, trust="persist", isolate_network=False
    )
    assert ask["ok"], ask["stderr"][-2000:]
    bodies = [r["body"] for r in ask["api_requests"]]
    assert in_requests("never npm", bodies) and in_requests("5433", bodies)
    assert in_requests("make test", bodies)  # the command that worked, learned in Gemini


def test_told_in_claude_and_codex_recalled_in_gemini(
    rc_gemini: ModuleType,
    rc_claude: ModuleType,
    rc_codex: ModuleType,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    a, b = clones
    wikimem("install", "claude", "--scope", "user")
    wikimem("install", "codex", "--scope", "user", "--trust")
    told = rc_claude.run_session(
        None, "We use pnpm, never npm, in this repo.", str(a), str(user_home), tool_commands=[]
    )
    assert told["ok"], told["stderr"][-2000:]
    hooks = json.loads((user_home / ".codex" / "hooks.json").read_text())
    told = rc_codex.run_session(
        None,
        "Remember that the staging database listens on port 5433.",
        str(b),
        str(user_home),
        hooks=hooks,
        trust="persist",
        isolate_network=False,
    )
    assert told["ok"], told["stderr"][-2000:]
    wikimem("dream", "--backend", "offline")

    wikimem("install", "gemini", "--trust", "--project-dir", str(b))
    ask = gemini(rc_gemini, ASK, b, user_home)
    assert in_requests("never npm", ask["api_requests"])
    assert in_requests("5433", ask["api_requests"])
    # wrapped as data: Gemini escapes < and > inside hook context
    assert in_requests('&lt;memory source=\\"wikimem\\"&gt;', ask["api_requests"])
    assert {r["client"] for r in records(isolated_home)} == {"claude", "codex", "gemini"}
