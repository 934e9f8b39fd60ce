"""CLI start-up: the command line imports nothing heavy until a verb needs it, and every verb's
help still works (the timings themselves are measured by bench/cli_startup.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from wikimem.cli.commands import app

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
    modules = loaded_by("import wikimem.cli.commands")
    assert "wikimem.cli.wiki" in modules  # the verbs are registered: the measurement works
    assert heavy_in(modules) == []
    assert "rich.console" not in modules  # the consoles are made on first use


@pytest.mark.parametrize("argv", [("--version",), ("--help",), ("list", "--help")])
def test_version_and_help_import_nothing_heavy(argv: tuple[str, ...]) -> None:
    assert heavy_in(loaded_by("from wikimem.__main__ import main; main()", *argv)) == []


@pytest.mark.parametrize("argv", [("status", "--json"), ("status",), ("--version",)])
def test_status_and_version_are_answered_without_typer(home: Path, argv: tuple[str, ...]) -> None:
    modules = loaded_by("from wikimem.__main__ import main; main()", *argv, home=home)
    assert "wikimem.cli.quick" in modules  # the measurement works
    assert heavy_in(modules) == []
    # typer (and the pydantic it checks options with), rich's console, PyYAML and the claim
    # rules cost more than status's own work; an empty home needs none of them
    slow = ("typer", "pydantic", "rich", "yaml", "wikimem.dream.claims", "wikimem.setup.install")
    assert [m for m in slow if m in modules] == []


def sizes_hidden(text: str) -> str:
    """Status output with the sizes on disk hidden (the state folder changes between runs)."""
    text = re.sub(r'("(events|memory|state)": )\d+', r"\1N", text)
    return re.sub(r"(on disk +).*", r"\1N", text)


def test_the_quick_status_prints_what_the_typer_verb_prints(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    payload = {"session_id": "s1", "prompt": "the port is 9102", "cwd": str(project)}
    payload["hook_event_name"] = "UserPromptSubmit"
    env = dict(os.environ, WIKIMEM_HOME=str(home))
    subprocess.run(
        [sys.executable, "-m", "wikimem", "hook", "claude"],
        input=json.dumps(payload),
        text=True,
        env=env,
        check=True,
        timeout=60,
    )
    for argv in (["status", "--json"], ["status"], ["status", f"--home={home}", "--json"]):
        quick = subprocess.run(
            [sys.executable, "-m", "wikimem", *argv],
            capture_output=True,
            text=True,
            env=env,
            cwd=project,
            timeout=60,
        )
        assert quick.returncode == 0, quick.stderr
        here = os.getcwd()
        os.chdir(project)
        try:
            typer_says = CliRunner().invoke(app, argv, env={"WIKIMEM_HOME": str(home)})
        finally:
            os.chdir(here)
        assert typer_says.exit_code == 0, typer_says.output
        assert sizes_hidden(quick.stdout) == sizes_hidden(typer_says.output)
    assert "claude  s1" in quick.stdout or '"session": "s1"' in quick.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ("status", "--help"),
        ("status", "--bogus"),
        ("status", "--json", "--json"),
        ("status", "--home"),
        ("--version", "--help"),
    ],
)
def test_anything_the_quick_path_does_not_know_goes_to_typer(argv: tuple[str, ...]) -> None:
    from wikimem.cli.quick import answer

    assert answer(list(argv)) is None


def test_a_broken_config_is_refused_by_status_as_by_every_command(home: Path) -> None:
    (home / "config.toml").write_text("[inject]\nprompt_charz = 3\n")
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "status"],
        capture_output=True,
        text=True,
        env=dict(os.environ, WIKIMEM_HOME=str(home)),
        timeout=60,
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert "prompt_charz" in proc.stderr


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


def test_a_closed_pipe_ends_status_quietly(home: Path) -> None:
    # `wikimem status | head -1` on a home with a lot to say: no traceback about the pipe
    reader, writer = os.pipe()
    os.close(reader)
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "status"],
        stdout=writer, stderr=subprocess.PIPE, text=True, timeout=60,
        env=dict(os.environ, WIKIMEM_HOME=str(home)),
    )  # fmt: skip
    os.close(writer)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_status_that_the_terminal_cannot_show_is_said_by_the_typer_verb(tmp_path: Path) -> None:
    # a home whose name is not UTF-8, on a strict UTF-8 stdout: one line, never a traceback
    home = os.fsdecode(os.fsencode(str(tmp_path)) + b"/w\xffh")
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "status", "--json"],
        capture_output=True, text=True, timeout=60,
        env=dict(os.environ, WIKIMEM_HOME=home, PYTHONIOENCODING="utf-8"),
    )  # fmt: skip
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 1 and proc.stderr.startswith("error:")
