"""Git plumbing for sync: one subprocess per call, wikimem's identity, failures as one line.

Contract: `Git(repo, identity)` runs `git -C repo ...` through `wikimem.gitrun`, with the same
environment as the wiki's own commits (no signing, no commit templates, no terminal prompts unless `interactive`), and
raises `GitFailed` carrying git's stderr. `classify(stderr, url)` turns a failed network call
into the user-facing `SyncError` that says what happened (unreachable, authentication) in one
line. Plumbing only (read-tree, write-tree, commit-tree, update-ref): nothing here touches the
working tree unless a caller asks it to with `-u`.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wikimem import gitrun
from wikimem.config import GitConfig
from wikimem.errors import WikimemError
from wikimem.sync.transport import Stalled, TimedOut

NETWORK_TIMEOUT = 300.0  # seconds: a fetch or push that runs longer is given up
# Seconds without a byte from a fetch or push (run with --progress, which reports a slow but
# moving transfer every second): a transport that connected and hangs is given up this soon.
STALL_TIMEOUT = 30.0


class SyncError(WikimemError):
    """A sync could not be done; the message says why in one line, and what to do."""


class GitFailed(SyncError):
    def __init__(self, args: Sequence[str], code: int, stderr: str) -> None:
        self.args_run = tuple(args)
        self.code = code
        self.stderr = stderr
        lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
        super().__init__(f"git {args[0] if args else ''} failed: {lines[-1] if lines else code}")


@dataclass(frozen=True)
class Identity:
    name: str
    email: str


def _base_env(interactive: bool) -> dict[str, str]:
    env = {
        "LC_ALL": "C",  # stderr is classified by its English wording
        "LANGUAGE": "C",
    }
    if not interactive:
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GCM_INTERACTIVE"] = "never"
        # An ssh key with a passphrase and no agent would wait for a terminal forever.
        if not os.environ.get("GIT_SSH_COMMAND") and not os.environ.get("GIT_SSH"):
            # Keepalives: a connection that dies mid-transfer is noticed in 30 s, not never.
            env["GIT_SSH_COMMAND"] = (
                "ssh -o BatchMode=yes -o ConnectTimeout=20 "
                "-o ServerAliveInterval=15 -o ServerAliveCountMax=2"
            )
    return env


class Git:
    def __init__(
        self, repo: str, identity: GitConfig, author: Identity | None = None, *, interactive: bool
    ) -> None:
        self.repo = repo
        self.identity = identity
        self.author = author or Identity(identity.author_name, identity.author_email)
        self.interactive = interactive

    def settings(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """What sync's git calls add to `wikimem.gitrun.environ()`: the identities, no prompts."""
        env = _base_env(self.interactive)
        env.update(
            {
                "GIT_AUTHOR_NAME": self.author.name,
                "GIT_AUTHOR_EMAIL": self.author.email,
                "GIT_COMMITTER_NAME": self.identity.author_name,
                "GIT_COMMITTER_EMAIL": self.identity.author_email,
            }
        )
        if extra:
            env.update(extra)
        return env

    def run(
        self,
        *args: str,
        input: str | None = None,
        env: Mapping[str, str] | None = None,
        check: bool = True,
        timeout: float | None = None,
        network: bool = False,
    ) -> subprocess.CompletedProcess[str]:
        if network and input is None:
            return self._network(args, env, check, timeout)
        try:
            proc = gitrun.run_text(
                self.repo, *args, input=input, extra=self.settings(env), timeout=timeout
            )
        except subprocess.TimeoutExpired:
            raise SyncError(f"git {args[0]} did not finish within {timeout:.0f} s") from None
        if check and proc.returncode != 0:
            raise GitFailed(args, proc.returncode, proc.stderr)
        return proc

    def _network(
        self, args: Sequence[str], env: Mapping[str, str] | None, check: bool, timeout: float | None
    ) -> subprocess.CompletedProcess[str]:
        """A fetch or push: bounded by `STALL_TIMEOUT` without a byte of progress (not when a
        person may be typing a passphrase) and `NETWORK_TIMEOUT` in all; git and the ssh it
        started are killed when either runs out."""
        total = timeout or NETWORK_TIMEOUT
        try:
            proc = gitrun.run_remote(
                self.repo,
                args,
                self.settings(env),
                stall=None if self.interactive else STALL_TIMEOUT,
                total=total,
                own_group=not self.interactive,  # a terminal prompt needs the foreground group
                stdin=None if self.interactive else subprocess.DEVNULL,
            )
        except Stalled as exc:
            raise RemoteUnreachable(
                f"git {args[0]} got no answer from the remote for {exc.seconds:.0f} s and was "
                "stopped (a host that accepts the connection and then hangs, or a prompt "
                "nobody can answer); check the remote with `git ls-remote <url>`"
            ) from None
        except TimedOut:
            raise RemoteUnreachable(
                f"git {args[0]} did not finish within {total:.0f} s and was stopped; the remote "
                "may be unreachable"
            ) from None
        if check and proc.returncode != 0:
            raise GitFailed(args, proc.returncode, proc.stderr)
        return proc

    def out(
        self, *args: str, input: str | None = None, env: Mapping[str, str] | None = None
    ) -> str:
        return self.run(*args, input=input, env=env).stdout.strip()

    def ok(self, *args: str) -> bool:
        return self.run(*args, check=False).returncode == 0

    def rev(self, ref: str) -> str | None:
        proc = self.run("rev-parse", "-q", "--verify", f"{ref}^{{commit}}", check=False)
        return proc.stdout.strip() or None if proc.returncode == 0 else None

    def config_get(self, key: str) -> str | None:
        proc = self.run("config", "--get", key, check=False)
        return proc.stdout.strip() if proc.returncode == 0 else None


_AUTH = re.compile(
    r"authentication failed|permission denied \(publickey|could not read (username|password)|"
    r"terminal prompts disabled|invalid username or password|http 401|http 403|"
    r"returned error: 40[13]|access denied|host key verification failed|"
    r"repository not found|permission to .* denied",
    re.IGNORECASE,
)
_UNREACHABLE = re.compile(
    r"could not resolve host|connection refused|connection timed out|network is unreachable|"
    r"no route to host|does not appear to be a git repository|no such file or directory|"
    r"unable to access|could not read from remote repository|not a git repository|"
    r"operation timed out|connection reset|failed to connect|couldn't connect",
    re.IGNORECASE,
)


class RemoteUnreachable(SyncError):
    """The remote could not be reached (offline, a path that vanished, a host down)."""


class AuthFailed(SyncError):
    """The remote refused our credentials."""


def classify(exc: GitFailed, url: str) -> SyncError:
    """The one-line error a user sees for a failed fetch, ls-remote or push."""
    text = exc.stderr
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    detail = next(
        (ln.removeprefix("fatal: ").removeprefix("remote: ") for ln in lines if "fatal" in ln),
        lines[-1] if lines else f"exit {exc.code}",
    )
    # "Repository not found" over https is how GitHub answers missing credentials, too.
    if _AUTH.search(text):
        return AuthFailed(
            f"the remote {url} refused our credentials ({detail}); check your ssh key or "
            "credential helper with `git ls-remote <url>`"
        )
    if _UNREACHABLE.search(text):
        return RemoteUnreachable(f"cannot reach the remote {url}: {detail}")
    return SyncError(f"git {exc.args_run[0]} with {url} failed: {detail}")
