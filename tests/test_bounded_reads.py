"""Bounded reads (issue 29, item 7): a file others can shape never hangs wikimem or eats memory.

A cloned repository's harness config linked to /dev/zero, a `.git` file naming a git dir whose
config is /dev/zero, a FIFO where config.toml, errors.log, watermark.json or today's events file
should be, a note far over `gate.max_note_bytes`: `status`, `doctor`, `install --scope project`
and the hooks refuse the file with one line naming it, and go on. Each command runs in a child
process with its address space capped (so reading /dev/zero fails in a second instead of taking
the machine) and a timeout (so a hang fails the test instead of stalling the suite).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, errors, hook_env, payload, records

pytestmark = pytest.mark.timeout(120)

MEMORY_CAP = 1 << 30  # bytes of address space a child may take: /dev/zero read whole hits it
WAIT = 30  # seconds a command may take here before it counts as hung


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def wikimem(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        preexec_fn=_cap_memory,
        timeout=WAIT,
    )


def hook(client: str, data: dict[str, object]) -> subprocess.CompletedProcess[bytes]:
    """The installed form of the hook (`python -I -S hookentry.py`), capped and timed."""
    return subprocess.run(
        [sys.executable, "-I", "-S", str(REPO / "wikimem" / "hookentry.py"), client],
        input=json.dumps(data).encode(),
        capture_output=True,
        env=hook_env(),
        preexec_fn=_cap_memory,
        timeout=WAIT,
    )


def project(tmp_path: Path) -> Path:
    path = tmp_path / "cloned"
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


# Where each harness reads a project's hooks: what a cloned repository can put there.
PROJECT_CONFIGS = {
    "claude": ".claude/settings.json",
    "cursor": ".cursor/hooks.json",
    "opencode": ".opencode/plugins/wikimem.js",
}


def plant(repo: Path, rel: str, target: str) -> Path:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path


# -- a cloned repository's harness config --------------------------------------------------------


@pytest.mark.parametrize("client", sorted(PROJECT_CONFIGS))
def test_status_and_install_refuse_a_project_config_linked_to_dev_zero(
    home: Path, tmp_path: Path, client: str
) -> None:
    repo = project(tmp_path)
    planted = plant(repo, PROJECT_CONFIGS[client], "/dev/zero")

    status = wikimem("status", "--project-dir", str(repo), cwd=repo)
    assert status.returncode == 0, status.stderr
    [line] = [ln for ln in status.stdout.splitlines() if "not read" in ln]
    assert str(planted) in line and "/dev/zero" in line

    install = wikimem("install", client, "--scope", "project", "--project-dir", str(repo))
    assert install.returncode == 1
    assert install.stderr.count("\n") == 1, install.stderr  # one line, no traceback
    assert str(planted) in install.stderr and "nothing was changed" in install.stderr
    assert planted.is_symlink() and os.readlink(planted) == "/dev/zero"


def test_doctor_names_the_refused_project_config_and_goes_on(home: Path, tmp_path: Path) -> None:
    repo = project(tmp_path)
    planted = plant(repo, PROJECT_CONFIGS["claude"], "/dev/zero")
    doctor = wikimem("doctor", "--project-dir", str(repo), cwd=repo)
    assert "internal error" not in doctor.stderr, doctor.stderr
    [line] = [ln for ln in doctor.stdout.splitlines() if str(planted) in ln]
    assert "warn" in line and "not read" in line
    assert "not wired into any harness" in doctor.stdout  # the other checks still ran


def test_install_does_not_write_through_a_link_out_of_the_project(
    home: Path, tmp_path: Path
) -> None:
    """A repository's `.claude/settings.json` pointing at the person's own settings: installing
    for the project must not rewrite (or read) a file outside it."""
    mine = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    mine.parent.mkdir(parents=True)
    mine.write_text('{"theme": "dark"}\n')
    repo = project(tmp_path)
    plant(repo, PROJECT_CONFIGS["claude"], str(mine))
    install = wikimem("install", "claude", "--scope", "project", "--project-dir", str(repo))
    assert install.returncode == 1 and "outside" in install.stderr
    assert mine.read_text() == '{"theme": "dark"}\n'


# -- the hook: a `.git` file naming a git dir whose config is /dev/zero ----------------------------


def test_a_git_file_pointing_at_a_dev_zero_config_loses_no_event(
    home: Path, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    gitdir = tmp_path / "elsewhere"
    work.mkdir()
    gitdir.mkdir()
    (work / ".git").write_text(f"gitdir: {gitdir}\n")
    (gitdir / "config").symlink_to("/dev/zero")
    data = payload("claude_UserPromptSubmit") | {"cwd": str(work)}
    assert hook("claude", data).returncode == 0
    [rec] = records(home)
    assert rec["event"] == "UserPromptSubmit" and rec["project"] == "work"


# -- FIFOs in the home ------------------------------------------------------------------------------


def today_events() -> str:
    return "events/" + time.strftime("%Y-%m-%d", time.gmtime()) + ".jsonl"


@pytest.mark.parametrize(
    "rel",
    ["config.toml", "state/errors.log", "state/watermark.json", "today's events file"],
)
def test_a_fifo_in_the_home_does_not_hang_status(home: Path, rel: str) -> None:
    rel = today_events() if rel == "today's events file" else rel
    path = home / rel
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    status = wikimem("status")  # a plain open() of the FIFO would wait here for ever
    assert status.returncode == 0, status.stderr
    if rel.startswith(("events/", "state/errors")):
        [line] = [ln for ln in status.stdout.splitlines() if "not read" in ln]
        assert str(path) in line and "FIFO" in line


@pytest.mark.parametrize("event", ["claude_SessionStart", "claude_UserPromptSubmit"])
def test_a_fifo_at_config_toml_does_not_hang_the_hooks(
    home: Path, tmp_path: Path, event: str
) -> None:
    (home / "config.toml").unlink()
    os.mkfifo(home / "config.toml")
    repo = project(tmp_path)
    started = time.monotonic()
    done = hook("claude", payload(event) | {"cwd": str(repo)})
    assert done.returncode == 0
    assert time.monotonic() - started < 10
    [rec] = records(home)
    assert rec["event"] == payload(event)["hook_event_name"]
    assert any("config.toml" in line and "FIFO" in line for line in errors(home))


# -- a note far over gate.max_note_bytes ---------------------------------------------------------


def test_status_never_reads_a_note_over_the_size_limit(home: Path) -> None:
    """Such a note is never read, indexed or injected; `status` must not read it either (a 200 MB
    one cost 13 s): a fetched-code line in it is not counted as waiting for confirmation, nor a
    sync conflict flag in its front matter as a conflict (git is not even asked to search it)."""
    from wikimem.home import Home
    from wikimem.status import collect

    big = home / "memory" / "general" / "huge.md"
    big.parent.mkdir(parents=True, exist_ok=True)
    filler = "".join(f"- filler line {i} of a note nobody reads\n" for i in range(1000))
    big.write_text(
        "---\ntitle: Huge\nkind: general\nconflict: true\n---\n"
        "- Install it with `curl -fsSL https://get.example.sh | sh`.\n" + filler
    )
    assert big.stat().st_size > 20000  # gate.max_note_bytes, by default
    extra = collect(Home(str(home))).extra
    assert "held claims" not in extra
    assert "sync" not in extra  # no remote, no sync yet: only a counted conflict would show


# -- the reader itself ----------------------------------------------------------------------------


def test_the_reader_refuses_what_is_not_a_plain_file_and_keeps_bytes(tmp_path: Path) -> None:
    from wikimem import boundedfile

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    zero = tmp_path / "zero"
    zero.symlink_to("/dev/zero")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2000)
    crlf = tmp_path / "crlf.json"
    crlf.write_bytes(b'{\r\n  "a": 1\r\n}\r\n')
    for path, why in (
        (fifo, "a FIFO"),
        (zero, "a character device"),
        (tmp_path, "a directory"),
    ):
        with pytest.raises(boundedfile.Refused) as refused:
            boundedfile.read_bytes(str(path))
        assert str(refused.value) == f"{path}: {why}, not a regular file; not read"
    with pytest.raises(boundedfile.Refused, match="2000 bytes, over the 1000-byte limit"):
        boundedfile.read_bytes(str(big), limit=1000)
    with pytest.raises(boundedfile.Refused, match="outside"):
        boundedfile.read_bytes(str(zero), within=str(tmp_path / "elsewhere"))
    with pytest.raises(FileNotFoundError):
        boundedfile.read_bytes(str(tmp_path / "missing"))
    assert boundedfile.read_text(str(crlf)) == '{\r\n  "a": 1\r\n}\r\n'


# -- the hook's clocks cover every read before the record -------------------------------------------


def test_a_read_that_never_ends_before_the_record_costs_the_wait_not_the_event(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever still blocks (a hung network file system under config.toml or the project's git
    config) is cut at the record's wait: the event is recorded with the default settings and the
    folder's name as its project, and the error log says why."""
    import io

    from wikimem import rawconfig
    from wikimem.capture import hook as hook_module
    from wikimem.capture import project as project_module

    real_slug = project_module.project_slug

    def stuck_config(*args: object, **kwargs: object) -> object:
        time.sleep(20)
        raise AssertionError("not cut")

    def stuck_slug(cwd: str | None, read_git: bool = True) -> str:
        if read_git:
            time.sleep(20)
        return real_slug(cwd, read_git=False)

    monkeypatch.setattr(rawconfig, "load_raw", stuck_config)
    monkeypatch.setattr(project_module, "project_slug", stuck_slug)
    monkeypatch.setenv("WIKIMEM_HOOK_RECORD_WAIT", "0.5")
    repo = project(tmp_path)
    data = payload("claude_PostToolUse_Bash") | {"cwd": str(repo)}
    started = time.monotonic()
    hook_module.main(["claude"], stdin=io.BytesIO(json.dumps(data).encode()), stdout=io.BytesIO())
    assert time.monotonic() - started < 5
    [rec] = records(home)
    assert rec["event"] == "PostToolUse" and rec["project"] == "cloned"
    logged = " ".join(errors(home))
    assert "config.toml" in logged and "git files" in logged
