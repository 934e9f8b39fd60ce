"""Where a claim lives (its scope): the note of its scope and kind, and the notes it may
supersede claims in.

Contract: facts about the person go to `profile/about.md`, the person's preferences and habits
to `profile/preferences.md`; in a project, conventions (what to do) go to
`projects/<slug>/conventions.md` and facts (what is) to `projects/<slug>/facts.md`; anything
else to `general/notes.md`. A claim may replace claims anywhere in its scope's living notes,
and one of the person's said in a project also that project's (never in session digests, the
overview, the commands table or the pitfalls).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wikimem.dream import statements

Listing = Callable[[str], list[str]]


@dataclass(frozen=True)
class Placement:
    path: str
    title: str
    kind: str


def placement(statement: statements.Statement, project: str | None) -> Placement:
    """Which living note a statement belongs in."""
    if statement.kind == "about":
        return Placement("profile/about.md", "About me", "profile")
    if statement.scope == "profile":
        return Placement("profile/preferences.md", "Preferences", "profile")
    if statement.scope == "project" and project:
        if statement.kind == "convention":
            return Placement(
                f"projects/{project}/conventions.md", f"{project} conventions", "project"
            )
        return Placement(f"projects/{project}/facts.md", f"{project} facts", "project")
    return Placement("general/notes.md", "General notes", "general")


def project_claim_notes(under: Listing, project: str | None) -> list[str]:
    """A project's notes that hold claims (never its session digests, overview, commands table
    or pitfalls)."""
    if not project:
        return []
    return [
        p
        for p in under(f"projects/{project}/")
        if "/sessions/" not in p
        and not p.endswith(("/overview.md", "/commands.md", "/pitfalls.md"))
    ]


def scope_paths(under: Listing, place: Placement, project: str | None) -> list[str]:
    """The living notes a claim going to `place` may supersede claims in: its scope's; for a
    claim of the person's said in a project, that project's too (said later, it is what holds
    there: "end attribute names with '_r'" after the project's "… with '_i'")."""
    project_notes = project_claim_notes(under, project)
    if place.path.startswith("projects/") and project:
        return project_notes
    top = place.path.split("/", 1)[0] + "/"
    return under(top) + (project_notes if top == "profile/" else [])
