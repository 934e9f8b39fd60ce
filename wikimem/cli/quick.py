"""The verbs answered before typer is imported: `wikimem --version` and `wikimem status`.

A person runs these often and expects them at once; typer and the pydantic it brings cost more
than the work itself (`bench/cli_startup.py`). Contract: `answer(argv)` returns an exit code when
it answered, and None when it did not: any argument it does not know (`--help`, a typo, an option
given twice, text that is not UTF-8), any failure before output starts, or a stdout that cannot
take the answer. The typer app then answers the same argv with its usual messages and exit
codes, so nothing here decides what an error looks like. Output is the typer verb's, byte for
byte: both print through `wikimem.cli.statusview` and `wikimem.cli.output`. Ctrl-C is `error:
interrupted` and exit 130; a reader that went away (a closed pipe) ends it quietly with exit 0,
as for every verb (`wikimem.cli.output.end_quietly_on_a_closed_pipe`).
"""

from __future__ import annotations

import os
import sys

from wikimem import __version__
from wikimem.utf8 import is_utf8

_STATUS_VALUES = ("--home", "--project-dir")


def answer(argv: list[str]) -> int | None:
    if argv == ["--version"]:
        return _write(f"wikimem {__version__}\n")
    if argv[:1] == ["status"]:
        options = _status_options(argv[1:])
        return None if options is None else _status(options)
    return None


def _status_options(args: list[str]) -> dict[str, str] | None:
    """{"--json": "", "--home": H, "--project-dir": D} as given, or None for anything else."""
    found: dict[str, str] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if arg == "--json":
            name, value = arg, ""
        elif name in _STATUS_VALUES and eq:
            pass
        elif arg in _STATUS_VALUES and rest and not rest[0].startswith("-"):
            value = rest.pop(0)
        else:
            return None
        if name in found or not is_utf8(value):
            return None
        found[name] = value
    return found


def _status(options: dict[str, str]) -> int | None:
    from wikimem.config import load_config
    from wikimem.home import resolve_home
    from wikimem.status import collect

    try:
        home = resolve_home(options.get("--home") or None)
        if os.path.isfile(home.config_path):
            load_config(home)  # a broken config: the typer verb refuses it as every command does
        info = collect(home, options.get("--project-dir") or os.getcwd())
        if "--json" in options:
            from wikimem.cli.output import render_json

            text = render_json(info.as_dict())
        else:
            from wikimem.cli.statusview import render

            text = render(info)
    except KeyboardInterrupt:
        return _interrupted()
    except Exception:
        return None
    return _write(text)


def _write(text: str) -> int | None:
    """Write the whole answer; the typer verb's exit codes when the terminal cannot take it."""
    try:
        text.encode(sys.stdout.encoding or "utf-8", sys.stdout.errors or "strict")
    except (AttributeError, LookupError, UnicodeEncodeError):
        return None  # no stdout, or one that cannot show it: the typer verb says so its way
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        # the reader went away (`wikimem status | head -1`): nothing more to say, and Python
        # must not complain about the pipe again when it flushes stdout at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def _interrupted() -> int:
    sys.stderr.write("error: interrupted\n")
    return 130
