"""How far long work has got, for whoever shows it: the core says, only the command line draws.

A dream over a large backlog, an evaluation, a first sync or import of a large wiki take seconds to
minutes. The functions doing that work take a `Progress` callback and call it at each step:
`progress(what, done, total)`, where `what` says what it is doing now ("consolidating events"),
`done` how many of `total` it has done (`total` None: not known, or not countable). The command
line turns the calls into rich's progress display on a terminal (`wikimem.cli.progress`) and
ignores them otherwise (`--json`, a pipe); the core never prints.

Contract: `Progress` is the callback's type; `quiet` is one that does nothing, the default. A
callback is called from the working thread, is cheap, and must not raise.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str, int, "int | None"], None]


def quiet(what: str, done: int = 0, total: int | None = None) -> None:
    """A `Progress` that shows nothing."""
