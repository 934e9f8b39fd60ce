"""The memory home: where config, events, the wiki and machine-local state live.

Contract: `$WIKIMEM_HOME`, else `~/.wikimem`, unless a command is given `--home DIR`. `events/`
and `state/` are private to the user (0700 directories, 0600 files); `memory/` is the wiki.

Hook-path module: standard library only, and no pathlib (it costs milliseconds to import).
"""

from __future__ import annotations

import os

DEFAULT_HOME = "~/.wikimem"
ENV_VAR = "WIKIMEM_HOME"


class Home:
    """Paths of one memory home. Immutable; cheap to build (no filesystem access)."""

    __slots__ = ("root",)
    root: str

    def __init__(self, root: str) -> None:
        object.__setattr__(self, "root", os.path.abspath(os.path.expanduser(root)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Home is immutable")

    def __repr__(self) -> str:
        return f"Home({self.root!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Home) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    @property
    def config_path(self) -> str:
        return os.path.join(self.root, "config.toml")

    @property
    def events_dir(self) -> str:
        return os.path.join(self.root, "events")

    @property
    def memory_dir(self) -> str:
        return os.path.join(self.root, "memory")

    @property
    def state_dir(self) -> str:
        return os.path.join(self.root, "state")

    @property
    def errors_log(self) -> str:
        return os.path.join(self.root, "state", "errors.log")

    def state(self, *parts: str) -> str:
        return os.path.join(self.root, "state", *parts)


def resolve_home(explicit: str | None = None) -> Home:
    """The home named by `--home`, else `$WIKIMEM_HOME`, else `~/.wikimem`."""
    if explicit:
        return Home(explicit)
    env = os.environ.get(ENV_VAR)
    return Home(env if env else DEFAULT_HOME)
