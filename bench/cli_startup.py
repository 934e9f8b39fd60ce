"""CLI start-up: every `wikimem` verb's `--help`, and a few real fast commands, against
`python -c "import typer, rich"` (the floor any typer + rich command line pays).

Budget: `wikimem --version` and `wikimem status` at most ~1.5x that floor. A verb that imports
its heavy modules (GitPython, the dream runner, the demo, watchdog, the MCP SDK) at start-up
pays for them even to print its help; each verb imports them inside its command function.

Every verb is found in the typer app itself, so a new verb is measured without editing this
file. The real commands run against an initialised, empty home in a temporary directory, with
bytecode compiled as an installed package has it (a warm-up run per case writes it).

    python bench/cli_startup.py [--runs 9] [--only=status,list] [--src DIR] [--check]

`--src DIR` runs the wikimem source tree at DIR (`python -c "from wikimem.__main__ import
main; main()"` with PYTHONPATH=DIR) instead of the console script: how a before/after pair is
measured with one interpreter and one set of installed packages.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import alternate, machine, median_ms, table

BUDGET = 1.5
BUDGETED = ("--version", "status --json", "status")
REPO = Path(__file__).resolve().parents[1]
BASE = "python -c 'import typer, rich'"
# The least any typer subcommand with a string option costs: typer (since 0.28) checks every
# option value that is not a flag with a pydantic TypeAdapter, so it imports pydantic even when
# the option is not given. Measured for reference; it is typer's cost, not wikimem's.
OPTION = "typer command with one str option"
OPTION_CODE = """
import typer
app = typer.Typer()
@app.command()
def main(home: str | None = typer.Option(None, "--home"), json: bool = False) -> None:
    pass
app(["--json"])
"""


def verbs() -> list[list[str]]:
    """Every command path of the app: `["list"]`, `["import", "claude-auto-memory"]`, …"""
    sys.path.insert(0, str(REPO))
    import typer.main

    from wikimem.cli.commands import app

    out: list[list[str]] = []

    def walk(cmd: Any, path: list[str]) -> None:
        if hasattr(cmd, "commands"):  # a group (typer may bring its own copy of click)
            if path:
                out.append(path)
            for name in sorted(cmd.commands):
                walk(cmd.commands[name], [*path, name])
        else:
            out.append(path)

    walk(typer.main.get_command(app), [])
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--only", default="", help="comma-separated case names (prefix match)")
    ap.add_argument("--src", help="a wikimem source tree to run instead of the console script")
    ap.add_argument("--check", action="store_true", help="exit 1 when a budgeted case is over")
    args = ap.parse_args()
    extra_env: dict[str, str] = {}
    if args.src:
        src = os.path.abspath(args.src)
        script = [sys.executable, "-c", "from wikimem.__main__ import main; main()"]
        extra_env["PYTHONPATH"] = src
    else:
        beside = Path(sys.executable).parent / "wikimem"
        found = str(beside) if beside.exists() else shutil.which("wikimem")
        if not found:
            print(
                "no `wikimem` console script next to this interpreter or on PATH", file=sys.stderr
            )
            return 2
        script = [found]
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        env = dict(os.environ, WIKIMEM_HOME=home, HOME=os.path.join(tmp, "user"), **extra_env)
        # Bytecode as an installed package has it (pip compiles on install): each case's
        # warm-up run writes it under a prefix of our own, whatever PYTHONDONTWRITEBYTECODE
        # says, so no run pays for compiling wikimem's sources while typer's come compiled.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
        os.makedirs(env["HOME"])
        import subprocess

        # Run from the temporary directory: `python -c` puts the working directory first on
        # sys.path, and a wikimem checkout there would shadow the tree being measured.
        here = os.getcwd()
        os.chdir(tmp)
        subprocess.run([*script, "init"], env=env, check=True, capture_output=True)
        cases: dict[str, tuple[list[str], bytes]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], b""),
            BASE: ([sys.executable, "-c", "import typer, rich"], b""),
            OPTION: ([sys.executable, "-c", OPTION_CODE], b""),
            "--version": ([*script, "--version"], b""),
            "--help": ([*script, "--help"], b""),
            "status --json": ([*script, "status", "--json"], b""),
            "status": ([*script, "status"], b""),
            "list --json": ([*script, "list", "--json"], b""),
            "search x --json": ([*script, "search", "x", "--json"], b""),
            "log": ([*script, "log"], b""),
        }
        for path in verbs():
            name = " ".join(path) + " --help"
            cases[name] = ([*script, *path, "--help"], b"")
        if args.only:
            wanted = [w.strip() for w in args.only.split(",") if w.strip()]
            cases = {
                k: v
                for k, v in cases.items()
                if k in ("python -c pass", BASE, OPTION) or any(k.startswith(w) for w in wanted)
            }
        try:
            results = alternate(cases, args.runs, env, warmup=1)
        finally:
            os.chdir(here)
    base = median_ms(results[BASE])
    rows = []
    over = []
    for name, samples in results.items():
        ratio = median_ms(samples) / base
        mark = ""
        if name in BUDGETED:
            mark = "ok" if ratio <= BUDGET else "OVER"
            if ratio > BUDGET:
                over.append(name)
        rows.append([name, f"{median_ms(samples):.0f}", f"{ratio:.2f}x", mark])
    what = f"the source tree {args.src}" if args.src else "the `wikimem` console script"
    print(f"CLI start-up of {what}, median of {args.runs} alternating runs ({machine()})")
    print(table(rows, ["command", "median ms", f"vs {BASE}", f"budget {BUDGET}x"]))
    return 1 if args.check and over else 0


if __name__ == "__main__":
    raise SystemExit(main())
