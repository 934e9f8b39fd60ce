"""Safe defaults for automated writers (issue 12 item 12): a model never pins or unpins a note,
and never deletes or rewrites wholesale a note a person wrote, without the person's consent."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.test_bad_days import Scripted
from tests.test_dream import wikimem
from wikimem.config import load_config
from wikimem.dream.runner import run_dream
from wikimem.home import Home
from wikimem.wiki.gate import Gate, MemoryWrite

NOTE = "---\ntitle: {title}\nkind: {kind}\npinned: {pinned}\n---\n{body}"


def note(title: str = "T", kind: str = "general", pinned: str = "false", body: str = "x\n") -> str:
    return NOTE.format(title=title, kind=kind, pinned=pinned, body=body)


def commit_by_hand(home: Path, rel: str, text: str, message: str = "mine") -> None:
    path = home / "memory" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    subprocess.run(["git", "-C", str(home / "memory"), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(home / "memory"), "commit", "-qm", message], check=True)


def gate(home: Path) -> Gate:
    return Gate(str(home / "memory"), load_config(Home(str(home))))


def test_automated_writers_may_not_pin_or_unpin(home: Path) -> None:
    commit_by_hand(
        home, "profile/style.md", note(kind="profile", pinned="true"), "x\n\nWikimem-Source: dream"
    )
    for source in ("dream", "mcp", "import"):
        pin = gate(home).check(
            MemoryWrite("profile/new.md", "create", note(kind="profile", pinned="true"), source)
        )
        assert pin.status == "blocked" and "may not pin" in pin.reason
        unpin = gate(home).check(
            MemoryWrite("profile/style.md", "update", note(kind="profile", body="y\n"), source)
        )
        assert unpin.status == "blocked" and "may not unpin" in unpin.reason
    mine = gate(home).check(
        MemoryWrite("profile/new.md", "create", note(kind="profile", pinned="true"), "remember")
    )
    assert mine.ok


def test_a_dream_does_not_delete_or_rewrite_what_a_person_wrote(home: Path) -> None:
    assert (
        wikimem("remember", "--path", "general/deploy.md", "We deploy on Tuesdays").returncode == 0
    )
    lines = "".join(f"- rule {i}\n" for i in range(20))
    commit_by_hand(home, "general/rules.md", note(title="Rules", body=lines))  # by hand, with git
    commit_by_hand(
        home, "general/dream-made.md", note(title="D"), "dream: x\n\nWikimem-Source: dream"
    )
    ops = [
        {"op": "delete", "path": "general/deploy.md", "reason": "stale"},
        {"op": "upsert", "path": "general/rules.md", "title": "Rules", "kind": "general",
         "body": "- rule 0\n- a brand new rule\n"},
        {"op": "delete", "path": "general/dream-made.md", "reason": "merged elsewhere"},
    ]  # fmt: skip
    (home / "events" / "2026-11-30.jsonl").write_text(
        json.dumps(
            {"v": 1, "ts": "2026-11-30T10:00:00Z", "client": "claude", "session": "s1",
             "event": "UserPromptSubmit", "project": "p", "prompt": "tidy up"}
        ) + "\n"
    )  # fmt: skip
    result = run_dream(Home(str(home)), Scripted(ops))
    parked = dict(result.parked)
    assert "holds what you wrote" in parked["general/deploy.md"]
    assert "would remove 19 of its 20 lines" in parked["general/rules.md"]
    assert result.deleted == ["general/dream-made.md"]  # the dream's own note: fine
    assert (home / "memory" / "general" / "deploy.md").exists()
    assert "- rule 19" in (home / "memory" / "general" / "rules.md").read_text()

    # a small supersession in a person's note is an edit, not a rewrite
    small = lines.replace("- rule 3\n", "- rule 3, revised\n")
    ok = gate(home).check(
        MemoryWrite("general/rules.md", "update", note(title="Rules", body=small), "dream")
    )
    assert ok.ok

    # consent: the person allows it, and the parked writes land
    config = home / "config.toml"
    config.write_text(config.read_text().replace("[gate]\n", '[gate]\nperson_notes = "allow"\n', 1))
    again = json.loads(wikimem("dream", "--json").stdout)
    assert again["parked"] == [] and "general/deploy.md" in again["deleted"]
    assert "a brand new rule" in (home / "memory" / "general" / "rules.md").read_text()


def test_an_uncommitted_hand_edit_counts_as_the_persons(home: Path) -> None:
    commit_by_hand(home, "general/x.md", note(body="a\nb\nc\nd\n"), "x\n\nWikimem-Source: dream")
    (home / "memory" / "general" / "x.md").write_text(note(body="a\nb\nc\nd\nmine\n"))
    check = gate(home).check(MemoryWrite("general/x.md", "delete", None, "mcp"))
    assert (
        check.status == "blocked" and check.retry and "holds what the person wrote" in check.reason
    )
