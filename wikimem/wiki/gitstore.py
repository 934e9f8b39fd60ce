"""The wiki's git repository: one commit per batch of writes, under wikimem's own identity.

Contract: commits use the identity from `[git]` in config.toml, never the user's global name or
signing setup (`commit.gpgsign` is forced off, commit hooks are skipped: the write gate is where
the user controls writes). A commit includes only the paths it is given, so files the user has
staged or edited by hand are neither committed nor disturbed. Works in a repository the user
also commits to.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import git

from wikimem.config import GitConfig
from wikimem.errors import WikimemError


class GitError(WikimemError):
    """A git operation on the memory repository failed."""


def is_hidden(rel: str) -> bool:
    """A path in a hidden folder or file (`.obsidian/…`, `.DS_Store`), except our `.gitignore`."""
    return rel != ".gitignore" and any(part.startswith(".") for part in rel.split("/"))


def _last_line(exc: git.GitCommandError) -> str:
    """git's own reason, one line, without GitPython's `stderr: '…'` wrapping."""
    text = exc.stderr if isinstance(exc.stderr, str) and exc.stderr.strip() else str(exc)
    lines = [ln.strip().strip("'").removeprefix("stderr: ").strip("'") for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    return lines[-1].removeprefix("fatal: ") if lines else "unknown error"


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    date: str
    author: str
    subject: str
    body: str
    files: tuple[str, ...]


def _env(identity: GitConfig) -> dict[str, str]:
    return {
        "GIT_AUTHOR_NAME": identity.author_name,
        "GIT_AUTHOR_EMAIL": identity.author_email,
        "GIT_COMMITTER_NAME": identity.author_name,
        "GIT_COMMITTER_EMAIL": identity.author_email,
        # Ignore the user's global signing and template settings for our own commits.
        "GIT_CONFIG_COUNT": "3",
        "GIT_CONFIG_KEY_0": "commit.gpgsign",
        "GIT_CONFIG_VALUE_0": "false",
        "GIT_CONFIG_KEY_1": "core.quotepath",
        "GIT_CONFIG_VALUE_1": "false",
        "GIT_CONFIG_KEY_2": "commit.template",
        "GIT_CONFIG_VALUE_2": "",
        "GIT_TERMINAL_PROMPT": "0",
    }


MAX_PATH_ARGS = 200


@contextmanager
def _pathspec_file() -> Iterator[str]:
    fd, path = tempfile.mkstemp(prefix="wikimem-paths-")
    os.close(fd)
    try:
        yield path
    finally:
        for leftover in (path, path + ".msg"):
            try:
                os.unlink(leftover)
            except FileNotFoundError:
                pass


def _pathspec(rels: Sequence[str], spec_file: str) -> list[str]:
    """`-- path…`, or the paths through a file when there are too many for one command line."""
    if len(rels) <= MAX_PATH_ARGS:
        return ["--", *rels]
    with open(spec_file, "w", encoding="utf-8") as fh:
        fh.write("\0".join(rels))
    return [f"--pathspec-from-file={spec_file}", "--pathspec-file-nul"]


class Store:
    """The memory repository at `path` (memory/)."""

    def __init__(self, path: str, identity: GitConfig) -> None:
        self.path = path
        self.identity = identity
        try:
            self.repo = git.Repo(path)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
            raise GitError(f"{path} is not a git repository (run `wikimem init`)") from exc

    @classmethod
    def init(cls, path: str, identity: GitConfig) -> Store:
        """Create the repository if needed (idempotent)."""
        os.makedirs(path, exist_ok=True)
        if not os.path.isdir(os.path.join(path, ".git")):
            try:
                git.Repo.init(path, initial_branch="main")
            except git.GitCommandError as exc:
                raise GitError(f"git init failed in {path}: {exc.stderr.strip()}") from exc
        return cls(path, identity)

    @contextmanager
    def _git_env(self) -> Iterator[None]:
        with self.repo.git.custom_environment(**_env(self.identity)):
            yield

    def has_commits(self) -> bool:
        try:
            self.repo.head.commit  # noqa: B018 - raises when the branch is unborn
            return True
        except ValueError:
            return False

    def head(self) -> str | None:
        return self.repo.head.commit.hexsha if self.has_commits() else None

    def commit(self, paths: Sequence[str], message: str, allow_empty: bool = False) -> str | None:
        """Commit exactly `paths` (relative to memory/, added, changed or deleted).

        Returns the new commit's sha, or None when none of the paths changed."""
        rels = sorted(set(paths))
        try:
            with self._git_env(), _pathspec_file() as spec_file:
                if rels:
                    # A path neither on disk nor known to git (a note created by hand and
                    # deleted before any commit) is no change to git, and naming it would fail.
                    tracked = set(self.repo.git.ls_files("-z").split("\0"))
                    rels = [
                        r
                        for r in rels
                        if r in tracked or os.path.lexists(os.path.join(self.path, r))
                    ]
                # Thousands of paths (a first sync of a large vault) exceed the argument list.
                spec = _pathspec(rels, spec_file)
                if rels:
                    self.repo.git.add("-A", *spec)
                    wanted = set(rels)
                    staged = (
                        self.repo.git.diff("--cached", "--name-only", "-z")
                        if self.has_commits()
                        else "x"
                    )
                    if staged != "x":
                        staged = "\0".join(p for p in staged.split("\0") if p in wanted)
                else:
                    staged = ""
                if not staged.strip() and not allow_empty:
                    return None
                with open(spec_file + ".msg", "w", encoding="utf-8") as fh:
                    fh.write(message)  # a batch of thousands of notes has a long message
                args = ["--no-verify", "-q", "-F", spec_file + ".msg"]
                if allow_empty:
                    args.append("--allow-empty")
                if rels:
                    args += ["--only", *spec]
                self.repo.git.commit(*args)
        except git.GitCommandError as exc:
            raise GitError(f"git commit failed: {(exc.stderr or str(exc)).strip()}") from exc
        return self.repo.head.commit.hexsha

    def log(self, n: int = 20, path: str | None = None) -> list[CommitInfo]:
        if not self.has_commits():
            return []
        kwargs: dict[str, object] = {"max_count": n}
        if path:
            kwargs["paths"] = path
        out = []
        try:
            commits = list(self.repo.iter_commits(**kwargs))  # type: ignore[arg-type]
        except git.GitCommandError as exc:
            raise GitError(f"git log failed: {_last_line(exc)}") from None
        for c in commits:
            message = str(c.message)
            subject, _, body = message.partition("\n")
            files = tuple(sorted(str(f) for f in c.stats.files))
            out.append(
                CommitInfo(
                    sha=c.hexsha,
                    date=c.committed_datetime.isoformat(),
                    author=str(c.author.name),
                    subject=subject,
                    body=body.strip(),
                    files=files,
                )
            )
        return out

    def resolve_rev(self, rev: str) -> str:
        """The commit `rev` names, or GitError saying there is none (an option-like or unknown
        name included: the user's text is never passed to git as an option)."""
        if rev.startswith("-") or not rev.strip():
            raise GitError(f"{rev!r} is not a revision (see `wikimem log` for commits)")
        try:
            return str(self.repo.git.rev_parse("--verify", "--quiet", f"{rev}^{{commit}}"))
        except git.GitCommandError:
            raise GitError(
                f"no revision {rev!r} in the memory history (see `wikimem log` for commits)"
            ) from None

    def diff(self, rev: str | None = None) -> str:
        """The patch from `rev` (default: the last commit's parent) to the working tree."""
        try:
            if rev is None:
                if not self.has_commits():
                    return ""
                parents = self.repo.head.commit.parents
                if not parents:
                    return str(self.repo.git.show("--format=", "HEAD"))
                rev = "HEAD~1"
            else:
                rev = self.resolve_rev(rev)
            return str(self.repo.git.diff(rev, "--"))
        except git.GitCommandError as exc:
            raise GitError(f"git diff {rev} failed: {_last_line(exc)}") from None

    def dirty_paths(self) -> list[str]:
        """Paths with uncommitted changes (tracked or untracked), relative to memory/. Hidden
        folders (`.obsidian/`, `.trash/`) are an editor's own state, not memory: never listed,
        whatever an older `.gitignore` says."""
        out = self.repo.git.status("--porcelain", "-z", "--untracked-files=all")
        paths = []
        entries = out.split("\0")
        i = 0
        while i < len(entries):
            entry = entries[i]
            i += 1
            if len(entry) < 4:
                continue
            status, path = entry[:2], entry[3:]
            if status[0] in "RC":
                i += 1  # the rename's source follows
            if not is_hidden(path):
                paths.append(path)
        return paths

    def trailer_values(self, key: str, n: int = 200) -> Iterator[tuple[str, str]]:
        """(sha, value) of `key: value` trailers, newest commit first."""
        if not self.has_commits():
            return
        prefix = f"{key}:"
        for c in self.repo.iter_commits(max_count=n):
            for line in reversed(str(c.message).splitlines()):
                if line.startswith(prefix):
                    yield c.hexsha, line[len(prefix) :].strip()
                    break

    def file_at(self, rel: str, rev: str = "HEAD") -> str | None:
        # Bytes, decoded as the notes are written (UTF-8): GitPython would decode with the
        # locale's encoding, and a Latin-1 locale then saw every committed note as changed.
        try:
            data = self.repo.git.show(
                f"{rev}:{rel}", strip_newline_in_stdout=False, stdout_as_string=False
            )
        except git.GitCommandError:
            return None
        return bytes(data).decode("utf-8", "replace")
