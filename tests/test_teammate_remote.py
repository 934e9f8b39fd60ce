"""What a remote someone else can push to must never do: make wikimem read or write a file
outside memory/, or carry a secret out through index.md.

A teammate (or anyone with push access) works in a plain git clone of the shared remote; the
victim is an ordinary home that syncs with it. Every secret below sits in a file outside
memory/ (in the test's $HOME) or in text the gate never approved.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.test_sync import bare, git, make_home, note_text, read, write
from wikimem.config import DEFAULT_CONFIG_TEXT, load_config
from wikimem.home import Home
from wikimem.importers.claude_auto_memory import scan
from wikimem.sync.procedure import sync
from wikimem.sync.remote import set_setting
from wikimem.wiki.batch import Wiki
from wikimem.wiki.remember import remember

CREDENTIAL = "https://alice:ghp_" + "Zq8wX3v6T1b4N7m0K2j5H9g" + "C4d7F0s3A6p9R@github.com"
CREDENTIAL_MARK = "Zq8wX3v6T1b4N7m0K2j5H9g"


def teammate(tmp_path: Path, url: str) -> str:
    """A plain clone of the remote, as someone else's machine has it."""
    work = tmp_path / "teammate"
    subprocess.run(["git", "clone", "-q", url, str(work)], check=True, capture_output=True)
    for key, value in (("user.name", "Mallory"), ("user.email", "m@example.com")):
        subprocess.run(["git", "-C", str(work), "config", key, value], check=True)
    return str(work)


def push(work: str, message: str) -> None:
    subprocess.run(["git", "-C", work, "add", "-A"], check=True)
    subprocess.run(["git", "-C", work, "commit", "-qm", message], check=True)
    subprocess.run(["git", "-C", work, "push", "-q", "origin", "HEAD:main"], check=True)


def secrets_outside(home_dir: Path) -> dict[str, Path]:
    """Files a person has outside memory/, each holding something that must never leave."""
    files = {
        "git-credentials": home_dir / ".git-credentials",
        "pgpass": home_dir / ".pgpass",
        "bashrc": home_dir / ".bashrc",
    }
    files["git-credentials"].write_text(f"{CREDENTIAL}\n")
    files["pgpass"].write_text(f"db.internal:5432:*:app:{CREDENTIAL_MARK}pg\n")
    files["bashrc"].write_text("export PS1='$ '\n")
    return files


def everything_in(url: str) -> str:
    """Every file of every commit the remote holds, as text."""
    return git(url, "log", "-p", "--all", "--format=%B")


def no_links_in(url: str) -> bool:
    listing = git(url, "ls-tree", "-r", "main")
    return not any(line.startswith(("120000", "160000")) for line in listing.splitlines())


@pytest.mark.parametrize("victim_has_new_work", [False, True], ids=["fast-forward", "merge"])
@pytest.mark.parametrize("target", ["git-credentials", "pgpass"])
def test_a_note_pushed_as_a_link_is_never_checked_out_read_indexed_or_pushed_back(
    tmp_path: Path, target: str, victim_has_new_work: bool
) -> None:
    url = bare(tmp_path)
    victim = make_home(tmp_path, "victim")
    write(victim, "general/ok.md", note_text("Ok", "- fine\n").replace("project", "general"))
    sync(victim, remote=url)
    outside = secrets_outside(Path(os.environ["HOME"]))
    work = teammate(tmp_path, url)
    os.makedirs(os.path.join(work, "projects/acme-api"), exist_ok=True)
    os.symlink(outside[target], os.path.join(work, "projects/acme-api/creds.md"))
    push(work, "a helpful note")
    if victim_has_new_work:
        remember(Wiki(victim), "Deploys go out on Tuesdays", "projects/acme-api/deploys.md")

    result = sync(victim)

    assert not os.path.lexists(os.path.join(victim.memory_dir, "projects/acme-api/creds.md"))
    assert any("creds.md" in r and "symbolic link" in r for r in result.remotes[0].refused)
    assert CREDENTIAL_MARK not in (read(victim, "index.md") or "")
    assert CREDENTIAL_MARK not in everything_in(url)
    assert no_links_in(url)  # the push removed it from the shared branch
    assert "symbolic link" in git(victim, "log", "-1", "--format=%B")
    # The person's files outside memory/ are as they were.
    assert outside["bashrc"].read_text() == "export PS1='$ '\n"
    # Later commands never read through it either.
    remember(Wiki(victim), "The API listens on port 8080", "projects/acme-api/ports.md")
    assert CREDENTIAL_MARK not in (read(victim, "index.md") or "")


@pytest.mark.parametrize("pointed_at", ["bashrc", "config"])
def test_a_gitattributes_link_from_the_remote_never_makes_sync_write_outside_memory(
    tmp_path: Path, pointed_at: str
) -> None:
    url = bare(tmp_path)
    victim = make_home(tmp_path, "victim")
    sync(victim, remote=url)
    outside = secrets_outside(Path(os.environ["HOME"]))
    config_before = Path(victim.config_path).read_text()
    target = outside["bashrc"] if pointed_at == "bashrc" else Path(victim.config_path)
    work = teammate(tmp_path, url)
    os.unlink(os.path.join(work, ".gitattributes"))
    os.symlink(target, os.path.join(work, ".gitattributes"))
    push(work, "tidy attributes")

    for _ in range(3):  # every later sync runs the driver setup again
        sync(victim)

    assert outside["bashrc"].read_text() == "export PS1='$ '\n"
    assert Path(victim.config_path).read_text() == config_before
    load_config(victim)  # every later command still starts
    attributes = Path(victim.memory_dir) / ".gitattributes"
    assert not attributes.is_symlink() and "merge=wikimem" in attributes.read_text()
    assert no_links_in(url)


def test_a_link_a_plain_git_pull_made_is_never_read_and_the_next_sync_removes_it(
    tmp_path: Path,
) -> None:
    url = bare(tmp_path)
    victim = make_home(tmp_path, "victim")
    sync(victim, remote=url)
    outside = secrets_outside(Path(os.environ["HOME"]))
    work = teammate(tmp_path, url)
    os.makedirs(os.path.join(work, "profile"), exist_ok=True)
    os.symlink(outside["git-credentials"], os.path.join(work, "profile/git.md"))
    push(work, "profile note")
    # The person pulls by hand: git itself checks the link out.
    subprocess.run(
        ["git", "-C", victim.memory_dir, "pull", "-q", "origin", "main"],
        check=True,
        capture_output=True,
    )
    assert os.path.islink(os.path.join(victim.memory_dir, "profile/git.md"))

    remember(Wiki(victim), "I prefer small pull requests", "profile/preferences.md")
    assert CREDENTIAL_MARK not in (read(victim, "index.md") or "")

    result = sync(victim)
    assert any("profile/git.md" in r for r in result.removed)
    assert not os.path.lexists(os.path.join(victim.memory_dir, "profile/git.md"))
    assert outside["git-credentials"].read_text() == f"{CREDENTIAL}\n"  # the target untouched
    assert CREDENTIAL_MARK not in everything_in(url)
    assert no_links_in(url)


def test_a_link_made_by_hand_never_reaches_index_md(home: Path) -> None:
    outside = secrets_outside(Path(os.environ["HOME"]))
    h = Home(str(home))
    os.makedirs(os.path.join(h.memory_dir, "general"), exist_ok=True)
    os.symlink(outside["pgpass"], os.path.join(h.memory_dir, "general/db.md"))
    remember(Wiki(h), "Staging runs on Postgres 16", "general/postgres.md")
    index = read(h, "index.md") or ""
    assert "Postgres 16" in index
    assert CREDENTIAL_MARK not in index and "general/db" not in index


def test_names_no_file_system_holds_and_submodules_from_the_remote_do_not_stop_sync(
    tmp_path: Path,
) -> None:
    url = bare(tmp_path)
    victim = make_home(tmp_path, "victim")
    sync(victim, remote=url)
    work = teammate(tmp_path, url)
    long_name = "general/" + "a" * 250 + ".md"  # a 253-byte name: holdable
    Path(work, long_name).parent.mkdir(parents=True, exist_ok=True)
    Path(work, long_name).write_text(note_text("Long", "- ok\n").replace("project", "general"))
    push(work, "fine")
    # A 300-byte name and a submodule cannot be made in a working tree: write them as objects.
    blob = subprocess.run(
        ["git", "-C", work, "hash-object", "-w", "--stdin"],
        input=b"x\n",
        capture_output=True,
        check=True,
    ).stdout.decode()
    head = git(work, "rev-parse", "HEAD").strip()
    long_one = f"general/{'b' * 300}.md"
    index = {**os.environ, "GIT_INDEX_FILE": os.path.join(work, ".git", "evil.index")}
    subprocess.run(["git", "-C", work, "read-tree", head], env=index, check=True)
    subprocess.run(
        [
            "git",
            "-C",
            work,
            "update-index",
            "--add",
            "--cacheinfo",
            f"100644,{blob.strip()},{long_one}",
        ],
        env=index,
        check=True,
    )
    subprocess.run(
        ["git", "-C", work, "update-index", "--add", "--cacheinfo", f"160000,{head},vendor/lib"],
        env=index,
        check=True,
    )
    tree = subprocess.run(
        ["git", "-C", work, "write-tree"], env=index, capture_output=True, text=True, check=True
    ).stdout.strip()
    evil = subprocess.run(
        ["git", "-C", work, "commit-tree", tree, "-p", head, "-m", "evil"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    subprocess.run(["git", "-C", work, "push", "-q", "origin", f"{evil}:main"], check=True)

    result = sync(victim)
    refused = " ".join(result.remotes[0].refused)
    assert "longer than 255 bytes" in refused and "submodule" in refused
    assert read(victim, long_name) is not None  # the holdable one arrived
    assert sync(victim).remotes[0].refused == []  # and the next sync is quiet


# -- index.md carries only committed, gate-approved text ---------------------------------------

AWS = "AKIA" + "Q3ZK7Y2WB5N8D4HF"


def test_a_secret_in_an_uncommitted_hand_edit_never_reaches_index_md(home: Path) -> None:
    h = Home(str(home))
    write(h, "general/aws.md", note_text("AWS", f"{AWS} is the deploy key.\n"))
    remember(Wiki(h), "Use the eu-west-1 region for staging", "general/region.md")
    assert AWS not in (read(h, "index.md") or "")
    log = git(h, "log", "-p", "--all")
    assert AWS not in log


def test_block_mode_keeps_a_refused_secret_out_of_the_remote_entirely(tmp_path: Path) -> None:
    url = bare(tmp_path)
    victim = make_home(tmp_path, "victim")
    text = set_setting(Path(victim.config_path).read_text(), "gate", "secrets", '"block"')
    Path(victim.config_path).write_text(text)
    sync(victim, remote=url)
    write(victim, "general/aws.md", note_text("AWS", f"{AWS} is the deploy key.\n"))
    write(victim, "general/ok.md", note_text("Ok", "- fine\n").replace("project", "general"))
    result = sync(victim)
    assert [p for p, _ in result.blocked] == ["general/aws.md"]
    assert AWS not in everything_in(url)
    assert AWS not in git(victim, "log", "-p", "--all")
    assert "[[general/ok|" in git(url, "show", "main:index.md")


def test_import_never_follows_a_linked_topic_file_or_memory_folder(tmp_path: Path) -> None:
    outside = secrets_outside(Path(os.environ["HOME"]))
    claude = tmp_path / "claude"
    linked_topic = claude / "projects" / "-work-api" / "memory"
    linked_topic.mkdir(parents=True)
    (linked_topic / "real.md").write_text("---\nname: real\ntype: project\n---\nA real memory.\n")
    os.symlink(outside["pgpass"], linked_topic / "db.md")
    elsewhere = tmp_path / "private-notes"
    elsewhere.mkdir()
    (elsewhere / "diary.md").write_text("---\nname: diary\ntype: user\n---\nPrivate.\n")
    (claude / "projects" / "-work-web").mkdir(parents=True)
    os.symlink(elsewhere, claude / "projects" / "-work-web" / "memory")

    found = scan(str(claude))
    bodies = " ".join(n.body for n in found.notes)
    assert "A real memory." in bodies
    assert CREDENTIAL_MARK not in bodies and "Private." not in bodies


def test_default_config_is_what_these_tests_assume() -> None:
    assert 'secrets = "redact"' in DEFAULT_CONFIG_TEXT
