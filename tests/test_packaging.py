"""What a non-editable install holds: a wheel built from a copy of the sources (offline, no
build isolation), installed into a temporary directory, run with nothing else of ours on the path.
The paths config.toml points people to must exist in that installation."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import REPO

PIP = (sys.executable, "-m", "pip", "--no-input", "-q")  # `--no-index` below: never the network
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "wikimem", "templates", "hooks", "docs")


def test_wheel_carries_templates_hooks_docs_and_license(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(
                path, src / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(path, src / name)
    dist = tmp_path / "dist"
    build = subprocess.run(
        [
            *PIP,
            "wheel",
            str(src),
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(dist),
        ],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = dist.glob("wikimem-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for expected in (
        "wikimem/_data/templates/gate/no-tokens.py",
        "wikimem/_data/templates/notes/project.md",
        "wikimem/_data/hooks/wikimem-hook",
        "wikimem/_data/docs/gate.md",
        "wikimem/_data/docs/configuration.md",
        "wikimem/evaluate/runner.py",
        "wikimem/evaluate/sets/main.py",
        "wikimem/evaluate/sets/heldout3.py",
    ):
        assert expected in names, expected
    assert any(re.search(r"dist-info/(licenses/)?LICENSE$", n) for n in names)

    target = tmp_path / "site"
    install = subprocess.run(
        [*PIP, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr
    hook_script = target / "wikimem" / "_data" / "hooks" / "wikimem-hook"
    assert os.access(hook_script, os.X_OK)

    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": str(target), "WIKIMEM_HOME": str(home)}
    where = subprocess.run(
        [sys.executable, "-c", "import wikimem; print(wikimem.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert where.stdout.strip() == str(target / "wikimem" / "__init__.py")
    init = subprocess.run(
        [sys.executable, "-m", "wikimem", "init"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,  # not the checkout, whose wikimem/ `-m` would find first
    )
    assert init.returncode == 0, init.stderr
    config = (home / "config.toml").read_text()
    pointed = [p.rstrip("/") for p in re.findall(r"(?:^|\s)(/[^\s;]+)", config, re.MULTILINE)]
    assert len(pointed) >= 3, config
    for path in pointed:
        assert path.startswith(str(target)), path
        assert os.path.exists(path), path

    # `wikimem eval` runs from the installed package: its cases, and the hooks and dreams it
    # replays are this installation's (one case, offline)
    evaluation = subprocess.run(
        [sys.executable, "-m", "wikimem", "eval", "--cases", "first-staging-host", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert evaluation.returncode == 0, evaluation.stderr
    assert json.loads(evaluation.stdout)["clean"] == [1, 1]
