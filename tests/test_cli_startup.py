"""CLI start-up: the command line imports nothing heavy until a verb needs it, and every verb's
help still works (the timings themselves are measured by bench/cli_startup.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from wikimem.cli import app

HEAVY = (
    "git",  # GitPython
    "anthropic",
    "httpx",
    "mcp",
    "watchdog",
    "yaml",
    "frontmatter",
    "wikimem.dream.runner",
    "wikimem.dream.offline",
    "wikimem.demo",
    "wikimem.wiki.gitstore",
    "wikimem.sync.procedure",
)


def loaded_by(code: str, *argv: str, home: Path | None = None) -> set[str]:
    """The modules a fresh interpreter has loaded after `code` (with sys.argv = argv)."""
    script = (
        f"import sys, json\nsys.argv = {['wikimem', *argv]!r}\n"
        f"try:\n    {code}\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('\\n' + json.dumps(sorted(sys.modules)))\n"
    )
    env = dict(os.environ, **({"WIKIMEM_HOME": str(home)} if home else {}))
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60
    )
    modules: list[str] = json.loads(proc.stderr.strip().splitlines()[-1])
    return set(modules)


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in HEAVY if m in modules)


def test_importing_the_cli_imports_nothing_heavy() -> None:
    modules = loaded_by("import wikimem.cli")
    assert "wikimem.cli.wiki" in modules  # the verbs are registered: the measurement works
    assert heavy_in(modules) == []
    assert "rich.console" not in modules  # the consoles are made on first use


@pytest.mark.parametrize("argv", [("--version",), ("--help",), ("list", "--help")])
def test_version_and_help_import_nothing_heavy(argv: tuple[str, ...]) -> None:
    assert heavy_in(loaded_by("from wikimem.__main__ import main; main()", *argv)) == []


def test_status_does_not_import_git_or_the_dream(home: Path) -> None:
    modules = loaded_by("from wikimem.__main__ import main; main()", "status", "--json", home=home)
    assert "wikimem.status" in modules
    # status reads notes through wikimem.wiki.notes, which imports these two (its own concern)
    assert [m for m in heavy_in(modules) if m not in ("yaml", "frontmatter")] == []


def verbs() -> list[list[str]]:
    out: list[list[str]] = []

    def walk(cmd: Any, path: list[str]) -> None:
        if hasattr(cmd, "commands"):
            if path:
                out.append(path)
            for name in sorted(cmd.commands):
                walk(cmd.commands[name], [*path, name])
        else:
            out.append(path)

    walk(typer.main.get_command(app), [])
    return out


@pytest.mark.parametrize("verb", verbs(), ids=" ".join)
def test_every_verb_still_has_its_help(verb: list[str]) -> None:
    result = CliRunner().invoke(app, [*verb, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output and "--help" in result.output
