"""Which instruction file is whose: the person's own (user-level) or a repository's.

Contract: `target(path, scope)` names a file export may write: its real path (a link is followed,
so `CLAUDE.md -> AGENTS.md` is one file), its scope, and for a repository file the project it
belongs to (the slug wikimem's hooks give sessions there). Scopes:
  - `user`: the person's own rules (profile/), only ever in a user-level file: one of the files
    each agent reads for every project (`user_files()`), or, named with `--scope user`, a file
    outside any git repository. A file in a repository is refused: a team may share it.
  - `project`: the project's conventions and commands, only in a file that is not user-level
    (a file every project reads would carry one project's notes into all of them).
The default is `user` for a user-level file and `project` for any other.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from wikimem.capture.project import find_repo_root, project_slug
from wikimem.errors import WikimemError

SCOPES = ("user", "project")
# Folders a repository's instruction files sit in, below its root.
_NESTED = (".cursor/rules", ".github", ".cursor", ".agents", ".gemini", ".qwen", ".codex")


class TargetError(WikimemError):
    """export cannot write this file with this scope; nothing was changed."""


@dataclass(frozen=True)
class Target:
    path: str  # as the person named it, absolute
    real: str  # the file written (links followed)
    scope: str
    project: str  # "" for a user-level file
    root: str  # the repository's root (or the folder) of a project file; "" for a user file


def user_files() -> list[str]:
    """The instruction files agents read for every project (each harness's own folder, moved
    where its environment variable moves it)."""
    from wikimem.importers.claude_auto_memory import config_dir as claude_dir
    from wikimem.setup.codextrust import codex_home
    from wikimem.setup.copilottrust import copilot_home
    from wikimem.setup.geminitrust import gemini_dir
    from wikimem.setup.opencodeplugin import config_dir as opencode_dir
    from wikimem.setup.wiring import qwen_dir

    return [
        os.path.join(codex_home(), "AGENTS.md"),
        os.path.join(claude_dir(), "CLAUDE.md"),
        os.path.join(gemini_dir(), "GEMINI.md"),  # Gemini CLI and Antigravity CLI
        os.path.join(qwen_dir(), "QWEN.md"),
        os.path.join(opencode_dir("user"), "AGENTS.md"),
        os.path.join(copilot_home(), "copilot-instructions.md"),
    ]


def _real(path: str) -> str:
    return os.path.realpath(os.path.abspath(os.path.expanduser(path)))


def is_user_file(path: str) -> bool:
    real = _real(path)
    return any(real == _real(p) for p in user_files())


def project_root(real: str) -> str:
    """The folder a repository file's project is told by: its repository's root, else the
    folder above the harness folder it sits in (`<dir>/.cursor/rules/x.mdc` -> `<dir>`)."""
    folder = os.path.dirname(real)
    found = find_repo_root(folder)
    if found:
        return found[0]
    for nested in _NESTED:
        suffix = os.sep + nested.replace("/", os.sep)
        if folder.endswith(suffix):
            return folder[: -len(suffix)] or os.sep
    return folder


def target(path: str, scope: str | None = None) -> Target:
    given = os.path.abspath(os.path.expanduser(path))
    real = _real(path)
    if os.path.isdir(real):
        raise TargetError(f"{given} is a folder; name the instruction file in it")
    user_level = is_user_file(real)
    if scope is None:
        scope = "user" if user_level else "project"
    if scope not in SCOPES:
        raise TargetError(f"unknown scope {scope!r}; expected user or project")
    if scope == "user":
        if not user_level:
            repo = find_repo_root(os.path.dirname(real))
            if repo is not None:
                raise TargetError(
                    f"{given} is in the git repository {repo[0]}: your own rules go only into "
                    "user-level files, never into a file a team may share"
                )
        return Target(given, real, "user", "", "")
    if user_level:
        raise TargetError(
            f"{given} is read for every project: a project's notes go into that project's files"
        )
    root = project_root(real)
    return Target(given, real, "project", project_slug(root), root)
