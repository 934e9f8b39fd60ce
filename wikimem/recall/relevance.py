"""Which of the person's claims matter to this project at session start.

A profile holds what is true of the person across their work, but not every line of it is for
every repository: "In all my Python repos, type-check with mypy" and "We switched to bun for
all JS projects" mean nothing in a Go service. Contract:
  - `project_ecosystems(cwd, notes)`: the languages a project is in, from the files that mark
    them at the repository's root and one folder down (`pyproject.toml`, `package.json`,
    `go.mod`, `Cargo.toml`, …), plus what its own notes name (files touched, commands run);
    empty (unknown) when no such file is found.
  - `line_ecosystems(line)`: the languages a claim line is about (named, or implied by a tool
    tied to one: mypy, pnpm, gofmt, clippy, …); empty for anything else (how to answer, who
    the person is, a habit that holds anywhere).
  - `for_project(body, ecosystems)`: a profile note's body without the claim lines (and the
    contested lines beneath them) about languages this project is not in. When the project's
    languages are unknown, nothing is left out: a line is never withheld on a guess.
Hook-path module: standard library only, no regular expressions, a few stat calls.
"""

from __future__ import annotations

import os

from wikimem.capture.project import find_repo_root
from wikimem.wiki.notemeta import CONTESTED

# Marker files at a repository's root, and what they say it is written in.
_MARKERS = {
    "pyproject.toml": "python",
    "setup.py": "python",
    "setup.cfg": "python",
    "requirements.txt": "python",
    "Pipfile": "python",
    "package.json": "js",
    "tsconfig.json": "js",
    "deno.json": "js",
    "go.mod": "go",
    "Cargo.toml": "rust",
    "Gemfile": "ruby",
    "pom.xml": "java",
    "build.gradle": "java",
    "build.gradle.kts": "java",
    "composer.json": "php",
    "mix.exs": "elixir",
    "Package.swift": "swift",
}
# Words that tie a claim (or a project's notes) to a language.
_WORDS = {
    "python": "python",
    "py": "python",
    "pip": "python",
    "pytest": "python",
    "mypy": "python",
    "pyright": "python",
    "ruff": "python",
    "black": "python",
    "poetry": "python",
    "uv": "python",
    "pipenv": "python",
    "django": "python",
    "flask": "python",
    "javascript": "js",
    "typescript": "js",
    "js": "js",
    "ts": "js",
    "jsx": "js",
    "tsx": "js",
    "nodejs": "js",
    "node.js": "js",
    "npm": "js",
    "pnpm": "js",
    "yarn": "js",
    "bun": "js",
    "jest": "js",
    "vitest": "js",
    "prettier": "js",
    "eslint": "js",
    "biome": "js",
    "golang": "go",
    "gofmt": "go",
    "golangci-lint": "go",
    "rust": "rust",
    "rs": "rust",
    "cargo": "rust",
    "clippy": "rust",
    "rustfmt": "rust",
    "ruby": "ruby",
    "rb": "ruby",
    "rubocop": "ruby",
    "rspec": "ruby",
    "bundler": "ruby",
    "java": "java",
    "kotlin": "java",
    "gradle": "java",
    "maven": "java",
    "php": "php",
    "elixir": "elixir",
}
# File extensions in a project's notes (files touched) that say what it is written in.
_EXTENSIONS = {
    "py": "python",
    "js": "js",
    "mjs": "js",
    "ts": "js",
    "tsx": "js",
    "jsx": "js",
    "go": "go",
    "rs": "rust",
    "rb": "ruby",
    "java": "java",
    "kt": "java",
    "php": "php",
    "ex": "elixir",
    "exs": "elixir",
    "swift": "swift",
}


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    word: list[str] = []
    for ch in text.lower() + " ":
        if ch.isalnum() or ch in "-_.":
            word.append(ch)
        elif word:
            out.append("".join(word).strip("-_."))
            word = []
    return [w for w in out if w]


# Words that are ordinary English too ("go ahead", "a black box", "bun"): they tie a line to a
# language only as written for one ("in my Go projects") or in a project's own commands.
_CAPITALISED = {"Go": "go", "Swift": "swift", "Rails": "ruby", "React": "js", "Node": "js"}
_AMBIGUOUS = frozenset({"black", "bun", "go"})
_CONFIRMS = {
    "black": frozenset({"format", "formatter", "formatting", "formats", "python", "py"}),
    "bun": frozenset({"js", "javascript", "typescript", "ts", "install", "runtime", "scripts"}),
    "go": frozenset({"golang", "go.mod", "gofmt"}),
}


def line_ecosystems(line: str) -> set[str]:
    found: set[str] = set()
    words = line.split()
    for i, word in enumerate(words):
        eco = _CAPITALISED.get(word.strip(".,;:!?()`'\""))
        if eco is not None and i > 1:  # "- Go …" opens a sentence: any verb can
            found.add(eco)
    tokens = _tokens(line)
    for token in tokens:
        eco = _WORDS.get(token)
        if token in _AMBIGUOUS and not _CONFIRMS[token] & set(tokens):
            eco = None  # "a black terminal theme" is not about Python
        if eco is not None:
            found.add(eco)
    return found


_SUB_MARKERS = ("package.json", "pyproject.toml", "go.mod", "Cargo.toml", "Gemfile")
MAX_SUBDIRS = 40


def project_ecosystems(cwd: str | None, notes: list[str]) -> set[str]:
    """The languages a project is in. Only files that mark them decide (at the repository's
    root and one folder down: a Python service with a `dashboard/package.json` is JS too); with
    none found the answer is empty, meaning unknown. A project's notes add languages, never
    settle them alone: files touched in a few sessions are not the whole repository."""
    found: set[str] = set()
    roots: set[str] = set()
    if cwd:
        roots.add(os.path.abspath(cwd))
        repo = find_repo_root(cwd)
        if repo is not None:
            roots.add(repo[0])
    for root in roots:
        for name, eco in _MARKERS.items():
            if os.path.isfile(os.path.join(root, name)):
                found.add(eco)
        try:
            with os.scandir(root) as it:
                subdirs = [
                    e.path
                    for e in it
                    if e.is_dir(follow_symlinks=False)
                    and not e.name.startswith(".")
                    and e.name not in ("node_modules", "vendor", "target", "dist", "build")
                ][:MAX_SUBDIRS]
        except OSError:
            subdirs = []
        for sub in subdirs:
            for name in _SUB_MARKERS:
                if os.path.isfile(os.path.join(sub, name)):
                    found.add(_MARKERS[name])
    if not found:
        return found  # unknown: nothing is withheld on a guess
    for text in notes:
        for token in _tokens(text):
            named = None if token in _AMBIGUOUS else _WORDS.get(token)
            if named is None and "." in token:
                named = _EXTENSIONS.get(token.rsplit(".", 1)[-1])
            if named is not None:
                found.add(named)
    return found


def for_project(body: str, ecosystems: set[str]) -> str:
    if not ecosystems:
        return body
    out: list[str] = []
    dropping = False
    for line in body.split("\n"):
        if line.startswith(CONTESTED):
            if not dropping:
                out.append(line)
            continue
        dropping = False
        if line.startswith("- "):
            about = line_ecosystems(line)
            if about and not about & ecosystems:
                dropping = True
                continue
        out.append(line)
    return "\n".join(out)
