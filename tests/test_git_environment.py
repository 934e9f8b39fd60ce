"""wikimem's git is its own: the person's git hooks never run for it, no commit lands on a
detached HEAD, and a memory/ another user owns is named as such.

The person's git setup below is what many developers have: a global `core.hooksPath` with
hooks that fail (a commit-message linter, a pre-push test run). They guard the person's own
repositories; wikimem's writes to memory/ are guarded by the write gate instead.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import make_repo, run_hook
from tests.sessions import claude_session
from tests.test_sync import OPS, OPS_BODY, bare, cli, git, make_home, note_text, read, write
from wikimem.dream.runner import run_dream
from wikimem.dream.watermark import load_state
from wikimem.errors import WikimemError
from wikimem.home import Home
from wikimem.sync.procedure import sync
from wikimem.wiki.batch import Wiki
from wikimem.wiki.remember import edit_note, forget, remember

HOOKS = (
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-merge-commit",
    "post-merge",
    "post-checkout",
    "post-rewrite",
    "pre-push",
    "reference-transaction",
    "post-index-change",
    "pre-auto-gc",
)


def failing_hooks(tmp_path: Path) -> Path:
    """A global `core.hooksPath` whose every hook records that it ran, then fails."""
    hooks = tmp_path / "global-hooks"
    hooks.mkdir()
    log = tmp_path / "hooks-ran.log"
    for name in HOOKS:
        path = hooks / name
        path.write_text(f'#!/bin/sh\necho "{name}" >> "{log}"\nexit 1\n')
        path.chmod(0o755)
    gitconfig = Path(os.environ["GIT_CONFIG_GLOBAL"])
    gitconfig.write_text(gitconfig.read_text() + f"[core]\n\thooksPath = {hooks}\n")
    return log


def ran(log: Path) -> list[str]:
    return sorted(set(log.read_text().split())) if log.exists() else []


def test_the_persons_failing_git_hooks_neither_run_nor_block_any_write(tmp_path: Path) -> None:
    log = failing_hooks(tmp_path)
    # the hooks are live for the person's own git: the setup is real
    own = make_repo(tmp_path / "own-repo")
    (own / "f").write_text("x\n")
    subprocess.run(["git", "-C", str(own), "add", "f"], check=True)
    assert subprocess.run(["git", "-C", str(own), "commit", "-qm", "x"]).returncode != 0
    assert "pre-commit" in ran(log)
    log.unlink()

    url = bare(tmp_path)
    # A remote's own hooks run on the remote's side, whoever pushes (here, a bare repository
    # on this disk would read the same global setting): they are the remote's, not ours.
    (tmp_path / "no-hooks").mkdir()
    git(url, "config", "core.hooksPath", str(tmp_path / "no-hooks"))
    a = make_home(tmp_path, "a")  # init commits
    assert remember(Wiki(a), "The staging database listens on port 5433").commit
    write(a, OPS, note_text("Ops", OPS_BODY))
    assert sync(a, remote=url).remotes[0].pushed  # a hand edit committed, pushed
    b = make_home(tmp_path, "b")
    assert sync(b, remote=url).remotes[0].pushed  # joined: merge, checkout, push
    wiki = Wiki(b)
    edited = (read(b, OPS) or "").replace("make build", "make all")
    from wikimem.wiki.gate import content_hash

    assert edit_note(wiki, OPS, edited, content_hash(read(b, OPS))).commit
    assert sync(b).remotes[0].pushed
    write(a, "general/late.md", note_text("Late", "- late\n").replace("project", "general"))
    result = sync(a)  # fetch, merge, move memory/, regenerate index.md, push
    assert "make all" in (read(a, OPS) or "") and result.remotes[0].pushed
    assert forget(Wiki(a), "general/late.md").commit

    project = make_repo(tmp_path / "work" / "api", "git@github.com:acme/api.git")
    for payload in claude_session(
        "5e1d0c1a-7d4a-4e9b-9c21-5a6f0d8e4b17",
        str(project),
        [{"prompt": "Remember that the API listens on port 8081.", "answer": "Noted."}],
    ):
        hook = run_hook("claude", payload, env={**os.environ, "WIKIMEM_HOME": a.root})
        assert hook.returncode == 0
    dream = run_dream(a, backend_name="offline")
    assert dream.commit and dream.sessions
    assert ran(log) == []  # not one of the person's hooks ran for wikimem's git
    assert git(a, "status", "--porcelain") == ""  # (the person's git: its hooks may run)


def test_a_plain_git_pull_by_the_person_still_runs_wikimems_post_merge_hook(
    tmp_path: Path,
) -> None:
    """wikimem's own git skips hooks through its environment, never through memory/'s config:
    the person's `git pull` in memory/ regenerates index.md as before."""
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    sync(a, remote=url)
    b = make_home(tmp_path, "b")
    sync(b, remote=url)
    write(a, "general/new.md", note_text("New", "- new\n").replace("project", "general"))
    sync(a)
    assert "hooksPath" not in git(b, "config", "--list", "--local")
    proc = subprocess.run(["git", "-C", b.memory_dir, "pull", "-q"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "[[general/new|" in (read(b, "index.md") or "")


# -- a detached HEAD ----------------------------------------------------------------------------


def detach(home: Home) -> str:
    git(home, "switch", "-q", "--detach", "HEAD")
    return git(home, "rev-parse", "HEAD").strip()


def test_no_write_lands_on_a_detached_head_and_each_says_how_to_get_back(tmp_path: Path) -> None:
    a = make_home(tmp_path, "a")
    remember(Wiki(a), "The staging database listens on port 5433")
    head = detach(a)
    for attempt in (
        lambda: remember(Wiki(a), "The build box is called hal"),
        lambda: forget(Wiki(a), "general/notes.md"),
        lambda: run_dream(a, backend_name="offline"),
    ):
        with pytest.raises(WikimemError) as caught:
            attempt()
        message = str(caught.value)
        assert "detached HEAD" in message and "switch main" in message
        assert "keep-detached" in message  # commits made there are kept before switching
        assert git(a, "rev-parse", "HEAD").strip() == head
    write(a, "general/hand.md", note_text("Hand", "- by hand\n").replace("project", "general"))
    proc = cli(a, "sync")
    assert proc.returncode == 1 and "detached HEAD" in proc.stderr
    assert git(a, "rev-parse", "HEAD").strip() == head  # the hand edit was not committed either
    assert "hal" not in (read(a, "general/notes.md") or "")


def test_a_dream_on_a_detached_head_consumes_no_events(tmp_path: Path) -> None:
    a = make_home(tmp_path, "a")
    project = make_repo(tmp_path / "work" / "api", "git@github.com:acme/api.git")
    for payload in claude_session(
        "5e1d0c1a-7d4a-4e9b-9c21-5a6f0d8e4b17",
        str(project),
        [{"prompt": "Remember that the API listens on port 8081.", "answer": "Noted."}],
    ):
        run_hook("claude", payload, env={**os.environ, "WIKIMEM_HOME": a.root})
    detach(a)
    with pytest.raises(WikimemError, match="detached HEAD"):
        run_dream(a, backend_name="offline")
    assert load_state(a).offsets == {}  # the watermark did not move
    git(a, "switch", "-q", "main")
    assert run_dream(a, backend_name="offline").sessions  # the events are all still there


def test_doctor_reports_a_detached_head(tmp_path: Path) -> None:
    a = make_home(tmp_path, "a")
    detach(a)
    proc = cli(a, "doctor")
    assert "detached HEAD" in proc.stdout and "switch main" in proc.stdout
    assert proc.returncode == 1


# -- memory/ another user owns ------------------------------------------------------------------


def test_memory_owned_by_another_user_is_named_by_sync_and_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    remember(Wiki(a), "The staging database listens on port 5433")
    # git's own switch for "this repository belongs to someone else" (real ownership needs a
    # second account; git refuses the same way)
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")
    for args in (("sync", "--remote", url), ("init",), ("remember", "x is y"), ("dream",)):
        proc = cli(a, *args)
        assert proc.returncode == 1, (args, proc.stderr)
        assert "belongs to another user" in proc.stderr, (args, proc.stderr)
        assert "safe.directory" in proc.stderr and "internal error" not in proc.stderr
        assert "has no commits" not in proc.stderr and "cannot reach" not in proc.stderr


def test_the_history_wikimem_shows_is_git_s_exactly(tmp_path: Path) -> None:
    """`wikimem log` and `diff` read memory/'s history: a merge lists what it brought against
    its first parent, a path's log keeps git's own choice of commits (a merge that only
    brought the path is not one), and names with spaces or accents come back as they are."""
    from wikimem.config import GitConfig
    from wikimem.wiki.gitstore import Store

    repo = str(tmp_path / "memory")
    store = Store.init(repo, GitConfig("wikimem", "wikimem@localhost"))

    def commit(name: str, text: str, message: str) -> None:
        with open(os.path.join(repo, name), "w", encoding="utf-8") as fh:
            fh.write(text)
        store.commit([name], message)

    commit("général note.md", "one\n", "first\n\nWikimem-Batch: b1")
    git(repo, "switch", "-q", "-c", "side")
    commit("side.md", "side\n", "side")
    git(repo, "switch", "-q", "main")
    commit("main.md", "main\n", "main")
    git(repo, "-c", "user.name=p", "-c", "user.email=p@x", "merge", "-q", "--no-edit", "side")

    log = store.log(10)
    assert [c.subject for c in log] == ["Merge branch 'side'", "main", "side", "first"]
    assert [c.files for c in log] == [
        ("side.md",),
        ("main.md",),
        ("side.md",),
        ("général note.md",),
    ]
    assert log[-1].body == "Wikimem-Batch: b1" and log[-1].author == "wikimem"
    assert [c.subject for c in store.log(10, "side.md")] == ["side"]
    assert list(store.trailer_values("Wikimem-Batch")) == [(log[-1].sha, "b1")]
    assert store.file_at("général note.md", log[-1].sha) == "one\n"
    assert store.diff(log[1].sha).splitlines()[0].startswith("diff --git a/side.md")
