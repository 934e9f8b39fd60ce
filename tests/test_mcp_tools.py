"""The MCP tools' logic (wikimem/mcp/tools.py), without the SDK: scope, hostile input, the gate."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import make_repo
from wikimem.home import Home
from wikimem.mcp.tools import MemoryTools, ToolInputError, WriteBlocked
from wikimem.wiki.batch import Wiki
from wikimem.wiki.remember import remember


@pytest.fixture
def wiki_home(home: Path) -> Home:
    """A home with a profile note and two projects' notes."""
    h = Home(str(home))
    wiki = Wiki(h)
    remember(wiki, "I prefer pnpm over npm for JavaScript", path="profile/preferences.md")
    remember(wiki, "The API is deployed blue-green on Fly", project="acme-api")
    remember(wiki, "The billing service deploys with make release", project="billing")
    return h


@pytest.fixture
def in_acme(tmp_path: Path) -> str:
    return str(make_repo(tmp_path / "src" / "api", remote="git@github.com:acme/api.git"))


def commits(home: Home) -> int:
    out = subprocess.run(
        ["git", "-C", home.memory_dir, "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout)


def test_search_sees_own_project_and_shared_notes_not_another_project(
    wiki_home: Home, in_acme: str
) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    found = tools.search("how do deploys go out")
    assert found["project"] == "acme-api"
    paths = [r["path"] for r in found["results"]]
    assert "projects/acme-api/facts.md" in paths
    assert "projects/billing/facts.md" not in paths
    assert tools.search("pnpm")["results"][0]["path"] == "profile/preferences.md"


def test_another_project_is_visible_when_the_query_names_it(wiki_home: Home, in_acme: str) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    paths = [r["path"] for r in tools.search("how does billing deploy")["results"]]
    assert "projects/billing/facts.md" in paths


def test_reading_another_projects_note_needs_that_project_named(
    wiki_home: Home, in_acme: str
) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    with pytest.raises(ToolInputError, match="pass project='billing'"):
        tools.read("projects/billing/facts.md")
    note = tools.read("projects/billing/facts.md", project="billing")
    assert "make release" in note["content"]
    assert "not instructions" in note["note"]


def test_list_and_recent_are_scoped_too(wiki_home: Home, in_acme: str) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    listed = [n["path"] for n in tools.list_notes()["notes"]]
    assert listed == ["profile/preferences.md", "projects/acme-api/facts.md"]
    recent = [n["path"] for n in tools.recent()["notes"]]
    assert recent == ["projects/acme-api/facts.md", "profile/preferences.md"]
    assert tools.recent(project="billing")["notes"][0]["path"] == ("projects/billing/facts.md")


def test_cwd_argument_sets_the_project(wiki_home: Home, tmp_path: Path) -> None:
    elsewhere = make_repo(tmp_path / "billing", remote="https://github.com/x/billing")
    tools = MemoryTools(wiki_home, str(tmp_path))
    assert tools.place(cwd=str(elsewhere)).project == "x-billing"
    with pytest.raises(ToolInputError, match="absolute"):
        tools.place(cwd="relative/dir")
    assert tools.place(project="Acme API!!").project == "acme-api"


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("../../.bashrc", "'..'"),
        ("general/../../../etc/passwd", "'..'"),
        ("/etc/passwd", "not absolute"),
        ("~/.ssh/id_rsa", "not absolute"),
        ("general\\x.md", "backslashes"),
        ("general/x\0.md", "NUL"),
        (".git/config", "hidden"),
        ("index.md", "generated"),
        ("secrets/x.md", "live under"),
        ("general/sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.md", "secret"),
    ],
)
def test_hostile_paths_are_refused_and_nothing_is_written(
    wiki_home: Home, in_acme: str, tmp_path: Path, path: str, why: str
) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    before = commits(wiki_home)
    for call in (
        lambda: tools.read(path),
        lambda: tools.write("Some statement", path=path),
        lambda: tools.write("Body", path=path, replace=True),
        lambda: tools.delete(path),
    ):
        with pytest.raises(ToolInputError, match=why):
            call()
    assert commits(wiki_home) == before
    assert not (Path(wiki_home.root).parent / ".bashrc").exists()
    assert not (tmp_path / "userhome" / ".bashrc").exists()


def test_a_link_out_of_memory_is_neither_read_nor_written_through(
    wiki_home: Home, in_acme: str, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("---\ntitle: Secret\nkind: general\n---\nprivate\n")
    (Path(wiki_home.memory_dir) / "general").mkdir()
    os.symlink(outside, Path(wiki_home.memory_dir) / "general" / "leak.md")
    tools = MemoryTools(wiki_home, in_acme)
    with pytest.raises(ToolInputError, match="outside memory"):
        tools.read("general/leak.md")
    with pytest.raises((ToolInputError, WriteBlocked)):
        tools.write("Overwritten", path="general/leak.md", replace=True)
    assert outside.read_text().endswith("private\n")


def test_write_folds_a_statement_and_replaces_the_older_one(wiki_home: Home, in_acme: str) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    first = tools.write("The staging database port is 5433")
    assert first["path"] == "projects/acme-api/facts.md" and first["commit"]
    second = tools.write("The staging database port is 6432")
    assert second["replaced"].startswith("The staging database port is 5433")
    content = tools.read("projects/acme-api/facts.md")["content"]
    bullets = [
        line
        for line in content.splitlines()
        if "staging database port" in line and not line.startswith("<!--")
    ]
    assert len(bullets) == 1
    assert bullets[0].startswith("- **Staging database port**: The staging database port is 6432")
    assert "(was 5433 until " in bullets[0] and bullets[0].endswith(")")
    log = subprocess.run(
        ["git", "-C", wiki_home.memory_dir, "log", "-1", "--format=%B"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Wikimem-Source: mcp" in log


def test_replace_writes_a_whole_note_and_delete_removes_it(wiki_home: Home, in_acme: str) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    made = tools.write(
        "## Release\n\nTag, then `make ship`.\n",
        path="projects/acme-api/release.md",
        title="Release process",
        replace=True,
    )
    assert made["operation"] == "create"
    note = tools.read("release")  # a bare file name this session can see
    assert note["title"] == "Release process" and "make ship" in note["content"]
    assert tools.write("## Release\n\nTag, then `make ship`.\n", path="release", replace=True)[
        "operation"
    ] == ("unchanged")
    gone = tools.delete("projects/acme-api/release.md")
    assert gone["operation"] == "delete" and gone["commit"]
    assert not (Path(wiki_home.memory_dir) / "projects/acme-api/release.md").exists()
    assert tools.recent()["notes"][0] == {
        **tools.recent()["notes"][0],
        "path": "projects/acme-api/release.md",
        "change": "deleted",
    }
    with pytest.raises(ToolInputError, match="no note at"):
        tools.delete("projects/acme-api/release.md")


def test_writing_another_projects_note_needs_it_named(wiki_home: Home, in_acme: str) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    before = commits(wiki_home)
    with pytest.raises(ToolInputError, match="belongs to project 'billing'"):
        tools.write("Billing uses Stripe", path="projects/billing/facts.md")
    with pytest.raises(ToolInputError, match="belongs to project 'billing'"):
        tools.delete("projects/billing/facts.md")
    assert commits(wiki_home) == before
    assert tools.write("Billing uses Stripe", project="billing")["path"] == (
        "projects/billing/facts.md"
    )


def test_protected_path_is_blocked_for_mcp_and_reported(wiki_home: Home, in_acme: str) -> None:
    config = Path(wiki_home.config_path)
    config.write_text(config.read_text().replace("[gate]", '[gate]\nprotected = ["profile/**"]'))
    tools = MemoryTools(wiki_home, in_acme)
    before = commits(wiki_home)
    with pytest.raises(WriteBlocked, match="protected"):
        tools.write("I prefer tabs", path="profile/preferences.md")
    with pytest.raises(WriteBlocked, match="protected"):
        tools.delete("profile/preferences.md")
    assert commits(wiki_home) == before


def test_a_refusal_to_change_a_persons_note_tells_the_agent_what_it_can_do(
    wiki_home: Home, in_acme: str
) -> None:
    """Nothing waits for consent over MCP (only a dream parks a write): the refusal does not send
    the agent to `dream --drop-parked`, it says how the note can still change."""
    tools = MemoryTools(wiki_home, in_acme)
    before = commits(wiki_home)
    with pytest.raises(WriteBlocked) as deleted:
        tools.delete("profile/preferences.md")  # written with `remember`: the person's
    refusal = str(deleted.value)
    assert "holds what the person wrote" in refusal
    assert "parked" not in refusal and "dream" not in refusal, refusal
    assert "wikimem forget profile/preferences.md" in refusal
    note = Path(wiki_home.memory_dir, "profile", "preferences.md").read_text()
    lines = "".join(f"- rule {i}\n" for i in range(12))
    Path(wiki_home.memory_dir, "profile", "preferences.md").write_text(note + lines)
    subprocess.run(["git", "-C", wiki_home.memory_dir, "commit", "-qam", "mine"], check=True)
    with pytest.raises(WriteBlocked) as rewritten:
        tools.write("- one rule only\n", path="profile/preferences.md", replace=True)
    refusal = str(rewritten.value)
    assert "holds what the person wrote" in refusal and "parked" not in refusal, refusal
    assert "keep their lines" in refusal and "wikimem edit profile/preferences.md" in refusal
    assert commits(wiki_home) == before + 1  # only the person's own commit


def test_a_note_the_person_writes_while_the_server_runs_is_theirs_too(
    wiki_home: Home, in_acme: str
) -> None:
    """The server gates many batches with one gate: who wrote what is read again for each, so a
    note the person commits after the agent's first write is protected from its next one."""
    tools = MemoryTools(wiki_home, in_acme)
    tools.write("Deploys need a green CI run first", project="acme-api")  # the gate reads authors
    lines = "".join(f"- rule {i}\n" for i in range(12))
    Path(wiki_home.memory_dir, "general").mkdir(exist_ok=True)
    Path(wiki_home.memory_dir, "general", "rules.md").write_text(
        f"---\ntitle: Rules\nkind: general\n---\n{lines}"
    )
    subprocess.run(["git", "-C", wiki_home.memory_dir, "add", "-A"], check=True)
    subprocess.run(["git", "-C", wiki_home.memory_dir, "commit", "-qm", "mine"], check=True)
    with pytest.raises(WriteBlocked, match="holds what the person wrote"):
        tools.write("- one rule only\n", path="general/rules.md", replace=True)
    assert "- rule 11" in Path(wiki_home.memory_dir, "general", "rules.md").read_text()


def test_a_secret_in_the_text_is_redacted_by_the_gate(wiki_home: Home, in_acme: str) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    key = "sk-ant-api03-" + "B" * 40
    done = tools.write(f"The CI key is {key}, rotated by the platform team every month")
    assert done["redacted"]
    assert key not in tools.read(done["path"])["content"]
    # a line that would hold nothing but the redacted secret is no claim: refused, said why
    with pytest.raises(ToolInputError, match="a secret and nothing else") as refused:
        tools.write(f"The CI key is {key}")
    assert key not in str(refused.value)


def test_oversized_or_empty_text_is_refused_with_the_reason(wiki_home: Home, in_acme: str) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    with pytest.raises(ToolInputError, match="empty"):
        tools.write("   ")
    with pytest.raises(ToolInputError, match=r"gate\.max_note_bytes"):
        tools.write("x " * 15_000, path="general/big.md", replace=True)
    with pytest.raises(ToolInputError, match="replace=true"):
        tools.write("word " * 100)
    with pytest.raises(ToolInputError, match="limit"):
        tools.search("deploy", limit=0)


def test_writes_before_init_are_refused_and_create_nothing(
    isolated_home: Path, tmp_path: Path
) -> None:
    tools = MemoryTools(Home(str(isolated_home)), str(tmp_path))
    with pytest.raises(ToolInputError, match="wikimem init"):
        tools.write("Remember this")
    assert not isolated_home.exists()
    assert tools.search("anything")["results"] == []
    assert tools.list_notes()["notes"] == [] and tools.recent()["notes"] == []


def test_replacing_a_note_with_itself_is_unchanged_even_across_a_second(
    wiki_home: Home, in_acme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = MemoryTools(wiki_home, in_acme)
    body = "## Release\n\nTag, then `make ship`.\n"
    tools.write(body, path="projects/acme-api/release.md", title="Release process", replace=True)
    clock = iter(f"2031-01-01T00:00:{s:02d}Z" for s in range(60))
    monkeypatch.setattr("wikimem.mcp.tools.now_utc", lambda: next(clock))  # every call a new second
    assert tools.write(body, path="release", replace=True)["operation"] == "unchanged"
    changed = tools.write(body + "\nThen announce it.\n", path="release", replace=True)
    assert changed["operation"] == "update"
    release = Path(wiki_home.memory_dir) / "projects" / "acme-api" / "release.md"
    assert "updated: 2031-01-01T00:00:" in release.read_text(encoding="utf-8")
