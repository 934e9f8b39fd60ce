"""The dream's view of the wiki while it runs: what is on disk, with this dream's writes, moves
and deletions over it. Each later step of a dream (which notes a project has, which session
digest to extend) reads this listing; a note it misses is a note written twice, one it lists
after a deletion is a note resurrected."""

from __future__ import annotations

from pathlib import Path

from wikimem.dream.ops import Delete, Move, Upsert
from wikimem.dream.runner import Overlay

STAMP = "2026-12-06T10:00:00Z"


def _note(path: str) -> Upsert:
    return Upsert(path=path, title="T", kind="project", body="- a claim\n")


def _disk(tmp_path: Path) -> str:
    memory = tmp_path / "memory"
    for rel in ("profile/me.md", "projects/api/conventions.md", "projects/api/sessions/d1.md"):
        (memory / rel).parent.mkdir(parents=True, exist_ok=True)
        (memory / rel).write_text("---\ntitle: T\nkind: project\n---\n- on disk\n")
    return str(memory)


def test_a_note_written_moved_and_deleted_in_one_dream_is_listed_as_the_wiki_will_be(
    tmp_path: Path,
) -> None:
    overlay = Overlay(_disk(tmp_path))
    assert overlay.under("projects/api/") == [
        "projects/api/conventions.md",
        "projects/api/sessions/d1.md",
    ]
    assert overlay.apply(_note("projects/api/sessions/d2.md"), STAMP) is None
    assert (
        overlay.apply(Move("projects/api/conventions.md", "projects/api/style.md"), STAMP) is None
    )
    assert overlay.apply(Delete("profile/me.md", "retracted"), STAMP) is None

    assert overlay.under("projects/api/sessions/") == [
        "projects/api/sessions/d1.md",
        "projects/api/sessions/d2.md",
    ]
    assert overlay.under("projects/api/") == [
        "projects/api/sessions/d1.md",
        "projects/api/sessions/d2.md",
        "projects/api/style.md",
    ]
    assert overlay.under("profile/") == []
    assert overlay.under("projects/web/") == []

    # written again after its deletion: back in the listing
    assert overlay.apply(_note("profile/me.md"), STAMP) is None
    assert overlay.under("profile/") == ["profile/me.md"]


def test_a_folder_is_not_a_prefix_of_its_longer_namesake(tmp_path: Path) -> None:
    overlay = Overlay(_disk(tmp_path))
    assert overlay.apply(_note("projects/api-v2/conventions.md"), STAMP) is None
    assert overlay.under("projects/api/") == [
        "projects/api/conventions.md",
        "projects/api/sessions/d1.md",
    ]
    assert overlay.under("projects/api-v2/") == ["projects/api-v2/conventions.md"]
