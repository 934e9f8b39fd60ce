"""`wikimem watch`: real files edited in a temporary home while the watcher runs in a thread
(short debounce), outcomes awaited on its report queue, never on a fixed sleep."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import make_repo
from wikimem.home import Home
from wikimem.importers.claude_auto_memory import encode
from wikimem.recall.index import open_index
from wikimem.watch.watcher import Report, Watcher

WAIT = 15  # seconds: an upper bound on a slow machine, not a delay


class Running:
    def __init__(self, home: Path, claude_dir: Path | None = None) -> None:
        self.reports: queue.Queue[Report] = queue.Queue()
        self.watcher = Watcher(
            Home(str(home)),
            debounce=0.1,
            claude_dir=str(claude_dir) if claude_dir else None,
            on_report=self.reports.put,
        )
        self.thread = threading.Thread(target=self.watcher.run, daemon=True)

    def next(self, kind: str | None = None) -> Report:
        while True:
            report = self.reports.get(timeout=WAIT)
            if kind is None or report.kind == kind:
                return report


@pytest.fixture
def watching(home: Path) -> Iterator[Running]:
    running = Running(home)
    running.thread.start()
    assert running.watcher.ready.wait(WAIT)
    yield running
    running.watcher.stop()
    running.thread.join(WAIT)
    assert not running.thread.is_alive()


def git(home: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(home / "memory"), *args], capture_output=True, text=True, check=True
    ).stdout


def note(title: str, body: str) -> str:
    return f"---\ntitle: {title}\nkind: general\n---\n{body}\n"


def search(home: Path, query: str) -> list[str]:
    index = open_index(str(home / "state"), str(home / "memory"))
    try:
        return [h.path for h in index.search(query)]
    finally:
        index.close()


def test_a_hand_edit_is_committed_and_searchable_at_once(home: Path, watching: Running) -> None:
    target = home / "memory" / "general" / "Deploy Notes.md"  # named in Obsidian
    target.parent.mkdir()
    target.write_text(note("Deploy notes", "We deploy with make ship."))
    report = watching.next("committed")
    assert report.paths == ("general/Deploy Notes.md",)
    assert git(home, "log", "-1", "--format=%s") == "watch: hand edits\n"
    assert "Wikimem-Source: watch" in git(home, "log", "-1", "--format=%B")
    assert git(home, "status", "--porcelain") == ""
    # edited in place, as editors save: committed, and the index knows the new words already
    with open(target, "r+") as fh:
        text = fh.read().replace("make ship", "make ship-it-carefully")
        fh.seek(0)
        fh.write(text)
        fh.truncate()
    assert watching.next("committed").data["operations"] == {"general/Deploy Notes.md": "update"}
    assert search(home, "carefully") == ["general/Deploy Notes.md"]
    target.unlink()
    assert watching.next("committed").data["operations"] == {"general/Deploy Notes.md": "delete"}
    assert "Deploy" not in (home / "memory" / "index.md").read_text()


def test_an_invalid_edit_is_reported_once_and_never_committed(
    home: Path, watching: Running
) -> None:
    broken = home / "memory" / "general" / "broken.md"
    broken.parent.mkdir()
    broken.write_text("---\nkind: general\n---\nno title here\n")
    report = watching.next()
    assert report.kind == "invalid" and "title" in report.message
    head = git(home, "rev-parse", "HEAD")
    # another edit elsewhere: committed alone, the broken note is not reported again
    (home / "memory" / "general" / "fine.md").write_text(note("Fine", "All good."))
    report = watching.next()
    assert report.kind == "committed" and report.paths == ("general/fine.md",)
    assert git(home, "show", "--name-only", "--format=", "HEAD").split() == [
        "general/fine.md",
        "index.md",
    ]
    assert git(home, "rev-list", "--count", f"{head.strip()}..HEAD").strip() == "1"
    # fixed: now it is committed
    broken.write_text(note("Broken no more", "Fixed."))
    assert watching.next().paths == ("general/broken.md",)


def test_obsidian_state_is_never_committed(home: Path, watching: Running) -> None:
    obsidian = home / "memory" / ".obsidian"
    obsidian.mkdir()
    (obsidian / "workspace.json").write_text("{}")
    (home / "memory" / "general").mkdir()
    (home / "memory" / "general" / "idea.md").write_text(note("Idea", "Try it."))
    report = watching.next()
    assert report.kind == "committed" and report.paths == ("general/idea.md",)
    assert ".obsidian" not in git(home, "ls-files")


def test_a_secret_typed_by_hand_is_redacted_before_the_commit(
    home: Path, watching: Running
) -> None:
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    target = home / "memory" / "general" / "ci.md"
    target.parent.mkdir()
    target.write_text(note("CI", f"The token is {token}."))
    watching.next("committed")
    assert token not in target.read_text()
    assert token not in git(home, "log", "-p")


def test_claude_auto_memory_is_imported_as_it_changes(home: Path, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "api", "git@github.com:acme/api.git")
    projects = tmp_path / "claude" / "projects"
    memory = projects / encode(str(repo)) / "memory"
    memory.mkdir(parents=True)
    running = Running(home, claude_dir=projects)
    running.thread.start()
    try:
        assert running.watcher.ready.wait(WAIT)
        (memory / "feedback_style.md").write_text(
            "---\nname: Style\ndescription: Small diffs\ntype: feedback\n---\nKeep diffs small.\n"
        )
        report = running.next("imported")
        assert report.paths == ("projects/acme-api/claude-feedback-style.md",)
        (memory / "feedback_style.md").unlink()
        report = running.next("imported")
        assert not (home / "memory" / "projects" / "acme-api" / "claude-feedback-style.md").exists()
    finally:
        running.watcher.stop()
        running.thread.join(WAIT)


def test_an_import_warning_is_a_warning_not_an_error(home: Path, tmp_path: Path) -> None:
    """A MEMORY.md line that points to no topic file is something the import went on without:
    `watch --json` reports it as a warning, and `--once` still succeeds."""
    repo = make_repo(tmp_path / "api", "git@github.com:acme/api.git")
    config = tmp_path / "claude"
    memory = config / "projects" / encode(str(repo)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- remember the staging host is stg-2\n")
    (memory / "feedback_style.md").write_text(
        "---\nname: Style\ndescription: Small diffs\ntype: feedback\n---\nKeep diffs small.\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "watch", "--once", "--json", "--claude-auto-memory"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CLAUDE_CONFIG_DIR": str(config)},
    )
    assert proc.returncode == 0, proc.stderr
    reports = [json.loads(line) for line in proc.stdout.splitlines()]
    about_index = [r for r in reports if "MEMORY.md" in r["message"]]
    assert about_index and all(r["kind"] == "warning" for r in about_index), reports
    assert not [r for r in reports if r["kind"] == "error"], reports
    assert any(r["kind"] == "imported" for r in reports)


def test_once_commits_what_is_pending_and_exits(home: Path) -> None:
    (home / "memory" / "general").mkdir()
    (home / "memory" / "general" / "later.md").write_text(note("Later", "Written while off."))
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "watch", "--once", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["paths"] == ["general/later.md"]
    assert git(home, "status", "--porcelain") == ""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_it_cleanly(home: Path, sig: signal.Signals) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "wikimem", "watch", "--debounce", "0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline().startswith("watching ")  # handlers are in place
        proc.send_signal(sig)
        assert proc.wait(WAIT) == 0
        assert "stopped" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
