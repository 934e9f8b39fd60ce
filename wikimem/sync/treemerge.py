"""Three-way merge of two trees of memory/, computed off to the side: no working tree touched.

Contract: `merge_trees(git, base, ours, theirs, labels, index_path, edited_at)` reads the three
trees into a temporary index (`git read-tree -m --aggressive`: every path only one side changed is
settled by git), merges each remaining path with `wikimem.sync.merge` (notes by field and claim
line, each side dated by `edited_at(path)` too: when a person's own commit changed it there;
other files as text keeping both sides' lines; `index.md` left as ours for the caller to
regenerate), writes the merged blobs and returns the merged tree with what happened to each
path. Only objects are written, so a crash here leaves the repository as it was.
`filter_tree` keeps or drops top-level entries of a tree (what a filtered remote carries);
`safe_tree` drops what must never be checked out in memory/ (links, submodules, names no file
system holds), whichever side it comes from.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from wikimem import gitrun
from wikimem.sync.git import Git, GitFailed
from wikimem.sync.merge import merge_note, merge_text

ZERO = "0" * 40
INDEX_MD = "index.md"


@dataclass
class TreeMerge:
    tree: str
    conflicts: list[str] = field(default_factory=list)  # notes flagged `conflict: true`
    kept_edits: list[str] = field(default_factory=list)  # edited here, deleted there (or back)
    merged: list[str] = field(default_factory=list)  # changed on both sides, merged cleanly


def empty_tree(git: Git) -> str:
    return git.out("mktree", input="")


def tree_of(git: Git, commit: str) -> str:
    return git.out("rev-parse", f"{commit}^{{tree}}")


def filter_tree(git: Git, tree: str, keep: Callable[[str], bool]) -> str:
    """`tree` with only the top-level entries whose name `keep` accepts."""
    listing = git.out("ls-tree", "-z", tree).strip("\0")
    entries = [e for e in listing.split("\0") if e]
    kept = [e for e in entries if keep(e.split("\t", 1)[1])]
    if len(kept) == len(entries):
        return tree
    return git.out("mktree", "-z", input="".join(e + "\0" for e in kept))


# A path component longer than this cannot be created on common file systems: checking one out
# would fail every later sync.
NAME_MAX_BYTES = 255
LINK_MODE = "120000"
GITLINK_MODE = "160000"


def unsafe_entries(git: Git, tree: str) -> list[tuple[str, str]]:
    """(path, why) of what must never be checked out in memory/: symbolic links (a link pulled
    from a remote would have readers of notes read, index and push its target: a credentials
    file, `~/.bashrc`), submodules, and names no file system holds."""
    listing = git.run("ls-tree", "-r", "-z", "--full-tree", tree).stdout
    found = []
    for entry in listing.split("\0"):
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        mode = meta.split()[0]
        if mode == LINK_MODE:
            found.append((path, "a symbolic link"))
        elif mode == GITLINK_MODE:
            found.append((path, "a submodule"))
        elif any(
            len(part.encode("utf-8", "surrogateescape")) > NAME_MAX_BYTES
            for part in path.split("/")
        ):
            found.append((path, f"a name longer than {NAME_MAX_BYTES} bytes"))
    return found


def without(git: Git, tree: str, paths: Iterable[str], index_path: str) -> str:
    """`tree` with `paths` removed (written through a temporary index: objects only)."""
    names = list(paths)
    if not names:
        return tree
    env = {"GIT_INDEX_FILE": index_path}
    try:
        git.run("read-tree", tree, env=env)
        git.run(
            "update-index",
            "--force-remove",
            "-z",
            "--stdin",
            input="".join(n + "\0" for n in names),
            env=env,
        )
        return git.out("write-tree", env=env)
    finally:
        try:
            os.unlink(index_path)
        except FileNotFoundError:
            pass


def safe_tree(git: Git, tree: str, index_path: str) -> tuple[str, list[tuple[str, str]]]:
    """`tree` without its `unsafe_entries`, and what was left out."""
    unsafe = unsafe_entries(git, tree)
    return without(git, tree, (p for p, _ in unsafe), index_path), unsafe


def read_blobs(git: Git, shas: Iterable[str]) -> dict[str, bytes]:
    """The contents of many blobs through one `git cat-file --batch`."""
    wanted = list(dict.fromkeys(s for s in shas if s))
    if not wanted:
        return {}
    proc = gitrun.run(
        git.repo,
        "cat-file",
        "--batch",
        input=("\n".join(wanted) + "\n").encode(),
        extra=git.settings(),
    )
    if proc.returncode != 0:
        raise GitFailed(("cat-file",), proc.returncode, proc.stderr.decode(errors="replace"))
    out: dict[str, bytes] = {}
    data = proc.stdout
    pos = 0
    for sha in wanted:
        nl = data.index(b"\n", pos)
        header = data[pos:nl].decode().split()
        if len(header) < 3:  # "<sha> missing"
            raise GitFailed(("cat-file",), 1, f"object {sha} is missing")
        size = int(header[2])
        out[sha] = data[nl + 1 : nl + 1 + size]
        pos = nl + 1 + size + 1
    return out


def write_blobs(git: Git, contents: list[bytes]) -> list[str]:
    """Store many blobs through one `git hash-object`; their shas, in order."""
    if not contents:
        return []
    with tempfile.TemporaryDirectory(prefix="wikimem-blobs-") as tmp:
        paths = []
        for i, content in enumerate(contents):
            path = os.path.join(tmp, str(i))
            with open(path, "wb") as fh:
                fh.write(content)
            paths.append(path)
        proc = gitrun.run(
            git.repo,
            *("hash-object", "-w", "--no-filters", "--stdin-paths"),
            input="\n".join(paths).encode() + b"\n",
            extra=git.settings(),
        )
    if proc.returncode != 0:
        raise GitFailed(("hash-object",), proc.returncode, proc.stderr.decode(errors="replace"))
    shas = proc.stdout.decode().split()
    if len(shas) != len(contents):
        raise GitFailed(("hash-object",), 1, "fewer objects written than asked")
    return shas


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "surrogateescape")


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def merge_trees(
    git: Git,
    base: str,
    ours: str,
    theirs: str,
    labels: tuple[str, str],
    index_path: str,
    edited_at: Callable[[str], tuple[str, str]] | None = None,
) -> TreeMerge:
    try:
        os.unlink(index_path)
    except FileNotFoundError:
        pass
    env = {"GIT_INDEX_FILE": index_path}
    git.run("read-tree", "-i", "-m", "--aggressive", base, ours, theirs, env=env)
    listing = git.out("ls-files", "-u", "-z", env=env)
    stages: dict[str, dict[int, tuple[str, str]]] = {}
    for entry in listing.split("\0"):
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        mode, sha, stage = meta.split()
        stages.setdefault(path, {})[int(stage)] = (mode, sha)
    blobs = read_blobs(git, (sha for s in stages.values() for _, sha in s.values()))
    result = TreeMerge(tree="")
    settled: list[tuple[str, str, str | None]] = []
    for path, by_stage in sorted(stages.items()):
        b, o, t = (by_stage.get(n) for n in (1, 2, 3))
        texts = [_text(blobs[x[1]]) if x else None for x in (b, o, t)]
        mode = (o or t or b or ("100644", ""))[0]
        content: str | None
        if path == INDEX_MD:
            content = texts[1] if texts[1] is not None else texts[2]  # regenerated by the caller
        elif path.endswith(".md") and "\0" not in "".join(x or "" for x in texts):
            both = edited_at is not None and texts[1] is not None and texts[2] is not None
            edited = edited_at(path) if both and edited_at is not None else ("", "")
            merged = merge_note(path, texts[0], texts[1], texts[2], labels, edited)
            content = merged.text
            if merged.conflict:
                result.conflicts.append(path)
            elif merged.kept_edit:
                result.kept_edits.append(path)
            else:
                result.merged.append(path)
        elif any(x is not None and "\0" in x for x in texts):
            # A binary file changed on both sides: this machine's stays; the other is in history.
            content = texts[1] if texts[1] is not None else texts[2]
            result.kept_edits.append(path)
        else:
            content = merge_text(texts[0], texts[1], texts[2])
            result.merged.append(path)
        settled.append((path, mode, content))
    shas = iter(write_blobs(git, [_bytes(c) for _, _, c in settled if c is not None]))
    lines: list[str] = []
    for path, mode, content in settled:
        lines.append(f"0 {ZERO} 0\t{path}")
        if content is not None:
            lines.append(f"{mode} {next(shas)} 0\t{path}")
    if lines:
        git.run("update-index", "--index-info", input="\n".join(lines) + "\n", env=env)
    result.tree = git.out("write-tree", env=env)
    try:
        os.unlink(index_path)
    except FileNotFoundError:
        pass
    return result
