"""What every command of the command line shares: the `--home` and `--json` options, the
consoles (made on first use), the home a command works on, and one way of failing.

Contract: `handle_errors` turns a WikimemError (and a few OS-level failures: a full disk, a
permission refused, an interrupt) into one line on stderr and exit 1; `home_of` and
`initialised_home` give the home with its config.toml checked, so every command refuses a broken
config the same way; `print_json` writes exact JSON whatever the terminal's encoding. Only the
command line imports this (typer; rich on first use).
"""

from __future__ import annotations

import errno
import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, cast

import typer

from wikimem.errors import WikimemError
from wikimem.home import Home, resolve_home
from wikimem.utf8 import is_utf8

if TYPE_CHECKING:
    from rich.console import Console

P = ParamSpec("P")
R = TypeVar("R")


class _LazyConsole:
    """A rich Console made on first use: importing rich.console costs about as much as typer,
    and `wikimem --version` or a `--help` never prints through one."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.itself(), name)

    def itself(self) -> Console:
        """The Console, for what needs the object and not only its attributes (a live display
        enters it as a context manager, which no attribute lookup reaches)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console


def itself(lazy: Console) -> Console:
    """The Console behind one of the module's consoles."""
    return lazy.itself() if isinstance(lazy, _LazyConsole) else lazy


console = cast("Console", _LazyConsole(soft_wrap=True))
err_console = cast("Console", _LazyConsole(stderr=True, soft_wrap=True))

HomeOption = typer.Option(
    None, "--home", help="Memory home (default: $WIKIMEM_HOME or ~/.wikimem)."
)
JsonOption = typer.Option(False, "--json", help="Print machine-readable JSON.")


def home_of(value: str | None) -> Home:
    """The home (`--home`, else $WIKIMEM_HOME, else ~/.wikimem), its config.toml checked."""
    home = resolve_home(value)
    checked_config(home)
    return home


def initialised_home(value: str | None) -> Home:
    """The home, or a one-line error when `wikimem init` has not made it yet; its config.toml
    checked."""
    from wikimem.layout import require_initialised

    home = require_initialised(resolve_home(value))
    checked_config(home)
    return home


def checked_config(home: Home) -> None:
    """ConfigError (one line, exit 1) for a config.toml with an unknown key, a value of the
    wrong type or text that is not TOML: every command refuses it the same way, rather than
    some acting on defaults while others stop. A home without the file (not made yet, or not a
    directory) is left to the command, which says what is wrong with the home itself."""
    if not os.path.isfile(home.config_path):
        return
    from wikimem.config import load_config

    load_config(home)


def fail(message: str, code: int = 1) -> typer.Exit:
    from rich.markup import escape

    err_console.print(
        f"[bold red]error:[/] {escape(message)}", markup=True, highlight=False, soft_wrap=True
    )
    return typer.Exit(code)


def _not_utf8(kwargs: dict[str, Any]) -> str | None:
    """The name of an argument holding bytes that are not UTF-8 (Python keeps them as lone
    surrogates, which nothing downstream can encode)."""
    for name, value in kwargs.items():
        if isinstance(value, str) and not is_utf8(value):
            return name
    return None


def handle_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """WikimemError (and a few OS-level failures) become one line on stderr and exit 1."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        bad = _not_utf8(kwargs)
        if bad is not None:
            raise fail(f"{bad.upper()} is not valid UTF-8 text; check the terminal's encoding", 2)
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
            if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS):
                # A full or read-only disk: said plainly; every write is atomic, nothing is lost.
                where = f" ({exc.filename})" if exc.filename else ""
                raise fail(
                    f"{exc.strerror}{where}; nothing was changed half-way: run it again once "
                    "the disk has room or is writable"
                ) from None
            if os.environ.get("WIKIMEM_DEBUG"):
                raise
            raise fail(
                f"internal error: {exc.__class__.__name__}: {exc} (WIKIMEM_DEBUG=1 shows the traceback)"
            ) from None

    return wrapper
