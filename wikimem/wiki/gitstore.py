"""The wiki's git repository: one commit per batch of writes, under wikimem's own identity.

Contract: commits use the identity from `[git]` in config.toml, never the user's global name or
signing setup (`commit.gpgsign` is forced off, commit hooks are skipped: the write gate is where
the user controls writes). A commit includes only the paths it is given, so files the user has
staged or edited by hand are neither committed nor disturbed. Works in a repository the user
also commits to.

Bad days: paths reach git on stdin (NUL-separated) and the message through a file, so no number
of paths or size of message can exceed the argument limit, and a message never carries a NUL or
other control character. `clear_stale_locks` (called under wikimem's memory lock) removes git
lock files a killed git left behind, but only when no live process can own them; otherwise
`GitLocked` says in one line who holds the repository. Our temp files (`.wikimem-*.tmp`) are
excluded through `.git/info/exclude`, so `git status` never offers them for a commit.

Every git command goes through `wikimem.gitrun` (why a subprocess and not GitPython: there).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from wikimem import gitrun
from wikimem.config import GitConfig
from wikimem.errors import WikimemError

TEMP_PATTERN = ".wikimem-*.tmp"
_RECORD = "\x1e"  # starts each commit in `git log` output (a message never holds one)
# Lock files git creates with O_EXCL and removes when done; a killed git leaves them behind.
LOCK_NAMES = ("index.lock", "HEAD.lock", "config.lock", "packed-refs.lock", "ORIG_HEAD.lock")
# Without /proc (macOS) liveness cannot be checked: only a lock this old is taken as stale.
STALE_WITHOUT_PROC_SECONDS = 600.0
PROCESS_START = time.time()  # a lock older than this process was not made by our own git


class GitError(WikimemError):
    """A git operation on the memory repository failed."""


def is_hidden(rel: str) -> bool:
    """A path in a hidden folder or file (`.obsidian/…`, `.DS_Store`), except our `.gitignore`."""
    return rel != ".gitignore" and any(part.startswith(".") for part in rel.split("/"))


def _last_line(stderr: bytes) -> str:
    """git's own reason, one line."""
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1].removeprefix("fatal: ") if lines else "unknown error"


class GitLocked(GitError):
    """A git lock file in memory/.git is held by a live process (or cannot be judged stale)."""


def clean_message(message: str) -> str:
    """A commit message git accepts: no NUL or other control characters but newline and tab."""
    return "".join(
        ch if ch in "\n\t" or (ch >= " " and ch != "\x7f") else "\ufffd" for ch in message
    )


def _pids() -> list[int]:
    try:
        return [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return []


def _proc_users(root: str, lock: str) -> list[str]:
    """`pid (command)` of live processes that may own `lock` (Linux): a git working in `root`,
    or any process holding the lock file open. A shell that merely sits in memory/ is not one."""
    me = os.getpid()
    found = []
    for pid in _pids():
        if pid == me:
            continue
        base = f"/proc/{pid}"
        try:
            with open(f"{base}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        cmd = b" ".join(argv).decode("utf-8", "replace").strip()
        if " cat-file --batch" in cmd:
            continue  # a reader of objects (sync's blob reads): it never takes a lock
        holds = False
        if b"git" in os.path.basename(argv[0]):
            try:
                cwd = os.readlink(f"{base}/cwd")
                holds = cwd == root or cwd.startswith(root + os.sep)
            except OSError:
                holds = False
        if not holds:
            try:
                holds = any(
                    os.readlink(f"{base}/fd/{fd}") == lock for fd in os.listdir(f"{base}/fd")
                )
            except OSError:
                holds = False
        if holds:
            found.append(f"{pid} ({cmd[:60] or '?'})")
    return found


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    date: str
    author: str
    subject: str
    body: str
    files: tuple[str, ...]


def _identity(identity: GitConfig) -> dict[str, str]:
    return {
        "GIT_AUTHOR_NAME": identity.author_name,
        "GIT_AUTHOR_EMAIL": identity.author_email,
        "GIT_COMMITTER_NAME": identity.author_name,
        "GIT_COMMITTER_EMAIL": identity.author_email,
        "GIT_TERMINAL_PROMPT": "0",
    }


class NotOwned(GitError):
    """memory/ belongs to another user, and git refuses to work in it."""


class Detached(GitError):
    """memory/ is not on a branch: a commit there would be lost at the next `git switch`."""


def ownership_advice(path: str) -> str:
    """What to do when git refuses a repository another user owns (one line)."""
    try:
        owner = os.stat(os.path.join(path, ".git")).st_uid
    except OSError:
        owner = -1
    me = os.geteuid()
    who = f"uid {owner}, you are uid {me}" if owner >= 0 and owner != me else f"you are uid {me}"
    return (
        f"{path} belongs to another user ({who}) and git refuses to work in it. Run wikimem as "
        f"the user who owns it, or make it yours (`chown -R {me} {path}`), or, if you trust "
        f"that user, `git config --global --add safe.directory {path}`"
    )


def _open_problem(path: str, stderr: str) -> str:
    if "dubious ownership" in stderr or "safe.directory" in stderr:
        return ownership_advice(path)
    return f"{path} is not a git repository (run `wikimem init`)"


def back_on_branch(path: str, head: str, branch: str = "main") -> str:
    """The commands that put a detached HEAD in memory/ back on its branch, keeping any commit
    made on the detached HEAD (a bare `git switch` would leave those behind)."""
    return (
        f"`git -C {path} switch {branch}`; if commits were made on the detached HEAD, keep "
        f"them first: `git -C {path} branch keep-detached {head[:10]} && git -C {path} switch "
        f"{branch} && git -C {path} merge keep-detached`"
    )


def detached_advice(path: str, head: str, branch: str = "main") -> str:
    """What to do about a detached HEAD in memory/ (one line)."""
    return (
        f"{path} is not on a branch (detached HEAD at {head[:10]}); wikimem commits only onto "
        f"a branch, so nothing was written. Put HEAD back: {back_on_branch(path, head, branch)}"
    )


class Store:
    """The memory repository at `path` (memory/)."""

    def __init__(self, path: str, identity: GitConfig) -> None:
        self.path = path
        self.identity = identity
        # A repository another user owns is refused by git itself: say so before any write.
        try:
            probe = gitrun.run(path, "rev-parse", "--git-dir")
        except OSError as exc:
            raise GitError(f"could not run git: {exc.strerror or exc}") from None
        if probe.returncode != 0:
            problem = _open_problem(path, probe.stderr.decode("utf-8", "replace"))
            raise (NotOwned if "belongs to another user" in problem else GitError)(problem)

    @classmethod
    def init(cls, path: str, identity: GitConfig) -> Store:
        """Create the repository if needed (idempotent)."""
        os.makedirs(path, exist_ok=True)
        if not os.path.isdir(os.path.join(path, ".git")):
            try:
                done = gitrun.run(path, "init", "-q", "-b", "main")
            except OSError as exc:
                raise GitError(f"could not run git: {exc.strerror or exc}") from None
            if done.returncode != 0:
                err = done.stderr.decode("utf-8", "replace").strip()
                raise GitError(f"git init failed in {path}: {_first_line(err)}")
        return cls(path, identity)

    def branch(self) -> str | None:
        """The branch HEAD is on (unborn included), None when HEAD is detached."""
        proc = gitrun.run(self.path, "symbolic-ref", "-q", "--short", "HEAD")
        name = proc.stdout.decode("utf-8", "replace").strip()
        return name if proc.returncode == 0 and name else None

    def detached(self) -> tuple[str, str] | None:
        """(the commit HEAD is at, the branch to go back to) when HEAD is detached, else None."""
        if self.branch() is not None:
            return None
        head = gitrun.run(self.path, "rev-parse", "-q", "--verify", "HEAD")
        heads = gitrun.run(self.path, "for-each-ref", "--format=%(refname:short)", "refs/heads")
        names = heads.stdout.decode("utf-8", "replace").split()
        branch = "main" if "main" in names or not names else names[0]
        return head.stdout.decode().strip() or "?", branch

    def require_branch(self) -> None:
        """Detached (with advice) unless HEAD is on a branch: nothing is committed then."""
        found = self.detached()
        if found is not None:
            raise Detached(detached_advice(self.path, *found))

    def has_commits(self) -> bool:
        return self.head() is not None

    def head(self) -> str | None:
        """The commit HEAD is at; None before the first commit (an unborn branch)."""
        proc = gitrun.run(self.path, "rev-parse", "-q", "--verify", "HEAD^{commit}")
        sha = proc.stdout.decode("ascii", "replace").strip()
        return sha if proc.returncode == 0 and sha else None

    def tracked(self) -> set[str]:
        """The paths in the index (relative to memory/)."""
        return {p for p in self._git("ls-files", "-z").split("\0") if p}

    def _git(self, *args: str, paths: Sequence[str] | None = None) -> str:
        """Run git in memory/ with our identity; `paths` go on stdin as a NUL-separated pathspec
        (never on the command line, whose length is limited)."""
        data = None
        if paths is not None:
            args = (*args, "--pathspec-from-file=-", "--pathspec-file-nul")
            data = "\0".join(paths).encode("utf-8", "surrogateescape")
        extra = {**_identity(self.identity), "GIT_LITERAL_PATHSPECS": "1"}
        try:
            done = gitrun.run(self.path, *args, input=data, extra=extra)
        except OSError as exc:
            raise GitError(f"could not run git: {exc.strerror or exc}") from None
        if done.returncode != 0:
            err = done.stderr.decode("utf-8", "replace").strip()
            raise GitError(f"git {args[0]} failed: {_first_line(err)}")
        return done.stdout.decode("utf-8", "replace")

    def commit(self, paths: Sequence[str], message: str, allow_empty: bool = False) -> str | None:
        """Commit exactly `paths` (relative to memory/, added, changed or deleted).

        Returns the new commit's sha, or None when none of the paths changed."""
        self.require_branch()  # a commit on a detached HEAD is lost at the next switch
        rels = sorted(set(paths))
        if rels:
            # A path neither on disk nor known to git (a note created by hand and deleted
            # before any commit) is no change to git, and naming it would fail.
            # (ls-files takes no pathspec on stdin: list all, which is cheap)
            tracked = set(self._git("ls-files", "-z").split("\0"))
            rels = [r for r in rels if r in tracked or os.path.lexists(os.path.join(self.path, r))]
        if rels:
            self._git("add", "-A", paths=rels)
            if os.environ.get("WIKIMEM_CRASH_AT") == "after_git_add":  # fault injection (tests)
                os._exit(137)
            # (diff takes no pathspec on stdin either: what else is staged is ignored)
            staged = (
                bool(
                    set(
                        self._git("diff", "--cached", "--name-only", "--no-renames", "-z").split(
                            "\0"
                        )
                    )
                    & set(rels)
                )
                if self.has_commits()
                else True
            )
        else:
            staged = False
        if not staged and not allow_empty:
            return None
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".msg", delete=False) as fh:
            fh.write(clean_message(message))
        try:
            args = ["commit", "--no-verify", "-q", "--cleanup=verbatim", "-F", fh.name]
            if allow_empty:
                args.append("--allow-empty")
            if rels:
                self._git(*args, "--only", paths=rels)
            else:
                self._git(*args)
        finally:
            os.unlink(fh.name)
        return self.head()

    # -- bad days ------------------------------------------------------------------------------

    def prepare(self) -> None:
        """Keep our temp files out of `git status` (a machine-local exclude, never committed)."""
        info = os.path.join(self.path, ".git", "info")
        exclude = os.path.join(info, "exclude")
        try:
            with open(exclude, encoding="utf-8") as fh:
                if TEMP_PATTERN in fh.read().splitlines():
                    return
        except FileNotFoundError:
            pass
        except OSError:
            return
        try:
            os.makedirs(info, exist_ok=True)
            with open(exclude, "a", encoding="utf-8") as fh:
                fh.write(f"\n# wikimem's temp files while a note is written\n{TEMP_PATTERN}\n")
        except OSError:
            pass  # a read-only repository: the write that follows says so

    def lock_files(self) -> list[str]:
        """Git lock files present in memory/.git (absolute paths)."""
        gitdir = os.path.join(self.path, ".git")
        found = [os.path.join(gitdir, n) for n in LOCK_NAMES]
        for dirpath, _, names in os.walk(os.path.join(gitdir, "refs")):
            found += [os.path.join(dirpath, n) for n in names if n.endswith(".lock")]
        return [p for p in found if os.path.lexists(p)]

    def lock_holders(self, lock: str) -> list[str] | None:
        """Live processes that may own `lock` ([] = none: it is stale), None = cannot tell."""
        if not os.path.isdir("/proc/self"):
            try:
                age = time.time() - os.lstat(lock).st_mtime
            except FileNotFoundError:
                return []
            return [] if age > STALE_WITHOUT_PROC_SECONDS else None
        try:
            if os.lstat(lock).st_mtime >= PROCESS_START:
                # Made after this process started: maybe by a git someone runs right now.
                holders = _proc_users(os.path.realpath(self.path), lock)
                return holders or None
        except FileNotFoundError:
            return []
        return _proc_users(os.path.realpath(self.path), lock)

    def clear_stale_locks(self) -> list[str]:
        """Remove lock files no live process owns; GitLocked when one is (or may be) in use.

        Call with wikimem's memory lock held: no wikimem process is running git then."""
        removed = []
        for lock in self.lock_files():
            holders = self.lock_holders(lock)
            rel = os.path.relpath(lock, self.path)
            if holders == []:
                try:
                    os.unlink(lock)
                    removed.append(rel)
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    raise GitLocked(f"cannot remove the stale {rel}: {exc.strerror}") from None
                continue
            who = f"by {', '.join(holders)}" if holders else "by a git process started just now"
            raise GitLocked(
                f"memory/{rel} is held {who}; wait for it to finish "
                f"(if no git is running, delete {lock})"
            )
        return removed

    def unstage(self, paths: Sequence[str]) -> None:
        """Reset the index entries of `paths` to HEAD (a rolled-back write leaves nothing staged)."""
        rels = sorted(set(paths))
        if not rels:
            return
        if self.has_commits():
            self._git("reset", "-q", "HEAD", paths=rels)
        else:
            self._git("rm", "-q", "--cached", "--ignore-unmatch", "-r", paths=rels)

    def temp_files(self) -> list[str]:
        """Our temp files left in memory/ by a killed writer (relative paths)."""
        found = []
        for dirpath, dirnames, names in os.walk(self.path):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for n in names:
                if n.startswith(".wikimem-") and n.endswith(".tmp"):
                    found.append(os.path.relpath(os.path.join(dirpath, n), self.path))
        return sorted(found)

    def log(self, n: int = 20, path: str | None = None) -> list[CommitInfo]:
        """The last `n` commits (those that touched `path`, when given), newest first, each
        with every file it changed against its first parent."""
        if not self.has_commits():
            return []
        # Which commits, then what each changed, in two calls: showing a merge's changes
        # against its first parent would also change which commits a path keeps.
        chosen = gitrun.run(
            self.path, "rev-list", f"--max-count={n}", "HEAD", *(("--", path) if path else ())
        )
        if chosen.returncode != 0:
            raise GitError(f"git log failed: {_last_line(chosen.stderr)}")
        if not chosen.stdout.strip():
            return []
        done = gitrun.run(
            self.path, "log", "--no-walk=unsorted", "--stdin", "-z", "--name-only",
            "--no-renames", "--root", "--diff-merges=first-parent", "--no-show-signature",
            f"--format={_RECORD}%H%x00%cI%x00%an%x00%B%x00", input=chosen.stdout,
        )  # fmt: skip
        if done.returncode != 0:
            raise GitError(f"git log failed: {_last_line(done.stderr)}")
        out = []
        for record in done.stdout.decode("utf-8", "replace").split(_RECORD)[1:]:
            sha, date, author, message, files = (record.split("\0", 4) + [""] * 4)[:5]
            subject, _, body = message.partition("\n")
            names = sorted({f.strip("\n") for f in files.split("\0") if f.strip("\n")})
            out.append(CommitInfo(sha, date, author, subject, body.strip(), tuple(names)))
        return out

    def resolve_rev(self, rev: str) -> str:
        """The commit `rev` names, or GitError saying there is none (an option-like or unknown
        name included: the user's text is never passed to git as an option)."""
        if rev.startswith("-") or not rev.strip():
            raise GitError(f"{rev!r} is not a revision (see `wikimem log` for commits)")
        done = gitrun.run(self.path, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
        if done.returncode != 0:
            raise GitError(
                f"no revision {rev!r} in the memory history (see `wikimem log` for commits)"
            )
        return done.stdout.decode("utf-8", "replace").strip()

    def diff(self, rev: str | None = None) -> str:
        """The patch from `rev` (default: the last commit's parent) to the working tree."""
        if rev is None:
            if not self.has_commits():
                return ""
            if gitrun.run(self.path, "rev-parse", "-q", "--verify", "HEAD~1").returncode != 0:
                args: tuple[str, ...] = ("show", "--format=", "HEAD")  # the first commit
            else:
                rev = "HEAD~1"
                args = ("diff", rev, "--")
        else:
            rev = self.resolve_rev(rev)
            args = ("diff", rev, "--")
        done = gitrun.run(self.path, *args)
        if done.returncode != 0:
            raise GitError(f"git diff {rev or 'HEAD'} failed: {_last_line(done.stderr)}")
        return done.stdout.decode("utf-8", "replace").removesuffix("\n")

    def dirty_paths(self) -> list[str]:
        """Paths with uncommitted changes (tracked or untracked), relative to memory/. Hidden
        folders (`.obsidian/`, `.trash/`) are an editor's own state, not memory, and our own temp
        files (`.wikimem-*.tmp`, hidden too) are no change: never listed, whatever an older
        `.gitignore` says."""
        out = self._git("status", "--porcelain", "-z", "--untracked-files=all")
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
        done = gitrun.run(self.path, "log", f"--max-count={n}", "-z", "--format=%H%x00%B")
        if done.returncode != 0:
            raise GitError(f"git log failed: {_last_line(done.stderr)}")
        fields = done.stdout.decode("utf-8", "replace").split("\0")
        for sha, message in zip(fields[0::2], fields[1::2], strict=False):
            for line in reversed(message.splitlines()):
                if line.startswith(prefix):
                    yield sha, line[len(prefix) :].strip()
                    break

    def file_at(self, rel: str, rev: str = "HEAD") -> str | None:
        # Bytes, decoded as the notes are written (UTF-8), never with the locale's encoding:
        # under a Latin-1 locale every committed note would otherwise look changed.
        done = gitrun.run(self.path, "show", f"{rev}:{rel}")
        if done.returncode != 0:
            return None
        return done.stdout.decode("utf-8", "replace")


def _first_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith(("fatal:", "error:")):
            return ln
    return lines[0] if lines else "no message"
