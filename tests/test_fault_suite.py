"""The fault suite (issue 12): kill -9 at every step of the dream, the gate batch and the commit;
a disk that fills up; a read-only home; corrupt state files; a process group killed at random
moments. After each, the next run recovers by itself with a clear message, and the wiki is
exactly what one uninterrupted dream over the same events makes: nothing lost, nothing twice.

The fast part runs in the normal suite; tests marked `long` run with
`WIKIMEM_LONG=1 .venv/bin/python -m pytest -m long` (docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_bad_days import record
from tests.test_dream import git, snapshot
from wikimem.dream.runner import run_dream
from wikimem.home import Home
from wikimem.layout import init_home

REPO = Path(__file__).resolve().parents[1]
long = pytest.mark.long

# Every fault-injection point in the package; the test below fails when one is added and not
# listed here, so the suite stays systematic.
CRASH_POINTS = [
    "dream_after_chunk",  # runner: after each chunk's operations are applied in memory
    "after_journal",  # batch: the journal of the writes is on disk, nothing written yet
    "mid_write",  # batch: after each note written
    "after_write",  # batch: every note written, no commit yet
    "after_before_commit",  # batch: the dream's carry (parked writes) saved, no commit yet
    "after_git_add",  # git store: paths staged, not committed
    "after_commit",  # batch: committed, journal not cleared
    "dream_before_watermark",  # runner: committed, watermark.json not moved
    "mid_rollback",  # batch recovery: rolling a crashed dream back, after one file
]


def test_every_crash_point_in_the_package_is_in_the_suite() -> None:
    found = set()
    pattern = re.compile(
        r'(?:_crash_point|crash|_no_crash)\("([a-z_]+)"\)|WIKIMEM_CRASH_AT"\) == "([a-z_]+)"'
    )
    for path in (REPO / "wikimem").rglob("*.py"):
        for m in pattern.finditer(path.read_text()):
            found.add(m.group(1) or m.group(2))
    # An interrupted sync: its points are killed one by one in tests/test_sync.py
    sync_points = {p for p in found if p.startswith("sync_")}
    covered = set(re.findall(r'"(sync_[a-z_]+)"', (REPO / "tests" / "test_sync.py").read_text()))
    assert sync_points and sync_points <= covered
    assert found - sync_points == set(CRASH_POINTS)


def scenario(tmp_path: Path) -> list[str]:
    """Events of three projects and two clients: facts, preferences, commands."""
    lines = []
    for i, (project, client) in enumerate(
        [("acme-api", "claude"), ("acme-web", "codex"), ("tools-repo", "claude")] * 4
    ):
        ts = f"2026-11-30T10:{i:02d}:00.000000Z"
        sid = f"{client}-{project}-{i % 2}"
        prompts = [
            f"Remember that the {project} staging host is stage-{i}.internal.",
            "We use pnpm in this repo, never npm.",
            f"I prefer small commits and short branch names ({i}).",
        ]
        for j, prompt in enumerate(prompts):
            rec = json.loads(record(sid, project, prompt, ts.replace(":00.0", f":{j:02d}.0")))
            rec["client"] = client
            lines.append(json.dumps(rec) + "\n")
    return lines


def seed(home: Path, lines: list[str]) -> None:
    (home / "events" / "2026-11-30.jsonl").write_text("".join(lines))


def blocking_check(home: Path, flag: Path) -> None:
    """A pre_write check that blocks projects/acme-web/** while `flag` exists."""
    text = (home / "config.toml").read_text()
    text += (
        f'\n[[gate.pre_write]]\ncommand = "test ! -e {flag} || exit 2"\n'
        'match = "projects/acme-web/**"\n'
    )
    (home / "config.toml").write_text(text)


def clean_result(tmp_path: Path, lines: list[str]) -> dict[str, str]:
    clean = tmp_path / "clean-home"
    init_home(Home(str(clean)))
    seed(clean, lines)
    run_dream(Home(str(clean)), backend_name="offline")
    return snapshot(clean)


def dream_cli(
    home: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", "dream", "--home", str(home), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=os.environ["HOME"],
        timeout=120,
    )


def settle(home: Path) -> None:
    """What a person does after the fault: nothing but run the dream again (check fixed)."""
    result = run_dream(Home(str(home)), backend_name="offline")
    assert result.parked == [] and result.deferred == [] and result.quarantined == []
    again = run_dream(Home(str(home)), backend_name="offline")
    assert again.events == 0 and again.commit is None
    assert git(home, "status", "--porcelain") == ""
    assert not (home / "state" / "batch-journal.json").exists()


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_kill_at_every_step_then_the_next_run_finishes_the_job(
    point: str, home: Path, tmp_path: Path
) -> None:
    lines = scenario(tmp_path)
    seed(home, lines)
    flag = tmp_path / "check-broken"
    flag.write_text("")
    blocking_check(home, flag)  # so that parked writes are part of what must survive
    if point == "mid_rollback":
        assert dream_cli(home, env={"WIKIMEM_CRASH_AT": "after_write"}).returncode == 137
    crashed = dream_cli(home, env={"WIKIMEM_CRASH_AT": point})
    assert crashed.returncode == 137, crashed.stderr
    recovered = dream_cli(home)
    assert recovered.returncode == 0, recovered.stderr
    if point in (
        "after_journal",
        "mid_write",
        "after_write",
        "after_before_commit",
        "after_git_add",
    ):
        assert "recovered: rolled back" in recovered.stderr or point == "after_journal"
    assert "parked (retried by the next dream): projects/acme-web/" in recovered.stderr
    flag.unlink()
    settle(home)
    assert snapshot(home) == clean_result(tmp_path, lines)


# -- a process group killed at a random moment (git children included) ---------------------------


def kill_during_dream(home: Path, delay: float) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "wikimem", "dream", "--home", str(home)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    time.sleep(delay)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # the dream and any git it is running
    proc.wait()


def test_a_process_group_killed_mid_dream_recovers(home: Path, tmp_path: Path) -> None:
    lines = scenario(tmp_path)
    seed(home, lines)
    kill_during_dream(home, 0.8)
    settle(home)
    assert snapshot(home) == clean_result(tmp_path, lines)


@long
@pytest.mark.parametrize("delay", [0.3, 0.5, 0.7, 0.9, 1.1, 1.3, 1.6, 2.0])
def test_killed_at_random_moments_again_and_again(home: Path, tmp_path: Path, delay: float) -> None:
    lines = scenario(tmp_path)
    seed(home, lines)
    for d in (delay, delay / 2, delay * 1.5):
        kill_during_dream(home, d)
    settle(home)
    assert snapshot(home) == clean_result(tmp_path, lines)


# -- a full disk ------------------------------------------------------------------------------------


def test_a_full_disk_mid_batch_parks_what_could_not_be_written(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Simulated ENOSPC (works everywhere): the notes written before the disk filled are
    committed, the rest parked; the next dream writes them."""
    lines = scenario(tmp_path)
    seed(home, lines)
    import wikimem.wiki.gate as gate_module

    real = gate_module.atomic_write
    calls = {"n": 0}

    def full_after_three(path: str, text: str, mode: int | None = None) -> None:
        calls["n"] += 1
        if calls["n"] > 3:
            raise OSError(errno.ENOSPC, "No space left on device", path)
        real(path, text, mode)

    monkeypatch.setattr(gate_module, "atomic_write", full_after_three)
    first = run_dream(Home(str(home)), backend_name="offline")
    assert len(first.created) == 3 and first.parked
    assert all("No space left on device" in reason for _, reason in first.parked)
    monkeypatch.setattr(gate_module, "atomic_write", real)
    settle(home)
    assert snapshot(home) == clean_result(tmp_path, lines)


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[None]:
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(
            "cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN); ENOSPC is simulated above"
        )
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(disk: Path, leave: int) -> Path:
    """Fill the file system at `disk`, leaving about `leave` bytes free."""
    filler = disk / "filler"
    stat = os.statvfs(disk)
    free = stat.f_bavail * stat.f_frsize
    with open(filler, "wb") as fh:
        fh.write(b"\0" * max(0, free - leave))
    return filler


def disk_full_case(tmp_path: Path, leave: int) -> None:
    disk = tmp_path / "disk"
    with tmpfs(disk, "8m"):
        home = disk / "home"
        init_home(Home(str(home)))
        lines = scenario(tmp_path)
        seed(home, lines)
        filler = fill(disk, leave)
        full = dream_cli(home)
        if full.returncode != 0:
            assert full.stderr.count("\n") == 1, full.stderr  # one clear line, no traceback
            assert "No space left on device" in full.stderr or "no space" in full.stderr.lower()
        filler.unlink()
        recovered = dream_cli(home)
        assert recovered.returncode == 0, recovered.stderr
        settle(home)
        assert snapshot(home) == clean_result(tmp_path, lines)


def test_a_real_full_disk_recovers(tmp_path: Path) -> None:
    disk_full_case(tmp_path, 0)


@long
@pytest.mark.parametrize("leave", [2_000, 8_000, 20_000, 60_000, 150_000])
def test_a_real_disk_filling_at_every_stage_recovers(tmp_path: Path, leave: int) -> None:
    disk_full_case(tmp_path, leave)


# -- a read-only home -------------------------------------------------------------------------------


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    bind = subprocess.run(["mount", "--bind", str(path), str(path)], capture_output=True)
    if bind.returncode != 0:
        pytest.skip("cannot bind-mount here (needs root with CAP_SYS_ADMIN)")
    try:
        ro = subprocess.run(["mount", "-o", "remount,bind,ro", str(path)], capture_output=True)
        if ro.returncode != 0:
            pytest.skip("cannot remount read-only here")
        yield
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def test_a_read_only_home_fails_clearly_and_recovers(home: Path, tmp_path: Path) -> None:
    lines = scenario(tmp_path)
    seed(home, lines)
    with read_only(home):
        with pytest.raises(OSError):
            (home / "probe").write_text("x")
        dreamt = dream_cli(home)
        assert dreamt.returncode == 1 and dreamt.stderr.count("\n") == 1, dreamt.stderr
        assert "Read-only file system" in dreamt.stderr
        hook = subprocess.run(
            [sys.executable, "-m", "wikimem", "hook", "claude"],
            input=json.dumps({"session_id": "s", "cwd": "/tmp", "hook_event_name": "SessionStart"}),
            capture_output=True,
            text=True,
        )
        assert hook.returncode == 0  # the agent never sees us break
        status = subprocess.run(
            [sys.executable, "-m", "wikimem", "status", "--json"], capture_output=True, text=True
        )
        assert status.returncode == 0
    settle(home)
    assert snapshot(home) == clean_result(tmp_path, lines)


# -- corrupt state files -----------------------------------------------------------------------------


GARBAGE = {
    "watermark.json": b"{not json",
    "machine-id": b"\x00\xff garbage \n",
    "carry.json": b'{"dream": 5, "parked": "x"',
    "batch-journal.json": b"\x00\x00\x00",
    "index.sqlite3": b"SQLite format 3\x00" + b"\xde\xad" * 500,
    "config.cache.json": b"[1, 2",
    "dream.lock": b"\xff\xfe",
}


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_a_corrupt_state_file_is_recovered_without_reprocessing(
    name: str, home: Path, tmp_path: Path
) -> None:
    lines = scenario(tmp_path)
    seed(home, lines[: len(lines) // 2])
    h = Home(str(home))
    run_dream(h, backend_name="offline")  # a first dream, committed
    with open(home / "events" / "2026-11-30.jsonl", "a") as fh:
        fh.write("".join(lines[len(lines) // 2 :]))
    (home / "state" / name).write_bytes(GARBAGE[name])
    dreamt = run_dream(h, backend_name="offline")
    if name in ("watermark.json", "carry.json", "batch-journal.json"):
        assert any("unreadable" in line for line in dreamt.recovered), dreamt.recovered
    settle(home)
    # the same as two clean dreams over the same events: the first half was not redone
    clean = tmp_path / "clean-home"
    init_home(Home(str(clean)))
    seed(clean, lines[: len(lines) // 2])
    run_dream(Home(str(clean)), backend_name="offline")
    with open(clean / "events" / "2026-11-30.jsonl", "a") as fh:
        fh.write("".join(lines[len(lines) // 2 :]))
    run_dream(Home(str(clean)), backend_name="offline")
    assert snapshot(home) == snapshot(clean)


def test_doctor_and_status_survive_every_corrupt_state_file(home: Path) -> None:
    for name, data in GARBAGE.items():
        (home / "state" / name).write_bytes(data)
    for verb in (["status", "--json"], ["doctor"]):
        proc = subprocess.run(
            [sys.executable, "-m", "wikimem", *verb], capture_output=True, text=True
        )
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr


def test_a_corrupt_carry_file_still_lands_the_parked_writes(home: Path, tmp_path: Path) -> None:
    lines = scenario(tmp_path)
    seed(home, lines)
    flag = tmp_path / "check-broken"
    flag.write_text("")
    blocking_check(home, flag)
    first = run_dream(Home(str(home)), backend_name="offline")
    assert first.parked
    (home / "state" / "carry.json").write_bytes(GARBAGE["carry.json"])
    flag.unlink()
    again = run_dream(Home(str(home)), backend_name="offline")
    assert any("its copy was used" in line for line in again.recovered)
    settle(home)
    assert snapshot(home) == clean_result(tmp_path, lines)
