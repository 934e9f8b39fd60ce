"""The package's shape, read from its source with `ast`.

- No import circles between modules. Every import counts: at module level, inside a function
  (a lazy import that closes a circle is still a circle) and under `TYPE_CHECKING`.
- The hook's imports, followed all the way (lazy ones included), reach only the standard library
  and wikimem's own stdlib modules, the harness adapters among them: never the installers
  (`wikimem.setup`), the command line or the dream.
- `wikimem.gitrun` is the only module that runs git (it sets the environment that keeps the
  person's hooks, signing and prompts out of wikimem's commits) and nothing imports GitPython. A
  git command built anywhere else, as an argument list that begins with "git", fails here.
- The package imports no third-party package that pyproject.toml does not declare (or a
  declared one does not require).
"""

from __future__ import annotations

import ast
import importlib.metadata
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO

PACKAGE = REPO / "wikimem"
GIT_MODULE = "wikimem.gitrun"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, ast.Module]:
    return {
        module_name(p): ast.parse(p.read_text(encoding="utf-8"), str(p))
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def git_spawns(tree: ast.AST) -> Iterator[str]:
    """Where `tree` imports GitPython or builds a command line that starts git."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "git" or alias.name.startswith("git."):
                    yield f"line {node.lineno}: import {alias.name} (GitPython)"
        elif isinstance(node, ast.ImportFrom) and not node.level:
            if node.module == "git" or (node.module or "").startswith("git."):
                yield f"line {node.lineno}: from {node.module} import … (GitPython)"
        elif isinstance(node, ast.List | ast.Tuple) and node.elts:
            first = node.elts[0]
            if isinstance(first, ast.Constant) and first.value == "git":
                yield f"line {node.lineno}: a command line starting with 'git'"
        elif isinstance(node, ast.Call):
            # subprocess.run("git …", shell=True), os.system("git …") and the like
            first_arg = node.args[0] if node.args else None
            if (
                isinstance(first_arg, ast.Constant)
                and isinstance(first_arg.value, str)
                and first_arg.value.startswith("git ")
                and _spawns(node.func)
            ):
                yield f"line {node.lineno}: a shell command starting with 'git'"


def _spawns(func: ast.expr) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in {"run", "Popen", "call", "check_call", "check_output", "system", "popen"}


def test_only_the_git_module_runs_git() -> None:
    found = {name: list(git_spawns(tree)) for name, tree in modules().items() if name != GIT_MODULE}
    found = {name: where for name, where in found.items() if where}
    assert found == {}, f"git is run outside {GIT_MODULE}: {found}"


def test_the_git_module_is_found_and_runs_git() -> None:
    assert list(git_spawns(modules()[GIT_MODULE])), "the rule above would find nothing"


def test_the_git_rule_catches_each_way_of_running_git() -> None:
    samples = {
        "import git": 1,
        "from git import Repo": 1,
        "import subprocess\nsubprocess.run(['git', '-C', d, 'log'])": 1,
        "cmd = ('git', 'status')": 1,
        "os.system('git gc')": 1,
        "subprocess.run([sys.executable, '-c', 'pass'])": 0,
        "shutil.which('git')": 0,
        "from wikimem import gitrun\ngitrun.run(d, 'log')": 0,
    }
    for source, expected in samples.items():
        assert len(list(git_spawns(ast.parse(source)))) == expected, source


def third_party_imports(tree: ast.AST) -> set[str]:
    """The top-level names of what `tree` imports from outside the standard library."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "wikimem"}


def test_the_package_imports_only_what_pyproject_declares() -> None:
    """A dependency dropped from pyproject.toml is dropped from the code too (and one the code
    needs is declared): a fresh install would otherwise fail on the first import."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {canonicalize_name(Requirement(s).name) for s in project["dependencies"]}
    # What a declared dependency itself requires (the mcp module uses mcp's anyio and pydantic)
    # comes with it: allowed, as long as a declared one brings it.
    todo = list(declared)
    while todo:
        for spec in importlib.metadata.requires(todo.pop()) or []:
            req = Requirement(spec)
            name = canonicalize_name(req.name)
            if name not in declared and (req.marker is None or req.marker.evaluate({"extra": ""})):
                declared.add(name)
                todo.append(name)
    providers = importlib.metadata.packages_distributions()
    undeclared = {}
    for name, tree in modules().items():
        for top in third_party_imports(tree):
            dists = {canonicalize_name(d) for d in providers.get(top, [top])}
            if not dists & declared:
                undeclared.setdefault(top, []).append(name)
    assert undeclared == {}, f"imported but not in [project] dependencies: {undeclared}"


# -- import circles and the hook's closure -----------------------------------------------------

HOOK_ENTRIES = ("wikimem.hookentry", "wikimem.capture.hook")


def imports_of(name: str, tree: ast.Module, known: set[str], is_package: bool) -> set[str]:
    """The wikimem modules `name` imports (anywhere in its source)."""
    package = name if is_package else name.rpartition(".")[0]

    def owner(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    out: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {owner(a.name) for a in node.names if a.name.startswith("wikimem")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source != "wikimem" and not source.startswith("wikimem."):
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"  # `from wikimem.x import y`: y may be a module
                out.add(sub if sub in known else owner(source))
    return {m for m in out if m is not None and m != name}


def import_graph() -> dict[str, set[str]]:
    trees = modules()
    packages = {module_name(p) for p in PACKAGE.rglob("__init__.py")}
    known = set(trees)
    return {name: imports_of(name, tree, known, name in packages) for name, tree in trees.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (a -> … -> a) per strongly connected group of modules, the shortest through
    the group's first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    found = []
    for group in groups:
        start = min(group)
        paths = [[start]]  # breadth first: the shortest way back to `start` inside the group
        seen = {start}
        while paths:
            path = paths.pop(0)
            following = sorted(graph[path[-1]] & group)
            if start in following:
                found.append([*path, start])
                break
            for w in following:
                if w not in seen:
                    seen.add(w)
                    paths.append([*path, w])
    return found


def closure(graph: dict[str, set[str]], roots: tuple[str, ...]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return seen


def test_no_import_circles() -> None:
    found = cycles(import_graph())
    assert found == [], "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_circle_finder_finds_lazy_relative_and_long_circles() -> None:
    graph = {
        "a": {"b"},
        "b": {"c"},
        "c": {"a"},  # a -> b -> c -> a
        "d": {"e"},
        "e": {"d", "a"},  # d <-> e
        "f": {"a"},
    }
    assert sorted(map(tuple, cycles(graph))) == [("a", "b", "c", "a"), ("d", "e", "d")]
    lazy = ast.parse("def f():\n    from wikimem.b import thing\n")
    assert imports_of("wikimem.a", lazy, {"wikimem.a", "wikimem.b"}, False) == {"wikimem.b"}
    relative = ast.parse("from . import b\nfrom .c import x\n")
    known = {"wikimem.p", "wikimem.p.a", "wikimem.p.b", "wikimem.p.c"}
    assert imports_of("wikimem.p.a", relative, known, False) == {"wikimem.p.b", "wikimem.p.c"}


def test_the_hook_reaches_only_the_standard_library_and_the_adapters() -> None:
    graph = import_graph()
    reached = closure(graph, HOOK_ENTRIES)
    trees = modules()
    outside = {name: sorted(third_party_imports(trees[name])) for name in reached}
    outside = {name: names for name, names in outside.items() if names}
    assert outside == {}, f"the hook path imports outside the standard library: {outside}"
    forbidden = sorted(
        m for m in reached if m.startswith(("wikimem.setup", "wikimem.cli", "wikimem.dream"))
    )
    assert forbidden == [], f"the hook path reaches installers, the CLI or the dream: {forbidden}"
    adapters = {m for m in graph if m.startswith("wikimem.harness.")}
    assert adapters, "no adapter modules found"
    assert adapters <= reached, f"adapters the hook does not import: {sorted(adapters - reached)}"
