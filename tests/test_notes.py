"""Notes: schema, path rules, round trips that keep what a person wrote."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import REPO
from wikimem.wiki import notemeta
from wikimem.wiki.notes import (
    NoteError,
    first_sentence,
    new_note,
    parse_note,
    render_note,
    resolve_wikilink,
    validate_path,
    wikilinks,
)

HAND_WRITTEN = """---
title: Package manager
kind: profile            # profile | project | tool | general | session
tags: [javascript, tooling]
created: 2026-11-02
updated: 2026-11-29T18:04:11Z
sources: [claude:3f2b8c1e, codex:019d7a2e]   # sessions that support this note
pinned: false
owner: alice   # who to ask
# reviewer info
reviewed:
  by: bob
  on: 2026-11-01
aliases:
- pm
---
Use **pnpm**, never npm, in every JavaScript repository.


See [[projects/acme-api/commands]] and [[Commands|the commands]].
	indented with a tab
"""


def test_round_trip_keeps_unknown_keys_comments_and_body() -> None:
    note = parse_note("profile/package-manager.md", HAND_WRITTEN)
    assert note.title == "Package manager" and note.kind == "profile"
    assert note.tags == ("javascript", "tooling")
    assert note.sources == ("claude:3f2b8c1e", "codex:019d7a2e")
    assert note.created == "2026-11-02" and note.updated == "2026-11-29T18:04:11Z"
    text = render_note(note)
    assert "owner: alice   # who to ask" in text
    assert "# reviewer info\nreviewed:\n  by: bob\n  on: 2026-11-01" in text
    assert "aliases:\n- pm" in text
    assert text.split("---\n", 2)[2] == note.body  # body byte for byte
    assert note.body.endswith("\tindented with a tab\n")
    assert parse_note(note.path, text) == note
    assert note.extra_values()["owner"] == "alice"


def test_changing_a_field_keeps_the_rest() -> None:
    note = parse_note("profile/package-manager.md", HAND_WRITTEN)
    changed = note.with_changes(title="Package manager: pnpm", tags=("c++", "yes", "a b"))
    text = render_note(changed)
    assert 'title: "Package manager: pnpm"' in text
    again = parse_note(note.path, text)
    assert again.title == "Package manager: pnpm" and again.tags == ("c++", "yes", "a b")
    assert again.extra == note.extra


def test_stdlib_reader_agrees_with_yaml_on_our_output() -> None:
    note = new_note(
        "projects/acme-api/commands.md",
        'Commands: "quoted" [x]',
        "Body.\n",
        tags=("c#", "no", "a, b"),
        sources=("claude:1234abcd",),
        pinned=True,
    )
    meta, body = notemeta.read_meta(render_note(note))
    strict = parse_note(note.path, render_note(note))
    assert meta["title"] == strict.title
    assert meta["tags"] == list(strict.tags)
    assert meta["sources"] == list(strict.sources)
    assert meta["pinned"] is True and body == "Body.\n"


@given(
    title=st.text(min_size=1, max_size=60).filter(
        lambda t: t.strip() and "\n" not in t and "\r" not in t
    ),
    tags=st.lists(
        st.text(min_size=1, max_size=12).filter(lambda t: t.strip() == t and t and "\n" not in t),
        max_size=4,
    ),
)
def test_any_title_and_tags_round_trip(title: str, tags: list[str]) -> None:
    note = new_note("general/x.md", title, "b\n", tags=tuple(tags))
    text = render_note(note)
    again = parse_note("general/x.md", text)
    assert again.title == title.strip() and again.tags == tuple(tags)
    meta, _ = notemeta.read_meta(text)
    assert meta["title"] == again.title


@pytest.mark.parametrize(
    "path",
    [
        "../../.bashrc",
        "/etc/passwd",
        ".git/config",
        "index.md",
        "profile/../../x.md",
        "projects/x.md",
        "projects/a/b/c/d.md",
        "Profile/X.md",
        "general/a b.md",
        "general/x.txt",
        "notes/x.md",
        "general/.hidden.md",
        "general//x.md",
        "~/x.md",
        "general/x\\y.md",
        "",
    ],
)
def test_bad_paths_are_refused(path: str) -> None:
    with pytest.raises(NoteError):
        validate_path(path)


@pytest.mark.parametrize(
    "path",
    [
        "profile/preferences.md",
        "projects/acme-api/commands.md",
        "projects/acme-api/sessions/2026-11-29-3f2b8c1e.md",
        "tools/ripgrep/flags.md",
        "general/on-call.md",
        "general/ops/on-call.md",
    ],
)
def test_good_paths(path: str) -> None:
    assert validate_path(path) == path


def test_schema_errors() -> None:
    with pytest.raises(NoteError, match="title"):
        parse_note("general/x.md", "---\nkind: general\n---\nbody\n")
    with pytest.raises(NoteError, match="kind"):
        parse_note("general/x.md", "---\ntitle: X\nkind: diary\n---\nbody\n")
    with pytest.raises(NoteError, match="front matter"):
        parse_note("general/x.md", "no front matter here\n")
    with pytest.raises(NoteError, match="YAML"):
        parse_note("general/x.md", "---\ntitle: [unclosed\n---\nbody\n")


def test_wikilinks_are_kept_and_resolvable() -> None:
    note = parse_note("profile/package-manager.md", HAND_WRITTEN)
    assert "[[projects/acme-api/commands]]" in render_note(note)
    assert wikilinks(note.body) == ["projects/acme-api/commands", "Commands"]
    existing = {"projects/acme-api/commands.md", "profile/preferences.md"}
    assert (
        resolve_wikilink("projects/acme-api/commands", existing) == "projects/acme-api/commands.md"
    )
    assert resolve_wikilink("commands", existing) == "projects/acme-api/commands.md"
    assert resolve_wikilink("nothing", existing) is None


def test_first_sentence() -> None:
    assert (
        first_sentence("# Title\n\n- Use **pnpm**, never npm. More here.\n")
        == "Use pnpm, never npm."
    )


@pytest.mark.parametrize(
    "template", sorted((REPO / "templates" / "notes").glob("*.md")), ids=lambda p: p.name
)
def test_note_templates_are_valid_notes(template: Path) -> None:
    kind = template.stem
    folder = {
        "profile": "profile/x.md",
        "project": "projects/acme-api/x.md",
        "tool": "tools/rg/x.md",
        "general": "general/x.md",
        "session": "projects/acme-api/sessions/2026-11-29-abcd1234.md",
    }[kind]
    note = parse_note(folder, template.read_text())
    assert note.kind == kind
