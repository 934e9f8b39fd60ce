"""The ways secrets leaked in the bad-days probe (issue 12, items 5 and 11), one test each."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import records
from wikimem.capture import hook
from wikimem.capture.redact import redact
from wikimem.dream.fake import FakeBackend
from wikimem.dream.runner import run_dream
from wikimem.home import Home
from wikimem.wiki.batch import Wiki
from wikimem.wiki.gate import MemoryWrite
from wikimem.wiki.notes import new_note, render_note

GITLAB = "glpat-" + "x7Kq2Lm9Np4Rs8Tv1Wz3"
PASSWORD = "Pr0d-" + "s3cr3t!xyz"


def git(home: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(home / "memory"), *args], capture_output=True, text=True, check=True
    ).stdout


def an_event() -> None:
    """Something for the dream to consolidate (it asks no backend without events)."""
    data = {"session_id": "s1", "hook_event_name": "Stop", "cwd": "/tmp/proj"}
    hook.main(["claude"], stdin=io.BytesIO(json.dumps(data).encode()), stdout=io.BytesIO())


def set_secrets_mode(home: Path, mode: str) -> None:
    config = home / "config.toml"
    config.write_text(config.read_text().replace("[gate]\n", f'[gate]\nsecrets = "{mode}"\n'))


# -- item 5 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "block",
    [
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAq2Vb8mN3xP0aLk9Jf7Hc\nq2Vb8mN3xP0aLk9Jf7HcAAAA",
        "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA b3BlbnNzaC1rZXktdjEBBBBB",
        '"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEF\\nMIIEvQIBADANBgkqhkiG9w0BAQEF',
    ],
    ids=["lines", "one line", "json-escaped"],
)
def test_an_unterminated_key_block_takes_only_the_key(block: str) -> None:
    text = f"Setup notes.\n{block}\n\nThe deploy runs `make release` on Fridays. Keep it."
    out, kinds = redact(text)
    assert kinds == ["private_key"]
    assert "MIIE" not in out and "b3Bl" not in out
    assert out.startswith("Setup notes.\n")
    assert out.endswith("\n\nThe deploy runs `make release` on Fridays. Keep it.")


def test_a_note_with_an_unterminated_key_keeps_the_rest_of_its_text(home: Path) -> None:
    body = (
        "How to reach staging:\n\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk\n\n"
        "After that, run `./deploy.sh staging` and check the dashboard.\n"
    )
    note = render_note(new_note("general/staging.md", "Staging", body))
    result = Wiki(Home(str(home))).commit_writes(
        [MemoryWrite("general/staging.md", "create", note, "edit")], "edit: staging"
    )
    assert result.commit
    text = (home / "memory" / "general" / "staging.md").read_text()
    assert "MHcCAQEE" not in text
    assert "run `./deploy.sh staging` and check the dashboard." in text


# -- item 11: names, echoes, escaping, position -------------------------------------------------


@pytest.mark.parametrize("mode", ["redact", "block"])
def test_a_token_as_a_note_path_is_refused_and_never_echoed(home: Path, mode: str) -> None:
    set_secrets_mode(home, mode)
    path = f"general/{GITLAB.lower()}.md"
    note = render_note(new_note(path, "t", "x\n"))
    result = Wiki(Home(str(home))).commit_writes(
        [MemoryWrite(path, "create", note, "mcp")], "mcp: write"
    )
    [blocked] = result.blocked
    assert "secret" in blocked.reason and GITLAB.lower() not in blocked.reason
    assert GITLAB.lower() not in result.message
    assert not (home / "memory" / path).exists()
    assert GITLAB.lower() not in git(home, "log", "--all", "--format=%B")


def test_a_hex_key_as_a_note_path_is_refused(home: Path) -> None:
    path = "general/" + "4f1d2a9c8b7e6d5f" * 2 + ".md"
    note = render_note(new_note(path, "t", "x\n"))
    result = Wiki(Home(str(home))).commit_writes(
        [MemoryWrite(path, "create", note, "dream")], "dream"
    )
    assert result.blocked and "4f1d2a9c8b7e6d5f" not in result.blocked[0].reason


def test_a_rejected_operation_cannot_forge_a_trailer_or_leak(home: Path) -> None:
    forged = "general/x.md\nWikimem-Watermark: forged"
    fake = FakeBackend(
        [
            {
                "operations": [
                    {"op": "upsert", "path": forged, "title": "t", "kind": "general", "body": "x"},
                    {"op": "delete", "path": f"general/{GITLAB}.md", "reason": "stale"},
                    {
                        "op": "upsert",
                        "path": "general/ok.md",
                        "title": "OK",
                        "kind": "general",
                        "body": "fine\n",
                    },
                ]
            }
        ]
    )
    an_event()
    result = run_dream(Home(str(home)), fake)
    assert result.created == ["general/ok.md"]
    message = git(home, "log", "-1", "--format=%B")
    assert "\nWikimem-Watermark: forged" not in message
    assert GITLAB not in message and GITLAB not in json.dumps(result.as_dict())
    assert len(result.rejected) == 2


def test_yaml_escaping_does_not_hide_a_secret_in_a_title(home: Path) -> None:
    title = f'db password: "{PASSWORD}" and token {GITLAB}'
    note = render_note(new_note("general/db.md", title, "body\n"))
    assert '\\"' in note  # the title went through YAML's escaping
    Wiki(Home(str(home))).commit_writes(
        [MemoryWrite("general/db.md", "create", note, "dream")], "dream"
    )
    text = (home / "memory" / "general" / "db.md").read_text()
    assert PASSWORD not in text and GITLAB not in text


def test_a_title_that_starts_with_a_secret_is_redacted_not_refused(home: Path) -> None:
    note = render_note(new_note("general/ci.md", f"{GITLAB} rotated in CI", "body\n"))
    result = Wiki(Home(str(home))).commit_writes(
        [MemoryWrite("general/ci.md", "create", note, "dream")], "dream"
    )
    assert result.commit and not result.blocked
    text = (home / "memory" / "general" / "ci.md").read_text()
    assert GITLAB not in text and "[REDACTED:gitlab_token] rotated in CI" in text


@pytest.mark.parametrize(
    "line",
    [
        f"password: {PASSWORD}",
        f"  - note from ops: password: {PASSWORD}",
        f"user: bob, password: {PASSWORD}",
        f"{{ password: {PASSWORD} }}",
        f"see machine api.acme.dev login bob password {PASSWORD}",
        "x " * 2000 + f"DB_PASSWORD={PASSWORD}",
    ],
)
def test_detection_does_not_depend_on_where_the_secret_sits(line: str) -> None:
    out, kinds = redact(line)
    assert kinds and PASSWORD not in out


def test_dry_run_shows_what_would_be_written_not_the_secret(home: Path) -> None:
    fake = FakeBackend(
        [
            {
                "operations": [
                    {
                        "op": "upsert",
                        "path": "general/ci.md",
                        "title": "CI",
                        "kind": "general",
                        "body": f"The runner uses {GITLAB}.\n",
                    }
                ]
            }
        ]
    )
    an_event()
    result = run_dream(Home(str(home)), fake, dry_run=True)
    assert "[REDACTED:gitlab_token]" in result.diff and GITLAB not in result.diff


def test_a_secret_in_a_folder_name_becomes_neither_cwd_nor_project(
    home: Path, tmp_path: Path
) -> None:
    folder = tmp_path / GITLAB
    folder.mkdir()
    data = {"session_id": "s1", "hook_event_name": GITLAB, "cwd": str(folder)}
    hook.main(["claude"], stdin=io.BytesIO(json.dumps(data).encode()), stdout=io.BytesIO())
    [rec] = records(home)
    assert GITLAB not in json.dumps(rec)
    assert "glpat" not in rec["project"]


def test_a_note_named_after_a_secret_by_hand_can_still_be_forgotten(home: Path) -> None:
    from wikimem.wiki.remember import forget

    path = f"general/{GITLAB.lower()}.md"
    (home / "memory" / "general").mkdir(parents=True, exist_ok=True)
    (home / "memory" / path).write_text(render_note(new_note(path, "oops", "x\n")))
    git(home, "add", path)
    git(home, "commit", "-q", "-m", "a note named by hand")
    result = forget(Wiki(Home(str(home))), path)
    assert result.commit and not (home / "memory" / path).exists()
    assert GITLAB.lower() not in result.message
