"""Registering the merge driver (`wikimem.sync.driver`) in memory/, so that a plain `git pull`
there merges notes as `wikimem sync` does.

Contract: `install(memory_dir)` (run by `wikimem init` and every sync; idempotent) registers
  - `*.md merge=wikimem` in memory/.gitattributes (committed, so every clone has it; a clone
    without the driver configured falls back to git's own merge),
  - `merge.wikimem.driver` in memory/.git/config: this interpreter running the driver module
    with `%O %A %B %P` (base, ours, theirs, path),
  - `pull.rebase = false` (unless the user chose otherwise), so a pull merges,
  - a `post-merge` hook that regenerates index.md (only if no post-merge hook of the user's is
    there),
and returns the paths it changed that must be committed (`.gitattributes`).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

from wikimem import gitrun
from wikimem.fsutil import atomic_write
from wikimem.wiki import plainfile

ATTRIBUTES = ".gitattributes"
ATTRIBUTE_LINE = "*.md merge=wikimem"
ATTRIBUTES_TEXT = f"""\
# wikimem merges notes field by field and claim by claim, never leaving raw conflict
# markers without a `conflict: true` flag; index.md is regenerated (docs/sync.md).
{ATTRIBUTE_LINE}
"""
HOOK_MARK = "# wikimem post-merge hook"


def driver_command() -> str:
    return f"{shlex.quote(sys.executable)} -m wikimem.sync.driver %O %A %B %P"


def _git_config(memory_dir: str, *args: str) -> subprocess.CompletedProcess[str]:
    return gitrun.run_text(memory_dir, "config", *args)


def install(memory_dir: str) -> list[str]:
    """Register the driver; the tracked files it changed (to commit)."""
    changed = []
    path = os.path.join(memory_dir, ATTRIBUTES)
    # A link here (from a remote, a plain `git pull` or a hand) is never read or written
    # through: pointed at ~/.bashrc or config.toml, appending our line would change that file.
    link = os.path.islink(path)
    text = "" if link else (plainfile.read_text(memory_dir, ATTRIBUTES) or "")
    if link or ATTRIBUTE_LINE not in text.splitlines():
        new = ATTRIBUTES_TEXT if not text else text.rstrip("\n") + "\n" + ATTRIBUTES_TEXT
        atomic_write(path, new)
        changed.append(ATTRIBUTES)
    if _git_config(memory_dir, "--get", "merge.wikimem.driver").stdout.strip() != driver_command():
        _git_config(memory_dir, "merge.wikimem.name", "wikimem: merge notes by field and claim")
        _git_config(memory_dir, "merge.wikimem.driver", driver_command())
    if _git_config(memory_dir, "--get", "pull.rebase").returncode != 0:
        _git_config(memory_dir, "pull.rebase", "false")
    _install_hook(memory_dir)
    return changed


def _install_hook(memory_dir: str) -> None:
    # Always memory/.git/hooks: `--git-path hooks/…` would follow a global `core.hooksPath`,
    # and a hook of ours there would run in every repository of the person's. (With such a
    # setting git runs the person's hooks instead of this one: index.md is then regenerated
    # by wikimem's next commit.)
    proc = gitrun.run_text(memory_dir, "rev-parse", "--git-common-dir")
    if proc.returncode != 0 or not proc.stdout.strip():
        return
    hook = os.path.join(memory_dir, proc.stdout.strip(), "hooks", "post-merge")
    script = (
        f"#!/bin/sh\n{HOOK_MARK}: regenerate index.md after a pull (docs/sync.md)\n"
        f"exec {shlex.quote(sys.executable)} -m wikimem.sync.driver post-merge\n"
    )
    try:
        with open(hook, encoding="utf-8") as fh:
            current = fh.read()
        if HOOK_MARK not in current or current == script:
            return  # the user's own hook, or ours already
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(hook), exist_ok=True)
    with open(hook, "w", encoding="utf-8") as fh:
        fh.write(script)
    os.chmod(hook, 0o755)
