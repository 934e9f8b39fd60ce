"""Project identity: a slug stable across machines and clone paths.

Contract: `project_slug(cwd)` is derived from the git remote `origin` of the repository holding
`cwd` (`git@github.com:acme/api.git` and `https://github.com/acme/api` both give `acme-api`),
else from the repository root's directory name, else from the cwd's own name. Sub-directories
belong to their repository's project. A slug is at most 64 characters (`bounded`).

Hook-path module: standard library only, and no subprocess: the repository is found by walking up
the directory tree and `.git/config` is read directly, which costs a few stat calls. Each file is
read through `wikimem.boundedfile` within a small bound (a folder an agent works in is anyone's:
a `.git` file can name a git dir whose config is /dev/zero or a FIFO); one refused counts as
absent.
"""

from __future__ import annotations

import os

from wikimem import boundedfile

_MAX_DEPTH = 64
GITFILE_LIMIT = 64 * 1024  # a `.git` file or `commondir`: one path
CONFIG_LIMIT = 4 * 1024 * 1024  # a repository's config: kilobytes, even with many remotes
MAX_SLUG = 64  # a slug is a folder name in memory/: long names are cut, with a hash kept unique


def bounded(slug: str) -> str:
    """`slug` cut to MAX_SLUG characters, ending in a short hash of the whole when cut (a folder
    name over 255 bytes cannot exist, and would stop every dream)."""
    if len(slug) <= MAX_SLUG:
        return slug
    import zlib  # only for the rare long name: keeps the hook's imports small

    tag = f"{zlib.crc32(slug.encode()):08x}"
    return slug[: MAX_SLUG - len(tag) - 1].rstrip("-") + "-" + tag


def slugify(text: str) -> str:
    """Lower-case kebab-case: runs of anything but [a-z0-9] become one hyphen; a name Windows
    reserves (`aux`, `con`: a folder no clone of memory/ could hold there) gets `-project`."""
    out = []
    dash = False
    for ch in text.lower():
        if ("a" <= ch <= "z") or ("0" <= ch <= "9"):
            out.append(ch)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    slug = "".join(out).strip("-")
    if len(slug) > 4:  # a reserved name in kebab-case is at most 4 characters (com1): no import
        return slug
    from wikimem.wiki import portable

    return portable.avoid(slug, "project")


def find_repo_root(cwd: str) -> tuple[str, str] | None:
    """(work tree root, git dir) of the repository containing cwd, or None."""
    path = os.path.abspath(cwd)
    for _ in range(_MAX_DEPTH):
        dot_git = os.path.join(path, ".git")
        if os.path.isdir(dot_git):
            return path, dot_git
        if os.path.isfile(dot_git):  # worktree or submodule: "gitdir: <path>"
            gitdir = _read_gitdir_file(dot_git, path)
            if gitdir:
                return path, gitdir
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent
    return None


def _read_gitdir_file(dot_git: str, base: str) -> str | None:
    try:
        text = boundedfile.read_text(dot_git, GITFILE_LIMIT, errors="replace")
    except OSError:
        return None
    line = text.split("\n", 1)[0].strip()
    if not line.startswith("gitdir:"):
        return None
    gitdir = os.path.join(base, line[len("gitdir:") :].strip())
    # A linked worktree keeps its config in the main repository: follow `commondir`.
    try:
        common = boundedfile.read_text(
            os.path.join(gitdir, "commondir"), GITFILE_LIMIT, errors="replace"
        )
    except OSError:
        return os.path.normpath(gitdir)
    return os.path.normpath(os.path.join(gitdir, common.strip()))


def origin_url(git_dir: str) -> str | None:
    """The `url` of `[remote "origin"]` in git_dir/config, read without git."""
    try:
        text = boundedfile.read_text(
            os.path.join(git_dir, "config"), CONFIG_LIMIT, errors="replace"
        )
    except OSError:
        return None
    lines = text.splitlines()
    in_origin = False
    for raw in lines:
        line = raw.strip()
        if line.startswith("["):
            header = line.strip("[]").strip()
            in_origin = header.replace(" ", "") in ('remote"origin"', "remote.origin")
            continue
        if in_origin and "=" in line:
            key, _, value = line.partition("=")
            if key.strip().lower() == "url":
                return value.strip().strip('"') or None
    return None


def slug_from_remote(url: str) -> str | None:
    """`owner-name` from any common remote URL form; None if nothing usable remains."""
    rest = url.strip()
    if "://" in rest:
        rest = rest.split("://", 1)[1]
        rest = rest.split("/", 1)[1] if "/" in rest else ""  # drop user@host:port
    elif ":" in rest and not rest.startswith("/"):
        rest = rest.split(":", 1)[1]  # scp-like: git@host:owner/name.git
    rest = rest.split("?", 1)[0].split("#", 1)[0].strip("/")
    if rest.endswith(".git"):
        rest = rest[:-4]
    segments = [s for s in rest.split("/") if s and s not in (".", "..")]
    if not segments:
        return None
    slug = slugify("-".join(segments[-2:]))
    return slug or None


def project_slug(cwd: str | None, read_git: bool = True) -> str:
    """The slug of the project holding `cwd`; without `read_git`, from the folder's name alone
    (what the hook falls back to when the git files cannot be read in time)."""
    return bounded(_project_slug(cwd, read_git))


def _project_slug(cwd: str | None, read_git: bool = True) -> str:
    if not cwd:
        return "unknown"
    found = find_repo_root(cwd) if read_git else None
    if found:
        root, git_dir = found
        url = origin_url(git_dir)
        if url:
            slug = slug_from_remote(url)
            if slug:
                return slug
        return slugify(os.path.basename(root)) or "unknown"
    return slugify(os.path.basename(os.path.abspath(cwd))) or "unknown"
