"""A sync the disk fills up under (issue 29, item 8): it said "nothing was changed half-way" and
left the notes it had checked out untracked in memory/. Moving memory/ to the merged commit is
now rolled back when it fails part-way, and the message says so; the next sync, once there is
room, brings everything. The fault is injected as in the fault suite: simulated everywhere (git
writes some of the notes, then fails), and on a real full tmpfs where one can be mounted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_fault_suite import fill, tmpfs
from tests.test_sync import bare, git, make_home, note_text, write
from wikimem.home import Home
from wikimem.sync import git as sync_git
from wikimem.sync.git import GitFailed, SyncError
from wikimem.sync.procedure import JOURNAL, sync

# more objects than git's unpack limit (100): the fetch keeps them as one small pack, while the
# checkout needs a block per note
NOTES = 120


def teammate_adds_notes(tmp_path: Path, url: str) -> None:
    b = make_home(tmp_path, "b")
    sync(b, remote=url)
    for i in range(NOTES):
        body = f"- fact {i}: {'the staging host is stage.internal ' * 60}\n"
        write(b, f"projects/acme/n{i:03d}.md", note_text(f"n{i}", body))
    sync(b)


def notes_here(a: Home) -> list[str]:
    return sorted(p.name for p in Path(a.memory_dir, "projects", "acme").glob("*.md"))


def status(a: Home) -> str:
    # no optional locks: on a full disk git could not even refresh its index to say it
    return git(a, "--no-optional-locks", "status", "--porcelain", "--untracked-files=all")


def assert_as_before(a: Home, head: str) -> None:
    assert git(a, "rev-parse", "HEAD").strip() == head
    assert status(a) == "?? scratch.txt\n"
    assert notes_here(a) == []
    assert not os.path.exists(a.state(JOURNAL))


def setup(tmp_path: Path, root: Path) -> tuple[Home, str]:
    url = bare(tmp_path)
    a = make_home(root, "a")
    sync(a, remote=url)
    teammate_adds_notes(tmp_path, url)
    Path(a.memory_dir, "scratch.txt").write_text("the person's own file, not a note\n")
    return a, git(a, "rev-parse", "HEAD").strip()


def test_a_checkout_the_disk_cuts_short_is_rolled_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, head = setup(tmp_path, tmp_path)
    real = sync_git.Git.run

    def full_disk(self: sync_git.Git, *args: str, **kwargs: Any) -> Any:
        if args[:3] != ("read-tree", "-m", "-u"):
            return real(self, *args, **kwargs)
        # git writes the notes, then cannot write its index: the notes are on disk, untracked
        index = os.path.join(self.repo, ".git", "index")
        spare = index + ".fault"
        shutil.copy(index, spare)
        try:
            real(self, *args, env={"GIT_INDEX_FILE": spare})
        finally:
            os.unlink(spare)
        raise GitFailed(args, 128, "error: unable to write file projects/acme/n119.md\n")

    monkeypatch.setattr(sync_git.Git, "run", full_disk)
    with pytest.raises(SyncError) as failed:
        sync(a)
    assert "memory/ was put back as it was before this sync" in str(failed.value)
    assert_as_before(a, head)

    monkeypatch.setattr(sync_git.Git, "run", real)
    again = sync(a)
    assert len(notes_here(a)) == NOTES and again.remotes[0].received
    assert status(a) == "?? scratch.txt\n"


def test_a_real_full_disk_during_a_sync_leaves_memory_as_it_was(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    with tmpfs(disk, "4m"):
        a, head = setup(tmp_path, disk)
        # room for the fetch and the sync's own bookkeeping, not for the notes checked out
        filler = fill(disk, 250_000)
        full = subprocess.run(
            [sys.executable, "-m", "wikimem", "sync", "--home", a.root],
            capture_output=True,
            text=True,
            cwd=os.environ["HOME"],
        )
        assert full.returncode == 1
        assert full.stderr.count("\n") == 1, full.stderr
        assert "nothing was changed half-way" not in full.stderr
        assert "the disk is full" in full.stderr and "put back" in full.stderr
        assert_as_before(a, head)
        filler.unlink()
        sync(a)
        assert len(notes_here(a)) == NOTES
