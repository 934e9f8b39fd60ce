"""Install and uninstall keep what the person did to their own files: a comment added after
install survives uninstall, and a config that is a link (a dotfiles repository's) stays a link
even when an install fails half-way and is put back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_install_atomic import DiskFault, cli, make_world, ok


def _linked_settings(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    w = make_world(root, monkeypatch)
    dotfiles = w.home / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "claude-settings.json"
    target.write_text(json.dumps({"model": "opus"}, indent=4))
    (w.home / ".claude").mkdir()
    link = w.home / ".claude" / "settings.json"
    link.symlink_to(target)
    return w.project, link


def test_a_failed_install_keeps_a_linked_settings_file_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dotfiles link at ~/.claude/settings.json: an install that fails and says "nothing was
    changed (every file is as it was)" must leave the link a link."""
    args = ["claude", "--scope", "user", "--mcp"]
    with monkeypatch.context() as m:  # count the changes a successful install makes
        project, _ = _linked_settings(tmp_path / "count", m)
        fault = DiskFault(m, fail_at=None)
        ok("install", *args, "--project-dir", str(project))
        total = fault.calls
    project, link = _linked_settings(tmp_path / "fail", monkeypatch)
    DiskFault(monkeypatch, fail_at=total)  # the last change (the record) fails
    code, out = cli("install", *args, "--project-dir", str(project))
    assert code == 1 and "nothing was changed" in out, out
    assert link.is_symlink(), "the person's link was replaced by a plain copy"


def test_a_comment_the_person_adds_after_install_survives_uninstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person's ~/.codex/config.toml, changed by `install --trust`; afterwards the person
    writes a comment in it. Uninstall puts the first backup's bytes back because the *data*
    is the same, and the person's comment is gone (the backup is deleted too)."""
    w = make_world(tmp_path / "w", monkeypatch)
    config = w.home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "o3"\n')
    common = ["codex", "--scope", "user", "--project-dir", str(w.project)]
    ok("install", *common, "--trust")
    assert "trust" in config.read_text() or config.read_text() != 'model = "o3"\n'
    text = config.read_text()
    config.write_text("# work laptop: never switch to o4 (see ticket)\n" + text)
    ok("uninstall", *common)
    assert "never switch to o4" in config.read_text(), config.read_text()


@pytest.mark.parametrize("scope", ["user", "project"])
def test_a_crlf_settings_file_is_given_back_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scope: str
) -> None:
    """A settings.json saved on Windows (CRLF line endings): uninstall says it is "back to exactly
    what it held", so it must be, byte for byte, line endings included (issue 29, item 8)."""
    w = make_world(tmp_path / "w", monkeypatch)
    base = w.home if scope == "user" else w.project
    settings = base / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = b'{\r\n    "model": "opus",\r\n    "theme": "dark"\r\n}\r\n'
    settings.write_bytes(original)
    common = ["claude", "--scope", scope, "--project-dir", str(w.project)]
    ok("install", *common)
    assert b"hook" in settings.read_bytes()
    backups = list(settings.parent.glob("settings.json.wikimem-backup-*"))
    assert [b.read_bytes() for b in backups] == [original]  # the backup is the exact bytes too
    out = ok("uninstall", *common)
    assert "back to exactly what it held" in out
    assert settings.read_bytes() == original
