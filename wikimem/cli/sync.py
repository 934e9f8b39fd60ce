"""`wikimem sync`: share memory/ through a git remote (docs/sync.md)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from wikimem.cli.common import (
    HomeOption,
    JsonOption,
    console,
    err_console,
    handle_errors,
    home_of,
)
from wikimem.cli.output import print_json
from wikimem.cli.progress import enabled_for, shown

if TYPE_CHECKING:  # the command imports the sync machinery itself: start-up stays light
    from wikimem.sync.procedure import SyncResult

BUSY_WAIT = 120.0  # seconds a `wikimem sync` waits for another sync before giving up


def _show(result: SyncResult, seconds: float | None = None) -> None:
    """What the sync did; on a terminal (`seconds` given) each remote's line says how long the
    whole sync took."""
    if result.recovered:
        console.print("finished a sync that was interrupted", markup=False)
    if result.remembered:
        console.print(f"remote remembered in config.toml: {result.remembered}", markup=False)
    if result.committed:
        console.print(
            f"committed {len(result.committed)} hand edit(s): {', '.join(result.committed)}",
            markup=False,
        )
    for what_removed in result.removed:
        err_console.print(f"removed from memory/: {what_removed}", markup=False)
    for path, reason in result.blocked:
        err_console.print(f"not committed, not pushed: {path}: {reason}", markup=False)
    if result.not_notes:
        shown = ", ".join(result.not_notes[:5]) + (" …" if len(result.not_notes) > 5 else "")
        console.print(
            f"left uncommitted ({len(result.not_notes)} file(s) that are not notes): {shown}",
            markup=False,
        )
    for r in result.remotes:
        what = []
        if r.joined:
            what.append("joined")
        if r.received:
            what.append(f"{len(r.received)} file(s) changed by the merge")
        if r.pushed:
            what.append(f"pushed {r.pushed[:10]}")
        took = f" in {seconds:.1f} s" if seconds is not None else ""
        console.print(f"{r.name} ({r.url}): {', '.join(what) or 'up to date'}{took}", markup=False)
        for path in r.kept_edits:
            console.print(f"  kept {path}: edited on one side, deleted on the other", markup=False)
        for what_refused in r.refused:
            err_console.print(
                f"  refused from the remote: {what_refused} (not checked out)",
                markup=False,
            )
    for path in result.conflicts:
        console.print(
            f"conflict: {path} holds both versions (flagged `conflict: true`; agents are "
            "given the newer one); the next `wikimem dream` settles it: the newer claim is "
            'current, the other kept as "was … until …"',
            markup=False,
        )
    for warning in result.warnings:
        err_console.print(f"warning: {warning}", markup=False)


def register(app: typer.Typer) -> None:
    @app.command("sync")
    @handle_errors
    def sync_cmd(
        remote: Annotated[
            str | None,
            typer.Option(
                "--remote",
                help=(
                    "Git URL or path of the remote; remembered in config.toml ([sync] remote) "
                    "once it answers."
                ),
            ),
        ] = None,
        join: Annotated[
            bool,
            typer.Option(
                "--join",
                help="Merge with a remote whose history is unrelated or was rewritten.",
            ),
        ] = False,
        auto: Annotated[
            bool,
            typer.Option("--auto", hidden=True, help="Started in the background: no prompts."),
        ] = False,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Commit hand edits, pull and merge notes from the remote, push (docs/sync.md)."""
        from wikimem.sync.locking import SyncBusy
        from wikimem.sync.procedure import sync

        the_home = home_of(home)
        if auto:
            from wikimem.sync.auto import run_in_background

            raise typer.Exit(run_in_background(the_home))
        interactive = enabled_for(json_out)
        started = time.monotonic()
        # git may ask for a passphrase or a password on the terminal: no redraw over it
        with shown(interactive, "syncing", ticking=False) as progress:
            try:
                result = sync(
                    the_home, remote=remote, join=join, interactive=interactive, progress=progress
                )
            except SyncBusy:
                # Most often the sync a `remember` started in the background: wait for it.
                progress("waiting for the sync already running", 0, None)
                if not interactive:
                    err_console.print("waiting for the sync already running …", markup=False)
                result = sync(
                    the_home,
                    remote=remote,
                    join=join,
                    interactive=interactive,
                    wait=BUSY_WAIT,
                    progress=progress,
                )
        if json_out:
            print_json(result.as_dict())
        else:
            _show(result, time.monotonic() - started if interactive else None)
