"""Bad days in the dream, the gate and git (issue 12 items 3, 4, 7, 8; issue 11's model dream):
nothing lost, nothing consolidated twice, nothing stopped by one poisoned input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import make_repo
from tests.test_dream import first_scenario, git, replay, snapshot, wikimem
from wikimem.config import GitConfig
from wikimem.dream.base import BackendError, DreamRequest, Proposal, ReadNote
from wikimem.dream.fake import FakeBackend
from wikimem.dream.ops import Upsert
from wikimem.dream.runner import run_dream
from wikimem.home import Home
from wikimem.wiki.gitstore import Store


def record(session: str, project: str, prompt: str, ts: str = "2026-11-30T10:00:00.000000Z") -> str:
    rec = {
        "v": 1,
        "ts": ts,
        "client": "claude",
        "session": session,
        "event": "UserPromptSubmit",
        "native_event": "UserPromptSubmit",
        "cwd": f"/work/{project}",
        "project": project,
        "prompt": prompt,
    }
    return json.dumps(rec) + "\n"


def write_events(home: Path, *lines: str, name: str = "2026-11-30.jsonl") -> None:
    with open(home / "events" / name, "a", encoding="utf-8") as fh:
        fh.write("".join(lines))


def status(home: Path) -> dict[str, Any]:
    proc = wikimem("status", "--json")
    assert proc.returncode == 0, proc.stderr
    extra: dict[str, Any] = json.loads(proc.stdout)["extra"]
    return extra


def doctor(home: Path) -> str:
    """doctor's output with the line wrapping undone."""
    return " ".join(wikimem("doctor", env={"COLUMNS": "2000"}).stdout.split())


@pytest.fixture
def clones(tmp_path: Path) -> tuple[str, str]:
    a = make_repo(tmp_path / "work" / "api", "git@github.com:acme/api.git")
    b = make_repo(tmp_path / "laptop" / "checkout", "https://github.com/acme/api")
    return str(a), str(b)


# -- item 7: one poisoned event never stops the dreams after it ----------------------------------


def test_a_session_id_with_a_nul_and_an_overlong_project_do_not_stop_the_dream(home: Path) -> None:
    write_events(
        home,
        record("bad\x00id", "tmp", "Remember that the deploy window is Tuesday."),
        record("s-long", "x" * 300, "Remember that the long project uses bun."),
        record("s-good", "tmp", "Remember that the CI runner is called ci-7."),
    )
    first = wikimem("dream", "--json")
    assert first.returncode == 0, first.stderr
    result = json.loads(first.stdout)
    assert [reason for _, reason in result["quarantined"]] == [
        "its session id holds control characters (a NUL or a line break)"
    ]
    notes = sorted(
        p.relative_to(home / "memory").as_posix() for p in (home / "memory").rglob("*.md")
    )
    # the good record and the long project's (under a bounded folder name) were consolidated
    assert any("ci-7" in (home / "memory" / p).read_text() for p in notes)
    long_folders = {p.split("/")[1] for p in notes if p.startswith("projects/") and "xxxx" in p}
    assert len(long_folders) == 1 and len(long_folders.pop()) <= 64
    assert status(home)["events quarantined"] == 1
    assert "1 event(s) quarantined" in doctor(home)
    # nothing left, nothing twice, and the next dreams run
    again = wikimem("dream", "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["events"] == 0
    assert git(home, "status", "--porcelain") == ""


class Scripted:
    """A backend without a prompt (so without the model guard) answering with given operations
    once: the runner's and the gate's own rules are what is under test."""

    name = "scripted"
    needs_prompt = False

    def __init__(self, ops: list[dict[str, Any]]) -> None:
        self.ops: list[dict[str, Any]] | None = ops

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        from wikimem.dream.ops import parse_operations

        good, bad = parse_operations(self.ops or [])
        self.ops = None
        return Proposal(tuple(good), tuple(bad))


class Exploding:
    """A backend that raises on any chunk holding a given prompt: a bug or a poisoned record."""

    name = "offline-ish"
    needs_prompt = False

    def __init__(self, poison: str) -> None:
        self.poison = poison
        self.seen: list[str] = []

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        prompts = [str(e.get("prompt")) for s in request.sessions for e in s.events]
        if any(self.poison in p for p in prompts):
            raise ValueError("embedded null byte")
        self.seen.extend(prompts)
        ops = [
            Upsert(f"general/{p.split()[-1].strip('.').lower()}.md", p, "general", p + "\n")
            for p in prompts
        ]
        return Proposal(tuple(ops))


def test_a_record_that_makes_the_backend_raise_is_narrowed_down_and_quarantined(
    home: Path,
) -> None:
    write_events(home, *(record(f"s{i}", "tmp", f"Fact number{i}.") for i in range(7)))
    write_events(home, record("s-poison", "tmp", "POISON here."))
    write_events(home, *(record(f"t{i}", "tmp", f"Fact later{i}.") for i in range(5)))
    backend = Exploding("POISON")
    result = run_dream(Home(str(home)), backend)
    assert len(result.quarantined) == 1 and "ValueError" in result.quarantined[0][1]
    assert len(backend.seen) == 12 and len(set(backend.seen)) == 12  # each good one once
    assert (home / "memory" / "general" / "later4.md").exists()
    assert run_dream(Home(str(home)), backend).events == 0


def test_model_output_that_cannot_be_a_file_is_rejected_not_fatal(
    home: Path, clones: tuple[str, str]
) -> None:
    replay("claude", first_scenario(clones[0]))
    flood = [
        {"op": "upsert", "path": f"general/n{i}.md", "title": "n", "kind": "general", "body": "b"}
        for i in range(10_000)
    ]
    ops = [
        {"op": "upsert", "path": "general/a\x00b.md", "title": "x", "kind": "general", "body": "b"},
        {
            "op": "upsert",
            "path": "general/" + "a" * 300 + ".md",
            "title": "x",
            "kind": "general",
            "body": "b",
        },
        *flood,
    ]
    result = run_dream(Home(str(home)), FakeBackend([{"operations": ops}]))
    reasons = " | ".join(r for _, r in result.rejected)
    assert "NUL" in reasons and "over the limit of 100" in reasons
    assert "9800 operations past the first 200" in reasons
    assert len([p for p in result.created if p.startswith("general/")]) == 200  # + the digest
    assert git(home, "status", "--porcelain") == ""
    assert wikimem("dream").returncode == 0


def test_a_commit_of_thousands_of_paths_and_a_huge_message_fits_any_argument_limit(
    home: Path,
) -> None:
    memory = home / "memory"
    (memory / "general").mkdir()
    paths = []
    for i in range(3000):
        rel = f"general/{'n' * 90}-{i}.md"
        (memory / rel).write_text("---\ntitle: n\nkind: general\n---\nx\n")
        paths.append(rel)
    store = Store(str(memory), GitConfig("wikimem", "wikimem@localhost"))
    message = "many\n\n" + "\n".join(f"- create {p}" for p in paths) + "\nbad\x00byte\n"
    assert len(message) > 256 * 1024
    assert store.commit(paths, message) is not None
    assert git(home, "status", "--porcelain") == ""
    assert "bad\ufffdbyte" in git(home, "log", "-1", "--format=%B")


# -- item 3: writes the gate blocks are parked, not lost ------------------------------------------


def test_a_write_a_pre_write_check_blocked_lands_once_the_check_is_fixed(
    home: Path, clones: tuple[str, str], tmp_path: Path
) -> None:
    flag = tmp_path / "broken"
    flag.write_text("")
    check = tmp_path / "check.sh"
    check.write_text(
        f'#!/bin/sh\nif [ -e "{flag}" ]; then echo "checker crashed" >&2; exit 2; fi\n'
    )
    check.chmod(0o755)
    with open(home / "config.toml", "a") as fh:
        fh.write(f'\n[[gate.pre_write]]\ncommand = "{check}"\nmatch = "projects/**"\n')
    replay("claude", first_scenario(clones[0]))
    first = json.loads(wikimem("dream", "--json").stdout)
    parked = dict(first["parked"])
    assert "projects/acme-api/conventions.md" in parked
    assert "checker crashed" in parked["projects/acme-api/conventions.md"]
    assert not (home / "memory" / "projects").exists()
    assert status(home)["writes parked"] == len(parked)
    assert "parked" in doctor(home)

    still = json.loads(wikimem("dream", "--json").stdout)  # still broken: still parked
    assert dict(still["parked"]).keys() == parked.keys()

    flag.unlink()
    fixed = json.loads(wikimem("dream", "--json").stdout)
    assert fixed["events"] == 0 and fixed["parked"] == []
    assert sorted(fixed["created"]) == sorted(parked)
    assert status(home)["writes parked"] == 0

    # the same as one dream with a working check: nothing lost, nothing twice
    clean = tmp_path / "clean-home"
    env = {"WIKIMEM_HOME": str(clean)}
    assert wikimem("init", env=env).returncode == 0
    for f in (home / "events").glob("*.jsonl"):
        (clean / "events" / f.name).write_bytes(f.read_bytes())
    assert wikimem("dream", env=env).returncode == 0
    assert snapshot(home) == snapshot(clean)


def test_a_parked_write_merges_with_a_hand_edit_made_meanwhile(
    home: Path, clones: tuple[str, str], tmp_path: Path
) -> None:
    target = home / "memory" / "general" / "fact.md"
    target.parent.mkdir()
    target.write_text("---\ntitle: Fact\nkind: general\n---\nline one\n\nline two\n")
    subprocess.run(["git", "-C", str(home / "memory"), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(home / "memory"), "commit", "-qm", "mine"], check=True)
    flag = tmp_path / "broken"
    flag.write_text("")
    with open(home / "config.toml", "a") as fh:
        fh.write(f'\n[[gate.pre_write]]\ncommand = "test ! -e {flag} || exit 2"\n')
    replay("claude", first_scenario(clones[0]))
    body = "line one\n\nline two\n\nline three from the dream\n"
    op = {
        "op": "upsert",
        "path": "general/fact.md",
        "title": "Fact",
        "kind": "general",
        "body": body,
    }
    result = run_dream(Home(str(home)), Scripted([op]))
    assert "general/fact.md" in dict(result.parked)
    target.write_text(target.read_text().replace("line one", "line ONE by hand"))
    flag.unlink()
    assert wikimem("dream").returncode == 0
    text = target.read_text()
    assert "line ONE by hand" in text and "line three from the dream" in text


# -- item 4: a crashed dream, then a commit by hand, is still consolidated once --------------------


@pytest.mark.parametrize("point", ["after_write", "after_git_add"])
def test_a_crashed_dream_committed_by_hand_is_not_consolidated_twice(
    point: str, home: Path, clones: tuple[str, str], tmp_path: Path
) -> None:
    replay("claude", first_scenario(clones[0]))
    assert wikimem("dream", env={"WIKIMEM_CRASH_AT": point}).returncode == 137
    out = doctor(home)
    assert "interrupted" in out and "do not commit them by hand" in out
    # the person commits anyway, as an older doctor advised
    subprocess.run(["git", "-C", str(home / "memory"), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(home / "memory"), "commit", "-qm", "by hand"], check=True)
    dreamt = wikimem("dream")
    assert dreamt.returncode == 0, dreamt.stderr
    assert "rolled back" in dreamt.stderr
    assert git(home, "status", "--porcelain") == ""
    clean = tmp_path / "clean-home"
    env = {"WIKIMEM_HOME": str(clean)}
    assert wikimem("init", env=env).returncode == 0
    for f in (home / "events").glob("*.jsonl"):
        (clean / "events" / f.name).write_bytes(f.read_bytes())
    assert wikimem("dream", env=env).returncode == 0
    assert snapshot(home) == snapshot(clean)


def test_a_rollback_leaves_nothing_staged(home: Path, clones: tuple[str, str]) -> None:
    replay("claude", first_scenario(clones[0]))
    assert wikimem("dream", env={"WIKIMEM_CRASH_AT": "after_git_add"}).returncode == 137
    assert git(home, "diff", "--cached", "--name-only") != ""  # the crash left them staged
    home_ = Home(str(home))
    from wikimem.lock import file_lock
    from wikimem.wiki.batch import Wiki

    wiki = Wiki(home_)
    with file_lock(home_.state("memory.lock")):
        wiki.recover()
    assert git(home, "diff", "--cached", "--name-only") == ""
    assert git(home, "status", "--porcelain") == ""


# -- item 8: stale git locks and temp files --------------------------------------------------------


def test_a_stale_index_lock_is_removed_by_itself_and_doctor_says_so(
    home: Path, clones: tuple[str, str]
) -> None:
    lock = home / "memory" / ".git" / "index.lock"
    lock.write_text("")
    old = time.time() - 3600
    os.utime(lock, (old, old))
    temp = home / "memory" / ".wikimem-abc123.tmp"
    temp.write_text("half a note")
    out = doctor(home)
    assert "index.lock was left by a git process that was killed" in out
    assert "uncommitted" not in out  # our temp file is not the person's to commit
    replay("claude", first_scenario(clones[0]))
    dreamt = wikimem("dream")
    assert dreamt.returncode == 0, dreamt.stderr
    assert "removed .git/index.lock" in dreamt.stderr and "temp file" in dreamt.stderr
    assert not lock.exists() and not temp.exists()
    assert wikimem("remember", "The build takes four minutes").returncode == 0


def test_a_lock_a_live_git_holds_is_left_alone_with_a_one_line_message(
    home: Path, clones: tuple[str, str], tmp_path: Path
) -> None:
    lock = home / "memory" / ".git" / "index.lock"
    # a "git" still at work in memory/ (its working directory is there); a shell is not one
    fake_git = tmp_path / "git"
    fake_git.symlink_to(shutil.which("sleep") or "/bin/sleep")
    shell = subprocess.Popen(["sleep", "60"], cwd=home / "memory")
    holder = subprocess.Popen([str(fake_git), "60"], cwd=home / "memory")
    try:
        lock.write_text("")
        replay("claude", first_scenario(clones[0]))
        proc = wikimem("remember", "The build takes four minutes")
        assert proc.returncode == 1
        assert proc.stderr.count("\n") == 1 and f"held by {holder.pid} (" in proc.stderr
        assert str(shell.pid) not in proc.stderr
        assert lock.exists()
        assert f"held by {holder.pid}" in doctor(home)
    finally:
        for p in (holder, shell):
            p.kill()
            p.wait()
    assert wikimem("remember", "The build takes four minutes").returncode == 0


# -- issue 11: one failing chunk is isolated --------------------------------------------------------


class Flaky:
    """Fails for some projects (a network error, say), answers the rest."""

    name = "flaky"
    needs_prompt = True

    def __init__(self, failing: set[str]) -> None:
        self.failing = failing
        self.calls: list[str] = []

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        self.calls.append(request.project)
        if request.project in self.failing:
            raise BackendError("connection error (after 4 retries)")
        n = sum(len(s.events) for s in request.sessions)
        path = f"projects/{request.project}/log.md"
        before = read(path)
        count = int(before.split("events: ")[1].split("\n")[0]) if before else 0
        body = f"events: {count + n}\n"
        return Proposal((Upsert(path, "Log", "project", body),))


def test_a_failing_chunk_is_deferred_and_retried_the_rest_proceeds(home: Path) -> None:
    write_events(
        home,
        *(record(f"a{i}", "alpha", f"Alpha fact {i}.") for i in range(3)),
        *(record(f"b{i}", "beta", f"Beta fact {i}.") for i in range(2)),
    )
    h = Home(str(home))
    flaky = Flaky({"beta"})
    first = run_dream(h, flaky)
    assert [p for p in first.created if "/sessions/" not in p] == ["projects/alpha/log.md"]
    assert first.deferred == [("beta", 2, "connection error (after 4 retries)")]
    assert status(home)["events deferred"] == 2
    assert "2 event(s) wait for another try" in doctor(home)
    write_events(home, record("a9", "alpha", "Alpha later."))
    flaky.failing.clear()
    second = run_dream(h, flaky)
    assert second.deferred == [] and status(home)["events deferred"] == 0
    log = lambda p: (home / "memory" / "projects" / p / "log.md").read_text()  # noqa: E731
    assert "events: 4" in log("alpha") and "events: 2" in log("beta")  # each event once
    assert run_dream(h, flaky).events == 0


def test_when_nothing_can_be_consolidated_the_dream_fails_and_changes_nothing(home: Path) -> None:
    write_events(home, record("a1", "alpha", "Alpha."), record("b1", "beta", "Beta."))
    head = git(home, "rev-parse", "HEAD")
    with pytest.raises(BackendError):
        run_dream(Home(str(home)), Flaky({"alpha", "beta"}))
    assert git(home, "rev-parse", "HEAD") == head
    assert status(home)["events pending"] == 2 and status(home)["events deferred"] == 0


def test_events_that_keep_failing_are_quarantined_after_three_tries(home: Path) -> None:
    write_events(home, record("a1", "alpha", "Alpha."), record("b1", "beta", "Beta."))
    h = Home(str(home))
    flaky = Flaky({"beta"})
    run_dream(h, flaky)
    for i in range(2):
        write_events(home, record(f"a{i + 2}", "alpha", "More alpha."))
        result = run_dream(h, flaky)
    assert result.deferred == [] and len(result.quarantined) == 1
    assert "failed 3 times" in result.quarantined[0][1]
    assert status(home)["events deferred"] == 0 and status(home)["events quarantined"] == 1


def test_a_model_may_not_write_into_another_project_or_pin(
    home: Path, clones: tuple[str, str]
) -> None:
    replay("claude", first_scenario(clones[0]))
    ops = [
        {
            "op": "upsert",
            "path": "projects/other-repo/rules.md",
            "title": "R",
            "kind": "project",
            "body": "x",
        },
        {
            "op": "upsert",
            "path": "profile/me.md",
            "title": "Me",
            "kind": "profile",
            "body": "y",
            "pinned": True,
        },
    ]
    result = run_dream(Home(str(home)), FakeBackend([{"operations": ops}]))
    reasons = dict(result.rejected)
    assert "acme-api" in reasons["projects/other-repo/rules.md"]  # the guard or the runner says
    assert not (home / "memory" / "projects" / "other-repo").exists()
    assert "pinned: false" in (home / "memory" / "profile" / "me.md").read_text()
    assert any("`pinned` ignored" in w for w in result.warnings)


def test_a_session_that_spans_midnight_keeps_one_digest(home: Path) -> None:
    # its records sit in two day files, and a dream ran between them
    write_events(
        home,
        record(
            "late-1",
            "tmp",
            "Remember that the nightly job is called sweep-7.",
            "2026-11-30T23:59:30.000000Z",
        ),
        name="2026-11-30.jsonl",
    )
    assert wikimem("dream", "--json").returncode == 0
    write_events(
        home,
        record(
            "late-1",
            "tmp",
            "Remember that the sweep job runs at 02:00.",
            "2026-12-01T00:00:30.000000Z",
        ),
        name="2026-12-01.jsonl",
    )
    assert wikimem("dream", "--json").returncode == 0
    digests = list((home / "memory" / "projects" / "tmp" / "sessions").glob("*.md"))
    assert len(digests) == 1, digests
    text = digests[0].read_text()
    assert "sweep-7" in text and "02:00" in text


def test_doctor_names_a_new_invalid_note_and_how_to_see_each_change(home: Path) -> None:
    """`git diff` shows nothing for a file git does not track yet: doctor does not send a person
    there for a new note, and says what makes a note invalid."""
    memory = home / "memory"
    (memory / "general").mkdir(exist_ok=True)
    (memory / "general" / "todo.md").write_text("---\nkind: general\n---\n- no title here\n")
    said = doctor(home)
    assert "new, not yet in git" in said and "general/todo.md" in said
    assert "diff`" not in said  # nothing tracked changed: no `git diff` to look at
    assert "general/todo.md (front matter needs a non-empty `title`)" in said, said

    (memory / "index.md").write_text("changed by hand\n")
    said = doctor(home)
    assert f"`git -C {memory} diff` shows the changes to index.md" in said, said
