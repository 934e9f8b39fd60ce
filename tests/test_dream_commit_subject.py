"""A dream's commit subject counts what the commit did (issue 29, item 8): a delete the gate
blocked and parked for the person's consent is said in the body, never counted as deleted."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.test_gate_automated import commit_by_hand, note
from tests.test_windows_names import dream_once


def subject(home: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(home / "memory"), "log", "-1", "--format=%s"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_a_parked_delete_is_not_counted_in_the_subject(home: Path) -> None:
    commit_by_hand(home, "general/deploy.md", note(title="Deploy", body="- on Tuesdays\n"))
    ops = [
        {"op": "delete", "path": "general/deploy.md", "reason": "stale"},
        {"op": "upsert", "path": "general/ci.md", "title": "CI", "kind": "general",
         "body": "- CI runs on every push\n"},
    ]  # fmt: skip
    result = dream_once(home, ops)
    assert [p for p, _ in getattr(result, "parked", [])] == ["general/deploy.md"]
    assert (home / "memory" / "general" / "deploy.md").exists()
    assert subject(home) == "dream: 1 created from 1 session"
