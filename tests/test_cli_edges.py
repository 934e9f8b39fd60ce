"""The command line's rough edges, each as a user met it (issue 14): every one must stay fixed.

Most tests run the CLI in-process (typer's runner: fast); those that depend on a terminal run it
as a subprocess with the terminal width set explicitly, narrow and wide, so nothing here depends
on the width of the terminal the tests happen to run in.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import make_repo, run_hook
from wikimem.cli.commands import app


@pytest.fixture(autouse=True)
def outside_any_repository(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # in-process runs use the test's cwd: make it $HOME (not a repository), as a person's shell
    monkeypatch.chdir(os.environ["HOME"])


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def cli(*args: str, input: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def at_terminal(*args: str, columns: int) -> subprocess.CompletedProcess[str]:
    """The CLI as a person at a terminal `columns` wide sees it (rich believes it is a tty)."""
    env = {**os.environ, "COLUMNS": str(columns), "TTY_COMPATIBLE": "1", "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=os.environ["HOME"],
    )


def squash(text: str) -> str:
    """Text without escapes, whitespace or box drawing: what is left when wrapping is undone."""
    return re.sub(r"[\s│┃─━╇┼]+", "", ANSI.sub("", text))


def one_line_error(stderr: str) -> None:
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith("error: ")
    for leak in ("Traceback", "Error:", "stderr:", "fatal:", "cmdline"):
        assert leak not in stderr.removeprefix("error: "), stderr


def commits(home: Path) -> int:
    out = subprocess.run(
        ["git", "-C", str(home / "memory"), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
    )
    return int(out.stdout.strip())


LONG_NOTE = """\
---
title: A rather long title for a note that goes well past forty columns TITLEEND
kind: general
tags: [alpha, beta, gamma, delta, epsilon, zeta]
sources: [claude:aaaaaaaa, codex:bbbbbbbbbbbb]
---
Plain paragraph with a long sentence that needs wrapping at forty columns PARAEND.

- list item with https://example.com/a/very/long/url/that/cannot/break/anywhere/URLEND
- see [the docs](https://example.com/docs/LINKEND) for more

```
a_very_long_code_line_without_any_spaces_that_goes_on_and_on_and_on_CODEEND
```

| col a | col b |
|---|---|
| a cell with lots of words in it CELLAEND | another cell with words CELLBEND |
"""


@pytest.fixture
def long_note(home: Path) -> Path:
    target = home / "memory" / "general" / "long-note.md"
    target.parent.mkdir(parents=True)
    target.write_text(LONG_NOTE)
    return target


@pytest.mark.parametrize("columns", [40, 200])
def test_show_keeps_every_character_at_any_width(long_note: Path, columns: int) -> None:
    proc = at_terminal("show", "general/long-note", columns=columns)
    assert proc.returncode == 0, proc.stderr
    shown = squash(proc.stdout)
    for expected in (
        "goeswellpastfortycolumnsTITLEEND",
        "needswrappingatfortycolumnsPARAEND",
        "https://example.com/a/very/long/url/that/cannot/break/anywhere/URLEND",
        "https://example.com/docs/LINKEND",  # a link's address is not hidden behind its text
        "a_very_long_code_line_without_any_spaces_that_goes_on_and_on_and_on_CODEEND",
        "CELLAEND",
        "CELLBEND",
        "epsilon",
        "codex:bbbbbbbbbbbb",
    ):
        assert expected in shown, (expected, proc.stdout)
    assert "…" not in proc.stdout


def test_show_in_a_pipe_prints_the_file_exactly(long_note: Path) -> None:
    code, out, _ = cli("show", "general/long-note")
    assert code == 0 and out == LONG_NOTE


@pytest.mark.parametrize("columns", [50, 200])
def test_list_never_cuts_a_path(home: Path, columns: int) -> None:
    path = "projects/a-rather-long-project-name/conventions-and-habits.md"
    assert cli("remember", "Use tabs", "--path", path)[0] == 0
    proc = at_terminal("list", columns=columns)
    assert proc.returncode == 0, proc.stderr
    assert path in squash(proc.stdout)
    assert "…" not in proc.stdout
    if columns >= len(path) + 10:
        assert any(path in line for line in ANSI.sub("", proc.stdout).splitlines())


def test_list_in_a_pipe_is_one_whole_line_per_note(home: Path) -> None:
    cli("remember", "Use tabs", "--path", "projects/a-rather-long-project-name/conventions.md")
    code, out, _ = cli("list")
    assert code == 0
    assert out.splitlines() == [
        "projects/a-rather-long-project-name/conventions.md\t"
        "a-rather-long-project-name conventions\tproject\t" + out.split("\t")[-1].strip()
    ]


def test_error_text_is_never_read_as_markup(home: Path) -> None:
    code, _, err = cli("show", "general/[/]")
    assert code == 1
    one_line_error(err)
    assert "[/]" in err or "'['" in err


def test_advice_naming_a_config_table_keeps_its_brackets(home: Path) -> None:
    prompt = {"session_id": "s1", "hook_event_name": "UserPromptSubmit", "cwd": str(home)}
    run_hook("claude", {**prompt, "prompt": "We use pnpm here, never npm."})
    code, _, err = cli("dream", "--backend", "anthropic")
    assert code == 0  # no key: this dream runs offline, and one line says why
    assert "[dream]" in err


def test_non_utf8_argument_is_bad_usage_and_writes_nothing(home: Path) -> None:
    before = commits(home)
    # what Python makes of the bytes b"\xff\xfe" on the command line
    code, _, err = cli("remember", "caf\udcff\udcfe bad")
    assert code == 2
    one_line_error(err)
    assert "UTF-8" in err
    assert commits(home) == before


def test_log_of_a_path_outside_memory_is_a_one_line_error(home: Path) -> None:
    code, _, err = cli("log", "../../etc/passwd")
    assert code == 1
    one_line_error(err)


def test_diff_of_an_unknown_revision_says_so_without_git_noise(home: Path) -> None:
    code, _, err = cli("diff", "badrev")
    assert code == 1
    one_line_error(err)
    assert "badrev" in err and "wikimem log" in err
    code, _, err = cli("diff", "--", "--output=/tmp/x")  # never handed to git as an option
    assert code == 1 and not Path("/tmp/x").exists()


def test_nothing_before_init(isolated_home: Path) -> None:
    code, _, err = cli("remember", "Deploys happen on Tuesdays")
    assert code == 1 and "not initialised" in err and "wikimem init" in err
    assert not isolated_home.exists()  # refused before anything was written
    for args in (
        ["list"],
        ["search", "deploys"],
        ["inject", "session-start"],
        ["show", "general/notes"],
        ["log"],
        ["dream"],
    ):
        code, _, err = cli(*args)
        assert code == 1, args
        one_line_error(err)
        assert "not initialised" in err, args
    assert not isolated_home.exists()
    assert cli("init")[0] == 0
    tree = subprocess.run(
        ["git", "-C", str(isolated_home / "memory"), "ls-files"], capture_output=True, text=True
    ).stdout.split()
    assert tree == [".gitattributes", ".gitignore", "index.md"]  # no stray note adopted


def test_remember_refuses_a_text_it_would_cut(home: Path) -> None:
    before = commits(home)
    code, _, err = cli("remember", "x" * 120_000)
    assert code == 1
    one_line_error(err)
    assert "120,000 characters" in err and "nothing was written" in err
    code, _, err = cli("remember", "The gateway " + "really " * 60 + "retries twice.")
    assert code == 1 and "a sentence of it has" in err  # one sentence that would be cut
    assert commits(home) == before
    assert not (home / "memory" / "general").exists()
    several = (
        "The staging database listens on port 5433. Deploys happen on Tuesdays after the "
        "standup, never on Fridays. The CI runners have four cores and sixteen gigabytes of "
        "memory each. The billing service is written in Go and owned by the payments team. "
        "Release notes are drafted in the CHANGELOG.md file before every tag."
    )
    assert 300 < len(several) < 1200
    code, _, err = cli("remember", several)
    assert code == 0, err
    kept = "".join(p.read_text() for p in (home / "memory").rglob("*.md"))
    for words in ("port 5433", "Tuesdays", "four cores", "payments team", "CHANGELOG.md"):
        assert words in kept, words


def test_remember_keeps_every_statement_of_a_short_text(home: Path) -> None:
    code, out, _ = cli("remember", "I prefer tabs. The staging database listens on port 5433.")
    assert code == 0, out
    preferences = (home / "memory" / "profile" / "preferences.md").read_text()
    notes = (home / "memory" / "general" / "notes.md").read_text()
    assert "tabs" in preferences and "5433" in notes
    assert commits(home) == 2  # init, then one commit for both


def test_remember_dash_reads_stdin(home: Path) -> None:
    code, _out, err = cli("remember", "-", input="The staging database listens on port 5433\n")
    assert code == 0, err
    assert "port 5433" in (home / "memory" / "general" / "notes.md").read_text()
    code, _, err = cli("remember", "-", input=b"caf\xe9 \xff")
    assert code == 1 and "not valid UTF-8" in err


def test_project_option_is_slugified(home: Path) -> None:
    code, _out, err = cli("remember", "Deploys happen on Tuesdays", "--project", "My Project!!")
    assert code == 0, err
    assert list((home / "memory" / "projects" / "my-project").glob("*.md"))
    code, _, err = cli("remember", "x", "--project", "!!!")
    assert code == 1 and "--project" in err


def fake_editor(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-editor.py"
    script.write_text(
        "import sys, pathlib\n"
        f"pathlib.Path({str(tmp_path / 'editor-ran')!r}).write_text('yes')\n" + body + "\n"
    )
    return f"{sys.executable} {script}"


def test_edit_checks_the_path_before_the_editor_opens(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", fake_editor(tmp_path, ""))
    for bad in ("../../.bashrc", "notes-at-the-top", "projects/no-folder.md", ".obsidian/x"):
        code, _, err = cli("edit", bad)
        assert code == 1, bad
        one_line_error(err)
    assert not (tmp_path / "editor-ran").exists()


def test_edit_bumps_updated_unless_the_person_set_it(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    note = home / "memory" / "general" / "deploys.md"
    note.parent.mkdir(parents=True)
    note.write_text(
        "---\ntitle: Deploys\nkind: general\nupdated: 2020-01-01T00:00:00Z\nmine: kept # a comment\n---\nOn Tuesdays.\n"
    )
    monkeypatch.setenv(
        "EDITOR",
        fake_editor(
            tmp_path,
            "p = pathlib.Path(sys.argv[1]); p.write_text(p.read_text().replace('Tuesdays', 'Thursdays'))",
        ),
    )
    code, out, err = cli("edit", "general/deploys", "--json")
    assert code == 0, err
    assert json.loads(out)["written"] == [{"path": "general/deploys.md", "operation": "update"}]
    text = note.read_text()
    assert "updated: 2020-01-01" not in text and re.search(r"updated: \d{4}-\d\d-\d\dT", text)
    assert "mine: kept # a comment" in text and "On Thursdays." in text
    monkeypatch.setenv(
        "EDITOR",
        fake_editor(
            tmp_path,
            "import re\np = pathlib.Path(sys.argv[1])\n"
            "p.write_text(re.sub(r'updated: .*', 'updated: 2030-05-05', p.read_text()))",
        ),
    )
    assert cli("edit", "general/deploys")[0] == 0
    assert "updated: 2030-05-05\n" in note.read_text()


def test_codex_trust_backs_up_config_toml(isolated_home: Path) -> None:
    codex_home = Path(os.environ["CODEX_HOME"])
    codex_home.mkdir(parents=True)
    original = 'model = "gpt-5"\n# my own comment\n[features]\nmemories = true\n'
    (codex_home / "config.toml").write_text(original)
    code, out, err = cli("install", "codex", "--trust", "--json")
    assert code == 0, err
    backups = list(codex_home.glob("config.toml.wikimem-backup-*"))
    assert len(backups) == 1 and backups[0].read_text() == original
    assert any(str(backups[0]) in m for m in json.loads(out)["messages"])
    assert "trusted_hash" in (codex_home / "config.toml").read_text()


@pytest.mark.parametrize("client", ["claude", "codex", "cursor"])
def test_uninstall_removes_a_file_wikimem_created(isolated_home: Path, client: str) -> None:
    code, out, err = cli("install", client, "--json")
    assert code == 0, err
    path = Path(json.loads(out)["path"])
    assert path.exists()
    code, out, err = cli("uninstall", client, "--json")
    assert code == 0, err
    assert json.loads(out)["removed"] is True
    assert not path.exists()
    assert not list(path.parent.glob(f"{path.name}.wikimem-backup-*"))


@pytest.mark.parametrize("client", ["claude", "codex", "cursor"])
def test_uninstall_leaves_what_was_there_before(isolated_home: Path, client: str) -> None:
    _code, out, _ = cli("install", client, "--dry-run", "--json")
    path = Path(json.loads(out)["path"])
    path.parent.mkdir(parents=True, exist_ok=True)
    for before in ("{}\n", '{\n  "theme": "dark"\n}\n'):
        path.write_text(before)
        assert cli("install", client)[0] == 0
        assert cli("uninstall", client)[0] == 0
        after = json.loads(path.read_text())
        expected = json.loads(before)
        if client == "cursor":
            after.pop("version", None)
        assert after == expected


def test_hook_help_prints_usage() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "wikimem", "hook", "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0
    assert "Usage:" in proc.stdout and "CLIENT" in proc.stdout


def test_version() -> None:
    from wikimem import __version__

    code, out, _ = cli("--version")
    assert code == 0 and out == f"wikimem {__version__}\n"


def test_shell_completion(home: Path) -> None:
    code, out, _ = cli("--show-completion", "bash")
    assert code == 0 and "_WIKIMEM_COMPLETE" in out
    cli("remember", "I prefer tabs")

    def complete(words: str) -> list[str]:
        env = {
            **os.environ,
            "_WIKIMEM_COMPLETE": "complete_bash",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
        }
        proc = subprocess.run(
            [sys.executable, "-m", "wikimem"], capture_output=True, text=True, env=env
        )
        return proc.stdout.split()

    assert "remember" in complete("wikimem rem")
    assert complete("wikimem show prof") == ["profile/preferences.md"]
    assert complete("wikimem install co") == ["codex", "copilot"]


def test_json_on_every_command_that_prints_data(home: Path, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "api", "git@github.com:acme/api.git")
    assert cli("remember", "I prefer tabs", "--json")[0] == 0
    cli("remember", "Deploys happen on Tuesdays", "--project", "acme-api")
    checks = {
        ("show", "profile/preferences"): lambda d: (
            d["title"] == "Preferences" and "tabs" in d["body"]
        ),
        ("diff",): lambda d: (
            d["files"][0] == "index.md"
            and d["files"][1].startswith("projects/acme-api/")
            and "Tuesdays" in d["patch"]
        ),
        ("list",): lambda d: len(d) == 2,
        ("log",): lambda d: len(d) == 3,
        ("search", "tabs"): lambda d: d[0]["path"] == "profile/preferences.md",
        ("inject", "session-start", "--cwd", str(repo)): lambda d: "Tuesdays" in d["text"],
        ("inject", "session-start", "--cwd", str(repo), "--client", "codex"): lambda d: (
            "Tuesdays" in json.loads(d["hook_output"])["hookSpecificOutput"]["additionalContext"]
        ),
        ("install", "claude", "--dry-run"): lambda d: d["dry_run"] and "+" in d["diff"],
        ("install", "claude"): lambda d: d["changed"] and "SessionStart" in d["events"],
        ("uninstall", "claude"): lambda d: d["removed"],
        ("status",): lambda d: d["initialised"],
        ("init",): lambda d: d["created"] == [],
        ("forget", "profile/preferences"): lambda d: d["written"][0]["operation"] == "delete",
    }
    for args, ok in checks.items():
        code, out, err = cli(*args, "--json")
        assert code == 0, (args, err)
        assert ok(json.loads(out)), (args, out)


def test_demo_result_reads_as_sentences() -> None:
    from wikimem.cli.demo import result_lines

    lines = result_lines(
        {
            "dream": {"events": 9, "created": ["projects/acme-api/notes.md"], "commit": "abc"},
            "events": 18,
            "by_client": {"cursor": 4, "claude": 9},
            "projects": ["acme-api"],
            "secret_redacted": True,
            "projects/acme-api/notes.md": "- The staging database listens on port 5433.",
        }
    )
    text = "\n".join(lines)
    assert "{" not in text and "[" not in text and "True" not in text
    assert "9 events became 1 notes in commit abc" in text
    assert "18 events (claude 9, cursor 4)" in text
    assert "    - The staging database listens on port 5433." in lines


def test_a_failed_edit_keeps_the_draft_inside_the_home_not_in_tmp(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    note = home / "memory" / "general" / "deploys.md"
    note.parent.mkdir(parents=True)
    note.write_text("---\ntitle: Deploys\nkind: general\n---\nOn Tuesdays.\n")
    shared_tmp = tmp_path / "shared-tmp"
    shared_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(shared_tmp))
    monkeypatch.setattr("tempfile.tempdir", None)  # re-read TMPDIR
    monkeypatch.setenv(
        "EDITOR",
        fake_editor(
            tmp_path,
            "p = pathlib.Path(sys.argv[1]); p.write_text(p.read_text() + 'my words'); sys.exit(3)",
        ),
    )
    code, _, err = cli("edit", "general/deploys")
    assert code == 1
    drafts = list((home / "state" / "drafts").glob("*.md"))
    assert len(drafts) == 1 and "my words" in drafts[0].read_text()
    assert str(drafts[0]) in err.replace("\n", "")  # the person is told where their text is
    assert list(shared_tmp.iterdir()) == []
    assert "my words" not in note.read_text()
