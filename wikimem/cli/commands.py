"""The typer app: every verb group registered on one `app` (see `wikimem.cli` for the rules)."""

from __future__ import annotations

import sys

import typer

from wikimem import __version__

app = typer.Typer(
    name="wikimem",
    help="One shared, portable memory for every coding agent you use.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"wikimem {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: bool = typer.Option(
        False,
        "--version",
        help="Print the version and exit.",
        callback=_version,
        is_eager=True,
    ),
) -> None:
    """One shared, portable memory for every coding agent you use."""


def _register() -> None:
    from wikimem.cli import (
        demo,
        dream,
        evaluate,
        export,
        importers,
        mcp,
        recall,
        setup,
        watch,
        wiki,
    )
    from wikimem.cli import sync as sync_cli

    setup.register(app)
    setup.register_doctor(app)
    wiki.register(app)
    dream.register(app)
    recall.register(app)
    demo.register(app)
    mcp.register(app)
    importers.register(app)
    export.register(app)
    watch.register(app)
    sync_cli.register(app)
    evaluate.register(app)


_register()
