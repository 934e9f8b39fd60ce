"""`wikimem install/uninstall antigravity`: wikimem's named hook in Antigravity's hooks.json
(`~/.gemini/config/hooks.json`, `<project>/.agents/hooks.json`), each command naming its event,
timeouts in seconds; the managed block in the GEMINI.md Antigravity reads; the round trip gives
every file its own bytes back; doctor's report."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import make_repo, own_lines
from wikimem.harness import is_wikimem_command


def wikimem(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args], capture_output=True, text=True, cwd=cwd
    )


def user_hooks() -> Path:
    return Path.home() / ".gemini" / "config" / "hooks.json"


def tree(root: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


PROFILE = "- I prefer tabs over spaces in every language. (claude, 2026-12-01)"


def test_install_writes_the_named_hook_and_uninstall_leaves_nothing(home: Path) -> None:
    (home / "memory" / "profile").mkdir(parents=True, exist_ok=True)
    (home / "memory" / "profile" / "me.md").write_text(
        f"---\ntitle: me\nkind: profile\n---\n{PROFILE}\n"
    )
    own_lines(home, "profile/me.md")
    before = tree(Path.home())
    proc = wikimem("install", "antigravity")
    assert proc.returncode == 0, proc.stderr
    assert "built from its documentation" in proc.stdout
    doc = json.loads(user_hooks().read_text())
    assert list(doc) == ["wikimem"]
    named = doc["wikimem"]
    assert list(named) == ["PreInvocation", "PostToolUse", "Stop"]  # never PreToolUse
    [group] = named["PostToolUse"]
    assert group["matcher"] == "" and len(group["hooks"]) == 1  # a tool event: matcher groups
    for event in ("PreInvocation", "Stop"):  # the others list handlers directly
        [handler] = named[event]
        assert "matcher" not in handler and "hooks" not in handler
    for event, handler in [
        ("PreInvocation", named["PreInvocation"][0]),
        ("PostToolUse", group["hooks"][0]),
        ("Stop", named["Stop"][0]),
    ]:
        assert handler["type"] == "command"
        assert isinstance(handler["timeout"], int) and handler["timeout"] <= 10  # seconds
        argv = shlex.split(handler["command"])
        assert argv[1:3] == ["-I", "-S"] and argv[4] == "antigravity"
        assert argv[-2:] == ["--event", event]  # the payload names no event
        assert is_wikimem_command(handler["command"], "antigravity")
    gemini_md = Path.home() / ".gemini" / "GEMINI.md"
    assert PROFILE in gemini_md.read_text()  # how Antigravity is given memory

    text = user_hooks().read_text()
    again = wikimem("install", "antigravity")
    assert "nothing changed" in again.stdout
    assert user_hooks().read_text() == text
    proc = wikimem("uninstall", "antigravity")
    assert proc.returncode == 0, proc.stderr
    assert tree(Path.home()) == before


def test_foreign_hooks_and_the_persons_gemini_md_are_kept(home: Path, tmp_path: Path) -> None:
    project = make_repo(tmp_path / "proj")
    foreign: dict[str, Any] = {
        "my-linter-hook": {
            "PostToolUse": [
                {
                    "matcher": "run_command",
                    "hooks": [{"type": "command", "command": "./lint.sh", "timeout": 10}],
                }
            ]
        },
        "reminder": {"enabled": False, "PreInvocation": [{"command": "./remind.sh"}]},
    }
    hooks = project / ".agents" / "hooks.json"
    hooks.parent.mkdir()
    hooks_text = json.dumps(foreign, indent=4) + "\n"
    hooks.write_text(hooks_text)
    gemini_md = project / "GEMINI.md"
    mine = b"# Project Instructions\r\n\r\n- Use Vite.\r\n"
    gemini_md.write_bytes(mine)
    before = tree(project)

    proc = wikimem("install", "antigravity", "--scope", "project", "--project-dir", str(project))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(hooks.read_text())
    assert doc["my-linter-hook"] == foreign["my-linter-hook"]
    assert doc["reminder"] == foreign["reminder"]
    assert "wikimem" in doc
    data = gemini_md.read_bytes()
    assert data.startswith(mine) and b"<!-- wikimem:export -->\r\n" in data

    proc = wikimem("uninstall", "antigravity", "--scope", "project", "--project-dir", str(project))
    assert proc.returncode == 0, proc.stderr
    after = tree(project)
    assert after.pop(str(Path(".agents") / "hooks.json")) is not None
    backups = [k for k in after if "wikimem-backup" in k]
    for k in backups:
        after.pop(k)
    before.pop(str(Path(".agents") / "hooks.json"))
    assert after == before  # GEMINI.md has its own bytes back, CRLF and all
    assert json.loads(hooks.read_text()) == foreign


def test_a_hook_named_wikimem_that_is_not_ours_is_refused(isolated_home: Path) -> None:
    user_hooks().parent.mkdir(parents=True)
    text = json.dumps({"wikimem": {"Stop": [{"command": "./my-own-wikimem.sh"}]}})
    user_hooks().write_text(text)
    proc = wikimem("install", "antigravity")
    assert proc.returncode != 0 and "not wikimem's" in proc.stderr
    assert user_hooks().read_text() == text
    assert not (Path.home() / ".gemini" / "GEMINI.md").exists()


def test_export_enabled_by_the_person_outlives_uninstall_antigravity(home: Path) -> None:
    gemini_md = Path.home() / ".gemini" / "GEMINI.md"
    assert wikimem("install", "antigravity").returncode == 0
    assert wikimem("export", "--to", str(gemini_md)).returncode == 0  # the person's own wish
    proc = wikimem("uninstall", "antigravity")
    assert proc.returncode == 0 and "kept the managed block" in proc.stdout
    assert "<!-- wikimem:export -->" in gemini_md.read_text()
    assert wikimem("uninstall", "export").returncode == 0
    assert not gemini_md.exists()


def test_mcp_goes_into_antigravitys_own_mcp_config(isolated_home: Path) -> None:
    proc = wikimem("install", "antigravity", "--mcp")
    assert proc.returncode == 0, proc.stderr
    config = Path.home() / ".gemini" / "antigravity-cli" / "mcp_config.json"
    server = json.loads(config.read_text())["mcpServers"]["wikimem"]
    assert server["args"][-1] == "mcp" or "mcp" in server["args"]
    assert wikimem("uninstall", "antigravity", "--mcp").returncode == 0
    assert not config.exists()


def doctor() -> list[dict[str, Any]]:
    proc = wikimem("doctor", "--json")
    checks: list[dict[str, Any]] = json.loads(proc.stdout)
    return checks


def test_doctor_reports_the_hooks_the_block_and_what_is_unproven(home: Path) -> None:
    assert wikimem("install", "antigravity").returncode == 0
    checks = doctor()
    mine = [c for c in checks if c["area"].startswith("antigravity")]
    wired = [c for c in mine if "events wired" in c["detail"]]
    assert wired and wired[0]["status"] == "ok" and "3 events wired" in wired[0]["detail"]
    assert any(c["status"] == "info" and "documentation" in c["detail"] for c in mine)
    block = [c for c in mine if "GEMINI.md" in c["detail"]]
    assert block and block[0]["status"] == "ok"

    # the block gone (taken out by hand): doctor says Antigravity is given no memory
    gemini_md = Path.home() / ".gemini" / "GEMINI.md"
    gemini_md.write_text("# mine\n")
    block = [c for c in doctor() if c["area"] == "antigravity (user)" and "GEMINI" in c["detail"]]
    assert block[0]["status"] == "warn" and "wikimem export --to" in block[0]["fix"]

    # a hook command that no longer exists fails
    doc = json.loads(user_hooks().read_text())
    for entries in doc["wikimem"].values():
        for entry in entries:
            for handler in entry.get("hooks", [entry]):
                handler["command"] = handler["command"].replace(
                    sys.executable, "/nonexistent/python3"
                )
    user_hooks().write_text(json.dumps(doc))
    failed = [c for c in doctor() if c["area"] == "antigravity (user)" and c["status"] == "fail"]
    assert failed and "no longer exists" in failed[0]["detail"]


def test_status_lists_antigravity(home: Path) -> None:
    wikimem("install", "antigravity")
    proc = wikimem("status", "--json")
    assert "antigravity" in proc.stdout
