"""The documentation keeps up with the code and stands on its own.

A person who cloned the repository has README.md, docs/ and the code, nothing else. So every
setting is in the configuration reference; every link between pages (and to a heading) resolves;
every page is reachable from the README; no page sends the reader to a file they do not have (a
design folder, an issue tracker); every `wikimem …` command line written in the docs runs with
the options it shows; the overview lists every command; and every source path a page names
exists. Each check reads the real files and the real command line (typer's app), so a renamed
option or a moved module fails here, not in front of a reader.
"""

from __future__ import annotations

import glob
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main

from tests.conftest import REPO
from wikimem.cli.commands import app
from wikimem.config import DEFAULT_CONFIG_TEXT
from wikimem.rawconfig import DEFAULTS

DOCS = REPO / "docs"
README = REPO / "README.md"
# Everything a user reads: the pages, the templates that come with wikimem, what `init` writes.
PAGES = [README, *sorted(DOCS.glob("*.md"))]
TEMPLATES = sorted(p for p in (REPO / "templates").rglob("*") if p.is_file())

# References a reader cannot follow: the project's private design notes and issue tracker.
UNFOLLOWABLE = re.compile(
    r"\bDESIGN\b|\bOBSERVED\b|\bCONTRACTS\b|\.\./shared"
    r"|(?i:shared design folder|\bissues?[\s-]+#?\d+|\bthe issue's\b)"
)
# Source paths named in prose: `wikimem/recall/rerank.py`, `tests/test_gate.py`, …
SOURCE_PATH = re.compile(
    r"(?<![\w./~-])((?:wikimem|tests|bench|templates|integrations|hooks)/[\w*./-]*\.(?:py|md|json|js|toml|sh))(?![\w.])"
)
FENCE = re.compile(r"^(```|~~~)")


# -- reading markdown ------------------------------------------------------------------------------


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            yield n, line


def code_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) inside fenced code blocks."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced:
            yield n, line


def links(text: str) -> Iterator[tuple[int, str]]:
    """(line, target) of every inline markdown link outside code (spans and blocks)."""
    for n, line in prose_lines(text):
        line = re.sub(r"`[^`]*`", "", line)
        for target in re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            yield n, target


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text (links reduced to their text, code spans to
    their content), lower-cased, without punctuation but hyphens and underscores, spaces as
    hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    kept = []
    for ch in text:
        if ch in " -_" or unicodedata.category(ch)[0] in "LN":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for _, line in prose_lines(page.read_text(encoding="utf-8")):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = github_slug(m.group(1))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def broken_links(page: Path) -> list[str]:
    problems = []
    for n, target in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(REPO)}:{n}"
        if not dest.exists():
            problems.append(f"{where}: {target} does not exist")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where}: {target}: no heading with the anchor #{anchor}")
    return problems


# -- the command line ------------------------------------------------------------------------------


def cli() -> Any:
    """The click command typer builds (typer carries its own copy of click, so it is read by
    its shape: `commands` on a group, `opts` on an option)."""
    return typer.main.get_command(app)


def is_group(command: Any) -> bool:
    return isinstance(getattr(command, "commands", None), dict)


def option_names(command: Any) -> set[str]:
    names = {"--help"}
    for param in command.params:
        if param.param_type_name == "option":
            names.update(param.opts)
            names.update(param.secondary_opts)
    return names


def command_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line, `wikimem …` invocation) written as code: a code span in prose, a line of a code
    block; each command of a pipeline or list (`echo … | wikimem remember -`) on its own. Only
    a command that starts with `wikimem` counts (a table that mentions the word does not)."""
    found: list[tuple[int, str]] = []
    for n, line in prose_lines(text):
        found += [(n, span) for span in re.findall(r"`([^`]+)`", line)]
    for n, line in code_lines(text):
        if not line.lstrip().startswith("|"):  # a table pasted as output
            found.append((n, re.sub(r"\s#\s.*$", "", line)))
    for n, code in found:
        for part in re.split(r"\s(?:\||;|&&|\|\|)\s", code):
            part = re.sub(r"^\s*(?:\$\s+)?(?:\w+=\S*\s+)*(?:\S*/)?", "", part)
            if re.match(r"wikimem\s+\S", part):
                yield n, part.strip()


def check_invocation(words: list[str], root: Any) -> str | None:
    """Why `wikimem WORDS…` is not a real command line (None: it is)."""
    command = root
    options = option_names(root) | {"--version", "--install-completion", "--show-completion"}
    rest = list(words)
    while is_group(command) and rest:
        word = rest[0].strip("[](),.:;")
        if word.startswith("-") or not re.fullmatch(r"[a-z][a-z-]*", word):
            break
        sub = command.commands.get(word)
        if sub is None:
            return f"no command `{word}`"
        command, rest = sub, rest[1:]
        options = option_names(command)
    for word in rest:
        for option in re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", word):
            if option not in options:
                return f"`{option}` is not an option of this command"
    return None


# -- the tests -----------------------------------------------------------------------------------


def test_every_config_key_is_documented() -> None:
    reference = (DOCS / "configuration.md").read_text()
    for table, keys in DEFAULTS.items():
        assert f"## `[{table}]`" in reference, table
        for key in keys:
            documented = f"`{key}`" in reference or f"`[[{table}.{key}]]`" in reference
            assert documented, f"[{table}] {key} is missing from docs/configuration.md"


def test_links_between_pages_resolve_with_their_anchors() -> None:
    problems = [p for page in PAGES for p in broken_links(page)]
    assert not problems, "\n".join(problems)


def test_every_page_is_reachable_from_the_readme() -> None:
    reached, todo = set(), [README.resolve()]
    while todo:
        page = todo.pop()
        if page in reached or page.suffix != ".md" or not page.exists():
            continue
        reached.add(page)
        for _, target in links(page.read_text(encoding="utf-8")):
            path = target.partition("#")[0]
            if path and not re.match(r"^[a-z][a-z0-9+.-]*:", path):
                todo.append((page.parent / path).resolve())
    orphans = [p.name for p in DOCS.glob("*.md") if p.resolve() not in reached]
    assert not orphans, f"no link leads to docs/{', docs/'.join(sorted(orphans))}"


def user_facing_texts() -> Iterator[tuple[str, str]]:
    for page in PAGES:
        yield str(page.relative_to(REPO)), page.read_text(encoding="utf-8")
    for path in TEMPLATES:
        yield str(path.relative_to(REPO)), path.read_text(encoding="utf-8")
    yield "the config.toml `wikimem init` writes", DEFAULT_CONFIG_TEXT

    def helps(command: Any, name: str) -> Iterator[tuple[str, str]]:
        yield (
            f"`{name} --help`",
            " ".join(
                [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]
            ),
        )
        if is_group(command):
            for sub_name, sub in command.commands.items():
                yield from helps(sub, f"{name} {sub_name}")

    yield from helps(cli(), "wikimem")


def test_no_page_sends_the_reader_to_files_they_do_not_have() -> None:
    problems = []
    for where, text in user_facing_texts():
        for n, line in enumerate(text.splitlines(), 1):
            for m in UNFOLLOWABLE.finditer(line):
                problems.append(f"{where}:{n}: {m.group(0)!r} in {line.strip()[:100]!r}")
    assert not problems, "\n".join(problems)


def test_bench_and_fixture_notes_say_what_they_are_without_private_references() -> None:
    """Benchmarks may read the shared data folder at run time; their docstrings and the fixture
    notes still explain themselves without the design notes or issue numbers."""
    private = re.compile(r"\bDESIGN\b|\bOBSERVED\b|\bCONTRACTS\b|(?i:\bissues?\s+#?\d+)")
    problems = []
    files = [
        *sorted((REPO / "bench").rglob("*.py")),
        *sorted(REPO.glob("tests/fixtures/**/README.md")),
    ]
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if private.search(line):
                problems.append(f"{path.relative_to(REPO)}:{n}: {line.strip()[:100]}")
    assert not problems, "\n".join(problems)


def test_every_command_line_in_the_docs_exists() -> None:
    root = cli()
    problems = []
    for page in PAGES:
        for n, invocation in command_lines(page.read_text(encoding="utf-8")):
            why = check_invocation(invocation.split()[1:], root)
            if why:
                problems.append(f"{page.relative_to(REPO)}:{n}: {invocation!r}: {why}")
    assert not problems, "\n".join(problems)


def test_the_overview_lists_every_command() -> None:
    overview = (DOCS / "overview.md").read_text(encoding="utf-8")
    root = cli()
    missing = [
        name
        for name, command in root.commands.items()
        if not command.hidden and not re.search(rf"wikimem {re.escape(name)}\b", overview)
    ]
    assert not missing, f"docs/overview.md does not show `wikimem {'`, `wikimem '.join(missing)}`"
    group = root.commands["import"]
    for sub in group.commands:
        assert f"wikimem import {sub}" in overview, sub


def test_source_paths_named_in_the_docs_exist() -> None:
    problems = []
    for page in PAGES:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for path in SOURCE_PATH.findall(line):
                if not glob.glob(str(REPO / path)):
                    problems.append(f"{page.relative_to(REPO)}:{n}: {path} does not exist")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("Notes that arrive around the gate", "notes-that-arrive-around-the-gate"),
        (
            "`[inject]` — what an agent is given ([recall](recall.md))",
            "inject--what-an-agent-is-given-recall",
        ),
        ("Another project's notes", "another-projects-notes"),
        ("A plain `git pull`", "a-plain-git-pull"),
    ],
)
def test_anchors_are_slugged_as_github_slugs_them(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


def test_the_command_check_knows_a_real_line_from_a_wrong_one() -> None:
    root = cli()
    assert check_invocation(["dream", "--dry-run", "[--show-prompt]]"], root) is None
    assert check_invocation(["import", "codex-memories", "--dir", "DIR"], root) is None
    assert check_invocation(["install", "claude|codex", "--scope", "project"], root) is None
    assert check_invocation(["--version"], root) is None
    assert check_invocation(["dream", "--frobnicate"], root) is not None
    assert check_invocation(["frobnicate"], root) is not None
    assert check_invocation(["import", "chatgpt"], root) is not None
