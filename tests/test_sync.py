"""`wikimem sync` between homes through a bare repository in a temp dir, as machines would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wikimem.config import DEFAULT_CONFIG_TEXT
from wikimem.dream.fake import FakeBackend
from wikimem.dream.ops import Upsert
from wikimem.dream.runner import run_dream
from wikimem.home import Home
from wikimem.layout import init_home
from wikimem.lock import file_lock
from wikimem.status import collect
from wikimem.sync import record
from wikimem.sync.git import AuthFailed, RemoteUnreachable
from wikimem.sync.health import checks
from wikimem.sync.locking import SyncBusy
from wikimem.sync.merge import flagged, has_markers
from wikimem.sync.procedure import RemoteRewritten, UnrelatedHistories, sync
from wikimem.sync.remote import NoRemote, set_setting
from wikimem.wiki.batch import Wiki
from wikimem.wiki.notes import parse_note
from wikimem.wiki.remember import remember


def make_home(tmp_path: Path, name: str, **settings: str) -> Home:
    """An initialised home whose commits say which machine made them (its own first commit:
    two machines never share an init commit)."""
    home = Home(str(tmp_path / name))
    text = set_setting(DEFAULT_CONFIG_TEXT, "git", "author_email", f'"wikimem@{name}"')
    for key, literal in {"machine": f'"{name}"', **settings}.items():
        text = set_setting(text, "sync", key, literal)
    os.makedirs(home.root)
    Path(home.config_path).write_text(text)
    init_home(home)
    return home


def bare(tmp_path: Path, name: str = "remote.git") -> str:
    path = tmp_path / name
    subprocess.run(["git", "init", "-q", "--bare", str(path)], check=True)
    return str(path)


def note_text(title: str, body: str, updated: str = "2026-11-20T10:00:00Z") -> str:
    return (
        f"---\ntitle: {title}\nkind: project\ntags: []\ncreated: 2026-11-01\n"
        f"updated: {updated}\nsources: []\npinned: false\n---\n{body}"
    )


def write(home: Home, rel: str, text: str) -> None:
    path = Path(home.memory_dir) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def read(home: Home, rel: str) -> str | None:
    path = Path(home.memory_dir) / rel
    return path.read_text() if path.exists() else None


def git(home: Home | str, *args: str) -> str:
    repo = home.memory_dir if isinstance(home, Home) else home
    return subprocess.run(
        ["git", "-C", repo, *args], capture_output=True, text=True, check=True
    ).stdout


def clean(home: Home) -> bool:
    return git(home, "status", "--porcelain") == ""


def cli(
    home: Home, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args, "--home", home.root],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=os.environ["HOME"],
    )


OPS = "projects/acme-api/ops.md"
OPS_BODY = "- Build with `make build`.\n- **Metrics port**: 9102. ([[s/a|claude 2026-11-20]])\n"


# -- machines -----------------------------------------------------------------------------------


def test_first_push_to_an_empty_remote_then_a_machine_with_its_own_history_joins(
    tmp_path: Path,
) -> None:
    url = bare(tmp_path)
    a, b = make_home(tmp_path, "a"), make_home(tmp_path, "b")
    remember(Wiki(a), "I prefer tabs over spaces", "profile/preferences.md")
    remember(Wiki(b), "The staging database listens on port 5433", "projects/acme-api/notes.md")

    first = sync(a, remote=url)
    assert first.remotes[0].pushed and first.remembered == url
    assert 'remote = "' + url + '"' in Path(a.config_path).read_text()
    assert git(url, "rev-parse", "main").strip() == git(a, "rev-parse", "HEAD").strip()

    joined = sync(b, remote=url)  # b's own init commit and notes: unrelated histories
    assert joined.remotes[0].joined and joined.remotes[0].pushed
    sync(a)
    for home in (a, b):
        assert read(home, "profile/preferences.md") is not None
        assert "5433" in (read(home, "projects/acme-api/notes.md") or "")
        assert "[[projects/acme-api/notes|" in (read(home, "index.md") or "")  # regenerated
        assert clean(home)
    assert git(a, "rev-parse", "HEAD") == git(b, "rev-parse", "HEAD")
    # the history says which machine wrote what
    log = git(url, "log", "--format=%B", "main")
    assert "Wikimem-Machine: a" in log and "Wikimem-Machine: b" in log


def test_disjoint_edits_on_three_machines_all_arrive_everywhere(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b, c = make_home(tmp_path, "b"), make_home(tmp_path, "c")
    sync(b, remote=url)
    sync(c, remote=url)
    write(a, OPS, note_text("Ops", OPS_BODY.replace("make build", "make build -j4")))
    write(
        b,
        "general/editors.md",
        note_text("Editors", "- Use helix.\n").replace("project", "general"),
    )
    write(c, OPS, note_text("Ops", OPS_BODY + "- Deploy on Tuesdays.\n"))
    for home in (a, b, c, a, b):
        result = sync(home)
        assert not result.conflicts
    for home in (a, b, c):
        ops = read(home, OPS) or ""
        assert "make build -j4" in ops and "Deploy on Tuesdays" in ops
        assert read(home, "general/editors.md") is not None
        assert not has_markers(ops) and clean(home)


def test_the_same_note_edited_on_both_sides_is_kept_flagged_shown_and_reconciled(
    tmp_path: Path,
) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "laptop")
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b = make_home(tmp_path, "desktop")
    sync(b, remote=url)
    newer = "- **Metrics port**: 9300. ([[s/b|codex 2026-11-30]])\n"
    write(a, OPS, note_text("Ops", OPS_BODY.replace(OPS_BODY.splitlines(True)[1], newer)))
    write(
        b,
        OPS,
        note_text("Ops", OPS_BODY.replace("9102", "9200").replace("2026-11-20", "2026-11-25")),
    )
    sync(a)
    result = sync(b)
    assert result.conflicts == [OPS]
    text = read(b, OPS) or ""
    note = parse_note(OPS, text)
    assert flagged(note) and "9300" in text and "9200" in text  # both kept in the working tree
    assert "<<<<<<< desktop" in text and ">>>>>>> laptop" in text
    assert clean(b)

    assert "1 note(s) in conflict: " + OPS in collect(b).extra["sync"]
    assert any(c.area == "sync" and OPS in c.detail and "dream" in c.fix for c in checks(b))

    dream = run_dream(b, backend_name="offline")  # the next dream settles it offline
    assert f"reconciled {OPS}" in dream.notes and dream.commit
    settled = read(b, OPS) or ""
    assert "9300 (was 9200 until 2026-11-30)" in settled and not has_markers(settled)
    assert not flagged(parse_note(OPS, settled))
    sync(b)
    sync(a)
    assert read(a, OPS) == settled


def test_a_model_dream_is_given_the_conflicted_note_to_reconcile(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b = make_home(tmp_path, "b")
    sync(b, remote=url)
    write(a, OPS, note_text("Ops", OPS_BODY.replace("make build", "make all")))
    write(b, OPS, note_text("Ops", OPS_BODY.replace("make build", "ninja")))
    sync(a)
    assert sync(b).conflicts == [OPS]
    settled_by_model = OPS_BODY.replace("make build`.", "ninja` (or `make all`).")
    backend = FakeBackend([[Upsert(OPS, "Ops", "project", settled_by_model)]])
    result = run_dream(b, backend)
    prompt = backend.prompts[0].user
    assert "Reconcile it" in prompt and "<<<<<<< b" in prompt and OPS in prompt
    assert result.commit and f"reconciled {OPS}" in result.notes
    text = read(b, OPS) or ""
    assert "ninja` (or `make all`)" in text and not flagged(parse_note(OPS, text))


def test_an_invalid_hand_edit_is_reported_and_never_pushed(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    sync(a, remote=url)
    write(a, "general/broken.md", "no front matter at all\n")
    write(a, "general/good.md", note_text("Good", "- fine\n").replace("project", "general"))
    write(
        a,
        "general/secret.md",
        note_text("S", "- token ghp_" + "a" * 36 + "\n").replace("project", "general"),
    )
    result = sync(a)
    assert sorted(result.committed) == ["general/good.md", "general/secret.md"]
    assert [p for p, _ in result.blocked] == ["general/broken.md"]
    pushed = git(url, "ls-tree", "-r", "--name-only", "main")
    assert "general/good.md" in pushed and "general/broken.md" not in pushed
    assert "ghp_" not in git(url, "show", "main:general/secret.md")  # redacted by the gate
    assert read(a, "general/broken.md") == "no front matter at all\n"  # left for the person


def test_an_uncommitted_invalid_edit_in_the_way_stops_the_merge_and_changes_nothing(
    tmp_path: Path,
) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b = make_home(tmp_path, "b")
    sync(b, remote=url)
    write(a, OPS, note_text("Ops", OPS_BODY + "- more\n"))
    sync(a)
    write(b, OPS, "broken\n")
    head = git(b, "rev-parse", "HEAD")
    with pytest.raises(Exception, match=f"memory/{OPS} has an uncommitted change"):
        sync(b)
    assert git(b, "rev-parse", "HEAD") == head and read(b, OPS) == "broken\n"
    assert "uncommitted change" in record.load(b).last_error


# -- bad days -----------------------------------------------------------------------------------


def test_no_remote_is_one_clear_line(tmp_path: Path) -> None:
    a = make_home(tmp_path, "a")
    proc = cli(a, "sync")
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "error: no remote configured: run `wikimem sync --remote URL` once (any git URL, or "
        "the path of a bare repository)"
    ]
    with pytest.raises(NoRemote):
        sync(a)


def test_an_offline_remote_is_recorded_shown_and_retried(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a", auto="true")
    sync(a, remote=url)
    moved = tmp_path / "moved.git"
    os.rename(url, moved)  # the path vanished (an unmounted drive)
    remember(Wiki(a), "Remember that deploys go out on Tuesdays", "general/notes.md")
    with pytest.raises(RemoteUnreachable, match="cannot reach the remote"):
        sync(a)
    rec = record.load(a)
    assert rec.failures == 1 and rec.failing_since and "cannot reach" in rec.last_error
    assert "FAILING since" in collect(a).extra["sync"]
    assert any(c.area == "sync" and c.status == "fail" for c in checks(a))
    proc = cli(a, "sync")
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1
    assert record.load(a).failures == 2

    nowhere = cli(a, "sync", "--remote", "file:///nonexistent/nowhere.git")
    assert (
        nowhere.returncode == 1 and "cannot reach the remote file:///nonexistent" in nowhere.stderr
    )

    os.rename(moved, url)
    assert cli(a, "sync", "--remote", url).returncode == 0  # retried: the note goes out
    assert "Tuesdays" in git(url, "show", "main:general/notes.md")
    rec = record.load(a)
    assert rec.failures == 0 and not rec.last_error


def test_an_authentication_failure_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = make_home(tmp_path, "a")
    fake_ssh = tmp_path / "fake-ssh"
    fake_ssh.write_text(
        "#!/bin/sh\necho 'git@example.invalid: Permission denied (publickey).' >&2\nexit 255\n"
    )
    fake_ssh.chmod(0o755)
    monkeypatch.setenv("GIT_SSH_COMMAND", str(fake_ssh))
    with pytest.raises(AuthFailed, match="refused our credentials"):
        sync(a, remote="git@example.invalid:acme/memory.git")


def test_unrelated_history_after_a_sync_is_refused_unless_joining(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    sync(a, remote=url)
    # someone re-creates the remote from another memory
    other = make_home(tmp_path, "other")
    write(other, OPS, note_text("Ops", OPS_BODY))
    sync(other, remote=url, join=True)  # never synced there: joining is fine
    other2 = make_home(tmp_path, "other2")
    subprocess.run(
        ["git", "-C", other2.memory_dir, "push", "-q", "--force", url, "main"], check=True
    )
    head = git(a, "rev-parse", "HEAD")
    with pytest.raises((UnrelatedHistories, RemoteRewritten), match="nothing was changed"):
        sync(a)
    assert git(a, "rev-parse", "HEAD") == head
    result = sync(a, join=True)
    assert result.remotes[0].pushed and clean(a)


def test_a_force_pushed_remote_is_refused_then_joined_on_request(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b = make_home(tmp_path, "b")
    sync(b, remote=url)
    remember(Wiki(a), "Remember that deploys go out on Tuesdays", "general/notes.md")
    sync(a)
    git(b, "fetch", "-q", url, "main")
    # b rewrites the remote back to before a's last commit
    subprocess.run(
        ["git", "-C", b.memory_dir, "push", "-q", "--force", url, "HEAD~0:main"], check=True
    )
    remember(Wiki(a), "Remember that the VPN is needed for staging", "general/notes.md")
    proc = cli(a, "sync")
    assert proc.returncode == 1 and "was rewritten (force-pushed)" in proc.stderr
    assert "--join" in proc.stderr
    assert cli(a, "sync", "--join").returncode == 0
    assert "VPN" in git(url, "show", "main:general/notes.md")


# -- crashes and locks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "point",
    [
        "sync_after_fetch",
        "sync_after_journal",
        "sync_after_checkout",
        "sync_after_update_ref",
        "sync_before_journal_cleared",
    ],
)
def test_kill_9_during_a_sync_recovers_and_loses_nothing(tmp_path: Path, point: str) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b = make_home(tmp_path, "b")
    sync(b, remote=url)
    for i in range(5):
        write(a, f"projects/acme-api/n{i}.md", note_text(f"N{i}", f"- from a {i}\n"))
    write(a, OPS, note_text("Ops", OPS_BODY.replace("make build", "make all")))
    sync(a)
    write(b, OPS, note_text("Ops", OPS_BODY.replace("Metrics", "Prometheus metrics")))
    write(b, "general/mine.md", note_text("Mine", "- from b\n").replace("project", "general"))
    Path(b.memory_dir, "general", "unsaved.txt").write_text("a person's scratch file\n")

    crashed = cli(b, "sync", env={"WIKIMEM_CRASH_AT": point})
    assert crashed.returncode == 137
    interrupted = any("interrupted" in c.detail for c in checks(b))
    assert interrupted == (point != "sync_after_fetch")  # doctor says so while memory/ moved
    again = cli(b, "sync", "--json")
    assert again.returncode == 0, again.stderr
    ops = read(b, OPS) or ""
    assert "make all" in ops and "Prometheus metrics" in ops and not has_markers(ops)
    assert all(read(b, f"projects/acme-api/n{i}.md") for i in range(5))
    assert read(b, "general/mine.md") is not None
    assert Path(b.memory_dir, "general", "unsaved.txt").read_text() == "a person's scratch file\n"
    assert git(b, "status", "--porcelain") == "?? general/unsaved.txt\n"
    assert not os.path.exists(b.state("sync-journal.json"))
    sync(a)
    assert read(a, "general/mine.md") is not None and read(a, OPS) == ops


def test_a_stale_git_lock_left_by_a_killed_git_does_not_jam_sync(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    sync(a, remote=url)
    lock = Path(a.memory_dir, ".git", "refs", "remotes", "origin", "main.lock")
    lock.write_text("")
    os.utime(lock, (1, 1))
    remember(Wiki(a), "Remember that deploys go out on Tuesdays", "general/notes.md")
    assert sync(a).remotes[0].pushed


def test_only_one_sync_at_a_time_and_never_during_a_dream(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    sync(a, remote=url)
    with file_lock(a.state("sync.lock")), pytest.raises(SyncBusy, match="another `wikimem sync`"):
        sync(a)
    assert "another `wikimem sync` is running" in record.load(a).deferred
    remember(Wiki(a), "Remember that deploys go out on Tuesdays", "general/notes.md")
    with file_lock(a.state("dream.lock")), pytest.raises(Exception, match="a dream is running"):
        sync(a, wait_for_dream=0.2)
    assert sync(a).remotes[0].pushed


# -- plain git ----------------------------------------------------------------------------------


def test_a_plain_git_pull_merges_notes_with_the_driver(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b = make_home(tmp_path, "b")
    sync(b, remote=url)
    write(a, OPS, note_text("Ops", OPS_BODY.replace("make build", "make all")))
    write(a, "general/new.md", note_text("New", "- new\n").replace("project", "general"))
    sync(a)
    write(b, OPS, note_text("Ops", OPS_BODY.replace("make build", "ninja")))
    git(b, "commit", "-qam", "hand edit")
    proc = subprocess.run(
        ["git", "-C", b.memory_dir, "pull", "-q", "origin", "main"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    text = read(b, OPS) or ""
    assert flagged(parse_note(OPS, text)) and "make all" in text and "ninja" in text
    assert "[[general/new|" in (read(b, "index.md") or "")  # regenerated by the post-merge hook
    assert clean(b), proc.stderr


# -- teams --------------------------------------------------------------------------------------


def test_a_team_remote_never_gets_the_profile_which_goes_to_a_private_remote(
    tmp_path: Path,
) -> None:
    team, private = bare(tmp_path, "team.git"), bare(tmp_path, "alice-profile.git")
    alice = make_home(tmp_path, "alice", share_profile="false", profile_remote=f'"{private}"')
    remember(Wiki(alice), "I prefer tabs over spaces", "profile/preferences.md")
    write(alice, OPS, note_text("Ops", OPS_BODY))
    result = sync(alice, remote=team)
    assert [r.name for r in result.remotes] == ["origin", "wikimem-profile"]
    team_files = git(team, "ls-tree", "-r", "--name-only", "main").split()
    assert OPS in team_files and not any(f.startswith("profile/") for f in team_files)
    assert "index.md" not in team_files  # it lists the profile's titles
    assert git(private, "ls-tree", "-r", "--name-only", "main").split() == [
        "profile/preferences.md"
    ]
    assert "Wikimem-Machine: alice" in git(team, "log", "-1", "--format=%B", "main")
    assert git(team, "log", "-1", "--format=%an", "main").strip() == "Test User"

    bob = make_home(tmp_path, "bob", share_profile="false")
    remember(Wiki(bob), "I prefer spaces over tabs", "profile/preferences.md")
    sync(bob, remote=team)
    assert read(bob, OPS) is not None and "tabs over spaces" not in (
        read(bob, "profile/preferences.md") or ""
    )
    write(bob, OPS, note_text("Ops", OPS_BODY + "- Deploy on Tuesdays.\n"))
    sync(bob)
    sync(alice)
    assert "Deploy on Tuesdays" in (read(alice, OPS) or "")
    assert "spaces over tabs" not in (read(alice, "profile/preferences.md") or "")
    assert f"[[{OPS[:-3]}|" in (read(alice, "index.md") or "")

    # alice's second machine gets her profile from the private remote and the team's notes
    laptop = make_home(
        tmp_path, "alice-laptop", share_profile="false", profile_remote=f'"{private}"'
    )
    sync(laptop, remote=team)
    assert "tabs over spaces" in (read(laptop, "profile/preferences.md") or "")
    assert "Deploy on Tuesdays" in (read(laptop, OPS) or "")

    # a plain `git push` to the team remote would carry the profile: git refuses it
    proc = subprocess.run(
        ["git", "-C", alice.memory_dir, "push", "origin", "main"], capture_output=True, text=True
    )
    assert proc.returncode != 0
    assert not any(
        f.startswith("profile/") for f in git(team, "ls-tree", "-r", "--name-only", "main").split()
    )


# -- automatic sync -----------------------------------------------------------------------------


def test_auto_sync_pulls_before_a_dream_and_pushes_after_it(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a", auto="true")
    b = make_home(tmp_path, "b", auto="true")
    sync(a, remote=url)
    sync(b, remote=url)
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a)
    events = Path(b.events_dir) / "2026-11-30.jsonl"
    records = [
        {
            "v": 1,
            "ts": "2026-11-30T10:00:00.000000Z",
            "client": "claude",
            "session": "s1",
            "event": "UserPromptSubmit",
            "native_event": "UserPromptSubmit",
            "cwd": "/x",
            "project": "acme-api",
            "prompt": "Remember that deploys go out on Tuesdays",
        },
    ]
    events.write_text("".join(json.dumps(r) + "\n" for r in records))
    proc = cli(b, "dream", "--backend", "offline")
    assert proc.returncode == 0, proc.stderr
    assert read(b, OPS) is not None  # pulled before the dream
    remote_log = git(url, "log", "--format=%s", "main")
    assert remote_log.splitlines()[0].startswith("dream:")  # pushed after it
    assert record.load(b).last_success


def test_auto_sync_after_remember_runs_detached_and_a_failure_is_retried(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a", auto="true")
    sync(a, remote=url)
    proc = cli(a, "remember", "Remember that deploys go out on Tuesdays", "--path", "general/notes")
    assert proc.returncode == 0
    deadline = time.monotonic() + 20
    while (
        "Tuesdays"
        not in subprocess.run(
            ["git", "-C", url, "show", "main:general/notes.md"], capture_output=True, text=True
        ).stdout
    ):
        assert time.monotonic() < deadline, Path(a.state("sync.out")).read_text()
        time.sleep(0.1)


def test_a_sync_refuses_to_start_in_the_middle_of_a_persons_git_merge(tmp_path: Path) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    sync(a, remote=url)
    Path(a.memory_dir, ".git", "MERGE_HEAD").write_text(git(a, "rev-parse", "HEAD"))
    with pytest.raises(Exception, match="in the middle of a git merge"):
        sync(a)


def test_a_vault_of_hundreds_of_hand_written_notes_is_committed_and_pushed_at_once(
    tmp_path: Path,
) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    for i in range(250):  # more paths than fit one command line comfortably
        write(a, f"projects/vault/note-{i}.md", note_text(f"Note {i}", f"- fact {i}\n"))
    result = sync(a, remote=url)
    assert len(result.committed) == 250 and clean(a)
    assert len(git(url, "ls-tree", "-r", "--name-only", "main").split()) == 250 + 3


def test_config_settings_are_written_in_place_keeping_everything_else() -> None:
    text = '# mine\n[sync]\n# remote = ""\n# auto = false\n\n[gate]\nsecrets = "block"\n'
    out = set_setting(text, "sync", "remote", '"/srv/memory.git"')
    assert out == text.replace('# remote = ""', 'remote = "/srv/memory.git"')
    again = set_setting(out, "sync", "remote", '"/srv/other.git"')
    assert 'remote = "/srv/other.git"' in again and again.count("remote =") == 1
    assert set_setting("[gate]\n", "sync", "auto", "true") == "[gate]\n\n[sync]\nauto = true\n"


def test_a_remote_given_as_a_relative_path_is_remembered_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from wikimem.sync.remote import normalise_url

    monkeypatch.chdir(tmp_path)
    assert normalise_url("remote.git") == str(tmp_path / "remote.git")
    assert normalise_url("git@github.com:acme/memory.git") == "git@github.com:acme/memory.git"
    assert normalise_url("https://example.com/m.git") == "https://example.com/m.git"


@pytest.mark.parametrize("share_profile", ["true", "false"])
def test_a_push_refused_because_another_machine_pushed_meanwhile_is_merged_and_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, share_profile: str
) -> None:
    from wikimem.sync import procedure

    url = bare(tmp_path)
    a = make_home(tmp_path, "a", share_profile=share_profile)
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b = make_home(tmp_path, "b", share_profile=share_profile)
    sync(b, remote=url)
    write(a, OPS, note_text("Ops", OPS_BODY.replace("make build", "make all")))
    write(b, OPS, note_text("Ops", OPS_BODY.replace("make build", "ninja")))
    sync(a)
    real_push = procedure._push
    raced = []

    def push_after_someone_else(*args: object, **kwargs: object) -> bool:
        if not raced:  # another machine gets in between our fetch and our push
            raced.append(True)
            write(a, "general/late.md", note_text("Late", "- late\n").replace("project", "general"))
            sync(a)
        return real_push(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(procedure, "_push", push_after_someone_else)
    result = sync(b)
    assert raced and result.remotes[0].pushed and result.conflicts == [OPS]
    text = read(b, OPS) or ""
    assert text.count("<<<<<<<") == 1  # merged once, not a conflict of a conflict
    assert read(b, "general/late.md") is not None
    sync(a)
    assert read(a, OPS) == text and clean(a) and clean(b)


def test_an_ssh_remote_works_through_the_users_ssh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = bare(tmp_path)
    fake_ssh = tmp_path / "fake-ssh"  # runs the remote command here, as sshd would there
    fake_ssh.write_text('#!/bin/sh\nshift\nexec sh -c "$*"\n')
    fake_ssh.chmod(0o755)
    monkeypatch.setenv("GIT_SSH_COMMAND", str(fake_ssh))
    monkeypatch.setenv("GIT_SSH_VARIANT", "simple")
    a, b = make_home(tmp_path, "a"), make_home(tmp_path, "b")
    write(a, OPS, note_text("Ops", OPS_BODY))
    assert sync(a, remote=f"memory-host:{url}").remotes[0].pushed
    sync(b, remote=f"memory-host:{url}")
    assert read(b, OPS) == read(a, OPS)
    assert f'remote = "memory-host:{url}"' in Path(b.config_path).read_text()


def test_a_models_reconciliation_that_drops_text_outside_the_conflict_is_not_taken(
    tmp_path: Path,
) -> None:
    url = bare(tmp_path)
    a = make_home(tmp_path, "a")
    write(a, OPS, note_text("Ops", OPS_BODY))
    sync(a, remote=url)
    b = make_home(tmp_path, "b")
    sync(b, remote=url)
    write(a, OPS, note_text("Ops", OPS_BODY.replace("make build", "make all")))
    write(b, OPS, note_text("Ops", OPS_BODY.replace("make build", "ninja")))
    sync(a)
    assert sync(b).conflicts == [OPS]
    sloppy = FakeBackend([[Upsert(OPS, "Ops", "project", "- Build with `ninja`.\n")]])
    result = run_dream(b, sloppy)  # it lost the metrics port, which was in no conflict
    text = read(b, OPS) or ""
    assert result.commit and "Metrics port" in text and not has_markers(text)
    assert not flagged(parse_note(OPS, text))


def test_a_remote_that_never_answered_is_not_remembered(tmp_path: Path) -> None:
    """`sync --remote URL` with a typo: one line and exit 1, and nothing of it stays: not in
    config.toml, not as memory/'s git remote, and doctor reports no failure the person never
    chose. A remote that was working stays the one synced with."""
    a = make_home(tmp_path, "a")
    config_before = Path(a.config_path).read_bytes()
    typo = str(tmp_path / "nowhere.git")
    proc = cli(a, "sync", "--remote", typo)
    assert proc.returncode == 1 and "cannot reach the remote" in proc.stderr
    assert Path(a.config_path).read_bytes() == config_before
    assert "nowhere" not in git(a, "remote", "-v")
    assert not any(c.status == "fail" for c in checks(a) if c.area == "sync")
    assert "FAILING" not in (collect(a).extra.get("sync") or "")

    url = bare(tmp_path)
    assert cli(a, "sync", "--remote", url).returncode == 0  # this one answers: remembered
    remembered = Path(a.config_path).read_bytes()
    assert url.encode() in remembered
    proc = cli(a, "sync", "--remote", typo)
    assert proc.returncode == 1 and "cannot reach the remote" in proc.stderr
    assert Path(a.config_path).read_bytes() == remembered
    assert git(a, "remote", "get-url", "origin").strip() == url
    assert [c.status for c in checks(a) if c.area == "sync"] == ["ok"]
    assert cli(a, "sync").returncode == 0  # the remote that works is still the one synced with
