"""The environment every git command wikimem runs gets: wikimem's git, not the person's hooks.

Contract: `overrides()` are the settings wikimem's own git calls always use, passed to git as
`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` (after any the caller's environment
already carries, so those stay), and `environ(extra)` is the process environment with them,
without the variables that would point git at another repository or index than the one named
with `-C` (set when wikimem runs inside someone else's git hook), and with `extra` on top (a
temporary `GIT_INDEX_FILE` of our own, say). `run(repo, *args)` runs `git -C repo …` so.

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
from collections.abc import Mapping

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


def run(
    repo: str,
    *args: str,
    input: bytes | None = None,
    extra: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """`git -C repo args…` with `environ(extra)`; output as bytes, never raises for git's exit
    status (OSError when git cannot be started)."""
    return subprocess.run(
        ["git", "-C", repo, *args],
        input=input,
        stdin=None if input is not None else subprocess.DEVNULL,
        capture_output=True,
        env=environ(extra),
        timeout=timeout,
        check=False,
    )
