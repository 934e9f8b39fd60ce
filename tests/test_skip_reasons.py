"""A clone alone (no project folder beside it) runs the suite with skips that say, in its own
terms, what they need: never a folder the person does not have."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

NEEDS_THE_KIT = [
    "tests/test_hook_fixtures.py",
    "tests/test_install.py::test_codex_trust_hash_matches_the_reference_implementation",
    "tests/e2e/test_capture.py",
]


def test_skips_in_a_clone_alone_name_nothing_it_does_not_have(tmp_path: Path) -> None:
    clone = tmp_path / "clone" / "wikimem"  # nothing named `shared` beside it
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--", "wikimem", "tests", "pyproject.toml"],
        capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for rel in filter(None, listed):
        source = REPO / rel
        if source.is_file():
            (clone / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / rel)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "-rs",
         "-o", "addopts=", *NEEDS_THE_KIT],
        capture_output=True, text=True, cwd=clone, timeout=600,
        env={**os.environ, "PYTHONPATH": str(clone), "WIKIMEM_REQUIRE_E2E": ""},
    )  # fmt: skip
    skips = [ln for ln in proc.stdout.splitlines() if ln.startswith("SKIPPED")]
    assert skips, proc.stdout[-3000:]
    for line in skips:
        assert "shared" not in line, line
        assert "not part of this repository" in line or "not installed" in line, line
