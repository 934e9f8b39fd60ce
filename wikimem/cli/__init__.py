"""The `wikimem` command line (DESIGN §3): typer + rich, one module per verb group.

Only this package imports typer and rich; the core returns values. Every user-facing failure is
a `WikimemError`, printed as one line on stderr with exit code 1 (no traceback); bad usage exits 2
(typer's own handling).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from wikimem.errors import WikimemError
from wikimem.home import Home, resolve_home

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    name="wikimem",
    help="One shared, portable memory for every coding agent you use.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)

HomeOption = typer.Option(
    None, "--home", help="Memory home (default: $WIKIMEM_HOME or ~/.wikimem)."
)
JsonOption = typer.Option(False, "--json", help="Print machine-readable JSON.")


def home_of(value: str | None) -> Home:
    return resolve_home(value)


def fail(message: str, code: int = 1) -> typer.Exit:
    err_console.print(
        f"[bold red]error:[/] {message}", markup=True, highlight=False, soft_wrap=True
    )
    return typer.Exit(code)


def handle_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """WikimemError (and a few OS-level failures) become one line on stderr and exit 1."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except WikimemError as exc:
            raise fail(str(exc)) from None
        except PermissionError as exc:
            raise fail(f"permission denied: {exc.filename or exc}") from None
        except KeyboardInterrupt:
            raise fail("interrupted", 130) from None
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise  # typer's own exits and usage errors keep their meaning
        except Exception as exc:
            if os.environ.get("WIKIMEM_DEBUG"):
                raise
            raise fail(
                f"internal error: {exc.__class__.__name__}: {exc} (WIKIMEM_DEBUG=1 shows the traceback)"
            ) from None

    return wrapper


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def _register() -> None:
    from wikimem.cli import demo, dream, mcp, recall, setup, wiki
    from wikimem.cli import sync as sync_cli

    setup.register(app)
    setup.register_doctor(app)
    wiki.register(app)
    dream.register(app)
    recall.register(app)
    demo.register(app)
    mcp.register(app)
    sync_cli.register(app)


_register()
