"""Which remotes memory/ syncs with, and what each of them may hold.

Contract: a `Channel` is one git remote plus the top-level entries of memory/ it carries.
  - `[sync] remote` (or `--remote URL`, or an `origin` the user already set up in memory/) is
    the main channel, git remote `origin`. With `share_profile = true` (the default) it carries
    the whole wiki and its history as is, so a plain `git pull`/`git push` in memory/ works too.
  - With `share_profile = false` it carries everything but `profile/` (and `index.md`, which
    lists the profile's titles and is regenerated on every machine anyway); `profile_remote`,
    when set, is a second channel (git remote `wikimem-profile`) carrying `profile/` alone.
    A filtered channel has its own history of export commits (see `wikimem.sync.procedure`);
    its `pushurl` is set to something git cannot push to, so a plain `git push` can never leak
    the profile to a team's remote.
`track` sets the branch's upstream to the main channel (unfiltered only), once the remote has
the branch, so a plain `git pull` in memory/ knows what to merge.
`remember_remote` writes `[sync] remote` into config.toml, changing only that line.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass

from wikimem import boundedfile
from wikimem.config import Config
from wikimem.fsutil import atomic_write
from wikimem.home import Home
from wikimem.rawconfig import ConfigError
from wikimem.sync.git import Git, SyncError

MAIN = "origin"
PROFILE = "wikimem-profile"
NO_PLAIN_PUSH = "wikimem-sync-only://use-wikimem-sync-to-push-this-remote"


class NoRemote(SyncError):
    """Nothing says where to sync to."""


@dataclass(frozen=True)
class Channel:
    name: str  # the git remote's name in memory/.git/config
    url: str
    only: tuple[str, ...] = ()  # top-level entries carried (empty: all of them...)
    never: tuple[str, ...] = ()  # ...but these

    @property
    def filtered(self) -> bool:
        return bool(self.only or self.never)

    def carries(self, top: str) -> bool:
        """Whether the top-level entry `top` of memory/ goes through this channel."""
        if self.only and top not in self.only:
            return False
        return top not in self.never


def normalise_url(url: str) -> str:
    """A local path becomes absolute (config.toml must not depend on the cwd); URLs stay."""
    url = url.strip()
    if not url:
        raise NoRemote("the remote URL is empty")
    if "://" in url:
        return url
    scp_like = re.match(r"^[^/]+:", url) is not None and not os.path.exists(url)
    if scp_like:
        return url  # user@host:path, as ssh and git spell it
    return os.path.abspath(os.path.expanduser(url))


def channels(config: Config, git: Git, override: str | None = None) -> list[Channel]:
    url = override or config.sync.remote or git.config_get(f"remote.{MAIN}.url") or ""
    if not url:
        raise NoRemote(
            "no remote configured: run `wikimem sync --remote URL` once (any git URL, or the "
            "path of a bare repository)"
        )
    if config.sync.share_profile:
        return [Channel(MAIN, normalise_url(url))]
    out = [Channel(MAIN, normalise_url(url), never=("profile", "index.md"))]
    if config.sync.profile_remote:
        out.append(Channel(PROFILE, normalise_url(config.sync.profile_remote), only=("profile",)))
    return out


def configure(git: Git, channel: Channel) -> None:
    """Make the git remote `channel.name` point at `channel.url` (idempotent)."""
    current = git.config_get(f"remote.{channel.name}.url")
    if current is None:
        git.out("remote", "add", channel.name, channel.url)
    elif current != channel.url:
        git.out("remote", "set-url", channel.name, channel.url)
    pushurl = git.config_get(f"remote.{channel.name}.pushurl")
    if channel.filtered and pushurl != NO_PLAIN_PUSH:
        git.out("config", f"remote.{channel.name}.pushurl", NO_PLAIN_PUSH)
    elif not channel.filtered and pushurl == NO_PLAIN_PUSH:
        git.out("config", "--unset", f"remote.{channel.name}.pushurl")


def track(git: Git, channel: Channel, branch: str) -> bool:
    """Make `branch` track the channel's branch, so a plain `git pull` (and `git status`'s
    ahead/behind) in memory/ works as in any clone; True when set now. Only for a channel that
    carries the whole history (a filtered one holds export commits, never pulled as is), and
    never over an upstream the person chose."""
    if channel.filtered or git.config_get(f"branch.{branch}.remote"):
        return False
    git.out("config", f"branch.{branch}.remote", channel.name)
    git.out("config", f"branch.{branch}.merge", f"refs/heads/{branch}")
    return True


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def set_setting(text: str, table: str, key: str, literal: str) -> str:
    """config.toml's text with `key = literal` in `[table]`: the line replaced if present (a
    commented default counts), else added under the table, else the table appended."""
    lines = text.splitlines(keepends=True)
    header = re.compile(r"^\s*\[\s*" + re.escape(table) + r"\s*\]\s*(#.*)?$")
    any_header = re.compile(r"^\s*\[")
    setting = re.compile(r"^\s*#?\s*" + re.escape(key) + r"\s*=")
    start = next((i for i, ln in enumerate(lines) if header.match(ln)), None)
    new_line = f"{key} = {literal}\n"
    if start is None:
        sep = "" if not text or text.endswith("\n") else "\n"
        return f"{text}{sep}\n[{table}]\n{new_line}"
    end = next((i for i in range(start + 1, len(lines)) if any_header.match(lines[i])), len(lines))
    found = [i for i in range(start + 1, end) if setting.match(lines[i])]
    live = [i for i in found if not lines[i].lstrip().startswith("#")]
    target: int | None = (live or found)[0] if found else None
    if target is None:
        lines.insert(start + 1, new_line)
    else:
        lines[target] = new_line
    return "".join(lines)


def remember_remote(home: Home, url: str) -> bool:
    """Write `[sync] remote = url` into config.toml; True when it changed."""
    return _remember(home, "remote", _toml_string(url), url)


def remember_auto(home: Home, on: bool) -> bool:
    return _remember(home, "auto", "true" if on else "false", on)


def _remember(home: Home, key: str, literal: str, expected: object) -> bool:
    try:
        text = boundedfile.read_text(home.config_path)
    except FileNotFoundError:
        text = ""
    new = set_setting(text, "sync", key, literal)
    if new == text:
        return False
    try:
        parsed = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"could not set [sync] {key} in {home.config_path}: {exc}") from exc
    if parsed.get("sync", {}).get(key) != expected:
        raise ConfigError(
            f"could not set [sync] {key} in {home.config_path} (set it by hand: {key} = {literal})"
        )
    atomic_write(home.config_path, new, 0o600)
    return True
