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

The typer app is `wikimem.cli.commands.app`; this package itself imports nothing, so the quick
verbs (`wikimem.cli.quick`: `--version`, `status`) answer without typer. Start-up: importing
the app and its verb modules loads typer and nothing heavy. Each verb
imports what it needs (the wiki, the dream, the demo, rich's tables and markdown) inside its
command function, and the consoles are made on first use, so `wikimem --version`, `--help` and
`status` do not pay for the rest (`bench/cli_startup.py`; `tests/test_cli_startup.py`).
"""
