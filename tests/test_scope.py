"""Which notes a session in a project may be given (DESIGN §5, §8)."""

from __future__ import annotations

from wikimem.recall.scope import named_projects, project_of, visible


def test_shared_notes_are_visible_everywhere() -> None:
    for path in ("profile/preferences.md", "general/http.md", "tools/git/flags.md"):
        assert visible(path, "acme-api")
        assert visible(path, None)


def test_another_projects_notes_only_when_named() -> None:
    assert visible("projects/acme-api/commands.md", "acme-api")
    assert not visible("projects/beta-web/commands.md", "acme-api")
    assert not visible("projects/beta-web/sessions/2026-11-30-ab12.md", "acme-api")
    assert visible("projects/beta-web/commands.md", "acme-api", named={"beta-web"})
    assert not visible("projects/acme-api/commands.md", None)
    assert not visible("index.md", "acme-api")


def test_named_projects_are_whole_words() -> None:
    known = ["acme-api", "beta-web"]
    assert named_projects("how does beta-web cut releases?", known) == {"beta-web"}
    assert named_projects("in the Acme API repo", known) == {"acme-api"}
    assert named_projects("the acme-apis are different", known) == frozenset()
    assert project_of("projects/acme-api/x.md") == "acme-api"
    assert project_of("profile/x.md") is None
