"""Commands that work in a project: a counted table, kept by the dream, free of one-off variants.

Contract: `command_kind` classifies a shell command as test, lint, format, install, build or run
(anything else is not a project command worth keeping). `shape` folds the parts of a command that
change from one run to the next (numbers, hashes, ids, quoted text) into placeholders, so
`backfill --dry-run --limit 163` and `… --limit 262` are one row, `… --limit <n>`. A run of one
test or one test file, or adding one package, is a one-off and is not kept: the table says how
the project is worked on.
`merge_table` folds one session's counts into the table text of the note.

Precise or silent: a command enters the table only when the project declares it (`make test`,
`npm run lint`, `just deploy`, `nox -s tests`, a script of the repository's `scripts/` or
`bin/`: `declared`), or when its shape worked in two sessions (`recurring`; what one session
ran once is remembered in a hidden line of the note, `<!-- wikimem:once … -->`, until a second
session runs it too or it ages out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_ROWS = 25
COMMAND_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        (
            "test",
            r"\b(?:pytest|py\.test|jest|vitest|mocha|rspec|phpunit|ctest|tox|nox|unittest)\b|"
            r"\b(?:go|cargo|mix|dotnet|gradle|mvn|bun|deno|swift|zig) test\b|"
            r"\b(?:npm|pnpm|yarn)(?: run)? test\b|\bmake (?:test|check)\b|\btest\.sh\b",
        ),
        (
            "install",
            r"\b(?:npm|pnpm|yarn|bun) (?:install|i|ci|add)\b|^(?:yarn|pnpm i)$|"
            r"\bpip3? install\b|\b(?:poetry|pdm) install\b|\buv (?:sync|pip install)\b|"
            r"\bbundle install\b|\bgo mod (?:download|tidy)\b|\bcargo fetch\b|\bapt(?:-get)? install\b",
        ),
        (
            "format",
            r"\b(?:black|prettier|ruff format|gofmt|cargo fmt|rustfmt|isort|clang-format)\b|"
            r"\b(?:npm|pnpm|yarn|bun)(?: run)? format\b",
        ),
        (
            "lint",
            r"\b(?:ruff check|ruff|eslint|flake8|pylint|mypy|pyright|golangci-lint|clippy|rubocop|"
            r"shellcheck|tsc --noEmit|stylelint)\b|\b(?:npm|pnpm|yarn|bun)(?: run)? (?:lint|typecheck)\b|"
            r"\bmake (?:lint|typecheck)\b|\bprettier --check\b|\bblack --check\b",
        ),
        (
            "build",
            r"\b(?:npm|pnpm|yarn|bun)(?: run)? build\b|\b(?:cargo|go|dotnet|swift|zig) build\b|"
            r"\bmake\b|\bcmake\b|\btsc\b|\bwebpack\b|\bvite build\b|\bmvn (?:package|install|compile)\b|"
            r"\bgradle(?:w)? (?:build|assemble)\b|\bpython3? -m build\b|\bdocker build\b",
        ),
        (
            "run",
            r"\b(?:npm|pnpm|yarn|bun)(?: run)? (?:start|dev|serve)\b|\b(?:cargo|go) run\b|"
            r"\b(?:flask|uvicorn|gunicorn|rails|django-admin|manage\.py)\b|\bdocker compose up\b|"
            r"\bpython3? -m \w+|\bnode \S+\.(?:js|mjs|ts)\b",
        ),
    )
)
_VARIABLE = re.compile(
    r"(?P<q>\"[^\"]*\"|'[^']*')|"
    r"(?P<version>(?<![\w.])v?\d+(?:\.\d+)+(?![\w.]))|"
    r"(?P<uuid>\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)|"
    r"(?P<hex>\b[0-9a-f]{7,40}\b)|"
    r"(?P<date>\b\d{4}-\d\d-\d\d(?:T[\d:.]+Z?)?\b)|"
    r"(?P<n>(?<![\w.])\d+(?![\w.]))",
    re.IGNORECASE,
)
_ROW = re.compile(
    r"^\| `(?P<cmd>.+)` \| (?P<kind>\w+) \| (?P<ok>\d+) \| (?P<failed>\d+) \| (?P<last>[\d-]+) \|$"
)
HEADER = ["| command | kind | ok runs | failed runs | last ok |", "|---|---|---|---|---|"]


# Commands that only look: they say nothing about how the project is built, tested or run.
_READ_ONLY = re.compile(
    r"^(?:sudo\s+)?(?:ls|ll|la|cat|head|tail|less|more|bat|grep|egrep|rg|ag|ack|find|fd|pwd|echo|"
    r"printf|which|whereis|type|wc|tree|file|stat|du|df|env|printenv|date|whoami|id|hostname|"
    r"uname|ps|top|htop|jq|yq|diff|cmp|sort|uniq|cut|awk|realpath|readlink|basename|dirname|"
    r"history|man|tldr|open|xdg-open|code|true|sleep|clear)\b|"
    r"^(?:sudo\s+)?sed\s+-n\b|"
    r"^git\s+(?:status|log|diff|show|branch|remote|blame|grep|ls-files|ls-tree|rev-parse|"
    r"describe|shortlog|reflog|stash list|config --get|tag -l|fetch)\b|"
    r"^(?:pip3?|python3? -m pip)\s+(?:list|show|freeze|check|--version)\b|"
    r"^(?:npm|pnpm|yarn|bun)\s+(?:ls|list|view|info|outdated|why|config get|--version|-v)\b|"
    r"^(?:docker|kubectl|helm)\s+(?:ps|images|logs|get|describe|inspect|version|ls|list|top)\b|"
    r"\s(?:--version|-V|--help|-h)\s*$"
)


def read_only(command: str) -> bool:
    """Whether `command` only reads (lists, prints, searches, asks a version or for help)."""
    return bool(_READ_ONLY.search(command.strip()))


def command_kind(command: str) -> str | None:
    if read_only(command):
        return None
    for kind, pattern in COMMAND_KINDS:
        if pattern.search(command):
            return kind
    return None


def shape(command: str) -> str:
    """`command` with its run-to-run parts as placeholders (`<n>`, `<id>`, `<date>`, `<text>`)."""

    def placeholder(m: re.Match[str]) -> str:
        if m["q"]:
            return "<text>"
        if m["version"]:
            return "<version>"
        if m["uuid"] or (m["hex"] and re.search(r"\d", m["hex"])):
            return "<id>"
        if m["hex"]:
            return m["hex"]
        if m["date"]:
            return "<date>"
        return "<n>"

    return _VARIABLE.sub(placeholder, command)


def is_variable(command: str) -> bool:
    return shape(command) != command


_SINGLE_TEST = re.compile(
    r"::|\s-k\s|\s--testNamePattern\b|\s-t\s|"
    r"\s\S+(?:\.(?:py|ts|tsx|js|jsx|mjs|rb|go|rs|java|kt|php|exs?)|_test\.go|\.spec\.\w+|\.test\.\w+)(?:\s|$)"
)
_ADD_PACKAGE = re.compile(
    r"\b(?:npm|pnpm|yarn|bun) (?:add|install|i)(?:\s+-\S+)*\s+(?!-)[\w@]|\bpip3? install\s+(?!-e\b|-r\b|\.|--)[\w\[]|"
    r"\b(?:poetry|pdm|uv) add\b|\bcargo add\b|\bgo get\b|\bapt(?:-get)? install\b|\bbrew install\b"
)


def one_off(command: str, kind: str) -> bool:
    """A run that says nothing about how the project is worked on: one test or one test file
    (the project's way to run its tests is what matters), or adding one package."""
    if kind == "test" and _SINGLE_TEST.search(command + " "):
        return True
    return kind == "install" and bool(_ADD_PACKAGE.search(command))


@dataclass
class Row:
    command: str
    kind: str
    ok: int
    failed: int
    last: str


def parse_table(text: str) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for line in text.splitlines():
        m = _ROW.match(line.strip())
        if m:
            command = m["cmd"].replace("\\|", "|")
            rows[command] = Row(command, m["kind"], int(m["ok"]), int(m["failed"]), m["last"])
    return rows


def merge_table(existing: str, runs: dict[str, Row]) -> str | None:
    """The table text with one session's `runs` (command → counts) folded in; None when
    nothing worth a row was run."""
    rows = parse_table(existing)
    by_shape: dict[str, str] = {shape(c): c for c in rows}
    for command, run in runs.items():
        if one_off(command, run.kind):
            continue
        key = shape(command)
        known = by_shape.get(key)
        if known is None:
            rows[command] = Row(command, run.kind, run.ok, run.failed, run.last)
            by_shape[key] = command
            continue
        row = rows.pop(known)
        # a second variant of one command: keep its shape, not either run's values
        name = known if known == command else key
        rows[name] = Row(
            name, row.kind, row.ok + run.ok, row.failed + run.failed, max(row.last, run.last)
        )
        by_shape[key] = name
    kept = [r for r in rows.values() if r.ok > 0 and not one_off(r.command, r.kind)]
    for r in kept:
        # "make release VERSION=2.4.0" is kept as how releases are made, not as that release
        r.command = shape(r.command)
    if not kept:
        return None
    kept.sort(key=lambda r: (-r.ok, r.command))
    lines = [*HEADER]
    lines += [_row_line(r) for r in kept[:MAX_ROWS]]
    return "\n".join(lines)


def drop_tool(existing: str, tool: str) -> str | None:
    """The table without the rows whose command runs `tool` ("we moved off uv" leaves no `uv
    sync` row as a command that works); None when no row is left."""
    rows = parse_table(existing)
    kept = [
        r
        for r in rows.values()
        if not re.match(rf"^(?:\S+=\S+\s+)*{re.escape(tool)}(?:\s|$)", r.command, re.IGNORECASE)
    ]
    if len(kept) == len(rows):
        return existing.strip()
    if not kept:
        return None
    return "\n".join([*HEADER, *(_row_line(r) for r in kept)])


def _row_line(r: Row) -> str:
    return (
        f"| `{r.command.replace('|', chr(92) + '|')}` | {r.kind} | {r.ok} | {r.failed} | "
        f"{r.last or '-'} |"
    )


# What the project declares: a target, a script, a session, a task of its own.
_DECLARED = re.compile(
    r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:"
    r"g?make\s+(?!-)[\w.:/-]+|"
    r"(?:npm|pnpm|yarn|bun)\s+run\s+[\w:.-]+|"
    r"(?:pnpm|yarn)\s+(?!install\b|i\b|add\b|remove\b|rm\b|exec\b|dlx\b|create\b|init\b|"
    r"publish\b|link\b|up\b|update\b|upgrade\b|audit\b|outdated\b|why\b|info\b|list\b|ls\b|"
    r"config\b|cache\b|set\b|version\b|-)[\w:.-]+|"
    r"npm\s+(?:test|start|t)\b|(?:just|task|mage|rake)\s+(?!-)[\w:.-]+|nox\s+-s\s+\S+|"
    r"tox\s+-e\s+\S+|cargo\s+(?:make|xtask)\s+\S+|(?:\./)?(?:scripts|bin|tools|hack)/[\w./-]+)"
)
ONCE = "<!-- wikimem:once "
MAX_ONCE = 40


def declared(command: str) -> bool:
    """Whether the project declares `command` (a make target, a package script, a task, a
    script of its own): how it is meant to be worked on, whatever the session. Run as
    declared, give or take flags: `make lint PKG=./internal/ingest/...` or `pnpm vitest run
    src/lib/components` narrows it to one corner, a variant that must recur to be kept."""
    text = command.strip()
    m = _DECLARED.match(text)
    if m is None:
        return False
    rest = text[m.end() :].split()
    return all(word.startswith("-") for word in rest)


def once_lines(body: str) -> dict[str, tuple[str, str]]:
    """shape -> (session source, day) of the commands one session ran that wait for another."""
    out: dict[str, tuple[str, str]] = {}
    for line in body.split("\n"):
        if line.startswith(ONCE) and line.rstrip().endswith("-->"):
            inner = line[len(ONCE) : line.rstrip().rfind("-->")].strip()
            day, _, rest = inner.partition(" ")
            source, _, shape_ = rest.partition(" ")
            if shape_:
                out[shape_.replace("- ->", "-->")] = (source, day)
    return out


def with_once(body: str, once: dict[str, tuple[str, str]]) -> str:
    """`body` with its hidden once-lines replaced by `once` (the newest `MAX_ONCE`)."""
    lines = [ln for ln in body.rstrip("\n").split("\n") if not ln.startswith(ONCE)]
    while lines and not lines[-1].strip():
        lines.pop()
    kept = sorted(once.items(), key=lambda kv: kv[1][1])[-MAX_ONCE:]
    marks = [
        f"{ONCE}{day} {source} {cmd.replace('-->', '- ->')} -->" for cmd, (source, day) in kept
    ]
    return "\n".join([*lines, *(["", *marks] if marks else [])]) + "\n"
