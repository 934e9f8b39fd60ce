"""A reader that goes away (`wikimem list | head -1`) ends every verb quietly: exit 0, nothing
on stderr, and whatever the verb was doing finished (the output just has nowhere to go)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wikimem.home import Home
from wikimem.layout import init_home
from wikimem.wiki.batch import Wiki
from wikimem.wiki.remember import remember


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Home:
    """A home with a lot to say: many notes, many commits."""
    home = Home(str(tmp_path_factory.mktemp("pipes") / "home"))
    init_home(home)
    wiki = Wiki(home)
    for i in range(40):
        remember(wiki, f"The x{i} service listens on port {9000 + i}", project="acme-api")
    return home


def into_closed_pipe(home: Home, *argv: str) -> subprocess.CompletedProcess[str]:
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first line: every write meets EPIPE
    try:
        return subprocess.run(
            [sys.executable, "-m", "wikimem", *argv],
            stdout=writer, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
            timeout=120, env=dict(os.environ, WIKIMEM_HOME=home.root, COLUMNS="100"),
        )  # fmt: skip
    finally:
        os.close(writer)


VERBS = [
    ["list"],
    ["list", "--json"],
    ["log"],
    ["log", "--json"],
    ["search", "x"],
    ["search", "service", "--json"],
    ["status"],
    ["status", "--json"],
    ["show", "projects/acme-api/facts.md", "--raw"],
    ["diff"],
    ["inject", "prompt", "--prompt", "which port does x3 listen on?"],
    ["doctor"],
    ["--help"],
    ["list", "--help"],
    ["--version"],
]


@pytest.mark.parametrize("argv", VERBS, ids=" ".join)
def test_a_closed_pipe_ends_the_verb_quietly(home: Home, argv: list[str]) -> None:
    proc = into_closed_pipe(home, *argv)
    assert proc.stderr == "", proc.stderr
    assert proc.returncode == 0


def test_head_reads_the_first_line_and_the_pipeline_succeeds(home: Home) -> None:
    """As a person types it, with `pipefail`: `wikimem list | head -1` and friends exit 0."""
    for verb in ("list", "log", "search x"):
        proc = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {sys.executable} -m wikimem {verb} | head -1"],
            capture_output=True, text=True, timeout=120,
            env=dict(os.environ, WIKIMEM_HOME=home.root),
        )  # fmt: skip
        assert proc.returncode == 0 and proc.stderr == "", (verb, proc.stderr)
        assert len(proc.stdout.splitlines()) == 1, proc.stdout


def test_the_work_is_done_even_when_nobody_reads(home: Home, tmp_path: Path) -> None:
    """`remember … | head -0`: the note is written and committed all the same."""
    proc = into_closed_pipe(home, "remember", "--project", "acme-api", "Deploys go out at noon")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    kept = Path(home.memory_dir, "projects/acme-api").glob("*.md")
    assert any("noon" in p.read_text() for p in kept)  # (a schedule: a convention of the project)
