"""Codex runs a hook only once the user trusted it, and skips the others silently."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.e2e.conftest import records, wikimem

pytestmark = pytest.mark.e2e
_ORIGINAL: dict[str, Any] = {}


def run_codex_keeping_our_trust(
    rc_codex: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    cwd: Path,
    user_home: Path,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A Codex session with the hooks.json wikimem installed and the trust `wikimem install codex`
    recorded. The harness rewrites config.toml for its mock provider, so what wikimem wrote is
    carried over into it, exactly as written."""
    config = user_home / ".codex" / "config.toml"
    ours = config.read_text() if config.exists() else ""
    original = _ORIGINAL.setdefault("write_codex_home", rc_codex.write_codex_home)

    def write(
        codex_home: Path, base_url: str, hooks: Any, trust: str = "none", *args: Any, **kw: Any
    ) -> Any:
        written = original(codex_home, base_url, hooks, "none", *args, **kw)
        tables = ours[ours.find("[hooks.state.") :] if "[hooks.state." in ours else ""
        with open(codex_home / "config.toml", "a") as fh:
            fh.write("\n" + tables)
        return written

    monkeypatch.setattr(rc_codex, "write_codex_home", write)
    hooks = json.loads((user_home / ".codex" / "hooks.json").read_text())
    return dict(
        rc_codex.run_session(
            None,
            "Run the tests.",
            str(cwd),
            str(user_home),
            hooks=hooks,
            trust="none",
            tool_command="echo ok",
            isolate_network=False,
            env=env,
        )
    )


def test_untrusted_hooks_capture_nothing_and_doctor_says_what_to_do(
    rc_codex: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
) -> None:
    proc = wikimem("install", "codex", "--scope", "user")
    assert "/hooks" in proc.stdout and "--trust" in proc.stdout
    run = run_codex_keeping_our_trust(rc_codex, monkeypatch, clones[1], user_home)
    assert run["ok"], run["stderr"][-2000:]
    assert records(isolated_home) == []  # silently skipped by Codex
    doctor = wikimem("doctor", "--json", check=False)
    assert doctor.returncode == 1
    [trust] = [c for c in json.loads(doctor.stdout) if c["area"] == "codex trust"]
    assert trust["status"] == "fail" and "Codex skips 8 of wikimem's 8 hooks" in trust["detail"]
    assert "/hooks" in trust["fix"] and "wikimem install codex --trust" in trust["fix"]


def test_trust_flag_makes_hooks_run_and_a_reinstall_keeps_it(
    rc_codex: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    isolated_home: Path,
    user_home: Path,
    clones: tuple[Path, Path],
    tmp_path: Path,
) -> None:
    wikimem("install", "codex", "--scope", "user")
    proc = wikimem("install", "codex", "--scope", "user", "--trust")
    assert "Recorded Codex trust for 8 wikimem hooks" in proc.stdout
    run = run_codex_keeping_our_trust(rc_codex, monkeypatch, clones[1], user_home)
    assert run["ok"], run["stderr"][-2000:]
    assert {r["event"] for r in records(isolated_home)} >= {
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "Stop",
    }
    trust = [
        c
        for c in json.loads(wikimem("doctor", "--json", check=False).stdout)
        if c["area"] == "codex trust"
    ]
    assert [c["status"] for c in trust] == ["ok"]

    # the hook definition changes (here: another home); trust given before is carried over
    other = tmp_path / "other-home"
    proc = wikimem("install", "codex", "--scope", "user", "--home", str(other))
    assert "you trusted the previous ones" in proc.stdout
    config = (user_home / ".codex" / "config.toml").read_text()
    assert config.count("[hooks.state.") == 8  # the old entries replaced, not piled up
    run = run_codex_keeping_our_trust(rc_codex, monkeypatch, clones[1], user_home)
    assert run["ok"]
    assert {r["event"] for r in records(other)} >= {"SessionStart", "UserPromptSubmit", "Stop"}
    assert os.path.exists(other / "memory" / ".git")
