"""Every git command wikimem runs, and the environment it runs with: wikimem's git, not the
person's hooks.

Contract: this is the only module that starts git (tests/test_structure.py fails on any other).
`run(repo, *args)` runs `git -C repo …` and returns its output as bytes, `run_text` the same as
text (UTF-8, undecodable bytes kept as surrogates), `run_remote` a fetch or push bounded in time
(`wikimem.sync.transport`); none raises for git's exit status (OSError when git cannot be
started). Each runs with `environ(extra)`: the process environment without the variables that
would point git at another repository or index than the one named with `-C` (set when wikimem
runs inside someone else's git hook), with `overrides()` (the settings below, passed as
`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` after any the caller's environment
already carries, so those stay), and with `extra` on top (an identity, a temporary
`GIT_INDEX_FILE` of our own, say).

Why a subprocess per call, and not GitPython, for every job: each thing wikimem asks of git
(commit exactly these paths, log with the files each commit touched, a file at a revision, a
diff, plumbing for sync's merges, config) is one git command whose output we parse anyway, and
GitPython runs the same command underneath. What it added cost more than it saved: its
long-lived `cat-file --batch` reader died mid-write (a broken pipe) in a repository git refuses
as another user's, so a probe had to run first; it decoded a file's bytes with the locale's
encoding, so a Latin-1 locale saw every committed note as changed; the stale-lock check had to
tell its reader apart from a git holding a lock; and its calls needed the environment given a
second time. One way to start git means one environment, one way to read errors, and a start-up
that imports nothing but the standard library.

Why each setting:
  - `core.hooksPath=/dev/null`: a person's hooks (a global `core.hooksPath`, or hooks in
    memory/.git/hooks) never run for wikimem's own commits, merges, checkouts and pushes. A
    failing `prepare-commit-msg`, `post-commit`, `reference-transaction` or `pre-push` would
    otherwise block every write, and a slow one would run inside every dream. The write gate's
    `pre_write`/`post_write` commands are where a person hooks into writes. A plain `git pull`
    the person runs in memory/ is their git, with their hooks (wikimem's post-merge hook
    included): these settings are never written to any config file.
  - `core.fsmonitor=false`: a configured fsmonitor is a program git would start.
  - `commit.gpgsign=false`, `push.gpgsign=false`, `commit.template=`: a signing prompt or a
    template would stop or change wikimem's commits; they are signed as wikimem, not as you.
  - `core.quotepath=false`: paths come back as they are, not octal-escaped.

Standard library only.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence

from wikimem.sync.transport import run_bounded

SETTINGS = (
    ("core.hooksPath", os.devnull),
    ("core.fsmonitor", "false"),
    ("commit.gpgsign", "false"),
    ("push.gpgsign", "false"),
    ("commit.template", ""),
    ("core.quotepath", "false"),
)
# Set by git for the hooks it runs (and by people): they would send our commands elsewhere.
FOREIGN = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
    # `git -c key=value` (git passes it on to the hooks and merge drivers it starts) is read
    # after GIT_CONFIG_COUNT: it would turn the person's hooks and signing back on for our commits
    "GIT_CONFIG_PARAMETERS",
)


def overrides(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The `GIT_CONFIG_*` variables for `SETTINGS`, numbered after those in `base`."""
    env = os.environ if base is None else base
    try:
        start = max(0, int(env.get("GIT_CONFIG_COUNT", "0") or 0))
    except ValueError:
        start = 0
    out = {"GIT_CONFIG_COUNT": str(start + len(SETTINGS))}
    for i, (key, value) in enumerate(SETTINGS, start):
        out[f"GIT_CONFIG_KEY_{i}"] = key
        out[f"GIT_CONFIG_VALUE_{i}"] = value
    return out


def environ(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in FOREIGN}
    env.update(overrides(env))
    if extra:
        env.update(extra)
    return env


def _argv(repo: str | None, args: Sequence[str]) -> list[str]:
    # No repository: a command that works on plain files (`git merge-file`).
    return ["git", *args] if repo is None else ["git", "-C", repo, *args]


def run(
    repo: str | None,
    *args: str,
    input: bytes | None = None,
    extra: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """`git -C repo args…` with `environ(extra)`; output as bytes, never raises for git's exit
    status (OSError when git cannot be started, TimeoutExpired after `timeout`)."""
    return subprocess.run(
        _argv(repo, args),
        input=input,
        stdin=None if input is not None else subprocess.DEVNULL,
        capture_output=True,
        env=environ(extra),
        timeout=timeout,
        check=False,
    )


def run_text(
    repo: str | None,
    *args: str,
    input: str | None = None,
    extra: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """`run`, with input and output as text: UTF-8, undecodable bytes kept as surrogates (a
    path or a note that is not UTF-8 goes back to git as it came)."""
    return subprocess.run(
        _argv(repo, args),
        input=input,
        stdin=None if input is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
        env=environ(extra),
        timeout=timeout,
        check=False,
    )


def run_remote(
    repo: str,
    args: Sequence[str],
    extra: Mapping[str, str] | None = None,
    *,
    stall: float | None,
    total: float,
    own_group: bool,
    stdin: int | None = subprocess.DEVNULL,
) -> subprocess.CompletedProcess[str]:
    """A fetch or push: `wikimem.sync.transport.run_bounded` on `git -C repo args…` (raises
    its `Stalled` or `TimedOut`, git and what it started killed)."""
    return run_bounded(
        _argv(repo, args),
        environ(extra),
        stall=stall,
        total=total,
        own_group=own_group,
        stdin=stdin,
    )
