"""Whose memory a note is, and who may be given it (DESIGN §5, §8).

Contract: a note under `profile/` belongs to the person (every session), `general/` and `tools/`
are knowledge for every session, and `projects/<slug>/` belongs to that project alone. A session
in project P may be given P's notes, the profile and general/tools notes, and another project's
notes only when the prompt names that project. Injection, `wikimem search --project`, and the MCP
server all decide visibility here, so the rule is one rule.

Hook-path module: standard library only, no regular expressions compiled at import.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

SHARED_TOPS = ("profile", "general", "tools")


def project_of(path: str) -> str | None:
    """The project slug of a note path (`projects/<slug>/…`), or None for a shared note."""
    parts = path.split("/")
    if len(parts) >= 3 and parts[0] == "projects":
        return parts[1]
    return None


def visible(path: str, project: str | None, named: Iterable[str] = ()) -> bool:
    """May a session in `project` (None: outside any project) be given the note at `path`?"""
    top = path.split("/", 1)[0]
    if top in SHARED_TOPS:
        return True
    owner = project_of(path)
    if owner is None:
        return False
    return owner == project or owner in set(named)


def named_projects(text: str, known: Iterable[str]) -> frozenset[str]:
    """Project slugs that `text` names as a whole word: `acme-api`, or `acme api`."""
    lowered = text.lower()
    found: set[str] = set()
    for slug in known:
        if not slug or slug == "unknown":
            continue
        if _contains_word(lowered, slug) or _contains_word(lowered, slug.replace("-", " ")):
            found.add(slug)
    return frozenset(found)


def _contains_word(text: str, word: str) -> bool:
    start = text.find(word)
    while start != -1:
        end = start + len(word)
        before = text[start - 1] if start > 0 else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "-_") and not (after.isalnum() or after in "-_"):
            return True
        start = text.find(word, start + 1)
    return False
