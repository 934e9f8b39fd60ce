"""`wikimem` console entry: the hook verb is dispatched before anything heavy is imported.

`wikimem hook <client>` must stay on the standard library (it runs per agent event), so the typer/rich CLI is
imported only for the other verbs; `--version` and `status` are answered before typer too
(`wikimem.cli.quick`).
"""

from __future__ import annotations

import sys


def main() -> None:
    argv = sys.argv[1:]
    # `wikimem hook --help` is for a person: typer prints it (a harness never passes --help)
    if argv and argv[0] == "hook" and not {"--help", "-h"} & set(argv[1:]):
        from wikimem.capture.hook import main as hook_main

        sys.exit(hook_main(argv[1:]))
    from wikimem.cli.output import end_quietly_on_a_closed_pipe, tolerate_narrow_encodings
    from wikimem.cli.quick import answer

    tolerate_narrow_encodings()
    end_quietly_on_a_closed_pipe()
    if (code := answer(argv)) is not None:
        sys.exit(code)
    from wikimem.cli.commands import app

    app(prog_name="wikimem")


if __name__ == "__main__":
    main()
