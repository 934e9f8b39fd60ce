"""`wikimem install gemini`: settings.json in user and project scope, folder trust explained and
recorded only with --trust, and `doctor` saying when Gemini CLI will run none of the hooks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import make_repo


def wikimem(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **env},
    )


def gemini_dir() -> Path:
    return Path.home() / ".gemini"


def trusted() -> dict[str, str]:
    path = gemini_dir() / "trustedFolders.json"
    return json.loads(path.read_text()) if path.exists() else {}


def doctor(project: Path) -> list[dict[str, Any]]:
    proc = wikimem("doctor", "--json", "--project-dir", str(project))
    return [c for c in json.loads(proc.stdout) if c["area"].startswith("gemini")]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "code" / "acme-api", "git@github.com:acme/api.git")


def test_install_explains_trust_and_records_nothing_without_consent(project: Path) -> None:
    proc = wikimem("install", "gemini", cwd=project)
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.split())
    assert "only in trusted folders" in out and "--trust" in out and str(project) in out
    assert trusted() == {}
    settings = json.loads((gemini_dir() / "settings.json").read_text())
    assert "BeforeAgent" in settings["hooks"]
    fails = [c for c in doctor(project) if c["status"] == "fail"]
    assert [c["area"] for c in fails] == ["gemini trust"]
    assert "runs no hooks in" in fails[0]["detail"]
    assert "--trust" in fails[0]["fix"]


def test_trust_flag_records_the_folder_keeping_other_rules(project: Path, tmp_path: Path) -> None:
    gemini_dir().mkdir()
    other = str(tmp_path / "elsewhere")
    (gemini_dir() / "trustedFolders.json").write_text(json.dumps({other: "DO_NOT_TRUST"}))
    proc = wikimem("install", "gemini", "--trust", "--project-dir", str(project))
    assert proc.returncode == 0, proc.stderr
    assert "Recorded Gemini CLI trust" in proc.stdout
    assert trusted() == {other: "DO_NOT_TRUST", str(project.resolve()): "TRUST_FOLDER"}
    backups = list(gemini_dir().glob("trustedFolders.json.wikimem-backup-*"))
    assert len(backups) == 1 and json.loads(backups[0].read_text()) == {other: "DO_NOT_TRUST"}
    assert [c["status"] for c in doctor(project) if c["area"] == "gemini trust"] == ["ok"]
    # a sub-directory of a trusted folder is trusted too; asking again changes nothing
    proc = wikimem("install", "gemini", "--trust", "--project-dir", str(project / "src"))
    assert "Gemini CLI trusts" in proc.stdout and len(trusted()) == 2


def test_trust_is_refused_for_the_home_directory() -> None:
    proc = wikimem("install", "gemini", "--trust", cwd=Path.home())
    assert proc.returncode == 1 and "refusing to trust" in proc.stderr
    assert trusted() == {}
    plain = wikimem("install", "gemini", cwd=Path.home())
    assert plain.returncode == 0 and "--trust" not in plain.stdout  # not offered for ~


@pytest.mark.parametrize(
    "rules,expected",
    [
        ({"{p}": "DO_NOT_TRUST", "{parent}": "TRUST_FOLDER"}, False),  # the longest rule wins
        ({"{p}/child": "TRUST_PARENT"}, True),  # TRUST_PARENT trusts the rule's parent
        ({"{parent}": "TRUST_FOLDER", "{p}": "DO_NOT_TRUST"}, False),
        ({"{p}-other": "TRUST_FOLDER"}, None),  # a sibling with a common prefix is not a parent
    ],
)
def test_folder_trust_follows_geminis_rules(
    project: Path, rules: dict[str, str], expected: bool | None
) -> None:
    from wikimem.setup.geminitrust import folder_trust

    gemini_dir().mkdir()
    fill = {"p": str(project), "parent": str(project.parent)}
    (gemini_dir() / "trustedFolders.json").write_text(
        "// written by hand\n" + json.dumps({k.format(**fill): v for k, v in rules.items()})
    )
    assert folder_trust(str(project)).trusted is expected


def test_environment_and_settings_overrides(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wikimem.setup.geminitrust import folder_trust

    assert folder_trust(str(project)).trusted is None
    assert folder_trust(str(project), {"security": {"folderTrust": {"enabled": False}}}).trusted
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    assert folder_trust(str(project)).trusted
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "false")
    assert folder_trust(str(project)).trusted is False


def test_gemini_cli_home_moves_settings_and_trust(project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "gemini-home"
    proc = wikimem(
        "install",
        "gemini",
        "--trust",
        "--project-dir",
        str(project),
        GEMINI_CLI_HOME=str(elsewhere),
    )
    assert proc.returncode == 0, proc.stderr
    assert (elsewhere / ".gemini" / "settings.json").exists()
    rules = elsewhere / ".gemini" / "trustedFolders.json"
    assert json.loads(rules.read_text()) == {str(project.resolve()): "TRUST_FOLDER"}
    assert rules.stat().st_mode & 0o777 == 0o600  # as Gemini itself writes it
    assert not gemini_dir().exists()


def test_project_scope_and_uninstall(project: Path) -> None:
    proc = wikimem("install", "gemini", "--scope", "project", "--project-dir", str(project))
    assert proc.returncode == 0, proc.stderr
    assert "project-level hooks" in proc.stdout
    path = project / ".gemini" / "settings.json"
    assert set(json.loads(path.read_text())["hooks"]) >= {"SessionStart", "AfterAgent"}
    assert not (gemini_dir() / "settings.json").exists()
    proc = wikimem("uninstall", "gemini", "--scope", "project", "--project-dir", str(project))
    assert proc.returncode == 0 and not path.exists()  # wikimem made it, and it is empty again


def test_settings_with_comments_are_left_alone(tmp_path: Path) -> None:
    gemini_dir().mkdir()
    path = gemini_dir() / "settings.json"
    text = '{\n  // my theme\n  "ui": {"theme": "GitHub"}\n}\n'
    path.write_text(text)
    proc = wikimem("install", "gemini")
    assert proc.returncode == 1 and "has comments" in proc.stderr
    assert "Traceback" not in proc.stderr and path.read_text() == text
    dry = wikimem("install", "gemini", "--dry-run")
    assert dry.returncode == 1  # what it would write cannot be shown without losing them either


def test_dry_run_writes_nothing_not_even_trust(project: Path) -> None:
    proc = wikimem("install", "gemini", "--dry-run", "--trust", "--project-dir", str(project))
    assert proc.returncode == 0, proc.stderr
    assert '"BeforeAgent"' in proc.stdout and "would record it as TRUST_FOLDER" in proc.stdout
    assert not gemini_dir().exists()


def test_doctor_reports_hooks_switched_off(project: Path) -> None:
    wikimem("install", "gemini", "--trust", "--project-dir", str(project))
    path = gemini_dir() / "settings.json"
    doc = json.loads(path.read_text())
    doc["hooksConfig"] = {"enabled": False, "disabled": ["wikimem"]}
    path.write_text(json.dumps(doc))
    details = [c["detail"] for c in doctor(project) if c["status"] == "fail"]
    assert any('"hooksConfig.enabled": false' in d for d in details)
    assert any("hooksConfig.disabled" in d for d in details)


def test_doctor_probes_the_installed_gemini_hook(project: Path) -> None:
    wikimem("install", "gemini", "--trust", "--project-dir", str(project))
    proc = wikimem("doctor", "--json", "--project-dir", str(project))
    [wired] = [c for c in json.loads(proc.stdout) if c["area"] == "gemini (user)"]
    assert wired["status"] in ("ok", "warn") and "7 events wired" in wired["detail"]


def test_doctor_sees_the_extension(project: Path) -> None:
    ext = gemini_dir() / "extensions" / "wikimem"
    ext.mkdir(parents=True)
    (ext / ".gemini-extension-install.json").write_text('{"source": "/src", "type": "link"}')
    checks = json.loads(wikimem("doctor", "--json", "--project-dir", str(project)).stdout)
    gemini = [c for c in checks if c["area"].startswith("gemini")]
    assert [c["status"] for c in gemini] == ["ok", "fail"]  # extension found; folder not trusted
    assert "extension is installed" in gemini[0]["detail"]
    assert not any(c["detail"].startswith("not wired") and c["area"] == "gemini" for c in checks)


def test_mcp_server_goes_into_geminis_settings_beside_the_hooks(project: Path) -> None:
    settings = gemini_dir() / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"ui": {"theme": "GitHub"}}')
    assert wikimem("install", "gemini", "--mcp").returncode == 0
    doc = json.loads(settings.read_text())
    assert "mcp" in doc["mcpServers"]["wikimem"]["args"]
    assert "BeforeAgent" in doc["hooks"] and doc["ui"] == {"theme": "GitHub"}
    assert not (Path.home() / ".cursor").exists()  # not another harness's file
    assert wikimem("uninstall", "gemini", "--mcp").returncode == 0
    assert json.loads(settings.read_text()) == {"ui": {"theme": "GitHub"}}
