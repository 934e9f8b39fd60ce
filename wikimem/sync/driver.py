"""The git merge driver that makes a plain `git pull` in memory/ merge notes as `wikimem sync`.

Run as `python -m wikimem.sync.driver BASE OURS THEIRS PATH` (how `wikimem.sync.registration`
registers it in memory/.git/config), it merges with `wikimem.sync.merge.merge_note` into OURS
and exits 0: a note that cannot be merged keeps both versions, flagged `conflict: true`, rather
than stopping the pull; `index.md` keeps ours (the post-merge hook regenerates it).
`python -m wikimem.sync.driver post-merge` is that hook.
"""

from __future__ import annotations

import os
import sys


def merge_files(base: str, ours: str, theirs: str, path: str) -> int:
    """The driver: merge into `ours`; 0 when done (a conflict is kept in the note, flagged)."""
    from wikimem.sync.merge import merge_note

    def read(p: str) -> str | None:
        try:
            with open(p, encoding="utf-8", errors="surrogateescape", newline="") as fh:
                return fh.read()
        except FileNotFoundError:
            return None

    if path == "index.md":
        return 0  # ours stays; the post-merge hook regenerates it
    merged = merge_note(path, read(base), read(ours), read(theirs), ("ours", "theirs"))
    if merged.text is None:
        return 1  # deleted on both sides is git's to settle, not a driver's
    with open(ours, "w", encoding="utf-8", errors="surrogateescape", newline="") as fh:
        fh.write(merged.text)
    return 0


def post_merge() -> int:
    """Regenerate index.md after a pull: folded into the merge commit the pull just made, or
    committed on top of a fast-forward (wikimem's identity, like every commit)."""
    from wikimem.config import load_config
    from wikimem.home import Home
    from wikimem.sync.git import Git
    from wikimem.sync.procedure import regenerate_index

    memory_dir = os.getcwd()
    home = Home(os.path.dirname(memory_dir))
    _record_arrivals(home, memory_dir)
    try:
        config = load_config(home)
        git = Git(memory_dir, config.git, interactive=False)
        head = git.out("rev-parse", "HEAD")
        merge = len(git.out("rev-list", "--parents", "-n", "1", head).split()) > 2
        regenerate_index(git, config, head, own=merge)
    except Exception as exc:  # a hook must never fail the pull that ran it
        print(f"wikimem: could not regenerate index.md: {exc}", file=sys.stderr)
    return 0


def _record_arrivals(home: object, memory_dir: str) -> None:
    """What the pull brought (ORIG_HEAD to HEAD) is a remote's, with its author
    (`wikimem.wiki.origins`): never the person's, whatever its text says."""
    from wikimem import gitrun
    from wikimem.home import Home
    from wikimem.lock import file_lock
    from wikimem.wiki import origins

    assert isinstance(home, Home)
    if not os.path.isdir(home.state_dir):
        return  # not a wikimem home as laid out by default: nothing of ours to record
    try:
        old = gitrun.run(memory_dir, "rev-parse", "-q", "--verify", "ORIG_HEAD^{commit}")
        new = gitrun.run(memory_dir, "rev-parse", "-q", "--verify", "HEAD^{commit}")
        if old.returncode or new.returncode:
            return
        with file_lock(home.state("memory.lock"), timeout=10):
            origins.remote_arrivals(
                home.state_dir,
                memory_dir,
                old.stdout.decode().strip(),
                new.stdout.decode().strip(),
            )
    except Exception as exc:  # a hook must never fail the pull that ran it
        print(f"wikimem: could not record who brought the pulled lines: {exc}", file=sys.stderr)


def main(argv: list[str]) -> int:
    if argv == ["post-merge"]:
        return post_merge()
    if len(argv) != 4:
        print("usage: python -m wikimem.sync.driver BASE OURS THEIRS PATH", file=sys.stderr)
        return 2
    return merge_files(*argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
