"""The `wikimem` command line (docs/overview.md): typer + rich, one module per verb group.

Only this package imports typer and rich; the core returns values. Every user-facing failure is
a `WikimemError`, printed as one line on stderr with exit code 1 (no traceback); bad usage exits 2
(typer's own handling, and arguments that are not valid UTF-8). Text that came from outside
(messages, note paths, git output) is never read as rich markup.

Every command that uses a home gets it from `home_of` or `initialised_home` (`wikimem.cli.common`,
with the options, the consoles and `handle_errors`), which check
config.toml: a malformed config is refused by every command with the same one-line message
(`doctor` reports it among its checks, `uninstall` works regardless, and the hook, which never
comes through here, falls back to the defaults).

Start-up: importing this package and its verb modules loads typer and nothing heavy. Each verb
imports what it needs (the wiki, the dream, the demo, rich's tables and markdown) inside its
command function, and the consoles are made on first use, so `wikimem --version`, `--help` and
`status` do not pay for the rest (`bench/cli_startup.py`; `tests/test_cli_startup.py`).
"""

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
    from wikimem.cli import demo, dream, evaluate, importers, mcp, recall, setup, watch, wiki
    from wikimem.cli import sync as sync_cli

    setup.register(app)
    setup.register_doctor(app)
    wiki.register(app)
    dream.register(app)
    recall.register(app)
    demo.register(app)
    mcp.register(app)
    importers.register(app)
    watch.register(app)
    sync_cli.register(app)
    evaluate.register(app)


_register()
