"""`wikimem scrub VALUE`: a stored value leaves the notes (committed through the gate), events/,
state/ and the search index; what remains in git history is said, with how to purge it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.test_sync import bare, git, make_home, note_text, write
from wikimem.home import Home
from wikimem.recall.index import open_index
from wikimem.sync.procedure import sync

VALUE = "Tr0ub4dor-staging-" + "x7Qp"


def scrub_cli(home: Home, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", "scrub", *args, "--home", home.root],
        input=stdin, capture_output=True, text=True,
    )  # fmt: skip


def everything(root: Path, skip_git: bool = True) -> bytes:
    out = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and not (skip_git and ".git" in path.parts):
            out.append(path.read_bytes())
    return b"".join(out)


def leaked_home(tmp_path: Path) -> Home:
    home = make_home(tmp_path, "me")
    # A note written before anyone knew the value was a password, committed by hand.
    write(home, "projects/acme-api/staging.md", note_text(
        "Staging", f"- The admin password for the staging box is {VALUE}.\n- Deploys on Tuesdays.\n"))  # fmt: skip
    write(home, "projects/acme-api/sessions/2026-11-30-ab12.md", note_text(
        "Session", f"- Logged in to staging with {VALUE}, then ran the migration.\n"
    ).replace("kind: project", "kind: session"))  # fmt: skip
    git(home, "add", "-A")
    git(home, "commit", "-qm", "notes")
    # What the hook recorded: the prompt, and a tool's JSON output holding it escaped once more.
    records = [
        {"v": 1, "ts": "2026-11-30T10:00:00.000000Z", "client": "claude", "session": "ab12",
         "event": "UserPromptSubmit", "project": "acme-api",
         "prompt": f"log in to staging with {VALUE} please"},
        {"v": 1, "ts": "2026-11-30T10:00:01.000000Z", "client": "claude", "session": "ab12",
         "event": "PostToolUse", "project": "acme-api",
         "output": json.dumps({"stdout": f'{{"password": "{VALUE}"}}'})},
    ]  # fmt: skip
    events = Path(home.events_dir, "2026-11-30.jsonl")
    events.write_text("".join(json.dumps(r) + "\n" for r in records))
    drafts = Path(home.state("drafts"))
    drafts.mkdir(parents=True, exist_ok=True)
    (drafts / "edit-1.md").write_text(f"draft with {VALUE}\n")
    index = open_index(home.state_dir, home.memory_dir)
    try:
        index.refresh(full=True)
    finally:
        index.close()
    return home


def test_scrub_removes_the_value_from_notes_events_state_and_the_index(tmp_path: Path) -> None:
    home = leaked_home(tmp_path)
    events = Path(home.events_dir, "2026-11-30.jsonl")
    size = events.stat().st_size
    assert VALUE.encode() in everything(Path(home.state_dir))  # the index held it

    proc = scrub_cli(home, "-", stdin=VALUE + "\n")

    assert proc.returncode == 0, proc.stderr
    assert VALUE not in proc.stdout  # never echoed
    assert VALUE.encode() not in everything(Path(home.memory_dir))
    assert VALUE.encode() not in everything(Path(home.events_dir))
    assert VALUE.encode() not in everything(Path(home.state_dir))
    assert (
        "[REDACTED:scrubbed]" in Path(home.memory_dir, "projects/acme-api/staging.md").read_text()
    )
    assert (
        "Deploys on Tuesdays" in Path(home.memory_dir, "projects/acme-api/staging.md").read_text()
    )
    # Events keep their byte offsets (the dream's watermark) and stay JSON, line by line.
    assert events.stat().st_size == size
    assert [json.loads(line)["event"] for line in events.read_text().splitlines()] == [
        "UserPromptSubmit",
        "PostToolUse",
    ]
    assert git(home, "status", "--porcelain") == ""
    assert git(home, "log", "-1", "--format=%s") == "scrub: remove a stored value from notes\n"
    assert "Wikimem-Source: scrub" in git(home, "log", "-1", "--format=%B")
    # The history still holds it, and the person is told how to purge it and what that means.
    assert "commit(s) of memory/'s history still hold the value" in proc.stdout
    assert "filter-repo" in proc.stdout and "rotate" in proc.stdout
    index = open_index(home.state_dir, home.memory_dir)
    try:
        assert [h.path for h in index.search("staging admin password")]  # rebuilt, searchable
    finally:
        index.close()


def test_scrub_says_what_a_synced_remote_and_other_machines_must_do(tmp_path: Path) -> None:
    home = leaked_home(tmp_path)
    sync(home, remote=bare(tmp_path))
    proc = scrub_cli(home, VALUE, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    advice = " ".join(data["history"])
    assert data["history_commits"] >= 1 and data["notes"]
    assert "push --force" in advice and "Every other machine that synced" in advice


def test_a_value_too_short_to_scrub_safely_is_refused(tmp_path: Path) -> None:
    home = leaked_home(tmp_path)
    before = git(home, "rev-parse", "HEAD")
    proc = scrub_cli(home, "the")
    assert proc.returncode == 1 and "fewer than 6 characters" in proc.stderr
    assert git(home, "rev-parse", "HEAD") == before


def test_scrub_matches_any_case_and_the_slug_wikimem_made_of_the_value(tmp_path: Path) -> None:
    """A value typed as `Hunter_Sekret 42x` lives on lower-cased in a note's path (the slug
    wikimem makes), and so in index.md, the search index, the reflog and the remote's commits;
    scrub finds every one of those forms, and counts the history that holds them."""
    home = make_home(tmp_path, "me")
    value = "Hunter_Sekret 42x"
    slug = "hunter-sekret-42x"
    write(home, f"projects/acme-api/{slug}.md", note_text(
        "Hunter_Sekret 42x", "- Use HUNTER_SEKRET 42X for the staging box.\n"))  # fmt: skip
    git(home, "add", "-A")
    git(home, "commit", "-qm", f"remember: projects/acme-api/{slug}.md")
    sync(home, remote=bare(tmp_path))
    index = open_index(home.state_dir, home.memory_dir)
    try:
        index.refresh(full=True)
    finally:
        index.close()

    proc = scrub_cli(home, value, "--json")

    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    memory = Path(home.memory_dir)
    tracked = git(home, "ls-files").split()
    assert not [p for p in tracked if slug in p.lower()], tracked
    worktree = b"".join(
        p.read_bytes() for p in memory.rglob("*") if p.is_file() and ".git" not in p.parts
    ).lower()
    assert value.lower().encode() not in worktree and slug.encode() not in worktree
    logs = b"".join(p.read_bytes() for p in (memory / ".git" / "logs").rglob("*") if p.is_file())
    assert slug.encode() not in logs.lower()
    assert slug not in git(home, "log", "-1", "--format=%B").lower()  # scrub's own commit
    assert slug.encode() not in everything(Path(home.state_dir)).lower()
    # the remote still has the commits that held it: counted, with the advice to purge them
    assert data["history_commits"] >= 1
    assert "regex:(?i)" in " ".join(data["history"])
