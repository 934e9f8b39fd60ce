"""The dream pass: multi-session scenarios through the real hook, then consolidation."""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import make_repo, run_hook
from tests.sessions import claude_session, codex_session
from wikimem.dream.digest import short_id
from wikimem.dream.fake import FakeBackend
from wikimem.dream.ops import Upsert
from wikimem.dream.runner import run_dream
from wikimem.dream.watermark import load_state
from wikimem.home import Home
from wikimem.wiki.notes import parse_note

CLAUDE_ID = "5e1d0c1a-7d4a-4e9b-9c21-5a6f0d8e4b17"
CODEX_ID = "019e0000-4c1b-7f30-9a8e-2b6c5d4e3f10"


def replay(client: str, payloads: list[dict[str, Any]]) -> None:
    for p in payloads:
        proc = run_hook(client, p, installed_form=True)
        assert proc.returncode == 0 and proc.stderr == b""


def wikimem(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=os.environ["HOME"],
    )


def note(home: Path, rel: str) -> str:
    return (home / "memory" / rel).read_text()


def git(home: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(home / "memory"), *args], capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture
def clones(tmp_path: Path) -> tuple[str, str]:
    a = make_repo(tmp_path / "work" / "api", "git@github.com:acme/api.git")
    b = make_repo(tmp_path / "laptop" / "checkout", "https://github.com/acme/api")
    return str(a), str(b)


def first_scenario(cwd: str) -> list[dict[str, Any]]:
    return claude_session(
        CLAUDE_ID,
        cwd,
        [
            {
                "prompt": "We use npm in this repo. Remember that the staging database listens on port 5433.",
                "steps": [
                    ("run", "npm install", True, "added 120 packages"),
                    (
                        "run",
                        "npm test",
                        False,
                        "FAIL src/auth.test.ts\n  TOKEN_TTL 3600 exceeds provider max 900",
                    ),
                    ("edit", "src/auth.ts"),
                    ("run", "npm test", True, "PASS src/auth.test.ts (3 tests)"),
                ],
                "answer": "TOKEN_TTL exceeded the provider maximum of 900 s; I lowered it in src/auth.ts and the tests pass.",
            },
            {
                "prompt": "I prefer small commits. Now lint it.",
                "steps": [
                    ("run", "cd /somewhere && npm run lint", True, "0 problems"),
                    ("run", "ls -la", True, "x"),
                ],
                "answer": "Lint is clean.",
            },
        ],
    )


def test_multi_session_offline_dream(home: Path, clones: tuple[str, str]) -> None:
    a, b = clones
    replay("claude", first_scenario(a))
    replay(
        "codex",
        codex_session(
            CODEX_ID,
            b,
            [
                {
                    "prompt": "Actually use pnpm instead of npm here.",
                    "steps": [
                        ("run", "pnpm install", True, "done"),
                        ("run", "pnpm test", True, "PASS 3 tests"),
                        ("edit", "src/auth.ts"),
                    ],
                    "answer": "Switched to pnpm.",
                },
            ],
        ),
    )
    proc = wikimem("dream", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["backend"] == "offline" and result["events"] > 10
    assert sorted(result["sessions"]) == [
        f"claude:{short_id(CLAUDE_ID)}",
        f"codex:{short_id(CODEX_ID)}",
    ]
    assert result["projects"] == ["acme-api"]

    conventions = note(home, "projects/acme-api/conventions.md")
    # the later statement replaced the earlier one on the same subject: merged, not appended
    assert "- **JS package manager**: Use pnpm instead of npm. ([[" in conventions
    assert "We use npm" not in conventions.split("<!-- wikimem:was ")[0]  # kept hidden only
    assert conventions.count("\n- ") == 1
    facts = note(home, "projects/acme-api/facts.md")
    assert "The staging database listens on port 5433. ([[projects/acme-api/sessions/" in facts
    assert "|claude 20" in facts  # provenance: the client and the day, linked to the digest
    assert "I prefer small commits." in note(home, "profile/preferences.md")

    commands = note(home, "projects/acme-api/commands.md")
    assert "| `npm test` | test | 1 | 1 |" in commands
    assert "| `npm run lint` | lint | 1 | 0 |" in commands  # the machine-specific cd is gone
    assert "| `pnpm test` | test | 1 | 0 |" in commands
    assert "ls -la" not in commands

    overview = note(home, "projects/acme-api/overview.md")
    assert "Sessions recorded: 2 (Claude Code 1, Codex 1)" in overview
    assert "- `src/auth.ts` (2 edits)" in overview  # both clones, relative paths
    # what wikimem keeps is told to whoever edits the file, in a comment no prompt is answered with
    assert "Project **acme-api**.\n<!-- Kept by `wikimem dream`; write freely" in overview

    pitfalls = note(home, "projects/acme-api/pitfalls.md")
    assert "`npm test` failed" in pitfalls and "TOKEN_TTL 3600 exceeds provider max 900" in pitfalls
    assert "fixed by editing `src/auth.ts`" in pitfalls
    assert "I lowered it in src/auth.ts" in pitfalls  # the agent's reason comes along

    digest_path = next(
        (home / "memory" / "projects" / "acme-api" / "sessions").glob(f"*-{CLAUDE_ID[:8]}-*.md")
    )
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-5e1d0c1a-[0-9a-f]{6}\.md", digest_path.name)
    assert f"[[projects/acme-api/sessions/{digest_path.name[:-3]}|" in facts
    digest = parse_note(f"projects/acme-api/sessions/{digest_path.name}", digest_path.read_text())
    assert digest.kind == "session" and digest.sources == (f"claude:{short_id(CLAUDE_ID)}",)
    assert "**Said:** We use npm in this repo." in digest.body
    assert "ran `npm test` (failed" in digest.body and "edited `src/auth.ts`" in digest.body
    assert "## Outcome" in digest.body and "Lint is clean." in digest.body
    assert len(digest_path.read_text()) < 13000

    subject = git(home, "log", "-1", "--format=%s")
    assert re.fullmatch(r"dream: \d+ created from 2 sessions\n", subject)
    body = git(home, "log", "-1", "--format=%B")
    assert "Wikimem-Watermark: " in body and "Wikimem-Backend: offline" in body
    assert f"claude:{short_id(CLAUDE_ID)}" in body
    # every note passes the strict schema
    for path in (home / "memory").rglob("*.md"):
        if path.name != "index.md" and ".git" not in path.parts:
            parse_note(str(path.relative_to(home / "memory")), path.read_text())
    assert "[[projects/acme-api/commands|acme-api commands]]" in note(home, "index.md")
    assert "[[projects/acme-api/facts]]" in digest.body  # the digest links the notes it changed


def test_a_notice_written_as_text_by_an_older_version_becomes_a_comment(
    home: Path, clones: tuple[str, str]
) -> None:
    older = {
        "overview": "Project **acme-api**. Kept by `wikimem dream`; write freely outside the"
        " marked parts.\n\nOur billing API; see the runbook.\n",
        "pitfalls": "Failures seen in acme-api and what fixed them. Kept by `wikimem dream`; a"
        " newer entry on the same command replaces the older one.\n",
    }
    for name, body in older.items():
        path = home / "memory" / "projects" / "acme-api" / f"{name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\ntitle: acme-api {name}\nkind: project\n---\n{body}")
    replay("claude", first_scenario(clones[0]))
    assert wikimem("dream").returncode == 0
    overview = note(home, "projects/acme-api/overview.md")
    assert (
        "Project **acme-api**.\n<!-- Kept by `wikimem dream`; write freely outside the marked parts. -->"
        in overview
    )
    assert "Our billing API; see the runbook." in overview  # the person's own text stays
    pitfalls = note(home, "projects/acme-api/pitfalls.md")
    assert "them.\n<!-- Kept by `wikimem dream`; a newer entry on the same command" in pitfalls
    assert pitfalls.count("Kept by") == 1 and overview.count("Kept by") == 1


def test_making_the_notice_a_comment_keeps_what_the_person_wrote() -> None:
    from wikimem.dream.offline import _unnoticed

    old = "Kept by `wikimem dream`; write freely outside the marked parts."
    mine = f"Project **acme-api**. {old} Our billing API, owned by Payments.\nMore.\n"
    assert _unnoticed(mine) == (
        "Project **acme-api**.\n<!-- Kept by `wikimem dream`; write freely outside the marked"
        " parts. -->\nOur billing API, owned by Payments.\nMore.\n"
    )
    crlf = f"Project **acme-api**. {old}\r\n\r\nMore.\r\n"
    assert _unnoticed(crlf) == (
        "Project **acme-api**.\r\n<!-- Kept by `wikimem dream`; write freely outside the marked"
        " parts. -->\r\n\r\nMore.\r\n"
    )
    for body in (mine, crlf, f"Someone quoted it: {old}\n", f"{old}\n"):
        assert _unnoticed(_unnoticed(body)) == _unnoticed(body)  # once, and only after a sentence
    assert _unnoticed(f"Someone quoted it: {old}\n") == f"Someone quoted it: {old}\n"
    started = time.monotonic()
    _unnoticed(f"x. {old}" * 5000)  # 330 KB on one line
    assert time.monotonic() - started < 0.5


def test_second_dream_merges_counts_and_extends_the_digest(
    home: Path, clones: tuple[str, str]
) -> None:
    a, _ = clones
    events = first_scenario(a)
    replay("claude", events[:8])  # first turn only: the session is still going
    assert wikimem("dream").returncode == 0
    replay("claude", events[8:])
    assert wikimem("dream").returncode == 0
    commands = note(home, "projects/acme-api/commands.md")
    assert "| `npm test` | test | 1 | 1 |" in commands
    digests = list((home / "memory" / "projects" / "acme-api" / "sessions").glob("*.md"))
    assert len(digests) == 1  # the same session's digest, extended
    text = digests[0].read_text()
    # two turns, each opening with what the person said or asked of the agent
    assert text.count("\n- **Said:**") + text.count("\n- **Asked of the agent:**") == 2
    assert "Sessions recorded: 1 (Claude Code 1)" in note(home, "projects/acme-api/overview.md")
    assert (
        wikimem("dream", "--json").stdout
        and json.loads(wikimem("dream", "--json").stdout)["events"] == 0
    )


def test_dry_run_changes_nothing(home: Path, clones: tuple[str, str]) -> None:
    replay("claude", first_scenario(clones[0]))
    before_head = git(home, "rev-parse", "HEAD")
    before_state = (home / "state" / "watermark.json").exists()
    proc = wikimem("dream", "--dry-run")
    assert proc.returncode == 0
    assert "+++ b/projects/acme-api/commands.md" in proc.stdout
    assert git(home, "rev-parse", "HEAD") == before_head
    assert git(home, "status", "--porcelain") == ""
    assert (home / "state" / "watermark.json").exists() == before_state
    assert not (home / "memory" / "projects").exists()
    assert json.loads(wikimem("dream", "--json").stdout)["events"] > 0  # still pending


def test_a_second_concurrent_dream_exits_at_once(home: Path) -> None:
    (home / "state").mkdir(exist_ok=True)
    with open(home / "state" / "dream.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        start = time.monotonic()
        proc = wikimem("dream")
        assert time.monotonic() - start < 10
    assert proc.returncode == 1
    assert "a dream is already running" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def snapshot(home: Path) -> dict[str, str]:
    """Every note, with the volatile `updated:` stamp removed."""
    out = {}
    for path in sorted((home / "memory").rglob("*.md")):
        if ".git" in path.parts:
            continue
        out[str(path.relative_to(home / "memory"))] = re.sub(
            r"(?m)^updated: .*$", "", path.read_text()
        )
    return out


CRASH_POINTS = [
    "dream_after_chunk",
    "after_journal",
    "mid_write",
    "after_write",
    "after_commit",
    "dream_before_watermark",
]


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_exactly_once_under_kill_and_rerun(
    point: str, home: Path, clones: tuple[str, str], tmp_path: Path
) -> None:
    a, b = clones
    replay("claude", first_scenario(a))
    replay(
        "codex",
        codex_session(
            CODEX_ID, b, [{"prompt": "Run the tests", "steps": [("run", "pnpm test", True, "ok")]}]
        ),
    )
    crashed = wikimem("dream", env={"WIKIMEM_CRASH_AT": point})
    assert crashed.returncode == 137, crashed.stderr
    assert wikimem("dream").returncode == 0
    assert (
        json.loads(wikimem("dream", "--json").stdout)["events"] == 0
    )  # nothing left, nothing twice
    assert git(home, "status", "--porcelain") == ""

    # the same events consolidated by one uninterrupted dream in a fresh home
    clean = tmp_path / "clean-home"
    env = {"WIKIMEM_HOME": str(clean)}
    assert wikimem("init", env=env).returncode == 0
    for f in (home / "events").glob("*.jsonl"):
        (clean / "events" / f.name).write_bytes(f.read_bytes())
    assert wikimem("dream", env=env).returncode == 0
    assert snapshot(home) == snapshot(clean)
    dreams = [s for s in git(home, "log", "--format=%s").splitlines() if s.startswith("dream:")]
    assert len(dreams) == 1


def test_watermark_trailer_survives_a_lost_state_file(home: Path, clones: tuple[str, str]) -> None:
    replay("claude", first_scenario(clones[0]))
    assert wikimem("dream").returncode == 0
    (home / "state" / "watermark.json").unlink()
    assert json.loads(wikimem("dream", "--json").stdout)["events"] == 0


def test_another_machines_trailer_is_ignored(home: Path, clones: tuple[str, str]) -> None:
    replay("claude", first_scenario(clones[0]))
    subprocess.run(
        [
            "git",
            "-C",
            str(home / "memory"),
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            'dream: from laptop\n\nWikimem-Watermark: othermachine0 {"2026-01-01.jsonl":999999}',
        ],
        check=True,
    )
    assert json.loads(wikimem("dream", "--json").stdout)["events"] > 0


def test_invalid_operations_are_rejected_and_reported_the_rest_applied(
    home: Path, clones: tuple[str, str]
) -> None:
    replay("claude", first_scenario(clones[0]))
    fake = FakeBackend(
        [
            {
                "operations": [
                    {
                        "op": "upsert",
                        "path": "../../.bashrc",
                        "title": "x",
                        "kind": "general",
                        "body": "evil",
                    },
                    {
                        "op": "upsert",
                        "path": "projects/acme-api/decisions.md",
                        "title": "Decisions",
                        "kind": "project",
                        "body": "- TOKEN_TTL is capped at 900 s.",
                        "sources": ["claude:5e1d0c1a"],
                    },
                    {"op": "delete", "path": "general/nothing.md", "reason": "stale"},
                    {"op": "upsert", "path": "general/no-title.md", "kind": "general", "body": "x"},
                ]
            }
        ]
    )
    result = run_dream(Home(str(home)), fake)
    assert [p for p in result.created if "/sessions/" not in p] == [
        "projects/acme-api/decisions.md"
    ]
    assert any("/sessions/" in p for p in result.created)  # the digest, written by wikimem
    reasons = dict(result.rejected)
    assert "'..'" in reasons["../../.bashrc"] and "title" in reasons["general/no-title.md"]
    assert "no such note" in reasons["general/nothing.md"]
    body = git(home, "log", "-1", "--format=%B")
    assert "Rejected operations:" in body and "../../.bashrc" in body
    assert not (home.parent.parent / ".bashrc").exists()


def test_fake_backend_sees_a_bounded_prompt_with_rules_and_related_notes(
    home: Path, clones: tuple[str, str]
) -> None:
    replay("claude", first_scenario(clones[0]))
    (home / "memory" / "profile").mkdir()
    (home / "memory" / "profile" / "preferences.md").write_text(
        "---\ntitle: Preferences\nkind: profile\n---\n- Use tabs.\n"
    )
    fake = FakeBackend()
    run_dream(Home(str(home)), fake)
    [prompt] = fake.prompts
    assert "One current claim per subject" in prompt.system
    assert "### profile/preferences.md" in prompt.user and "- Use tabs." in prompt.user
    assert (
        "ran `npm test` → failed" in prompt.user
        and "user (turn 1): We use npm in this repo." in prompt.user
    )
    assert "profile/preferences.md — Preferences" in prompt.user


def test_prompt_size_does_not_grow_with_the_wiki(home: Path, clones: tuple[str, str]) -> None:
    from wikimem.config import load_config
    from wikimem.dream.prompt import SYSTEM_PROMPT

    replay("claude", first_scenario(clones[0]))
    sizes = []
    general = home / "memory" / "general"
    general.mkdir()
    written = 0
    for n in (10, 1000, 3000):
        for i in range(written, n):
            (general / f"note-{i}.md").write_text(
                f"---\ntitle: Note {i} about things\nkind: general\n---\nBody {i}.\n"
            )
        written = n
        (home / "state" / "watermark.json").unlink(missing_ok=True)
        fake = FakeBackend()
        run_dream(Home(str(home)), fake, dry_run=True)
        sizes.append(sum(p.size for p in fake.prompts))
    dream = load_config(Home(str(home))).dream
    cap = (
        len(SYSTEM_PROMPT)
        + dream.chunk_chars
        + dream.index_chars
        + dream.notes_chars
        + dream.related_notes * 200
        + 2000
    )
    assert all(size < cap for size in sizes), (sizes, cap)
    assert abs(sizes[2] - sizes[1]) < 0.05 * sizes[1], (
        sizes
    )  # 1,000 or 3,000 notes: the same prompt


def test_upsert_keeps_what_a_person_added(home: Path, clones: tuple[str, str]) -> None:
    x = home / "memory" / "projects" / "acme-api" / "x.md"
    x.parent.mkdir(parents=True)
    x.write_text("---\ntitle: X\nkind: project\nowner: alice  # me\n---\nold\n")
    replay("claude", first_scenario(clones[0]))
    fake = FakeBackend(
        [
            [
                Upsert(
                    "projects/acme-api/x.md",
                    "X v2",
                    "project",
                    "new body\n",
                    ("ops",),
                    ("claude:5e1d0c1a",),
                )
            ]
        ]
    )
    run_dream(Home(str(home)), fake)
    text = note(home, "projects/acme-api/x.md")
    assert "owner: alice  # me" in text and "title: X v2" in text and text.endswith("new body\n")


def test_auto_dream_spawns_detached_and_the_hook_returns_at_once(
    home: Path, clones: tuple[str, str]
) -> None:
    (home / "config.toml").write_text(
        "[dream]\nauto = true\nmin_new_events = 5\nmin_interval_minutes = 0\n"
    )
    events = first_scenario(clones[0])
    replay("claude", events[:-1])
    start = time.monotonic()
    proc = run_hook("claude", events[-1], installed_form=True)  # SessionEnd
    elapsed = time.monotonic() - start
    assert proc.returncode == 0 and proc.stdout == b""
    assert elapsed < 1.5  # Claude Code's SessionEnd budget
    for _ in range(200):
        if (home / "memory" / "projects" / "acme-api" / "commands.md").exists() and (
            home / "state" / "dream.log"
        ).exists():
            break
        time.sleep(0.1)
    assert (home / "memory" / "projects" / "acme-api" / "commands.md").exists()
    log = json.loads((home / "state" / "dream.log").read_text().splitlines()[-1])
    assert log["backend"] == "offline" and log["events"] == len(events)
    assert load_state(Home(str(home))).offsets


def test_auto_dream_respects_thresholds(home: Path, clones: tuple[str, str]) -> None:
    (home / "config.toml").write_text(
        "[dream]\nauto = true\nmin_new_events = 500\nmin_interval_minutes = 0\n"
    )
    replay("claude", first_scenario(clones[0]))
    time.sleep(0.5)
    assert not (home / "state" / "dream.spawned").exists()
    assert not (home / "memory" / "projects").exists()


def test_anthropic_backend_through_the_runner(home: Path, clones: tuple[str, str]) -> None:
    import httpx2

    from wikimem.dream.anthropic_backend import AnthropicBackend

    replay("claude", first_scenario(clones[0]))
    seen: list[dict[str, Any]] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        seen.append(body)
        ops = [
            {
                "op": "upsert",
                "path": "projects/acme-api/decisions.md",
                "title": "Decisions",
                "kind": "project",
                "tags": ["acme-api"],
                "body": "- TOKEN_TTL is capped at 900 s by the OAuth2 provider.\n",
                "sources": [f"claude:{CLAUDE_ID[:8]}"],
            }
        ]
        return httpx2.Response(
            200,
            json={
                "id": "msg_01",
                "type": "message",
                "role": "assistant",
                "model": body["model"],
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_01",
                        "name": "apply_operations",
                        "input": {"operations": ops},
                    }
                ],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {
                    "input_tokens": 1500,
                    "output_tokens": 200,
                    "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": 0,
                },
            },
        )

    backend = AnthropicBackend(
        "claude-sonnet-5-5",
        api_key="sk-ant-test",
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
        sleep=lambda s: None,
    )
    result = run_dream(Home(str(home)), backend)
    assert [p for p in result.created if "/sessions/" not in p] == [
        "projects/acme-api/decisions.md"
    ]
    assert result.commit
    [body] = seen
    assert body["tool_choice"] == {"type": "tool", "name": "apply_operations"}
    assert "user (turn 1): We use npm in this repo." in json.dumps(body["messages"])
    assert "Wikimem-Backend: anthropic" in git(home, "log", "-1", "--format=%B")


def test_retention_removes_old_consolidated_events_and_session_records(
    home: Path, clones: tuple[str, str]
) -> None:
    replay("claude", first_scenario(clones[0]))
    old_events = home / "events" / "2020-01-01.jsonl"
    old_events.write_text(
        '{"v":1,"ts":"2020-01-01T00:00:00.000000Z","client":"claude","session":"old","event":"Stop","native_event":"Stop","cwd":"/x","project":"x"}\n'
    )
    old_record = home / "state" / "sessions" / "old.json"
    old_record.parent.mkdir(parents=True, exist_ok=True)
    old_record.write_text("{}")
    past = time.time() - 30 * 86400
    os.utime(old_record, (past, past))
    fresh_record = home / "state" / "sessions" / "fresh.json"
    fresh_record.write_text("{}")
    assert wikimem("dream").returncode == 0
    assert not old_events.exists()  # consolidated in this dream, and older than retention_days
    assert not old_record.exists() and fresh_record.exists()
    assert list((home / "events").glob("*.jsonl"))  # today's stay


def test_a_move_whose_destination_is_blocked_keeps_the_note(
    home: Path, clones: tuple[str, str]
) -> None:
    (home / "config.toml").write_text(
        '[gate]\nprotected = ["general/**"]\nperson_notes = "allow"\n'
    )
    (home / "memory" / "profile").mkdir()
    (home / "memory" / "profile" / "deploy.md").write_text(
        "---\ntitle: Deploy\nkind: profile\n---\nShip on Tuesdays.\n"
    )
    replay("claude", first_scenario(clones[0]))
    fake = FakeBackend(
        [{"operations": [{"op": "move", "from": "profile/deploy.md", "to": "general/deploy.md"}]}]
    )
    result = run_dream(Home(str(home)), fake)
    blocked = dict(result.blocked)
    assert "protected" in blocked["general/deploy.md"]
    assert "general/deploy.md could not be written" in blocked["profile/deploy.md"]
    assert (home / "memory" / "profile" / "deploy.md").read_text().endswith("Ship on Tuesdays.\n")
    assert "profile/deploy.md" not in result.deleted


def test_a_crash_after_committing_a_delete_does_not_block_later_writes(
    home: Path, clones: tuple[str, str]
) -> None:
    (home / "memory" / "projects" / "acme-api").mkdir(parents=True)
    (home / "memory" / "projects" / "acme-api" / "old-fact.md").write_text(
        "---\ntitle: Old\nkind: project\n---\nstale\n"
    )
    subprocess.run(["git", "-C", str(home / "memory"), "add", "-A"], check=True)
    # written by an earlier dream (a note a person wrote is not the dream's to delete)
    subprocess.run(
        ["git", "-C", str(home / "memory"), "commit", "-qm", "dream\n\nWikimem-Source: dream"],
        check=True,
    )
    replay("claude", first_scenario(clones[0]))
    env = {"WIKIMEM_CRASH_AT": "after_commit"}
    code = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import sys; from wikimem.home import Home; from wikimem.dream.runner import run_dream;"
                "from wikimem.dream.fake import FakeBackend;"
                "run_dream(Home(sys.argv[1]), FakeBackend([{'operations': [{'op': 'delete', 'path': 'projects/acme-api/old-fact.md', 'reason': 'stale'}]}]))"
            ),
            str(home),
        ],
        env={**os.environ, **env},
    ).returncode
    assert code == 137
    assert wikimem("dream").returncode == 0
    assert wikimem("remember", "Deploys on Tuesdays").returncode == 0
    assert not (home / "memory" / "projects" / "acme-api" / "old-fact.md").exists()


def test_a_crashed_dream_rolls_back_to_a_hand_edit_not_to_the_last_commit(
    home: Path, clones: tuple[str, str]
) -> None:
    (home / "memory" / "general").mkdir()
    target = home / "memory" / "general" / "fact.md"
    target.write_text("---\ntitle: Fact\nkind: general\n---\ncommitted\n")
    subprocess.run(["git", "-C", str(home / "memory"), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(home / "memory"), "commit", "-qm", "mine"], check=True)
    target.write_text("---\ntitle: Fact\nkind: general\n---\nmy uncommitted hand edit\n")
    replay("claude", first_scenario(clones[0]))
    code = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import sys; from wikimem.home import Home; from wikimem.dream.runner import run_dream;"
                "from wikimem.dream.fake import FakeBackend;"
                "run_dream(Home(sys.argv[1]), FakeBackend([{'operations': [{'op': 'upsert', 'path': 'general/fact.md', "
                "'title': 'Fact', 'kind': 'general', 'body': 'dream version'}]}]))"
            ),
            str(home),
        ],
        env={**os.environ, "WIKIMEM_CRASH_AT": "after_write"},
    ).returncode
    assert code == 137
    assert wikimem("dream").returncode == 0  # offline this time: it leaves general/ alone
    assert target.read_text().endswith("my uncommitted hand edit\n")


def test_sessions_whose_ids_share_a_prefix_are_counted_and_cited_apart(
    home: Path, clones: tuple[str, str]
) -> None:
    """OpenCode's session ids begin with the time (`ses_dc877c0d…`): two sessions started close
    together share their first 8 characters. Each is its own source and counts as one."""
    cwd = clones[0]
    ids = ("ses_dc877c0d5ffe3YqM67PRzAHyE1", "ses_dc877c0d61a2bXk2LmQpWz9Rt4")
    said = (
        "Remember that the staging database listens on port 5433.",
        "Remember that the metrics collector listens on port 9300.",
    )
    for sid, prompt in zip(ids, said, strict=True):
        for event in (
            {"hook_event_name": "SessionStart", "source": "startup"},
            {"hook_event_name": "UserPromptSubmit", "prompt": prompt},
            {"hook_event_name": "Stop", "last_assistant_message": "Noted."},
        ):
            proc = run_hook("opencode", {"session_id": sid, "cwd": cwd, **event})
            assert proc.returncode == 0 and proc.stderr == b""
    proc = wikimem("dream")
    assert proc.returncode == 0, proc.stderr
    assert "from 2 sessions" in proc.stdout, proc.stdout
    facts = parse_note("projects/acme-api/facts.md", note(home, "projects/acme-api/facts.md"))
    assert "5433" in facts.body and "9300" in facts.body
    assert len(set(facts.sources)) == 2, facts.sources
    digests = sorted((home / "memory" / "projects" / "acme-api" / "sessions").glob("*.md"))
    assert len(digests) == 2
    trailer = git(home, "log", "-1", "--format=%(trailers:key=Wikimem-Sessions,valueonly)")
    assert len(trailer.strip().split(", ")) == 2, trailer


def test_a_session_in_which_nothing_happened_writes_nothing(home: Path, tmp_path: Path) -> None:
    """One SessionStart in /tmp: no `projects/tmp/overview.md` saying nothing, no commit; the
    event is read past all the same."""
    for event in (
        {"hook_event_name": "SessionStart", "source": "startup"},
        {"hook_event_name": "SessionEnd", "reason": "other"},
    ):
        proc = run_hook("claude", {"session_id": "s-empty", "cwd": "/tmp", **event})
        assert proc.returncode == 0
    head = git(home, "rev-parse", "HEAD")
    proc = wikimem("dream", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["events"] == 2 and result["created"] == [] and result["sessions"] == []
    assert not (home / "memory" / "projects" / "tmp").exists()
    assert git(home, "rev-parse", "HEAD") == head
    assert wikimem("dream", "--json").stdout.count('"events": 0') == 1  # read past, not again
