"""`git -c key=value …` hands its settings to the programs it starts (a hook,
wikimem's post-merge hook and merge driver included) in GIT_CONFIG_PARAMETERS, which git reads
after GIT_CONFIG_COUNT: wikimem drops it, so the person's hooks path (or signing) never wins."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wikimem import gitrun


@pytest.mark.parametrize(
    ("key", "value", "ours"),
    [("core.hooksPath", "/tmp/person-hooks", os.devnull), ("commit.gpgsign", "true", "false")],
)
def test_settings_from_git_dash_c_do_not_override_wikimems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, value: str, ours: str
) -> None:
    assert gitrun.run(str(tmp_path), "init", "-q").returncode == 0
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'{key}'='{value}'")
    got = gitrun.run_text(str(tmp_path), "config", "--get", key).stdout.strip()
    assert got == ours
