"""`wikimem import claude-auto-memory` and `import codex-memories`: other agents' own memories,
through the gate, into the right project and kind, idempotently."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import make_repo
from wikimem.cli.commands import app
from wikimem.importers.claude_auto_memory import encode


@pytest.fixture(autouse=True)
def outside_any_repository(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(os.environ["HOME"])


def cli(*args: str) -> tuple[int, dict, str]:
    result = CliRunner().invoke(app, [*args, "--json"])
    try:
        data = json.loads(result.stdout)
    except ValueError:
        data = {}
    return result.exit_code, data, result.stderr


def commits(home: Path) -> int:
    out = subprocess.run(
        ["git", "-C", str(home / "memory"), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
    )
    return int(out.stdout)


def topic(name: str, title: str, kind: str, description: str, body: str) -> str:
    return f"---\nname: {title}\ndescription: {description}\ntype: {kind}\n---\n{body}\n"


@pytest.fixture
def claude(tmp_path: Path) -> dict[str, Path]:
    """Claude Code's folder for a session in a clone of acme/api, as Claude Code 2.1 lays it out:
    a session transcript naming the cwd, MEMORY.md (the index) and four topic files."""
    repo = make_repo(tmp_path / "work" / "my_api.v2", "git@github.com:acme/api.git")
    projects = Path(os.environ["HOME"]) / ".claude" / "projects"
    project = projects / encode(str(repo))
    memory = project / "memory"
    memory.mkdir(parents=True)
    (project / "5e1d0c1a-aaaa.jsonl").write_text(
        json.dumps({"type": "summary"})
        + "\n"
        + json.dumps({"type": "user", "cwd": str(repo), "sessionId": "5e1d0c1a"})
        + "\n"
    )
    (memory / "MEMORY.md").write_text(
        "- [Testing approach](feedback_testing.md) — real database in integration tests\n"
        "- [Role](user_role.md) — backend engineer\n"
        "- [Freeze](project_freeze.md) — merge freeze\n"
        "- [Dashboards](reference_dashboards.md) — grafana\n"
    )
    (memory / "feedback_testing.md").write_text(
        topic(
            "feedback_testing",
            "Testing approach",
            "feedback",
            "Integration tests must hit a real database, not mocks",
            "Integration tests must hit a real database, not mocks.\n\n"
            "Why: a mocked migration passed CI and broke prod. See [the role](user_role.md).",
        )
    )
    (memory / "user_role.md").write_text(
        topic(
            "user_role",
            "User role",
            "user",
            "Senior backend engineer, new to React",
            "Explain frontend ideas by analogy to the backend.",
        )
    )
    (memory / "project_freeze.md").write_text(
        topic(
            "project_freeze",
            "Merge freeze",
            "project",
            "Merge freeze from 2026-03-05 for the mobile release",
            "Non-critical merges wait until the release branch is cut.",
        )
    )
    (memory / "reference_dashboards.md").write_text(
        topic(
            "reference_dashboards",
            "Dashboards",
            "reference",
            "Latency dashboard",
            "grafana.internal/d/api-latency is what on-call watches.",
        )
    )
    return {"repo": repo, "project": project, "memory": memory}


def test_claude_auto_memory_lands_in_the_right_project_and_kind(
    home: Path, claude: dict[str, Path]
) -> None:
    code, data, err = cli("import", "claude-auto-memory")
    assert code == 0, err
    assert sorted(w["path"] for w in data["written"]) == [
        "profile/claude-user-role.md",
        "projects/acme-api/claude-feedback-testing.md",
        "projects/acme-api/claude-project-freeze.md",
        "projects/acme-api/claude-reference-dashboards.md",
    ]
    memory = home / "memory"
    assert not list(memory.rglob("*memory*.md")), "MEMORY.md (the index) is not copied"
    feedback = (memory / "projects" / "acme-api" / "claude-feedback-testing.md").read_text()
    assert "title: Testing approach (acme-api)" in feedback and "kind: project" in feedback
    assert "tags: [claude-auto-memory, feedback]" in feedback
    assert "See [[profile/claude-user-role|the role]]." in feedback  # topic links → wikilinks
    role = (memory / "profile" / "claude-user-role.md").read_text()
    assert "kind: profile" in role
    assert "Senior backend engineer, new to React\n\nExplain frontend" in role  # description first
    log = subprocess.run(
        ["git", "-C", str(memory), "log", "-1", "--format=%B"], capture_output=True, text=True
    ).stdout
    assert "Wikimem-Source: import" in log


def test_claude_import_is_idempotent_and_follows_its_source(
    home: Path, claude: dict[str, Path]
) -> None:
    assert cli("import", "claude-auto-memory")[0] == 0
    before = commits(home)
    code, data, _ = cli("import", "claude-auto-memory")
    assert code == 0 and data["written"] == [] and data["unchanged"] == 4
    assert commits(home) == before  # unchanged input: no commit
    os.utime(claude["memory"] / "user_role.md")  # touched, not changed
    assert cli("import", "claude-auto-memory")[1]["written"] == []
    # the source changes: the note follows, in one commit
    freeze = claude["memory"] / "project_freeze.md"
    freeze.write_text(freeze.read_text().replace("release branch", "v2 release branch"))
    code, data, _ = cli("import", "claude-auto-memory")
    assert data["written"] == [
        {"path": "projects/acme-api/claude-project-freeze.md", "operation": "update"}
    ]
    assert commits(home) == before + 1
    # a topic Claude deleted: its note goes too
    (claude["memory"] / "reference_dashboards.md").unlink()
    code, data, _ = cli("import", "claude-auto-memory")
    assert data["written"] == [
        {"path": "projects/acme-api/claude-reference-dashboards.md", "operation": "delete"}
    ]


def test_a_persons_edit_of_an_imported_note_is_kept(home: Path, claude: dict[str, Path]) -> None:
    cli("import", "claude-auto-memory")
    note = home / "memory" / "profile" / "claude-user-role.md"
    note.write_text(note.read_text().replace("by analogy", "with diagrams and by analogy"))
    subprocess.run(["git", "-C", str(home / "memory"), "commit", "-qam", "mine"], check=True)
    role = claude["memory"] / "user_role.md"
    role.write_text(role.read_text().replace("React", "React and CSS"))
    code, data, _ = cli("import", "claude-auto-memory")
    assert code == 0 and data["written"] == []
    assert data["skipped"][0]["path"] == "profile/claude-user-role.md"
    assert "with diagrams" in note.read_text()


def test_a_secret_in_a_topic_file_is_redacted_and_stays_idempotent(
    home: Path, claude: dict[str, Path]
) -> None:
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    (claude["memory"] / "reference_token.md").write_text(
        topic("t", "Token", "reference", "CI token", f"The CI token is {token}.")
    )
    cli("import", "claude-auto-memory")
    text = (home / "memory" / "projects" / "acme-api" / "claude-reference-token.md").read_text()
    assert token not in text and "[REDACTED:github_token]" in text
    before = commits(home)
    assert cli("import", "claude-auto-memory")[1]["written"] == []
    assert commits(home) == before


def test_the_project_is_found_without_transcripts(home: Path, claude: dict[str, Path]) -> None:
    for transcript in claude["project"].glob("*.jsonl"):
        transcript.unlink()
    code, data, _ = cli("import", "claude-auto-memory", "--dir", str(claude["project"]))
    assert code == 0
    assert "projects/acme-api/claude-feedback-testing.md" in [w["path"] for w in data["written"]]
    # a folder whose directory is gone from this machine: filed under a guessed slug, and said
    gone = claude["project"].parent / encode(os.path.expanduser("~") + "/old/thing")
    (gone / "memory").mkdir(parents=True)
    (gone / "memory" / "note.md").write_text(topic("n", "Note", "project", "d", "Body."))
    code, data, _ = cli("import", "claude-auto-memory", "--dir", str(gone / "memory"))
    assert data["written"] == [{"path": "projects/old-thing/claude-note.md", "operation": "create"}]
    assert any("working directory" in w for w in data["warnings"])


def test_a_memory_md_link_to_a_missing_topic_file_is_reported(
    home: Path, claude: dict[str, Path]
) -> None:
    """Claude Code lists a memory in MEMORY.md whose topic file is gone (deleted by hand, or never
    written): the import says so instead of passing over it in silence."""
    index = claude["memory"] / "MEMORY.md"
    index.write_text(
        index.read_text()
        + "- [Release train](project_release_train.md) — weekly, Thursdays\n"
        + "- [[reference_oncall]] — the pager rota\n"
    )
    code, data, err = cli("import", "claude-auto-memory")
    assert code == 0, err
    assert len(data["written"]) == 4  # the topic files that exist are imported
    missing = [w for w in data["warnings"] if "do not exist" in w]
    assert len(missing) == 1, data["warnings"]
    assert "project_release_train.md" in missing[0] and "reference_oncall.md" in missing[0]
    assert "feedback_testing.md" not in missing[0]  # a link to a file that is there is fine


def test_claude_folder_names_are_encoded_as_claude_code_does() -> None:
    assert encode("/home/me/my_app.v2") == "-home-me-my-app-v2"
    assert encode("/Users/Ana/Projects/acme api") == "-Users-Ana-Projects-acme-api"


def test_import_refuses_before_init(isolated_home: Path, claude: dict[str, Path]) -> None:
    result = CliRunner().invoke(app, ["import", "claude-auto-memory"])
    assert result.exit_code == 1 and "not initialised" in result.stderr
    assert not isolated_home.exists()


CODEX_SUMMARY = """\
v1

## User Profile

Backend engineer working mostly on acme/api; prefers small, reviewable diffs.

## User preferences

- when a test fails, the user asked: "show me the failing assertion first" -> lead with it
- run `pnpm test` before saying a change is done

## General Tips

- `rg -uu` finds files .gitignore hides.

## What's in Memory

### /work/api
#### 2026-11-28
- auth token ttl: TOKEN_TTL, OAuth2 maximum -> MEMORY.md "Auth token lifetime"
"""


def codex_handbook(repo: Path) -> str:
    return f"""\
# Task Group: Auth token lifetime in acme-api

scope: fixing the auth test when TOKEN_TTL exceeds the provider's maximum
applies_to: cwd={repo}; reuse_rule=safe for this repository

## Task 1: lower TOKEN_TTL to 900 s, tests pass

### rollout_summary_files

- rollout_summaries/2026-11-28-auth.md (cwd={repo}, rollout_path=/x, updated_at=2026-11-28T10:00:00Z, thread_id=019d)

### keywords

- TOKEN_TTL, OAuth2, 900

## Reusable knowledge

- The OAuth2 provider caps token lifetime at 900 seconds. [Task 1]

# Task Group: Shell habits across repositories

scope: general shell usage
applies_to: cwd=~/src/*; reuse_rule=any repository

## Task 1: search ignored files

### keywords

- rg, ignore

## User preferences

- the user asked for `rg` over `grep` -> use rg [Task 1]
"""


@pytest.fixture
def codex(tmp_path: Path) -> dict[str, Path]:
    repo = make_repo(tmp_path / "work" / "api", "git@github.com:acme/api.git")
    memories = Path(os.environ["CODEX_HOME"]) / "memories"
    (memories / "rollout_summaries").mkdir(parents=True)
    (memories / "memory_summary.md").write_text(CODEX_SUMMARY)
    (memories / "MEMORY.md").write_text(codex_handbook(repo))
    (memories / "raw_memories.md").write_text("# Raw memories\n- raw input, not imported\n")
    (memories / "rollout_summaries" / "2026-11-28-auth.md").write_text("recap, not imported\n")
    return {"repo": repo, "memories": memories}


def test_codex_memories_land_in_the_right_project_and_kind(
    home: Path, codex: dict[str, Path]
) -> None:
    code, data, err = cli("import", "codex-memories")
    assert code == 0, err
    assert sorted(w["path"] for w in data["written"]) == [
        "general/codex-shell-habits-across-repositories.md",
        "general/codex-tips.md",
        "profile/codex-preferences.md",
        "profile/codex-profile.md",
        "projects/acme-api/codex-auth-token-lifetime-in-acme-api.md",
    ]
    memory = home / "memory"
    auth = (memory / "projects/acme-api/codex-auth-token-lifetime-in-acme-api.md").read_text()
    assert "kind: project" in auth and "caps token lifetime at 900 seconds" in auth
    assert "# Task Group" not in auth  # the heading became the title
    profile = (memory / "profile" / "codex-profile.md").read_text()
    assert "kind: profile" in profile and "small, reviewable diffs" in profile
    everything = "".join(p.read_text() for p in memory.rglob("*.md"))
    assert "raw input" not in everything and "recap, not imported" not in everything
    assert "auth token ttl: TOKEN_TTL" not in everything  # the summary's index is not copied


def test_codex_import_is_idempotent(home: Path, codex: dict[str, Path]) -> None:
    assert cli("import", "codex-memories")[0] == 0
    before = commits(home)
    code, data, _ = cli("import", "codex-memories")
    assert code == 0 and data["written"] == [] and data["unchanged"] == 5
    assert commits(home) == before
    # Codex rewrites its handbook without the shell block: that note goes, the other stays
    handbook = codex["memories"] / "MEMORY.md"
    handbook.write_text(handbook.read_text().split("# Task Group: Shell habits")[0])
    code, data, _ = cli("import", "codex-memories")
    assert data["written"] == [
        {"path": "general/codex-shell-habits-across-repositories.md", "operation": "delete"}
    ]


def test_codex_import_without_memories_says_so(home: Path) -> None:
    code, data, _ = cli("import", "codex-memories")
    assert code == 0 and data["written"] == []
    assert any("does not exist" in w for w in data["warnings"])


def test_a_description_the_body_already_says_is_not_given_twice(
    home: Path, claude: dict[str, Path]
) -> None:
    """Claude's `description` sums its memory up for MEMORY.md; put above a body that says the
    same, every session was given it twice."""
    (claude["memory"] / "user_tabs.md").write_text(
        topic(
            "user_tabs",
            "Indentation",
            "user",
            "Prefers tabs over spaces in every repository",
            "The user prefers tabs over spaces, in every repository they work in.",
        )
    )
    assert cli("import", "claude-auto-memory")[0] == 0
    note = (home / "memory" / "profile" / "claude-user-tabs.md").read_text()
    assert note.lower().count("tabs over spaces") == 1, note
    role = (home / "memory" / "profile" / "claude-user-role.md").read_text()
    assert "Senior backend engineer, new to React" in role  # a description that adds: kept
    from tests.conftest import run_hook

    given = run_hook(
        "claude",
        {"session_id": "s1", "hook_event_name": "SessionStart", "cwd": str(claude["repo"])},
    ).stdout.decode()
    assert given.lower().count("tabs over spaces") == 1, given
