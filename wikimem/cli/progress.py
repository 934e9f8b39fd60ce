"""Long work shown on a terminal: rich's progress display, then one summary line.

Contract: `shown(enabled)` is a context manager giving a `wikimem.progress.Progress` callback.
Enabled (the command's output goes to a terminal and is not `--json`), it draws one line with a
spinner, what the work is doing now, a bar and `done/total` when the work can count, and the time
since it started; the line is gone when the work ends, so the terminal keeps only the command's
own summary. Disabled, the callback does nothing: pipes and `--json` stay free of it.
`ticking=False` redraws only when the work reports a step, never in between: for work during
which another program may ask the person something on the terminal (git asking for an ssh
passphrase while it fetches), whose question a redraw would wipe.
`enabled_for(json_out)` is the usual rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from wikimem.cli.common import console, itself
from wikimem.progress import Progress, quiet


def enabled_for(json_out: bool) -> bool:
    return not json_out and console.is_terminal


@contextmanager
def shown(enabled: bool, first: str = "starting", *, ticking: bool = True) -> Iterator[Progress]:
    if not enabled:
        yield quiet
        return
    from rich.progress import BarColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Display

    with Display(
        SpinnerColumn(),
        TextColumn("{task.description}", markup=False),  # a path or a URL is not markup
        BarColumn(),
        TextColumn("{task.fields[count]}", markup=False),
        TimeElapsedColumn(),
        console=itself(console),
        transient=True,
        auto_refresh=ticking,
    ) as display:
        task = display.add_task(first, total=None, count="")

        def update(what: str, done: int = 0, total: int | None = None) -> None:
            count = f"{done:,}/{total:,}" if total else (f"{done:,}" if done else "")
            display.update(task, description=what, completed=done, total=total, count=count)
            if not ticking:
                display.refresh()

        yield update
