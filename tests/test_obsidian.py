"""memory/ as an Obsidian vault: what a person does there, wikimem accepts; what wikimem writes,
Obsidian reads as links and unique titles; Obsidian's own folder is never memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import make_repo, run_hook
from wikimem.cli.commands import app
from wikimem.home import Home
from wikimem.wiki.batch import Wiki
from wikimem.wiki.gate import MemoryWrite
from wikimem.wiki.links import title_for, wikilink


@pytest.fixture(autouse=True)
def outside_any_repository(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(os.environ["HOME"])


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def made_in_obsidian(home: Path, rel: str, title: str, body: str) -> Path:
    target = home / "memory" / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"---\ntitle: {title}\n---\n{body}\n")
    return target


def test_a_note_named_in_obsidian_is_accepted_wherever_a_person_acts(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    note = made_in_obsidian(
        home, "general/My Note.md", "My Note", "The gateway retries twice, then gives up."
    )
    code, out, _ = cli("list", "--json")
    assert [r["path"] for r in json.loads(out)] == ["general/My Note.md"]
    for typed in ("general/My Note", "general/my note.md", "[[My Note]]"):
        code, out, err = cli("show", typed)
        assert code == 0, (typed, err)
        assert "retries twice" in out
    code, out, _ = cli("search", "gateway retries", "--json")
    assert json.loads(out)[0]["path"] == "general/My Note.md"
    editor = tmp_path / "ed.py"
    editor.write_text(
        "import sys, pathlib\np = pathlib.Path(sys.argv[1])\n"
        "p.write_text(p.read_text().replace('twice', 'three times'))\n"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    code, out, err = cli("edit", "general/My Note")
    assert code == 0, err
    assert "three times" in note.read_text()
    code, out, err = cli("forget", "general/My Note", "--json")
    assert code == 0, err
    assert json.loads(out)["written"] == [{"path": "general/My Note.md", "operation": "delete"}]
    assert not note.exists()


def test_a_note_named_in_obsidian_is_injected(home: Path, tmp_path: Path) -> None:
    made_in_obsidian(home, "profile/How I Work.md", "How I Work", "I review diffs before commits.")
    repo = make_repo(tmp_path / "api", "git@github.com:acme/api.git")
    made_in_obsidian(
        home, "projects/acme-api/Release Checklist.md", "Release checklist", "Bump the changelog."
    )
    start = {"session_id": "s1", "cwd": str(repo), "hook_event_name": "SessionStart"}
    context = json.loads(run_hook("claude", start).stdout)["hookSpecificOutput"][
        "additionalContext"
    ]
    assert "### profile/How I Work.md — How I Work" in context
    assert "Bump the changelog." in context


def test_automated_writers_create_kebab_case_names_only(home: Path) -> None:
    wiki = Wiki(Home(str(home)))
    made_in_obsidian(home, "general/My Note.md", "My Note", "first")
    content = "---\ntitle: T\nkind: general\n---\nbody\n"
    result = wiki.commit_writes(
        [
            MemoryWrite("general/New Idea.md", "create", content, "dream"),
            MemoryWrite("general/My Note.md", "update", content, "dream"),
            MemoryWrite("general/Typed By Me.md", "create", content, "edit"),
            MemoryWrite("general/a[b].md", "create", content, "edit"),
        ],
        "test",
    )
    status = {r.write.path: r.status for r in result.results}
    assert status == {
        "general/New Idea.md": "blocked",  # wikimem never invents such a name
        "general/My Note.md": "ok",  # but may change a note a person named
        "general/Typed By Me.md": "ok",  # and a person may name their own
        "general/a[b].md": "blocked",  # not a name Obsidian can link to
    }


def test_obsidian_folder_is_never_reported_uncommitted(home: Path) -> None:
    obsidian = home / "memory" / ".obsidian"
    obsidian.mkdir()
    (obsidian / "workspace.json").write_text("{}")
    (obsidian / "app.json").write_text('{"theme": "dark"}')
    (home / "memory" / ".trash").mkdir()
    (home / "memory" / ".trash" / "old.md").write_text("x")
    assert Wiki(Home(str(home))).store.dirty_paths() == []
    _code, out, _ = cli("doctor", "--json")
    git = [c for c in json.loads(out) if c["area"] == "git"]
    assert git and git[0]["status"] == "ok", git
    # and a home made by an older wikimem, whose .gitignore lists only some of Obsidian's files
    (home / "memory" / ".gitignore").write_text(".obsidian/workspace*.json\n")
    subprocess.run(["git", "-C", str(home / "memory"), "commit", "-qam", "old"], check=True)
    assert Wiki(Home(str(home))).store.dirty_paths() == []


def test_index_links_every_note_with_a_wikilink(home: Path) -> None:
    cli("remember", "Use pnpm", "--path", "projects/acme-api/commands")
    made_in_obsidian(home, "general/My Note.md", "My [odd] | title", "Body.")
    cli("remember", "Deploys on Tuesdays")  # any commit regenerates index.md
    index = (home / "memory" / "index.md").read_text()
    assert "- [[projects/acme-api/commands|acme-api commands]] — " in index
    assert "- [[general/My Note|My (odd) / title]] — Body." in index
    assert "](" not in index


def test_titles_wikimem_generates_are_unique_per_note(home: Path) -> None:
    assert title_for("projects/acme-api/commands.md") == "acme-api commands"
    assert title_for("projects/acme-web/commands.md") == "acme-web commands"
    assert title_for("tools/ripgrep/flags.md") == "ripgrep flags"
    assert title_for("general/deploy-notes.md") == "Deploy notes"
    assert title_for("general/My Note.md") == "My Note"
    cli("remember", "rg -uu searches ignored files", "--path", "tools/ripgrep/flags")
    text = (home / "memory" / "tools" / "ripgrep" / "flags.md").read_text()
    assert "title: ripgrep flags\n" in text


def test_wikilink_syntax() -> None:
    assert wikilink("general/notes.md") == "[[general/notes]]"
    assert wikilink("general/notes.md", "general/notes") == "[[general/notes]]"
    assert wikilink("general/notes.md", "A|B [c]\n#d") == "[[general/notes|A/B (c) d]]"


def test_search_snippet_shows_the_passage_that_matched(home: Path) -> None:
    filler = " ".join(
        f"Paragraph filler sentence number {i} about nothing much." for i in range(12)
    )
    made_in_obsidian(
        home,
        "general/runbook.md",
        "Runbook",
        f"{filler} The flamingo cache is flushed with make purge-cache.",
    )
    _code, out, _ = cli("search", "flamingo", "--json")
    snippet = json.loads(out)[0]["snippet"]
    assert "flamingo cache is flushed" in snippet
    assert snippet.startswith("…") and len(snippet) <= 245
