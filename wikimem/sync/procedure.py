"""`wikimem sync`: commit hand edits, fetch, merge note by note, re-index, push (docs/sync.md).

Contract, in order, one sync at a time (`wikimem.sync.locking`):
  1. A sync a crash interrupted is finished first (its journal names the commit it was moving
     memory/ to; files a person had not committed are restored from it).
  2. Pending hand edits of notes are committed through the write gate; a refused one is
     reported and stays uncommitted (never pushed). Files that are not notes are left alone.
  3. For each remote (`wikimem.sync.remote`): fetch; merge what came with what is here
     (`wikimem.sync.treemerge`, computed off to the side), then move memory/ to the merged
     commit in one step under the wiki's locks, journaled, and regenerate `index.md` into it;
     refresh the search index; push (retrying when someone pushed meanwhile).
A remote with no history in common with this memory is joined deliberately only when this
machine has never synced with it (or with `join=True`); a remote that no longer contains what
this machine last synced with was rewritten, and is left alone unless `join=True`. A remote
given as `remote=` is remembered (config.toml, memory/'s git remote) only once a fetch from it
succeeded; a failure before that is not recorded against it. Every
failure is one line (`SyncError`), recorded in state/sync.json for `status` and `doctor`, and
leaves memory/ as it was or as merged, never in between: a move to the merged commit that fails
part-way (a disk that fills while the notes are checked out) is rolled back at once (the files
it wrote removed, HEAD, the index and the person's uncommitted edits as they were), and when even
that cannot be done the error says so and the journal stays for the next sync to finish the move.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import os
import random
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from wikimem import boundedfile
from wikimem.capture.events import utc_timestamp
from wikimem.config import Config, load_config
from wikimem.errors import WikimemError
from wikimem.fsutil import atomic_write
from wikimem.home import Home
from wikimem.progress import Progress, quiet
from wikimem.sync import record
from wikimem.sync.git import Git, GitFailed, Identity, SyncError, classify
from wikimem.sync.identity import TRAILER as MACHINE_TRAILER
from wikimem.sync.identity import machine_name, person
from wikimem.sync.locking import SyncBusy, changing_memory, one_sync
from wikimem.sync.merge import is_note_path
from wikimem.sync.registration import install as install_driver
from wikimem.sync.remote import (
    MAIN,
    Channel,
    channels,
    configure,
    normalise_url,
    remember_remote,
    track,
)
from wikimem.sync.treemerge import (
    TreeMerge,
    empty_tree,
    filter_tree,
    merge_trees,
    safe_tree,
    tree_of,
    unsafe_entries,
    without,
)
from wikimem.wiki import plainfile
from wikimem.wiki.batch import Wiki
from wikimem.wiki.gitstore import GitError, Store, detached_advice
from wikimem.wiki.indexmd import write_index
from wikimem.wiki.pathecho import echo_path

JOURNAL = "sync-journal.json"
# A push refused because another machine pushed first is fetched, merged and pushed again.
# Many machines syncing at once (a team after a meeting, every laptop waking up) each lose
# some rounds: they retry after a random, growing pause, until the attempts or the time run out.
PUSH_ATTEMPTS = 40
PUSH_RACE_SECONDS = 240.0
PUSH_PAUSE_MAX = 4.0
STALE_LOCK_SECONDS = 60.0
LOW_DISK_BYTES = 1024 * 1024  # free space below this when a write failed: the disk is full


class RemoteRewritten(SyncError):
    """The remote no longer contains what this machine synced last (a force-push)."""


class UnrelatedHistories(SyncError):
    """The remote's history has nothing in common with this memory's."""


class DirtyConflict(SyncError):
    """An uncommitted change the gate refused is in the way of what the remote changed."""


def _crash(point: str) -> None:
    """Fault injection for tests (`WIKIMEM_CRASH_AT=<point>` dies there like kill -9)."""
    if os.environ.get("WIKIMEM_CRASH_AT") == point:
        os._exit(137)


@dataclass
class RemoteOutcome:
    name: str
    url: str
    received: list[str] = field(default_factory=list)  # paths the merge changed here
    conflicts: list[str] = field(default_factory=list)
    kept_edits: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # what the remote held and sync left out
    joined: bool = False
    pushed: str = ""  # the commit pushed, if any
    remote_head: str = ""


@dataclass
class SyncResult:
    committed: list[str] = field(default_factory=list)
    blocked: list[tuple[str, str]] = field(default_factory=list)
    not_notes: list[str] = field(default_factory=list)
    remotes: list[RemoteOutcome] = field(default_factory=list)
    recovered: bool = False
    remembered: str = ""  # the remote URL written to config.toml by this sync (it answered)
    removed: list[str] = field(default_factory=list)  # links and the like found committed here
    head: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def conflicts(self) -> list[str]:
        return sorted({p for r in self.remotes for p in r.conflicts})

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["conflicts"] = self.conflicts
        return data


def sync(
    home: Home,
    *,
    remote: str | None = None,
    join: bool = False,
    interactive: bool = False,
    wait: float = 0.0,
    wait_for_dream: float = 120.0,
    progress: Progress | None = None,
) -> SyncResult:
    """Sync memory/ with its remote(s); raises `SyncError` (recorded) when it cannot."""
    config = load_config(home)
    say = progress or quiet
    when = utc_timestamp()
    attempt = _Attempt()
    try:
        with one_sync(home, wait):
            rec = record.load(home)
            try:
                result = _sync_locked(
                    home, config, rec, remote, join, interactive, wait_for_dream, say, attempt
                )
            except WikimemError as exc:
                if not attempt.untried_remote:
                    # A URL given with --remote that never answered is not the person's
                    # remote: nothing of it is kept, and doctor has no failure to report.
                    rec.failed(when, str(exc))
                    _save_record(home, rec)  # the error itself is what must be said
                raise
            rec.succeeded(when)
            if (problem := _save_record(home, rec)) is not None:
                result.warnings.append(problem)
            return result
    except SyncBusy as exc:
        if not interactive:
            rec = record.load(home)
            rec.deferred = f"{when}: {exc}"
            record.save(home, rec)
        raise


@dataclass
class _Attempt:
    """Whether this sync was given a remote (`--remote`) that is not yet the configured one, and
    has not answered yet: only once it answers is it remembered (config.toml, memory/'s git
    remote) and a failure counted against it."""

    new_remote: bool = False
    answered: bool = False

    @property
    def untried_remote(self) -> bool:
        return self.new_remote and not self.answered


def _sync_locked(
    home: Home,
    config: Config,
    rec: record.SyncRecord,
    remote: str | None,
    join: bool,
    interactive: bool,
    wait_for_dream: float,
    say: Progress,
    attempt: _Attempt,
) -> SyncResult:
    wiki = Wiki(home, config)
    try:
        store = wiki.store
    except GitError as exc:
        raise SyncError(str(exc)) from None
    if not store.has_commits():
        raise SyncError("memory/ has no commits yet; run `wikimem init` first")
    git = Git(
        home.memory_dir,
        config.git,
        Identity(*person(home.memory_dir, config)),
        interactive=interactive,
    )
    branch = _branch(git, store)
    _not_mid_operation(git)
    chans = channels(config, git, remote)
    result = SyncResult()
    if remote:
        known = [u for u in (config.sync.remote, git.config_get(f"remote.{MAIN}.url")) if u]
        attempt.new_remote = chans[0].url not in {normalise_url(u) for u in known}
    _clear_stale_locks(home.memory_dir, STALE_LOCK_SECONDS)
    with changing_memory(home, wait_for_dream):
        result.recovered = recover(home, git, config)
        changed_setup = install_driver(home.memory_dir)
        if changed_setup:
            store.commit(
                changed_setup, _message("sync: merge notes with wikimem's merge driver", [], config)
            )
        result.removed = _drop_unsafe(git, config)
    _commit_hand_edits(wiki, result, say)
    for ch in chans:

        def answered(ch: Channel = ch) -> None:
            """The remote answered a fetch: now it is remembered, and git's remote set."""
            configure(git, ch)
            if ch is chans[0]:
                attempt.answered = True
                if remote and remember_remote(home, ch.url):
                    result.remembered = ch.url

        result.remotes.append(
            _sync_channel(home, git, config, ch, branch, rec, join, wait_for_dream, say, answered)
        )
        _save_record(home, rec)
    result.head = git.out("rev-parse", "HEAD")
    return result


def _save_record(home: Home, rec: record.SyncRecord) -> str | None:
    """Save what `status` says about syncs; a disk too full for it must neither hide the sync's
    own error nor turn a sync that was done into a failure (the next one records it)."""
    try:
        record.save(home, rec)
    except OSError as exc:
        return f"could not record this sync in state/{record.STATE_FILE}: {exc.strerror or exc}"
    return None


def _drop_unsafe(git: Git, config: Config) -> list[str]:
    """Links, submodules and unholdable names already committed here (by an older wikimem's
    sync, a plain `git pull`, a hand) are removed in a commit of their own, and a link is
    unlinked (never its target), so that no later read or push goes through it."""
    head = git.out("rev-parse", "HEAD")
    unsafe = unsafe_entries(git, tree_of(git, head))
    if not unsafe:
        return []
    paths = [p for p, _ in unsafe]
    tree = without(git, tree_of(git, head), paths, _temp_index(git))
    lines = [f"- removed {echo_path(p)}: {why}" for p, why in unsafe]
    message = _message("sync: remove what must not be in memory/", lines, config)
    commit = git.out("commit-tree", tree, "-p", head, input=message)
    git.run("update-ref", "-m", "wikimem sync: remove links", "HEAD", commit, head)
    git.run(
        "update-index", "--force-remove", "-z", "--stdin", input="".join(p + "\0" for p in paths)
    )
    for rel in paths:
        full = os.path.join(git.repo, rel)
        if os.path.islink(full):
            os.unlink(full)
    return [f"{echo_path(p)} ({why})" for p, why in unsafe]


def _branch(git: Git, store: Store) -> str:
    detached = store.detached()
    if detached is not None:
        raise SyncError(detached_advice(git.repo, *detached))
    proc = git.run("symbolic-ref", "--short", "-q", "HEAD")
    return proc.stdout.strip()


def _not_mid_operation(git: Git) -> None:
    """A merge, rebase or cherry-pick a person left half done in memory/ is theirs to finish."""
    gitdir = git.out("rev-parse", "--absolute-git-dir")
    for name, what in (
        ("MERGE_HEAD", "a git merge"),
        ("rebase-merge", "a git rebase"),
        ("rebase-apply", "a git rebase"),
        ("CHERRY_PICK_HEAD", "a git cherry-pick"),
    ):
        if os.path.exists(os.path.join(gitdir, name)):
            raise SyncError(
                f"memory/ is in the middle of {what}; finish it or abort it "
                f"(`git -C {git.repo} status` says how), then sync again"
            )


def _commit_hand_edits(wiki: Wiki, result: SyncResult, say: Progress = quiet) -> None:
    dirty = [p for p in wiki.store.dirty_paths() if p != "index.md"]
    notes = [
        p for p in dirty if p.endswith(".md") and not any(s.startswith(".") for s in p.split("/"))
    ]
    result.not_notes = sorted(set(dirty) - set(notes))
    if not notes:
        return
    say("committing hand edits", 0, len(notes))
    batch = wiki.commit_hand_edits(notes, "sync: commit hand edits", "sync")
    result.committed = [r.write.path for r in batch.written]
    result.blocked = [(r.write.path, r.reason) for r in batch.blocked]
    result.warnings.extend(batch.warnings)


# -- one remote ---------------------------------------------------------------------------------


def _fetch(git: Git, ch: Channel, branch: str) -> str | None:
    try:
        git.run(
            "fetch",
            "--progress",  # a slow transfer keeps reporting; only a hung one falls silent
            "--prune",
            "--no-tags",
            "--no-write-fetch-head",
            ch.url,
            f"+refs/heads/*:refs/remotes/{ch.name}/*",
            network=True,
        )
    except GitFailed as exc:
        raise classify(exc, ch.url) from None
    return git.rev(f"refs/remotes/{ch.name}/{branch}")


def _sync_channel(
    home: Home,
    git: Git,
    config: Config,
    ch: Channel,
    branch: str,
    rec: record.SyncRecord,
    join: bool,
    wait_for_dream: float,
    say: Progress,
    answered: Callable[[], None],
) -> RemoteOutcome:
    outcome = RemoteOutcome(ch.name, ch.url)
    last = rec.channel(ch.name, ch.url)
    racing_since = time.monotonic()
    for attempt in range(PUSH_ATTEMPTS):
        if attempt:
            _pause_after_a_lost_race(attempt)
        say(f"fetching from {ch.url}", 0, None)
        theirs = _fetch(git, ch, branch)
        if not attempt:
            answered()
        _crash("sync_after_fetch")
        outcome.remote_head = theirs or ""
        with changing_memory(home, wait_for_dream):
            head = git.out("rev-parse", "HEAD")
            if theirs is not None:
                _check_history(git, ch, head, theirs, last, join)
                plan = _plan(git, config, ch, head, theirs, last, join)
                if plan is not None:
                    target, merge, own = plan
                    outcome.joined = outcome.joined or merge.joined
                    outcome.conflicts = sorted(set(outcome.conflicts) | set(merge.conflicts))
                    outcome.kept_edits = sorted(set(outcome.kept_edits) | set(merge.kept_edits))
                    outcome.refused = sorted(
                        set(outcome.refused)
                        | {f"{echo_path(p)} ({why})" for p, why in merge.refused}
                    )
                    if target != head:
                        say("merging the notes that changed", len(merge.changed), None)
                        outcome.received += _apply(home, git, config, head, target, own)
                        head = git.out("rev-parse", "HEAD")
                # integrated: the base of a retry's merge, should the push be refused
                last = record.ChannelRecord(ch.url, theirs, head)
        if outcome.received:
            say("updating the search index", len(outcome.received), None)
        _reindex(home, outcome.received)
        to_push = _to_push(git, config, ch, head, theirs, last)
        if to_push is None:
            break
        say(f"pushing to {ch.url}", 0, None)
        if _push(git, ch, branch, to_push):
            outcome.pushed = to_push
            theirs = to_push
            break
        if attempt == PUSH_ATTEMPTS - 1 or time.monotonic() - racing_since > PUSH_RACE_SECONDS:
            raise SyncError(
                f"the remote {ch.url} kept changing while we pushed ({attempt + 1} attempts); "
                "what this machine has is merged and kept here: run `wikimem sync` again"
            )
    rec.channels[ch.name] = record.ChannelRecord(ch.url, theirs or "", git.out("rev-parse", "HEAD"))
    last_remote = rec.channels[ch.name].last_remote
    if last_remote:
        git.run("update-ref", f"refs/remotes/{ch.name}/{branch}", last_remote)
        track(git, ch, branch)  # the remote has the branch now: a plain `git pull` works
    return outcome


def _ancestor(git: Git, older: str, newer: str) -> bool | None:
    """Whether `older` is in `newer`'s history; None when `older` is not even known here."""
    code = git.run("merge-base", "--is-ancestor", older, newer, check=False).returncode
    return {0: True, 1: False}.get(code)


def _check_history(
    git: Git, ch: Channel, head: str, theirs: str, last: record.ChannelRecord | None, join: bool
) -> None:
    if join or last is None or not last.last_remote or last.last_remote == theirs:
        return
    if _ancestor(git, last.last_remote, theirs) is False:
        raise RemoteRewritten(
            f"the remote {ch.url} was rewritten (force-pushed): it no longer holds "
            f"{last.last_remote[:10]}, which this machine synced last; nothing was changed. "
            "`wikimem sync --join` merges this machine's memory into it anyway"
        )


@dataclass
class _Merge:
    changed: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    kept_edits: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (path, why) not taken
    joined: bool = False


def _plan(
    git: Git,
    config: Config,
    ch: Channel,
    head: str,
    theirs: str,
    last: record.ChannelRecord | None,
    join: bool,
) -> tuple[str, _Merge, bool] | None:
    """(commit memory/ moves to, what the merge did, whether that commit is ours to amend),
    or None when the remote brings nothing new."""
    info = _Merge()
    since = ("", "")  # per side, the commit its changes are counted from
    if not ch.filtered:
        if _ancestor(git, theirs, head):
            return None
        info.refused = unsafe_entries(git, tree_of(git, theirs))
        if _ancestor(git, head, theirs) and not info.refused:
            info.changed = _diff_names(git, head, theirs)
            return theirs, info, False  # a fast-forward
        base_out = git.run("merge-base", head, theirs, check=False).stdout.strip()
        if not base_out:
            if last is not None and not join:
                raise UnrelatedHistories(
                    f"the remote {ch.url} holds a memory with no history in common with this "
                    "one (was it re-created?); nothing was changed. `wikimem sync --join` "
                    "merges the two"
                )
            info.joined = True
        base_tree = tree_of(git, base_out) if base_out else empty_tree(git)
        their_tree = tree_of(git, theirs)
        since = (base_out, base_out)
    else:
        keep = ch.carries
        base_commit = last.last_remote if last is not None and last.last_remote else ""
        if base_commit == theirs:
            return None
        if base_commit and _ancestor(git, base_commit, theirs) is not True:
            base_commit = ""  # rewritten and joined anyway: no trusted base
        info.joined = not base_commit
        base_tree = (
            filter_tree(git, tree_of(git, base_commit), keep) if base_commit else empty_tree(git)
        )
        their_tree = filter_tree(git, tree_of(git, theirs), keep)
        info.refused = unsafe_entries(git, their_tree)
        since = (last.last_local if last is not None else "", base_commit)
    # Nothing that must not be checked out (a link, a submodule, a name too long) is taken from
    # either side: the merged tree leaves it out, and the push removes it from the remote.
    their_tree = without(git, their_tree, (p for p, _ in info.refused), _temp_index(git))
    base_tree = safe_tree(git, base_tree, _temp_index(git))[0]
    our_tree = safe_tree(git, tree_of(git, head), _temp_index(git))[0]
    labels = (machine_name(config), _their_machine(git, theirs) or ch.name)

    def edited_at(path: str) -> tuple[str, str]:
        return (
            _hand_committed_at(git, since[0], head, path),
            _hand_committed_at(git, since[1], theirs, path),
        )

    merge = merge_trees(git, base_tree, our_tree, their_tree, labels, _temp_index(git), edited_at)
    info.conflicts, info.kept_edits = merge.conflicts, merge.kept_edits
    if merge.tree == tree_of(git, head) and ch.filtered:
        return head, info, False
    message = _merge_message(ch, merge, info.joined, config, info.refused)
    target = git.out("commit-tree", merge.tree, "-p", head, "-p", theirs, input=message)
    info.changed = _diff_names(git, head, target)
    return target, info, True


def _hand_committed_at(git: Git, since: str, tip: str, path: str) -> str:
    """When a person's own commit (one without wikimem's `Wikimem-Source` trailer, a merge
    excepted) last changed `path` after `since` up to `tip`, as `YYYY-MM-DDTHH:MM:SSZ`; "" when
    none did. Such a commit leaves `updated:` as it was: its time is when that side changed."""
    span = f"{since}..{tip}" if since else tip
    proc = git.run(
        "log",
        "--no-merges",
        "--format=%at%x1f%(trailers:key=Wikimem-Source,valueonly,separator=%x2c)",
        span,
        "--",
        path,
        check=False,
    )
    times = []
    for line in proc.stdout.splitlines():
        stamp, _, source = line.partition("\x1f")
        if stamp.strip().isdigit() and not source.strip():
            times.append(int(stamp))
    if not times:
        return ""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(max(times)))


def _their_machine(git: Git, commit: str) -> str:
    proc = git.run(
        "log", "-1", f"--format=%(trailers:key={MACHINE_TRAILER},valueonly)", commit, check=False
    )
    return proc.stdout.strip().splitlines()[0] if proc.stdout.strip() else ""


def _temp_index(git: Git) -> str:
    return os.path.join(git.out("rev-parse", "--absolute-git-dir"), "wikimem-sync.index")


def _diff_names(git: Git, a: str, b: str) -> list[str]:
    out = git.out("diff", "--no-renames", "--name-only", "-z", a, b)
    return [p for p in out.split("\0") if p]


def _message(subject: str, lines: list[str], config: Config) -> str:
    body = "\n".join(lines)
    return (
        f"{subject}\n\n{body + chr(10) + chr(10) if body else ''}"
        f"Wikimem-Source: sync\n{MACHINE_TRAILER}: {machine_name(config)}\n"
    )


def _merge_message(
    ch: Channel,
    merge: TreeMerge,
    joined: bool,
    config: Config,
    refused: list[tuple[str, str]],
) -> str:
    what = "join" if joined else "merge"
    subject = f"sync: {what} {ch.name} ({ch.url})"
    lines = [f"- refused {echo_path(p)}: {why}" for p, why in refused]
    lines += [f"- conflict kept for the next dream: {p}" for p in merge.conflicts]
    lines += [f"- kept an edit the other side deleted: {p}" for p in merge.kept_edits]
    lines += [f"- merged: {p}" for p in merge.merged]
    return _message(subject, lines, config)


# -- moving memory/ to the merged commit --------------------------------------------------------


def _journal_path(home: Home) -> str:
    return home.state(JOURNAL)


def _apply(home: Home, git: Git, config: Config, head: str, target: str, own: bool) -> list[str]:
    """Move HEAD, the index and the working tree from `head` to `target`; the paths changed."""
    changed = _diff_names(git, head, target)
    git.run("update-index", "-q", "--refresh", check=False)
    dirty = _dirty(git)
    if "index.md" in dirty:
        git.run("checkout", "-q", "HEAD", "--", "index.md", check=False)  # generated; redone below
        dirty.discard("index.md")
    in_the_way = sorted(dirty & set(changed))
    if in_the_way:
        raise DirtyConflict(
            f"memory/{in_the_way[0]} has an uncommitted change (refused by the gate, or made "
            "meanwhile) and the remote changed it too; fix or discard it "
            f"(`git -C {git.repo} checkout -- {in_the_way[0]}`), then sync again"
        )
    # What the remote brought is the remote's, with its author (`wikimem.wiki.origins`):
    # recorded before memory/ moves, so no reader ever sees its lines as anyone else's.
    from wikimem.wiki import origins

    origins.remote_arrivals(home.state_dir, git.repo, head, target)
    tracked = set(git.out("ls-files", "-z").split("\0"))
    preserved = {
        p: _read_b64(git.repo, p)
        for p in sorted(dirty & tracked)
        if not os.path.islink(os.path.join(git.repo, p))  # never read through, nor restored
    }
    journal = {
        "old": head,
        "target": target,
        "own": own,
        "preserved": preserved,
        "pid": os.getpid(),
    }
    atomic_write(_journal_path(home), json.dumps(journal), 0o600)
    _crash("sync_after_journal")
    try:
        git.run("read-tree", "-m", "-u", head, target)
        _crash("sync_after_checkout")
        git.run("update-ref", "-m", "wikimem sync", "HEAD", target, head)
        _crash("sync_after_update_ref")
        regenerate_index(git, config, target, own)
    except (GitFailed, OSError) as exc:
        raise _rolled_back(home, git, head, changed, exc) from exc
    _crash("sync_before_journal_cleared")
    _clear_journal(home)
    return changed


def _rolled_back(
    home: Home,
    git: Git,
    head: str,
    changed: list[str],
    exc: BaseException,
) -> SyncError:
    """memory/ put back at `head` after moving it to the merged commit failed part-way; the
    error that says so (or, when it could not be put back, what is left and what finishes it)."""
    why = _failure(exc, git.repo)
    try:
        before = set(git.out("ls-tree", "-r", "-z", "--name-only", head).split("\0"))
        # What the merge added goes first (it frees the room the rest may need). No file of the
        # person's can be there (an uncommitted one in the way stops a merge before it begins):
        # whatever is there now was written by this move.
        for rel in sorted(set(changed) - before):
            path = os.path.join(git.repo, rel)
            if os.path.lexists(path) and not os.path.isdir(path):
                os.unlink(path)
            _prune_empty(git.repo, os.path.dirname(rel))
        if git.out("rev-parse", "HEAD") != head:
            git.run("update-ref", "-m", "wikimem sync: roll back", "HEAD", head)
        if git.run("diff-index", "--cached", "--quiet", head, check=False).returncode:
            git.run("read-tree", head)  # git wrote its index before failing: back at `head`
        # The notes the merge changed, as `head` has them: only those whose bytes differ (on a
        # full disk, each file rewritten needs room), never the person's uncommitted edits,
        # which the move left alone.
        kept = sorted(set(changed) & before)
        if kept:
            listed = git.out("--no-optional-locks", "diff-files", "--name-only", "-z", "--", *kept)
            if differ := [p for p in listed.split("\0") if p]:
                stdin = "".join(p + "\0" for p in differ)
                git.run("checkout-index", "-f", "-q", "-z", "--stdin", input=stdin)
        _clear_journal(home)
    except (GitFailed, OSError) as again:
        return SyncError(
            f"{why} while checking out the merged notes, and memory/ could not be put back "
            f"({_failure(again, git.repo)}): it is part-way to the merge, journaled in "
            f"{_journal_path(home)}; the next `wikimem sync` finishes the move once that is fixed"
        )
    return SyncError(
        f"{why} while checking out the merged notes; memory/ was put back as it was before this "
        "sync (the files it had written removed): run `wikimem sync` again once that is fixed"
    )


def _restore(repo: str, preserved: dict[str, str | None]) -> None:
    """The person's uncommitted files, as they were before the move (None: there was none)."""
    for rel, data in preserved.items():
        path = os.path.join(repo, rel)
        if data is None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as fh:
                fh.write(base64.b64decode(data))


def _failure(exc: BaseException, repo: str) -> str:
    """What went wrong, in a few words: git does not say that the disk is full when it cannot
    write a file, so a disk with (almost) no room left is named as the cause."""
    said = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
    full = isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
    try:
        full = full or shutil.disk_usage(repo).free < LOW_DISK_BYTES
    except OSError:
        pass
    return f"the disk is full ({said})" if full else said


def _prune_empty(repo: str, rel_dir: str) -> None:
    while rel_dir:
        try:
            os.rmdir(os.path.join(repo, rel_dir))
        except OSError:
            return  # not empty (or already gone): it holds something of its own
        rel_dir = os.path.dirname(rel_dir)


def _dirty(git: Git) -> set[str]:
    # not `out()`: stripping would eat the leading space of " M path"
    out = git.run("status", "--porcelain", "-z", "--untracked-files=all", "--no-renames").stdout
    return {e[3:] for e in out.split("\0") if len(e) > 3}


def _read_b64(repo: str, rel: str) -> str | None:
    data = plainfile.read_bytes(repo, rel)
    return None if data is None else base64.b64encode(data).decode()


def regenerate_index(git: Git, config: Config, commit: str, own: bool) -> str:
    """index.md regenerated from the notes now on disk, folded into `commit` when it is our own
    merge, else committed on top of it. Returns the commit HEAD is left at."""
    if not write_index(git.repo, rev=commit):
        return commit
    blob = git.out("hash-object", "-w", "--", "index.md")
    index = _temp_index(git)
    env = {"GIT_INDEX_FILE": index}
    git.run("read-tree", commit, env=env)
    git.run("update-index", "--add", "--cacheinfo", f"100644,{blob},index.md", env=env)
    tree = git.out("write-tree", env=env)
    os.unlink(index)
    if own:
        parents = git.out("rev-list", "--parents", "-n", "1", commit).split()[1:]
        message = git.out("log", "-1", "--format=%B", commit) + "\n"
        args = [a for p in parents for a in ("-p", p)]
    else:
        args = ["-p", commit]
        message = _message("sync: regenerate index.md", [], config)
    new = git.out("commit-tree", tree, *args, input=message)
    git.run("update-ref", "-m", "wikimem sync: index.md", "HEAD", new, commit)
    git.run("update-index", "--add", "--", "index.md")
    return new


def _clear_journal(home: Home) -> None:
    try:
        os.unlink(_journal_path(home))
    except FileNotFoundError:
        pass


def recover(home: Home, git: Git, config: Config) -> bool:
    """Finish a sync a crash interrupted while it moved memory/; True if there was one."""
    try:
        journal = json.loads(boundedfile.read_text(_journal_path(home)))
        old, target, own = str(journal["old"]), str(journal["target"]), bool(journal["own"])
        preserved: dict[str, str | None] = dict(journal.get("preserved", {}))
    except FileNotFoundError:
        return False
    except (ValueError, KeyError, TypeError, boundedfile.Refused):
        _clear_journal(home)
        return False
    _clear_stale_locks(git.repo, 0.0)
    head = git.out("rev-parse", "HEAD")
    if head in (old, target):
        git.run("update-index", "-q", "--refresh", check=False)
        git.run("read-tree", "--reset", "-u", target)
        _restore(git.repo, preserved)
        if head == old:
            git.run("update-ref", "-m", "wikimem sync: recover", "HEAD", target, old)
        regenerate_index(git, config, target, own)
    _clear_journal(home)
    _reindex(home, _diff_names(git, old, "HEAD"))
    return True


def _clear_stale_locks(repo: str, min_age: float) -> None:
    """Lock files git leaves when it is killed: they would refuse every later git command.
    Only ones older than `min_age` (0 after a crash of our own, under our locks)."""
    gitdir = os.path.join(repo, ".git")
    candidates = [os.path.join(gitdir, n) for n in ("index.lock", "HEAD.lock", "packed-refs.lock")]
    for dirpath, _, files in os.walk(os.path.join(gitdir, "refs")):
        candidates += [os.path.join(dirpath, f) for f in files if f.endswith(".lock")]
    now = time.time()
    for path in candidates:
        try:
            if now - os.stat(path).st_mtime >= min_age:
                os.unlink(path)
        except FileNotFoundError:
            continue


def _reindex(home: Home, paths: list[str]) -> None:
    if not paths:
        return
    from wikimem.recall.index import open_index

    existing = [
        p for p in paths if is_note_path(p) and os.path.exists(os.path.join(home.memory_dir, p))
    ]
    dirs = sorted({os.path.dirname(p) for p in paths if os.path.dirname(p)})
    try:
        index = open_index(home.state_dir, home.memory_dir)
        try:
            index.refresh(paths=existing, dirs=dirs)
        finally:
            index.close()
    except (sqlite3.Error, OSError):
        pass  # derived data: the next query rebuilds it


# -- pushing ------------------------------------------------------------------------------------


def _to_push(
    git: Git,
    config: Config,
    ch: Channel,
    head: str,
    theirs: str | None,
    last: record.ChannelRecord | None,
) -> str | None:
    """The commit to push, or None when the remote already has everything."""
    if not ch.filtered:
        if theirs == head or (theirs is not None and _ancestor(git, head, theirs)):
            return None
        return head
    # A filtered remote gets an export commit: what this channel carries from here, and
    # whatever else the remote holds (a teammate's own files) as it is there.
    keep = ch.carries
    mine = filter_tree(git, tree_of(git, head), keep)
    if theirs is not None:
        rest = filter_tree(git, tree_of(git, theirs), lambda name: not keep(name))
        tree = _union_trees(git, mine, rest)
        if tree == tree_of(git, theirs):
            return None
    else:
        tree = mine
        if tree == empty_tree(git):
            return None  # nothing this remote carries exists yet
    since = last.last_local if last is not None and last.last_local else ""
    subjects = git.out(
        "log",
        "--no-merges",
        "-n",
        "30",
        "--format=- %s",
        *([f"{since}..{head}"] if since and _ancestor(git, since, head) else [head]),
    )
    author = git.author
    message = _message(
        f"sync: from {machine_name(config)} ({author.name})", subjects.splitlines(), config
    )
    parents = ["-p", theirs] if theirs else []
    return git.out("commit-tree", tree, *parents, input=message)


def _union_trees(git: Git, a: str, b: str) -> str:
    entries = {}
    for tree in (b, a):  # a wins on a name in both
        for entry in git.out("ls-tree", "-z", tree).split("\0"):
            if entry:
                entries[entry.split("\t", 1)[1]] = entry
    return git.out("mktree", "-z", input="".join(e + "\0" for e in entries.values()))


def _pause_after_a_lost_race(attempt: int) -> None:
    """A random pause that grows with the rounds lost, so that machines which keep pushing at
    the same moment drift apart instead of colliding again."""
    time.sleep(random.uniform(0.05, min(PUSH_PAUSE_MAX, 0.2 * 2 ** min(attempt, 5))))


# A push another push got in front of: refused as not a fast-forward, or (two pushes at the very
# same moment) the remote could not take the lock on, or move, the branch.
_RACE = (
    "[rejected]",
    "non-fast-forward",
    "fetch first",
    "cannot lock ref",
    "failed to update ref",
    "failed to lock",
    "incorrect old value",
    "stale info",
)


def _push(git: Git, ch: Channel, branch: str, commit: str) -> bool:
    """Push `commit` as the remote's branch; False when the remote moved on meanwhile."""
    proc = git.run(
        "push",
        "--progress",
        "--porcelain",
        ch.url,
        f"{commit}:refs/heads/{branch}",
        check=False,
        network=True,
    )
    if proc.returncode == 0:
        return True
    text = proc.stdout + proc.stderr
    if any(sign in text for sign in _RACE):
        return False
    raise classify(GitFailed(("push",), proc.returncode, proc.stderr or proc.stdout), ch.url)
