"""`wikimem install` / `uninstall` are all or nothing and leave nothing of wikimem's behind.

For every harness, every scope and every flag (`--trust`, `--mcp`):
  (a) an install (or uninstall) that fails at any step — refused trust, a file it must not
      overwrite, a disk error at the n-th write — leaves every file byte-identical to before;
  (b) install then uninstall on a fresh home leaves the home tree exactly as it was: no file,
      folder or backup of wikimem's;
  (c) install then uninstall over the person's own config files (formatted their way) gives
      their files back byte for byte, their settings kept;
  (d) installing again changes nothing and makes no backup.
The CLI runs in-process (so a disk error can be injected); HOME, the project and the memory
home are temporary folders.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import make_repo
from wikimem.cli.commands import app
from wikimem.harness import CLIENTS
from wikimem.home import Home
from wikimem.layout import init_home
from wikimem.setup import codextrust, copilottrust, geminitrust, mcpconfig
from wikimem.setup import install as hooks

TRUSTING = ("codex", "gemini", "copilot")  # the harnesses whose trust --trust records


@dataclass(frozen=True)
class Case:
    client: str
    scope: str
    trust: bool
    mcp: bool

    def __str__(self) -> str:
        flags = ("-trust" if self.trust else "") + ("-mcp" if self.mcp else "")
        return f"{self.client}-{self.scope}{flags}"

    def install_args(self, project: Path) -> list[str]:
        return ["install", *self._common(project), *(["--trust"] if self.trust else [])]

    def uninstall_args(self, project: Path) -> list[str]:
        return ["uninstall", *self._common(project)]

    def _common(self, project: Path) -> list[str]:
        args = [self.client, "--scope", self.scope, "--project-dir", str(project)]
        return args + (["--mcp"] if self.mcp else [])


CASES = [
    Case(client, scope, trust, mcp)
    for client in CLIENTS
    for scope in ("user", "project")
    for trust in ((False, True) if client in TRUSTING else (False,))
    for mcp in (False, True)
]
# the cases where the person has files of their own that wikimem edits (Copilot's and OpenCode's
# hook files are wikimem's own)
PERSONAL = [
    c
    for c in CASES
    if c.client not in ("copilot", "opencode") or c.mcp or (c.trust and c.scope == "project")
]
FULL = [c for c in CASES if c.mcp and (c.trust or c.client not in TRUSTING)]  # every flag on


@dataclass
class World:
    root: Path
    home: Path  # $HOME
    project: Path
    memory: Path  # the memory home (outside $HOME, as in the suite's fixture)

    def tree(self) -> dict[str, Any]:
        """Every file (bytes and permission bits) and folder under $HOME and the project, and
        the memory home's record of what wikimem created (unless it records nothing)."""
        out: dict[str, Any] = {}
        for base in (self.home, self.project):
            for dirpath, dirnames, filenames in os.walk(base):
                for name in dirnames + filenames:
                    path = Path(dirpath) / name
                    mode = stat.S_IMODE(path.lstat().st_mode)
                    out[str(path)] = (path.read_bytes(), mode) if path.is_file() else ("dir", mode)
        for path in sorted((self.memory / "state").glob("created-configs*")):
            data = json.loads(path.read_text())
            if any(data.values() if isinstance(data, dict) else data):  # empty: as if absent
                out[str(path)] = path.read_bytes()
        return out


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    return make_world(tmp_path / "w", monkeypatch)


def make_world(root: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    home = root / "userhome"
    home.mkdir(parents=True)
    project = make_repo(root / "code" / "acme-api")
    memory = root / "wikimem-home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.setenv("WIKIMEM_HOME", str(memory))
    monkeypatch.chdir(project)  # Gemini's user-scope trust is for the folder install runs in
    init_home(Home(str(memory)))
    return World(root, home, project, memory)


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout + result.stderr


def ok(*args: str) -> str:
    code, out = cli(*args)
    assert code == 0, out
    return out


# -- the person's own files, formatted their way (4-space indent, no final newline) ----------------


def person_files(case: Case, world: World) -> dict[Path, str]:
    """The files a person who already uses this harness has, that wikimem's install edits."""
    project = str(world.project)
    hooks_path = hooks.config_path(case.client, case.scope, project)
    mcp_path = mcpconfig.config_path(case.client, case.scope, project)
    out: dict[Path, Any] = {}
    if case.client not in ("copilot", "opencode"):  # those two hook files are wikimem's own
        if case.client == "cursor":
            doc: dict[str, Any] = {"version": 1, "hooks": {"stop": [{"command": "echo mine"}]}}
        else:
            mine = {"type": "command", "command": "echo mine", "timeout": 7}
            event = "AfterAgent" if case.client == "gemini" else "Stop"
            doc = {"theme": "dark", "hooks": {event: [{"hooks": [mine]}]}}
        out[Path(hooks_path)] = doc
    if case.mcp:
        if case.client == "codex":
            out[Path(mcp_path)] = (
                '# my codex settings\nmodel = "gpt-5.5"\n\n'
                '[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n'
            )
        else:
            key = "mcp" if case.client == "opencode" else "mcpServers"
            server = {"command": "docs-mcp", "args": ["--stdio"]}
            doc = dict(out.get(Path(mcp_path), {"numStartups": 3}))
            out[Path(mcp_path)] = {**doc, key: {"docs": server}}
    if case.trust and case.client == "codex" and Path(codextrust.config_path()) not in out:
        out[Path(codextrust.config_path())] = '# mine\nmodel = "o4"\n'
    if case.trust and case.client == "gemini":
        out[Path(geminitrust.trusted_folders_path())] = {"/elsewhere": "DO_NOT_TRUST"}
    if case.trust and case.client == "copilot" and case.scope == "project":
        out[Path(copilottrust.config_path())] = "// Copilot's own header\n" + json.dumps(
            {"theme": "dark", "trustedFolders": ["/elsewhere"]}, indent=4
        )
    return {
        path: (text if isinstance(text, str) else json.dumps(text, indent=4))
        for path, text in out.items()
    }


def give_person_files(case: Case, world: World) -> dict[Path, str]:
    files = person_files(case, world)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        path.chmod(0o640)
    return files


# -- (b) fresh home: install then uninstall leaves nothing --------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=str)
def test_install_then_uninstall_on_a_fresh_home_leaves_it_as_it_was(
    case: Case, world: World
) -> None:
    before = world.tree()
    ok(*case.install_args(world.project))
    assert world.tree() != before  # the install did something
    ok(*case.uninstall_args(world.project))
    assert world.tree() == before


# -- (c) the person's files come back byte for byte -----------------------------------------------


@pytest.mark.parametrize("case", PERSONAL, ids=str)
def test_install_then_uninstall_gives_the_persons_files_back_byte_for_byte(
    case: Case, world: World
) -> None:
    files = give_person_files(case, world)
    before = world.tree()
    ok(*case.install_args(world.project))
    assert files and all(p.read_text() != text for p, text in files.items())  # all edited
    ok(*case.uninstall_args(world.project))
    for path, text in files.items():
        assert path.read_text() == text, path
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert world.tree() == before  # nothing else left either (their backups are identical)


def test_the_persons_edits_made_after_install_are_kept_by_uninstall(world: World) -> None:
    case = Case("gemini", "user", trust=True, mcp=True)
    files = give_person_files(case, world)
    settings = Path(geminitrust.user_settings_path())
    ok(*case.install_args(world.project))
    doc = json.loads(settings.read_text())
    doc["model"] = {"name": "gemini-3-pro"}  # changed in Gemini's /settings meanwhile
    settings.write_text(json.dumps(doc, indent=2))
    ok(*case.uninstall_args(world.project))
    left = json.loads(settings.read_text())
    assert left == {**json.loads(files[settings]), "model": {"name": "gemini-3-pro"}}
    trusted = Path(geminitrust.trusted_folders_path())
    assert trusted.read_text() == files[trusted]


# -- (d) installing twice equals installing once --------------------------------------------------


@pytest.mark.parametrize("with_files", [False, True], ids=["fresh", "person"])
@pytest.mark.parametrize("case", FULL, ids=str)
def test_reinstall_changes_nothing(case: Case, world: World, with_files: bool) -> None:
    if with_files:
        give_person_files(case, world)
    ok(*case.install_args(world.project))
    once = world.tree()
    out = ok(*case.install_args(world.project))
    assert world.tree() == once, out
    assert "backup" not in out


# -- (a) a failing install changes no file ------------------------------------------------------------


def test_refused_trust_in_the_home_directory_writes_nothing(world: World) -> None:
    """The reported case: `wikimem install gemini --trust` run in $HOME."""
    os.chdir(world.home)
    before = world.tree()
    code, out = cli("install", "gemini", "--trust", "--mcp")
    assert code == 1 and "refusing to trust" in out
    assert world.tree() == before


def test_refused_copilot_trust_for_the_home_directory_writes_nothing(world: World) -> None:
    make_repo(world.home)
    before = world.tree()
    args = ("--scope", "project", "--project-dir", str(world.home), "--trust", "--mcp")
    code, out = cli("install", "copilot", *args)
    assert code == 1 and "refusing to trust" in out
    assert world.tree() == before


@pytest.mark.parametrize("case", FULL, ids=str)
def test_an_mcp_entry_wikimem_must_not_overwrite_stops_the_hooks_too(
    case: Case, world: World
) -> None:
    path = Path(mcpconfig.config_path(case.client, case.scope, str(world.project)))
    path.parent.mkdir(parents=True, exist_ok=True)
    if case.client == "codex":
        path.write_text('[mcp_servers.wikimem]\ncommand = "something-else"\n')
    else:
        key = "mcp" if case.client == "opencode" else "mcpServers"
        path.write_text(json.dumps({key: {"wikimem": {"command": "something-else"}}}))
    before = world.tree()
    code, out = cli(*case.install_args(world.project))
    assert code == 1 and "does not run wikimem" in out
    assert world.tree() == before


@pytest.mark.parametrize("scope", ["user", "project"])
def test_a_codex_config_toml_that_does_not_parse_stops_the_hooks_too(
    scope: str, world: World
) -> None:
    config = Path(codextrust.config_path())
    config.parent.mkdir(parents=True)
    config.write_text("model = \n")
    before = world.tree()
    code, out = cli(
        "install", "codex", "--scope", scope, "--project-dir", str(world.project), "--trust"
    )
    assert code == 1 and "config.toml" in out
    assert world.tree() == before


class DiskFault:
    """Every change to the file system (replace, unlink, mkdir, rmdir) counted; the n-th fails
    as a full disk would (once: what runs after it, a rollback, works again)."""

    OPS = ("replace", "rename", "unlink", "remove", "mkdir", "rmdir", "link", "symlink")

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fail_at: int | None) -> None:
        self.calls = 0
        self.fail_at = fail_at
        for name in self.OPS:
            monkeypatch.setattr(os, name, self._wrap(name, getattr(os, name)))

    def _wrap(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def op(*args: Any, **kwargs: Any) -> Any:
            if name == "mkdir" and os.path.isdir(args[0]):
                return real(*args, **kwargs)  # makedirs(exist_ok=True): changes nothing
            self.calls += 1
            if self.calls == self.fail_at:
                raise OSError(errno.ENOSPC, "No space left on device (injected)", str(args[0]))
            return real(*args, **kwargs)

        return op


def fault_runs(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_files: bool, verb: str
) -> Iterator[tuple[int, World, dict[str, Any], int, str]]:
    """For n = 1, 2, … up to the number of file-system changes the command makes: a fresh world,
    the command failing at its n-th change, and the tree before and the exit code after."""
    n, total = 0, None
    while total is None or n <= total:
        with monkeypatch.context() as m:
            w = make_world(tmp_path / f"{verb}{n}", m)
            if with_files:
                give_person_files(case, w)
            if verb == "uninstall":
                ok(*case.install_args(w.project))
            before = w.tree()
            fault = DiskFault(m, fail_at=n or None)
            args = (
                case.install_args(w.project)
                if verb == "install"
                else case.uninstall_args(w.project)
            )
            code, out = cli(*args)
            if n == 0:
                assert code == 0, out
                total = fault.calls
                assert total > 0
            else:
                yield n, w, before, code, out
        n += 1


@pytest.mark.parametrize("verb", ["install", "uninstall"])
@pytest.mark.parametrize("with_files", [False, True], ids=["fresh", "person"])
@pytest.mark.parametrize("case", FULL, ids=str)
def test_a_disk_error_at_any_step_leaves_every_file_as_it_was(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_files: bool, verb: str
) -> None:
    runs = 0
    for n, w, before, code, out in fault_runs(case, tmp_path, monkeypatch, with_files, verb):
        runs += 1
        after = w.tree()
        assert after == before, f"failure at change {n}: {sorted(set(after) ^ set(before))}"
        assert code == 1, f"failure at change {n} was not reported: {out}"
        assert "No space left" in out
    assert runs > 0


# -- doctor after uninstall -------------------------------------------------------------------------


@pytest.mark.parametrize("case", FULL, ids=str)
def test_doctor_after_uninstall_reports_the_harness_as_not_wired(case: Case, world: World) -> None:
    ok(*case.install_args(world.project))
    ok(*case.uninstall_args(world.project))
    _code, out = cli("doctor", "--json", "--project-dir", str(world.project))
    checks = json.loads(out[out.index("[") :])
    mine = [c for c in checks if c["area"].split()[0] == case.client]
    assert {"area": case.client, "status": "info"} in [
        {"area": c["area"], "status": c["status"]} for c in mine
    ], mine
    assert not [c for c in mine if c["status"] in ("warn", "fail")], mine


# -- the finer rules ----------------------------------------------------------------------------


def test_trust_two_installs_rely_on_goes_with_the_last_of_them(world: World) -> None:
    project = ("--scope", "project", "--project-dir", str(world.project))
    ok("install", "gemini", *project, "--trust")
    rules = Path(geminitrust.trusted_folders_path())
    trusted = rules.read_text()
    ok("install", "gemini", "--project-dir", str(world.project))  # user scope, same folder
    ok("uninstall", "gemini", *project)
    assert rules.read_text() == trusted  # the user-scope hooks still need it
    ok("uninstall", "gemini")
    assert not rules.exists() and not Path(geminitrust.gemini_dir()).exists()


def test_trust_the_person_changed_since_is_theirs(world: World) -> None:
    ok("install", "gemini", "--trust")
    rules = Path(geminitrust.trusted_folders_path())
    mine = json.dumps({str(world.project.resolve()): "DO_NOT_TRUST"})
    rules.write_text(mine)
    ok("uninstall", "gemini")
    assert rules.read_text() == mine


def test_a_record_written_by_an_older_wikimem_is_honoured(world: World) -> None:
    ok("install", "cursor")
    path = Path(hooks.config_path("cursor", "user"))
    record = world.memory / "state" / "created-configs.json"
    record.write_text(json.dumps([str(path.parent), str(path)]))  # the old format: a list
    ok("uninstall", "cursor")
    assert not path.parent.exists()


def test_a_file_changed_between_plan_and_commit_is_not_overwritten(world: World) -> None:
    from wikimem.setup.changeset import Changes
    from wikimem.setup.wiring import InstallError

    path = Path(hooks.config_path("claude", "user"))
    path.parent.mkdir()
    path.write_text('{"theme": "dark"}')
    changes = Changes(Home(str(world.memory)))
    hooks.plan_install(changes, "claude", Home(str(world.memory)))
    mcpconfig.plan_install_mcp(changes, "claude", Home(str(world.memory)))
    before = world.tree()
    Path(mcpconfig.config_path("claude", "user")).write_text('{"numStartups": 1}')  # Claude
    with pytest.raises(InstallError, match="changed while wikimem was editing it"):
        changes.commit()
    assert path.read_text() == '{"theme": "dark"}'
    assert not list(path.parent.glob("*.wikimem-backup-*"))
    assert set(world.tree()) - set(before) == {str(Path.home() / ".claude.json")}
