"""The package's shape, read from its source with `ast`.

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
