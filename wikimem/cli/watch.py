"""`wikimem watch`: commit and re-index hand edits of memory/ as they happen."""

from __future__ import annotations

import json
import os
import signal
import sys
from types import FrameType
from typing import Annotated

import typer

from wikimem.cli.common import (
    HomeOption,
    JsonOption,
    console,
    err_console,
    handle_errors,
    initialised_home,
)


def register(app: typer.Typer) -> None:
    @app.command()
    @handle_errors
    def watch(
        claude_auto_memory: Annotated[
            bool,
            typer.Option(
                "--claude-auto-memory",
                help="Also import Claude Code's auto memory (~/.claude/projects/*/memory) as it changes.",
            ),
        ] = False,
        debounce: Annotated[
            float,
            typer.Option(
                "--debounce", min=0.0, help="Seconds of quiet before a pass (editors save often)."
            ),
        ] = 2.0,
        once: Annotated[
            bool, typer.Option("--once", help="Commit what is pending now, then exit.")
        ] = False,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Commit hand edits of memory/ through the gate and keep the search index fresh.

        An edit the gate refuses is reported (once) and left uncommitted. Stop with Ctrl-C."""
        from wikimem.importers.claude_auto_memory import config_dir
        from wikimem.watch.watcher import Report, Watcher

        the_home = initialised_home(home)
        failed = False

        def show(report: Report) -> None:
            nonlocal failed
            failed = failed or report.kind in ("invalid", "error")
            if json_out:
                sys.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False) + "\n")
                sys.stdout.flush()
                return
            target = err_console if report.kind in ("invalid", "warning", "error") else console
            label = {"invalid": "not committed"}.get(report.kind, report.kind)
            detail = f" {report.commit[:10]}" if report.commit else ""
            target.print(f"{label}{detail}: {report.message}", markup=False, highlight=False)
            for path in report.paths if report.kind != "invalid" else ():
                target.print(f"  {path}", markup=False, highlight=False)

        claude = os.path.join(config_dir(), "projects") if claude_auto_memory else None
        watcher = Watcher(the_home, debounce=debounce, claude_dir=claude, on_report=show)
        if once:
            watcher.stop()
            watcher.run()  # the first pass only
            if failed:
                raise typer.Exit(1)
            return

        def stop(signum: int, frame: FrameType | None) -> None:
            watcher.stop()

        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        if not json_out:
            err_console.print(
                f"watching {the_home.memory_dir}"
                + (f" and {claude}" if claude else "")
                + " (Ctrl-C to stop)",
                markup=False,
                highlight=False,
            )
        try:
            watcher.run()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if json_out:
            sys.stdout.write(json.dumps({"kind": "stopped", "message": "stopped"}) + "\n")
        else:
            err_console.print("stopped", markup=False)
