"""Load suite (issue 12): concurrent hook events across every registered client while dreams
and `remember` run. Nothing is lost, torn or recorded twice; every event is consolidated by
exactly one committed dream; every `remember` is committed once; nothing is left uncommitted.

The normal run calls the hook in 16 forked processes (no interpreter start-up: seconds). The
`long` run (WIKIMEM_LONG=1 pytest -m long) starts the installed hook command 16 x 500 times, once
on an idle CPU and once with the CPU saturated; `python bench/load.py` is the same run, printing hook latency as
p50/p95/p99 ratios to `python -c pass`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
import load  # bench/load.py


def assert_ok(report: load.Report) -> None:
    assert report.recorded == report.expected, json.dumps(report.problems())
    assert report.ok, json.dumps(report.problems())
    assert report.dreams >= 1


def test_sixteen_writers_while_dreams_and_remember_run(isolated_home: Path) -> None:
    report = load.run(16, 40, inproc=True, remembers=6, root=str(isolated_home.parent))
    assert_ok(report)
    assert report.remembered >= 1


@pytest.mark.long
@pytest.mark.timeout(4 * 3600)
@pytest.mark.parametrize("saturate", [0, 2 * (os.cpu_count() or 2)], ids=["idle", "saturated"])
def test_sixteen_by_five_hundred_installed_hooks(saturate: int, isolated_home: Path) -> None:
    report = load.run(16, 500, saturate=saturate, root=str(isolated_home.parent))
    assert_ok(report)
