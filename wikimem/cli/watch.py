"""`wikimem watch`: commit and re-index hand edits of memory/ as they happen."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable
from types import FrameType
from typing import Annotated, Any

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
        gemini_memories: Annotated[
            bool,
            typer.Option(
                "--gemini-memories",
                help="Also import Gemini CLI's saved memories (~/.gemini/GEMINI.md) as they change.",
            ),
        ] = False,
        qwen_memories: Annotated[
            bool,
            typer.Option(
                "--qwen-memories",
                help="Also import Qwen Code's saved memories (~/.qwen/QWEN.md) as they change.",
            ),
        ] = False,
        cursor_rules: Annotated[
            bool,
            typer.Option(
                "--cursor-rules",
                help="Also import this project's Cursor rules (.cursor/rules/) as they change.",
            ),
        ] = False,
        project_dir: Annotated[
            str | None,
            typer.Option("--project-dir", help="The project for --cursor-rules (default: cwd)."),
        ] = None,
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
        sources = _sources(gemini_memories, qwen_memories, cursor_rules, project_dir)
        watcher = Watcher(
            the_home, debounce=debounce, claude_dir=claude, sources=sources, on_report=show
        )
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
                + "".join(f" and {s.name}" for s in sources)
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


def _sources(gemini: bool, qwen: bool, cursor: bool, project_dir: str | None) -> tuple[Any, ...]:
    """The agents' own memories to import as they change: the folder each lives in (never a
    whole repository: Cursor's rules folder, and the project root for `.cursorrules` alone)."""
    from wikimem.importers import cursor_rules, gemini_memories, qwen_memories
    from wikimem.watch.watcher import Source

    def one_file(path: str) -> Callable[[str], bool]:
        return lambda p: os.path.abspath(p) == path

    out = []
    for wanted, name, default, scan in (
        (gemini, gemini_memories.NAME, gemini_memories.default_file(), gemini_memories.scan),
        (qwen, qwen_memories.NAME, qwen_memories.default_file(), qwen_memories.scan),
    ):
        if wanted:
            path = os.path.abspath(default)
            out.append(Source(name, os.path.dirname(path), False, one_file(path), scan))
    if cursor:
        root = os.path.abspath(project_dir or os.getcwd())

        def rules() -> Any:
            return cursor_rules.scan(root)

        folder = os.path.join(root, ".cursor", "rules")
        out.append(
            Source(
                cursor_rules.NAME,
                root,
                False,
                one_file(os.path.join(root, cursor_rules.LEGACY)),
                rules,
            )
        )
        if os.path.isdir(folder):
            out.append(Source(cursor_rules.NAME, folder, True, lambda p: p.endswith(".mdc"), rules))
    return tuple(out)
