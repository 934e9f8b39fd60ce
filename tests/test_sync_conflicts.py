"""A sync conflict, as a person meets it, settles by the documented rule.

Two machines change the same claim before either syncs: the note keeps both versions between
markers, flagged `conflict: true`, until the next dream settles it. The newer claim (by the
full time each side was changed, whichever machine merges) is current and the other is kept
in it as "was … until …" and in git; notes a person wrote settle the same way (both sides are
theirs); the commit says which side won. Meanwhile no agent is given a marker, only the newer
side, said so; `status` and `doctor` stop reporting it once it is settled, by a dream or by
hand; and a plain `git pull` in memory/ works after a sync.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.test_sync import bare, cli, git, make_home, note_text, read, write
from wikimem.home import Home
from wikimem.recall.index import open_index
from wikimem.recall.inject import prompt, session_start
from wikimem.status import collect
from wikimem.sync.health import checks
from wikimem.sync.merge import flagged, has_markers, merge_note
from wikimem.sync.procedure import sync
from wikimem.sync.reconcile import settle_body
from wikimem.wiki.notes import parse_note

PROJECT = "acme-api"


def wikimem(home: Home, *args: str, env: dict[str, str] | None = None) -> str:
    proc = cli(home, *args, env=env)
    assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    return proc.stdout


def note_of(home: Home) -> str:
    found = git(home, "grep", "-l", "metrics collector", "--", "projects").split()
    assert len(found) == 1, found
    return found[0]


def edit_by_hand(home: Home, rel: str, old: str, new: str) -> None:
    """`wikimem edit` with an editor that changes one value."""
    wikimem(home, "edit", rel, env={"EDITOR": f"sed -i s/{old}/{new}/"})


def two_machines_in_conflict(tmp_path: Path) -> tuple[Home, Home, str, str]:
    """A remembers port 9102 and syncs; B joins; A remembers it moved to 9300; a second later B
    edits the same line to 9200 by hand; A syncs, then B (which merges)."""
    url = bare(tmp_path)
    a, b = make_home(tmp_path, "laptop"), make_home(tmp_path, "desktop")
    remember = ("remember", "--project", PROJECT)
    wikimem(a, *remember, "The metrics collector runs on port 9102")
    sync(a, remote=url)
    sync(b, remote=url)
    rel = note_of(b)
    wikimem(a, *remember, "The metrics collector moved to port 9300")
    time.sleep(1.1)  # B's edit is the later one, by a second: the same day, the same minute
    edit_by_hand(b, rel, "9102", "9200")
    sync(a)
    assert sync(b).conflicts == [rel]
    return a, b, rel, url


def test_a_conflict_in_notes_the_person_wrote_settles_to_the_later_edit(tmp_path: Path) -> None:
    a, b, rel, _ = two_machines_in_conflict(tmp_path)
    text = read(b, rel) or ""
    assert flagged(parse_note(rel, text)) and has_markers(text)
    assert "run `wikimem dream`" in " ".join(c.fix for c in checks(b))

    dream = cli(b, "dream")
    assert dream.returncode == 0 and "settled a sync conflict in " + rel in dream.stdout
    assert "parked" not in dream.stderr  # the person's own words on both sides: not held back
    settled = read(b, rel) or ""
    note = parse_note(rel, settled)
    assert not flagged(note) and not has_markers(settled)
    assert "runs on port 9200 (was 9300 until" in note.body  # the later edit, the other kept
    message = git(b, "log", "-1", "--format=%B")
    assert (
        "Settled sync conflicts" in message
        and 'kept "The metrics collector runs on port 9200' in message
    )
    assert "desktop 20" in message and "laptop 20" in message  # which side won, which lost
    assert "9102" in git(b, "log", "-p", "--format=", "-3", "--", rel)  # the history keeps all

    assert not checks_conflict(b)  # doctor: nothing left to do
    assert "in conflict" not in (collect(b).extra.get("sync") or "")
    sync(b)
    sync(a)
    assert read(a, rel) == settled and not checks_conflict(a)


def checks_conflict(home: Home) -> bool:
    """Whether doctor reports a note in conflict."""
    return any("`conflict: true`" in c.detail or "sync conflict" in c.detail for c in checks(home))


@pytest.mark.parametrize("later", ["laptop", "desktop"])
def test_the_later_edit_wins_whichever_machine_merges(tmp_path: Path, later: str) -> None:
    """Same-day edits on two machines: the one made later stands, whether the machine that
    merges made it or not (days alone used to give it to the merging machine's value)."""
    url = bare(tmp_path)
    a, b = make_home(tmp_path, "laptop"), make_home(tmp_path, "desktop")
    remember = ("remember", "--project", PROJECT)
    wikimem(a, *remember, "The metrics collector runs on port 9102")
    sync(a, remote=url)
    sync(b, remote=url)
    rel = note_of(b)
    first, second = (b, a) if later == "laptop" else (a, b)
    edit_by_hand(first, rel, "9102", "9301")
    time.sleep(1.1)
    edit_by_hand(second, rel, "9102", "9302")
    sync(a)
    assert sync(b).conflicts == [rel]  # B merges, in both cases
    for home in (a, b):
        sync(home)
    wikimem(b, "dream")
    text = read(b, rel) or ""
    assert "runs on port 9302 (was 9301 until" in text


def test_equal_times_settle_alike_on_both_machines() -> None:
    path = "projects/acme-api/ops.md"

    def version(value: str) -> str:
        return (
            "---\ntitle: Ops\nkind: project\ntags: []\ncreated: 2026-11-01\n"
            "updated: 2026-11-30T10:00:00Z\nsources: []\npinned: false\n---\n"
            f"- **Metrics port**: {value}. (remember 2026-11-30)\n"
        )

    base, left, right = version("9102"), version("9300"), version("9200")
    here = merge_note(path, base, left, right, ("laptop", "desktop")).text
    there = merge_note(path, base, right, left, ("desktop", "laptop")).text
    assert here is not None and there is not None
    one = settle_body(parse_note(path, here).body)
    other = settle_body(parse_note(path, there).body)
    assert one == other and one is not None and "9300 (was 9200 until" in one


def test_while_a_conflict_stands_agents_get_the_newer_side_never_a_marker(
    tmp_path: Path,
) -> None:
    _, b, _, _ = two_machines_in_conflict(tmp_path)
    for topic, line in (  # other notes, so that a search can tell what a prompt is about
        ("editors", "Use helix for quick edits."),
        ("release", "Releases are cut on Thursdays after the freeze."),
        ("billing", "The invoice job runs nightly at 02:00 UTC."),
    ):
        write(b, f"general/{topic}.md", note_text(topic.title(), f"- {line}\n"))
    index = open_index(b.state_dir, b.memory_dir)
    try:
        index.refresh(full=True)
        start = session_start(b, PROJECT, None, 8000, index) or ""
        asked = prompt(b, index, PROJECT, None, "which port does the metrics collector use?", 3000)
    finally:
        index.close()
    for given in (start, asked or ""):
        assert "9200" in given and "not yet settled" in given, given
        assert "<<<<<<<" not in given and "=======" not in given and ">>>>>>>" not in given
        assert "9300" not in given  # the older side is not given as if it were current
    index_md = read(b, "index.md") or ""
    assert "<<<<<<<" not in index_md and ">>>>>>>" not in index_md


def test_the_flag_clears_when_a_person_removes_the_markers_and_syncs(tmp_path: Path) -> None:
    """B removes the markers by hand and forgets `conflict: true`; A still has the conflicted
    version B pushed. After both sync, no machine reports a conflict and nothing is flagged."""
    a, b, rel, _ = two_machines_in_conflict(tmp_path)
    sync(a)  # A now has the conflicted version too
    assert flagged(parse_note(rel, read(a, rel) or ""))
    text = read(b, rel) or ""
    kept = [ln for ln in text.split("\n") if not ln.startswith(("<<<<<<<", "=======", ">>>>>>>"))]
    kept = [ln for ln in kept if "9300" not in ln]
    Path(b.memory_dir, rel).write_text("\n".join(kept))
    assert not checks_conflict(b)  # the markers are gone: no conflict, flag or not
    sync(b)
    sync(a)
    for home in (a, b):
        settled = read(home, rel) or ""
        assert not flagged(parse_note(rel, settled)) and not has_markers(settled)
        assert "conflict:" not in settled and not checks_conflict(home)
        assert "in conflict" not in (collect(home).extra.get("sync") or "")


def test_after_a_sync_a_plain_git_pull_in_memory_works(tmp_path: Path) -> None:
    a, b, _, _ = two_machines_in_conflict(tmp_path)
    remember = ("remember", "--project", PROJECT)
    wikimem(b, *remember, "The staging database listens on port 5433")
    sync(b)
    proc = subprocess.run(
        ["git", "-C", a.memory_dir, "pull", "-q"],
        capture_output=True,
        text=True,
        env={**os.environ, "GIT_MERGE_AUTOEDIT": "no"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "5433" in git(a, "grep", "-h", "5433", "--", "projects")
    assert git(a, "rev-parse", "--abbrev-ref", "main@{upstream}").strip() == "origin/main"


PORT_NOTE = "projects/acme-api/ops.md"


@pytest.mark.parametrize("committed_by", ["sync", "git"])
@pytest.mark.parametrize("later", ["laptop", "desktop"])
def test_the_later_hand_edit_wins_on_both_machines_whichever_merges(
    tmp_path: Path, later: str, committed_by: str
) -> None:
    """Two machines edit the same line in an editor, three seconds apart; the earlier edit is
    committed last (by `sync`, or by the person's own `git commit`). Whichever machine merges,
    the conflict's markers date each side by when its edit was made, agents are given the later
    edit, and the dream keeps it current with the earlier one as "was"."""
    url = bare(tmp_path)
    a, b = make_home(tmp_path, "laptop"), make_home(tmp_path, "desktop")
    line = "- **Metrics collector port**: The metrics collector runs on port {}.\n"
    write(a, PORT_NOTE, note_text("Ops", line.format("9102")))
    now = int(time.time())
    os.utime(Path(a.memory_dir, PORT_NOTE), (now - 600, now - 600))  # written a while ago
    sync(a, remote=url)
    sync(b, remote=url)
    early, late = (b, a) if later == "laptop" else (a, b)
    for home, value, when in ((early, "5440", now - 10), (late, "5439", now - 7)):
        path = Path(home.memory_dir, PORT_NOTE)
        path.write_text(path.read_text().replace("9102", value))
        os.utime(path, (when, when))
        if committed_by == "git":
            stamp = f"@{when} +0000"
            person = ("-c", "user.name=Person", "-c", "user.email=p@x")
            subprocess.run(
                ["git", "-C", home.memory_dir, *person, "commit", "-qam", "port"],
                check=True,
                env={**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp},
            )
    # The later edit is synced first; the earlier one is committed and merged after it.
    sync(late)
    assert sync(early).conflicts == [PORT_NOTE]
    sync(late)
    stamps = [time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - s)) for s in (10, 7)]
    for home in (a, b):
        text = read(home, PORT_NOTE) or ""
        for stamp in stamps:  # each side is dated when its edit was made
            assert f" {stamp}\n" in text, text
        index = open_index(home.state_dir, home.memory_dir)
        try:
            index.refresh(full=True)
            given = session_start(home, PROJECT, None, 8000, index) or ""
        finally:
            index.close()
        assert "5439" in given and "5440" not in given, given

    dream = cli(early, "dream")
    assert dream.returncode == 0, dream.stderr
    assert 'kept "The metrics collector runs on port 5439' in dream.stdout, dream.stdout
    sync(early)
    sync(late)
    for home in (a, b):
        body = parse_note(PORT_NOTE, read(home, PORT_NOTE) or "").body
        assert "runs on port 5439 (was 5440 until" in body, body
