"""`wikimem import <source>`: other agents' own memories, brought into the wiki through the gate."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from wikimem.cli.common import (
    HomeOption,
    JsonOption,
    console,
    err_console,
    handle_errors,
    initialised_home,
)
from wikimem.cli.output import print_json
from wikimem.cli.progress import enabled_for, shown

if TYPE_CHECKING:  # each command imports what it uses: start-up stays light
    from wikimem.importers.mirror import ImportResult, Scan

import_app = typer.Typer(
    name="import",
    help="Bring other agents' own memories into the wiki (through the gate, idempotent).",
    no_args_is_help=True,
)


# On a terminal, an import that wrote more notes than this says so in one summary line.
LISTED_ON_A_TERMINAL = 10


def _report(result: ImportResult, json_out: bool, seconds: float | None = None) -> None:
    """What the import did; `seconds` given (a terminal), one summary line for many notes."""
    data = result.as_dict()
    if json_out:
        print_json(data)
    else:
        written = data["written"]
        listed = seconds is None or len(written) <= LISTED_ON_A_TERMINAL
        for w in written if listed else ():
            console.print(f"{w['operation']}d {w['path']}", markup=False)
        if result.commit:
            counts: dict[str, int] = {}
            for w in written:
                counts[w["operation"]] = counts.get(w["operation"], 0) + 1
            what = ", ".join(f"{n} {op}d" for op, n in counts.items())
            took = f" in {seconds:.1f} s" if seconds is not None else ""
            more = "" if listed else " (`wikimem diff` lists them)"
            console.print(
                f"committed {result.commit[:10]}"
                + (f": {what}{took}{more}" if seconds is not None else ""),
                markup=False,
            )
        elif not data["blocked"]:
            console.print(
                f"nothing new ({result.unchanged} note(s) already up to date)", markup=False
            )
        for s in data["skipped"]:
            err_console.print(f"skipped {s['path']}: {s['reason']}", markup=False)
        for b in data["blocked"]:
            err_console.print(f"blocked: {b['reason']}", markup=False)
        for w in data["warnings"]:
            err_console.print(f"warning: {w}", markup=False)
    if data["blocked"] and not data["written"]:
        raise typer.Exit(1)


def _run(home: str | None, name: str, read: Callable[[], Scan], json_out: bool) -> None:
    from wikimem.importers.mirror import apply
    from wikimem.wiki.batch import Wiki

    wiki = Wiki(initialised_home(home))
    started = time.monotonic()
    on_terminal = enabled_for(json_out)
    with shown(on_terminal, f"reading {name}") as progress:
        scan = read()
        result = apply(wiki, name, scan, progress)
    _report(result, json_out, time.monotonic() - started if on_terminal else None)


DirOption = Annotated[
    str | None,
    typer.Option("--dir", help="Where to read from (default: the agent's own location)."),
]


@import_app.command("claude-auto-memory")
@handle_errors
def claude_cmd(
    dir: DirOption = None, home: str | None = HomeOption, json_out: bool = JsonOption
) -> None:
    """Claude Code's auto memory: ~/.claude/projects/*/memory/*.md (MEMORY.md is not copied)."""
    from wikimem.importers import claude_auto_memory

    initialised_home(home)  # before reading anything
    _run(home, claude_auto_memory.NAME, lambda: claude_auto_memory.scan(dir), json_out)


@import_app.command("codex-memories")
@handle_errors
def codex_cmd(
    dir: DirOption = None, home: str | None = HomeOption, json_out: bool = JsonOption
) -> None:
    """Codex CLI's memories: ~/.codex/memories/ (memory_summary.md and MEMORY.md)."""
    from wikimem.importers import codex_memories

    initialised_home(home)
    _run(home, codex_memories.NAME, lambda: codex_memories.scan(dir), json_out)


@import_app.command("gemini-memories")
@handle_errors
def gemini_cmd(
    dir: Annotated[
        str | None,
        typer.Option(
            "--dir",
            help="A GEMINI.md (or a folder holding one) to read instead of ~/.gemini/GEMINI.md.",
        ),
    ] = None,
    home: str | None = HomeOption,
    json_out: bool = JsonOption,
) -> None:
    """Gemini CLI's saved memories: the `## Gemini Added Memories` section of ~/.gemini/GEMINI.md."""
    from wikimem.importers import gemini_memories

    initialised_home(home)
    _run(home, gemini_memories.NAME, lambda: gemini_memories.scan(dir), json_out)


@import_app.command("qwen-memories")
@handle_errors
def qwen_cmd(
    dir: Annotated[
        str | None,
        typer.Option(
            "--dir", help="A QWEN.md (or a folder holding one) to read instead of ~/.qwen/QWEN.md."
        ),
    ] = None,
    home: str | None = HomeOption,
    json_out: bool = JsonOption,
) -> None:
    """Qwen Code's saved memories: the `## Qwen Added Memories` section of ~/.qwen/QWEN.md."""
    from wikimem.importers import qwen_memories

    initialised_home(home)
    _run(home, qwen_memories.NAME, lambda: qwen_memories.scan(dir), json_out)


@import_app.command("cursor-rules")
@handle_errors
def cursor_cmd(
    project_dir: Annotated[
        str | None,
        typer.Option(
            "--project-dir", help="The project whose .cursor/rules/ to read (default: cwd)."
        ),
    ] = None,
    home: str | None = HomeOption,
    json_out: bool = JsonOption,
) -> None:
    """Cursor's rules: a project's .cursor/rules/*.mdc (and .cursorrules), and ~/.cursor/rules/."""
    from wikimem.importers import cursor_rules

    initialised_home(home)
    _run(home, cursor_rules.NAME, lambda: cursor_rules.scan(project_dir), json_out)


def register(app: typer.Typer) -> None:
    app.add_typer(import_app)
