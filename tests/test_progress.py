"""Long work shows how far it got on a terminal, and only there.

The core reports steps to a callback (`wikimem.progress`); the command line draws them with
rich's progress display on a terminal (what it is doing, how far, how long) and ends with one
summary line. `--json` and pipes get none of it: not a spinner, not an escape sequence.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_bad_days import record, write_events
from tests.test_import import claude as claude  # the fixture
from tests.test_wiki_cli import on_a_terminal, wikimem
from wikimem.dream.runner import run_dream
from wikimem.home import Home

ESCAPE = "\x1b["
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def many_events(home: Path, sessions: int = 30) -> None:
    """Sessions of several projects, each saying something worth a note."""
    lines = []
    for s in range(sessions):
        for turn in range(4):
            lines.append(
                record(
                    f"s{s:03d}",
                    f"proj-{s % 6}",
                    f"Remember that the service{turn} of proj-{s % 6} listens on port {7000 + s}.",
                )
            )
    write_events(home, *lines)


def drawn(raw: str) -> bool:
    """Whether the rich display was drawn: a spinner frame and an elapsed time."""
    return any(ch in raw for ch in SPINNER) and re.search(r"\d:\d\d:\d\d", raw) is not None


def test_a_dream_tells_its_callback_how_far_it_got(home: Path) -> None:
    many_events(home)
    steps: list[tuple[str, int, int | None]] = []
    result = run_dream(Home(str(home)), progress=lambda *step: steps.append(step))
    phases = list(dict.fromkeys(what for what, _, _ in steps))
    assert phases[0].startswith("reading") and any("consolidating" in p for p in phases)
    assert any("write gate" in p for p in phases) and "committing to git" in phases
    counted = [(d, t) for what, d, t in steps if "consolidating" in what]
    assert [d for d, _ in counted] == sorted(d for d, _ in counted)  # only forward
    assert counted[-1] == (result.events, result.events) == (120, 120)


def test_a_dream_on_a_terminal_shows_progress_then_one_line(home: Path) -> None:
    many_events(home)
    raw = on_a_terminal("dream", columns=120)
    assert drawn(raw) and "consolidating events" in raw, raw
    lines = [ln for ln in raw.split("\n") if ln.strip() and not any(c in ln for c in SPINNER)]
    summary = [ln for ln in lines if ln.startswith("dream (offline): 120 events from 30 sessions")]
    assert len(summary) == 1 and re.search(
        r" in \d+\.\d s \(`wikimem diff` lists them\)", summary[0]
    )
    assert not any(ln.lstrip().startswith("created ") for ln in lines)  # not 20 lines of paths


def test_a_dream_into_a_pipe_or_as_json_has_no_progress(home: Path) -> None:
    many_events(home)
    piped = wikimem("dream")
    assert piped.returncode == 0, piped.stderr
    for out in (piped.stdout, piped.stderr):
        assert ESCAPE not in out and "consolidating" not in out
        assert not any(ch in out for ch in SPINNER)
    assert piped.stdout.count("\n  created ") >= 12  # a pipe gets every path, as before
    write_events(home, record("s999", "proj-1", "Remember that the cache listens on 6380."))
    as_json = on_a_terminal("dream", "--json")  # a terminal, but JSON asked for
    assert ESCAPE not in as_json and not drawn(as_json)
    assert json.loads(as_json)["events"] == 1


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["sync", "--remote", "{remote}"], "fetching from"),
        (["import", "claude-auto-memory"], "reading claude-auto-memory"),
        (["install", "claude"], "installing claude"),
        (["eval", "--set", "heldout2", "--cases", "replica-lag"], "heldout2 set:"),
    ],
    ids=["sync", "import", "install", "eval"],
)
def test_sync_import_install_and_eval_show_progress_on_a_terminal_only(
    home: Path, tmp_path: Path, claude: dict[str, Path], argv: list[str], phrase: str
) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    argv = [a.replace("{remote}", str(remote)) for a in argv]
    raw = on_a_terminal(*argv, columns=160)
    assert drawn(raw) and phrase in raw, raw
    piped = subprocess.run(
        [sys.executable, "-m", "wikimem", *argv, "--json"],
        capture_output=True, text=True, cwd=os.environ["HOME"], timeout=300,
    )  # fmt: skip
    for out in (piped.stdout, piped.stderr):
        assert ESCAPE not in out and phrase not in out and not drawn(out), out
