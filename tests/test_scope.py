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


def test_a_repository_is_named_with_or_without_its_owner() -> None:
    """`git@github.com:acme/billing.git` gives the slug `acme-billing`; a prompt says "billing"."""
    known = ["acme-billing", "acme-api", "globex-billing-service"]
    for text in (
        "why is the invoice job in billing slow?",
        "what does Billing's invoice job do?",
        "in acme/billing, how are invoices numbered?",
        "clone git@github.com:acme/billing.git first",
        "the acme billing repo",
        "acme_billing",
    ):
        assert "acme-billing" in named_projects(text, known), text
    # a longer name, a file or another identifier is not the name; nor a word of a phrase
    for text in (
        "billing-v2 is new",
        "see billing.py",
        "the billingservice",
        "rebilling",
        "how big is the billing history table?",
        "show each payment in the billing history table",
    ):
        assert named_projects(text, known) == frozenset(), text
    # an owner with a hyphen, a name with one: every tail of the slug is a possible name
    assert named_projects("the billing-service deploy", known) == {"globex-billing-service"}


def test_a_common_word_names_a_project_only_with_a_word_saying_so() -> None:
    """A repository called `api` or `web` is not named by every prompt that says api or web."""
    known = ["acme-api", "acme-web", "web", "acme-web-app"]
    for text in (
        "the api returns 500 on login",
        "add a web page for settings",
        "the web app is slow",
        "does the API use pagination?",
    ):
        assert named_projects(text, known) == frozenset(), text
    assert named_projects("in the api repo, how do we paginate?", known) == {"acme-api"}
    assert named_projects("the web project's linter", known) == {"acme-web", "web"}
    assert named_projects("check the api's repository", known) == {"acme-api"}
    # written as one identifier, a name of common words is meant as a name
    assert named_projects("the web-app build", known) == {"acme-web-app"}
    # the whole slug holds the owner, which is rarely a common word
    assert named_projects("acme api pagination", known) == {"acme-api"}
