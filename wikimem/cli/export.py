"""`wikimem export`: a managed memory block in the instruction files agents read."""

from __future__ import annotations

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

if TYPE_CHECKING:
    from wikimem.export.files import Outcome

ToOption = Annotated[
    list[str] | None,
    typer.Option(
        "--to",
        metavar="FILE",
        help="An instruction file (repeatable): AGENTS.md, CLAUDE.md, GEMINI.md, "
        ".cursor/rules/wikimem.mdc, .github/copilot-instructions.md, ~/.codex/AGENTS.md, …",
    ),
]
ExportScopeOption = Annotated[
    str | None,
    typer.Option(
        "--scope",
        help="project (the project's conventions and commands: a repository's files) or user "
        "(your own rules: only a user-level file). Default: user for the files agents read "
        "for every project, project for any other.",
    ),
]

_WORDS = {
    "written": "updated",
    "unchanged": "up to date, nothing changed",
    "current": "up to date",
    "stale": "STALE",
    "removed": "block removed",
    "kept": "block kept",
    "absent": "missing",
    "error": "not updated",
}


def show(outcomes: list[Outcome], json_out: bool) -> None:
    if json_out:
        print_json([o.as_dict() for o in outcomes])
        return
    for o in outcomes:
        what = f"{o.scope}: {o.project}" if o.project else o.scope
        target = err_console if o.state in ("stale", "absent", "error") else console
        line = f"{o.path}: {_WORDS[o.state]}" + (f" ({what})" if what else "")
        target.print(line + (f"; {o.detail}" if o.detail else ""), markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    @app.command("export")
    @handle_errors
    def export_cmd(
        to: ToOption = None,
        check: Annotated[
            bool,
            typer.Option(
                "--check", help="Write nothing; exit 1 when a block is not what export would write."
            ),
        ] = False,
        scope: ExportScopeOption = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Keep a block of memory in instruction files (between markers; nothing else changes).

        `--to FILE` enables a file and writes its block; without it, every enabled file is
        brought up to date. A dream rewrites the enabled files after its commit;
        `wikimem uninstall export` removes the blocks."""
        from wikimem.export import files

        the_home = initialised_home(home)
        if check:
            outcomes = files.check(the_home, to or [], scope)
        else:
            outcomes = files.export(the_home, to or [], scope)
        if not outcomes and not json_out:
            console.print(
                "export is enabled in no file yet: `wikimem export --to AGENTS.md`", markup=False
            )
        show(outcomes, json_out)
        if any(o.state in ("stale", "error") for o in outcomes):
            raise typer.Exit(1)
