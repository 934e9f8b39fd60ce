"""Creating a memory home (`wikimem init`; the layout: docs/architecture.md).

Contract: `init_home(home)` makes `config.toml` (commented defaults), `events/` and `state/`
(0700, files 0600), and `memory/` as a git repository with a first commit holding `index.md`.
It is idempotent: a second run changes nothing and reports so. An unusable path (a file, a
read-only directory) raises `HomeError` with a one-line reason and leaves nothing half made.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from wikimem.config import ConfigError, default_config_text, load_config
from wikimem.errors import WikimemError
from wikimem.fsutil import atomic_write
from wikimem.home import Home
from wikimem.wiki.plainfile import is_plain

MEMORY_GITIGNORE = """\
# An editor's own state, not memory: Obsidian's settings and workspace, its trash, Finder's files.
# The notes themselves are shared.
.obsidian/
.trash/
.DS_Store
"""


class HomeError(WikimemError):
    """The home cannot be created or used."""


@dataclass(frozen=True)
class InitResult:
    home: Home
    created: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return bool(self.created)


def _check_usable(home: Home) -> None:
    root = home.root
    probe = root
    while not os.path.exists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    if not os.path.isdir(probe):
        raise HomeError(f"cannot use {root}: {probe} is not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise HomeError(f"cannot use {root}: {probe} is not writable")
    for sub in (home.events_dir, home.state_dir, home.memory_dir):
        if os.path.exists(sub) and not os.path.isdir(sub):
            raise HomeError(f"cannot use {root}: {sub} exists and is not a directory")
    if os.path.exists(home.config_path) and not os.path.isfile(home.config_path):
        raise HomeError(f"cannot use {root}: {home.config_path} is not a file")


class NotInitialised(HomeError):
    """A command that reads or writes memory ran before `wikimem init`."""


def is_initialised(home: Home) -> bool:
    return os.path.isdir(os.path.join(home.memory_dir, ".git"))


def require_initialised(home: Home) -> Home:
    """`home`, or NotInitialised: nothing may be written (or reported as empty) before init."""
    if not is_initialised(home):
        raise NotInitialised(f"{home.root} is not initialised: run `wikimem init` first")
    return home


def init_home(home: Home) -> InitResult:
    _check_usable(home)
    created: list[str] = []
    for path in (home.root, home.events_dir, home.state_dir):
        if not os.path.isdir(path):
            os.makedirs(path, mode=0o700, exist_ok=True)
            created.append(path)
        os.chmod(path, 0o700)
    if not os.path.exists(home.config_path):
        fd = os.open(home.config_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(default_config_text())
        created.append(home.config_path)
    try:
        config = load_config(home)
    except ConfigError as exc:
        raise HomeError(str(exc)) from exc  # the message names the file
    created.extend(_init_memory(home, config))
    from wikimem.wiki import pins

    # From now on a pin counts only when set here (notes adopted from an existing vault are the
    # person's own, and count): a pin that arrives later from a remote does not.
    pins.seed(home.state_dir, home.memory_dir)
    from wikimem.wiki import origins

    # Likewise whose each line is (docs/security.md): the notes adopted here are the person's;
    # from now on a line is theirs only when it enters through them on this machine.
    origins.seed(home.state_dir, home.memory_dir)
    index_path = home.state("index.sqlite3")
    if not os.path.exists(index_path):
        from wikimem.recall.index import open_index

        index = open_index(home.state_dir, home.memory_dir)  # the first prompt finds it warm
        try:
            index.refresh()
        finally:
            index.close()
        created.append(index_path)
    return InitResult(home=home, created=tuple(created))


def _init_memory(home: Home, config: object) -> list[str]:
    from wikimem.config import Config
    from wikimem.wiki.gitstore import GitError, Store
    from wikimem.wiki.indexmd import write_index

    assert isinstance(config, Config)
    created = []
    fresh = not os.path.isdir(os.path.join(home.memory_dir, ".git"))
    try:
        store = Store.init(home.memory_dir, config.git)
    except GitError as exc:
        raise HomeError(str(exc)) from exc
    if fresh:
        created.append(home.memory_dir)
    if store.has_commits():
        return created
    ignore = os.path.join(home.memory_dir, ".gitignore")
    if not os.path.lexists(ignore) or os.path.islink(ignore):
        atomic_write(ignore, MEMORY_GITIGNORE)  # replaces a link, never writes through it
    # Notes already in the folder (an existing vault) are adopted in the first commit.
    adopted = existing_notes(home.memory_dir)
    write_index(home.memory_dir, fresh=adopted)
    from wikimem.sync.registration import install as install_merge_driver

    attributes = install_merge_driver(home.memory_dir)  # a plain `git pull` merges notes too
    store.commit(
        [".gitignore", *attributes, "index.md", *adopted],
        "init: wikimem memory\n\nWikimem-Source: init",
    )
    created.append(os.path.join(home.memory_dir, "index.md"))
    return created


def existing_notes(memory_dir: str) -> list[str]:
    found = []
    for dirpath, dirnames, filenames in os.walk(memory_dir):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            rel = os.path.relpath(os.path.join(dirpath, name), memory_dir)
            if name.endswith(".md") and name != "index.md" and is_plain(memory_dir, rel):
                found.append(rel)
    return sorted(found)
