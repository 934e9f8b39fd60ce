"""Scale and edges of sync and the dream: nothing dropped by a cap meant for a model, a push
race settled by retrying, a transport that hangs bounded and cleaned up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_sync import OPS, OPS_BODY, bare, git, make_home, note_text, write
from wikimem.dream.runner import MAX_OPERATIONS, run_dream
from wikimem.home import Home
from wikimem.sync import record
from wikimem.sync.git import RemoteUnreachable
from wikimem.sync.procedure import sync


def short_sessions(home: Path, n: int, project: str = "api") -> None:
    """`n` short sessions in one events file, each a prompt and a stop."""
    lines = []
    for i in range(n):
        for event, extra in (
            (
                "UserPromptSubmit",
                {"prompt": f"Fix the flaky test number {i} in the payments suite"},
            ),
            ("Stop", {"message": f"Fixed test {i}: it waited on a real clock."}),
        ):
            lines.append(
                json.dumps(
                    {
                        "v": 1,
                        "ts": f"2026-11-30T10:{i // 60 % 60:02d}:{i % 60:02d}.{i:06d}Z",
                        "client": "claude",
                        "session": f"s-{i:05d}",
                        "event": event,
                        "native_event": event,
                        "cwd": f"/work/{project}",
                        "project": project,
                        **extra,
                    }
                )
                + "\n"
            )
    with open(home / "events" / "2026-11-30.jsonl", "a", encoding="utf-8") as fh:
        fh.write("".join(lines))


def test_the_offline_dream_writes_a_digest_for_every_session_past_the_models_cap(
    home: Path,
) -> None:
    n = MAX_OPERATIONS * 3
    short_sessions(home, n)
    result = run_dream(Home(str(home)), backend_name="offline")
    digests = list((home / "memory" / "projects" / "api" / "sessions").glob("*.md"))
    assert len(digests) == n
    assert not any("ignored" in reason for _, reason in result.rejected)


# -- a transport that hangs ---------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.mark.parametrize("verb", ["fetch", "push"])
def test_an_ssh_that_connects_and_hangs_is_stopped_soon_and_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, verb: str
) -> None:
    from wikimem.sync import git as sync_git

    url = bare(tmp_path)
    hang = tmp_path / "hang"
    pids = tmp_path / "ssh.pids"
    fake_ssh = tmp_path / "fake-ssh"  # runs the remote command, as sshd would, unless told to hang
    fake_ssh.write_text(
        f'#!/bin/sh\necho $$ >> "{pids}"\n'
        f'if [ -e "{hang}" ]; then exec sleep 600; fi\nshift\nexec sh -c "$*"\n'
    )
    fake_ssh.chmod(0o755)
    monkeypatch.setenv("GIT_SSH_COMMAND", str(fake_ssh))
    monkeypatch.setenv("GIT_SSH_VARIANT", "simple")
    a = make_home(tmp_path, "a")
    write(a, OPS, note_text("Ops", OPS_BODY))
    assert sync(a, remote=f"memory-host:{url}").remotes[0].pushed
    write(a, OPS, note_text("Ops", OPS_BODY + "- more\n"))
    monkeypatch.setattr(sync_git, "STALL_TIMEOUT", 2.0, raising=False)
    monkeypatch.setattr(sync_git, "NETWORK_TIMEOUT", 12.0)  # (the overall limit, shortened)
    hang.touch()
    if verb == "push":
        # the fetch answers, the push hangs
        real = sync_git.Git.run

        def fetch_answers(self: sync_git.Git, *args: Any, **kwargs: Any) -> Any:
            if args and args[0] == "fetch" and hang.exists():
                hang.unlink()
                try:
                    return real(self, *args, **kwargs)
                finally:
                    hang.touch()
            return real(self, *args, **kwargs)

        monkeypatch.setattr(sync_git.Git, "run", fetch_answers)
    started = time.monotonic()
    with pytest.raises(RemoteUnreachable, match=f"git {verb} got no answer .* for 2 s"):
        sync(a)
    assert time.monotonic() - started < 20  # not the 300 s of the overall limit
    hung = [int(p) for p in pids.read_text().split()][-1]
    deadline = time.monotonic() + 5
    while _alive(hung) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(hung)  # the ssh is gone, not left running
    assert "no answer" in record.load(a).last_error
    hang.unlink()
    assert sync(a).remotes[0].pushed  # and the next sync, with the host back, goes through


# -- push races ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "machines", [8, pytest.param(24, marks=[pytest.mark.long, pytest.mark.timeout(1800)])]
)
def test_machines_syncing_at_once_all_get_through(tmp_path: Path, machines: int) -> None:
    """Every push but one of each round is refused (someone pushed meanwhile): each is fetched,
    merged and pushed again until it lands, nothing lost. (24 at once: the long suite.)"""
    url = bare(tmp_path)
    seed = make_home(tmp_path, "seed")
    write(seed, OPS, note_text("Ops", OPS_BODY))
    sync(seed, remote=url)
    homes = [make_home(tmp_path, f"m{i:02d}") for i in range(machines)]
    for i, home in enumerate(homes):
        write(
            home,
            f"general/machine-{i:02d}.md",
            note_text(f"Machine {i}", f"- machine {i} was here\n").replace("project", "general"),
        )
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "wikimem", "sync", "--remote", url, "--home", home.root],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=os.environ["HOME"],
        )
        for home in homes
    ]
    failed = []
    for home, proc in zip(homes, procs, strict=True):
        _, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            failed.append((home.root, err.strip()))
    assert failed == []
    on_remote = set(git(url, "ls-tree", "-r", "--name-only", "main").split())
    assert {f"general/machine-{i:02d}.md" for i in range(machines)} <= on_remote
    assert OPS in on_remote
