"""wikimem under a locale whose encoding is not UTF-8 (an old server, a minimal container with
`LC_ALL=C` and Python's UTF-8 coercion off): records stay exact, commands finish their work and
exit 0, text output shows `?` for what the terminal cannot encode, and `--json` stays exact.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import payload, records, run_hook

# The C locale without Python's coercion to UTF-8: stdout, stdin and argv are ASCII. Every
# machine has it, unlike a generated Latin-1 locale.
ASCII_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
SAID = "Deploys go out blue→green on Fly, never on Fridays 🚫"


def wikimem(*args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        cwd=os.environ["HOME"],
        env={**inherited, **ASCII_LOCALE, **env},
    )


def record_prompt(home: Path) -> None:
    prompt = {**payload("claude_UserPromptSubmit"), "prompt": f"Remember: {SAID}"}
    assert run_hook("claude", prompt, env={**os.environ, **ASCII_LOCALE}).returncode == 0
    assert [r.get("prompt") for r in records(home)] == [f"Remember: {SAID}"]


def test_a_non_ascii_prompt_is_recorded_dreamt_and_found_under_an_ascii_locale(
    home: Path,
) -> None:
    record_prompt(home)
    dream = wikimem("dream")
    assert dream.returncode == 0, dream.stderr
    assert b"Traceback" not in dream.stderr and b"internal error" not in dream.stderr

    found = wikimem("search", "blue green Fly", "--json")
    assert found.returncode == 0, found.stderr
    found.stdout.decode("ascii")  # escaped, so any terminal can carry it
    hits = json.loads(found.stdout)
    assert hits and any("blue→green" in hit["snippet"] for hit in hits)

    shown = wikimem("show", hits[0]["path"])
    assert shown.returncode == 0, shown.stderr
    assert b"blue?green" in shown.stdout  # what the terminal cannot show becomes `?`


def test_a_dream_killed_after_its_commit_keeps_its_notes_under_an_ascii_locale(home: Path) -> None:
    record_prompt(home)
    assert wikimem("dream", WIKIMEM_CRASH_AT="after_commit").returncode == 137
    assert wikimem("dream").returncode == 0  # recovers: the commit was made, nothing to undo
    memory = home / "memory"
    status = subprocess.run(
        ["git", "-C", str(memory), "status", "--porcelain"], capture_output=True, check=True
    )
    assert status.stdout == b""
    notes = [p.read_text(encoding="utf-8") for p in memory.rglob("*.md") if ".git" not in p.parts]
    assert any("blue→green" in text for text in notes)
