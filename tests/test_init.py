"""`wikimem init`: the home layout, idempotence, permissions, refusal of unusable paths."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from wikimem.home import Home
from wikimem.layout import init_home


def wikimem(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args], capture_output=True, text=True, cwd=cwd
    )


def test_init_creates_layout(isolated_home: Path) -> None:
    proc = wikimem("init")
    assert proc.returncode == 0, proc.stderr
    for sub in ("events", "state", "memory/.git"):
        assert (isolated_home / sub).is_dir()
    assert isolated_home.stat().st_mode & 0o777 == 0o700
    assert (isolated_home / "events").stat().st_mode & 0o777 == 0o700
    assert (isolated_home / "state").stat().st_mode & 0o777 == 0o700
    assert (isolated_home / "config.toml").stat().st_mode & 0o777 == 0o600
    config = (isolated_home / "config.toml").read_text()
    assert "# session_start_chars = 8000" in config and "[gate]" in config
    log = subprocess.run(
        ["git", "-C", str(isolated_home / "memory"), "log", "--format=%an <%ae>|%s"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert log == "wikimem <wikimem@localhost>|init: wikimem memory"
    assert (isolated_home / "memory" / "index.md").exists()


def test_init_is_idempotent(isolated_home: Path) -> None:
    assert wikimem("init").returncode == 0
    before = {p: p.stat().st_mtime_ns for p in isolated_home.rglob("*") if ".git" not in p.parts}
    proc = wikimem("init")
    assert proc.returncode == 0 and "nothing changed" in proc.stdout
    after = {p: p.stat().st_mtime_ns for p in isolated_home.rglob("*") if ".git" not in p.parts}
    assert before == after
    commits = subprocess.run(
        ["git", "-C", str(isolated_home / "memory"), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert commits == "1"


def test_init_refuses_a_file(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    proc = wikimem("init", "--home", str(target))
    assert proc.returncode == 1
    assert "not a directory" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_init_refuses_memory_that_is_a_file(tmp_path: Path) -> None:
    home = tmp_path / "h"
    home.mkdir()
    (home / "memory").write_text("x")
    proc = wikimem("init", "--home", str(home))
    assert proc.returncode == 1 and "memory" in proc.stderr


def test_init_adopts_an_existing_vault(tmp_path: Path) -> None:
    home = tmp_path / "h"
    (home / "memory" / "general").mkdir(parents=True)
    (home / "memory" / "general" / "ideas.md").write_text(
        "---\ntitle: Ideas\nkind: general\n---\nSome.\n"
    )
    init_home(Home(str(home)))
    files = subprocess.run(
        ["git", "-C", str(home / "memory"), "ls-files"], capture_output=True, text=True
    ).stdout
    assert "general/ideas.md" in files
    assert "[[general/ideas|Ideas]]" in (home / "memory" / "index.md").read_text()


def test_the_config_init_writes_names_every_setting_with_its_default(tmp_path: Path) -> None:
    """configuration.md says every setting is written out, commented, with its default."""
    from wikimem.config import default_config_text
    from wikimem.rawconfig import DEFAULTS

    text = default_config_text()
    for table, settings in DEFAULTS.items():
        for key, value in settings.items():
            if key in ("pre_write", "post_write"):
                assert f"# [[{table}.{key}]]" in text
                continue
            literal = json.dumps(value) if not isinstance(value, bool) else str(value).lower()
            assert f"# {key} = {literal}" in text, (table, key)
