"""Whose memory a note is, and who may be given it (docs/recall.md, "Another project's notes").

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
    """Project slugs that `text` names: the slug itself (`acme-billing`, `acme billing`,
    `acme/billing`) or the repository's name without its owner (`billing`).

    A slug joins owner and name with hyphens, and either may hold hyphens itself, so every tail
    of the slug is taken as a possible name: `acme-billing-api` is named by `billing-api`,
    `billing api` and `api`. A name is a whole word of the text (`billing` is not named by
    `billing-v2` or `billing.py`). A name of one word is named when the text refers to a place
    by it: followed by a word such as "repo" or "project" ("the billing repo"), possessive
    ("billing's"), in a path ("~/code/billing"), right after "in", "from", … ("in billing"),
    or the subject of a question ("how does billing deploy?"); "(in) the billing history table"
    uses the word, it does not name the repository. A name made
    only of common words (`api`, `web app`, `wikimem.recall.commonwords`) names its project
    only when written as one identifier (`web-app`, `web_app`) or followed by a word such as
    "repo" or "project" ("the api repo"): "the api returns 500" names no project called
    `api`."""
    lowered = text.lower()
    # one look for a context word, and one scan per distinct name: projects share tails (`api`)
    context = any(word in lowered for word in ("repo", "project", "codebase"))
    named: dict[tuple[str, ...], bool] = {}
    found: set[str] = set()
    for slug in known:
        if not slug or slug == "unknown" or slug in found:
            continue
        words = tuple(slug.split("-"))
        for start in range(len(words)):
            tail = words[start:]
            if tail not in named:
                named[tail] = _names(lowered, tail, context)
            if named[tail]:
                found.add(slug)
                break
    return frozenset(found)


GLUE = "-_."  # a name glued to a word by one of these is part of a longer name (`billing-v2`)
INNER = "-_./"  # what may join the words of a name written out (`acme/billing`, `acme_billing`)
CONTEXT = frozenset(
    ("repo", "repos", "repository", "repositories", "project", "projects", "codebase")
)
_MAX_FOUND = 16  # places of one word tried per name: bounded work on the hook path


def _names(text: str, words: tuple[str, ...], context: bool) -> bool:
    """Does `text` (lower-cased) name `words` (a slug's tail) as a whole word? `context`: the
    text holds a word such as "repo" somewhere."""
    if not all(word and word in text for word in words):
        return False
    first = words[0]
    distinctive = _distinctive(words)
    if not distinctive and len(words) == 1 and not context:
        return False  # a common word, and nothing says a repository is meant
    at = text.find(first)
    tries = 0
    while at != -1 and tries < _MAX_FOUND:
        tries += 1
        end = _match_at(text, at, words) if _starts_word(text, at) else None
        if end is not None and (
            end[1]
            or _context_after(text, end[0])
            or (distinctive and (len(words) > 1 or _referenced(text, at, end[0])))
        ):
            return True
        at = text.find(first, at + 1)
    return False


def _starts_word(text: str, at: int) -> bool:
    if at == 0:
        return True
    before = text[at - 1]
    if before.isalnum():
        return False
    return not (before in GLUE and at >= 2 and text[at - 2].isalnum())


def _match_at(text: str, at: int, words: tuple[str, ...]) -> tuple[int, bool] | None:
    """(end, written as one identifier) when `words` are at `at`, joined by a separator and
    ending at a word boundary; None otherwise."""
    pos = at + len(words[0])
    ident = len(words) > 1
    for word in words[1:]:
        sep_end = pos
        while sep_end < len(text) and sep_end - pos < 3 and not text[sep_end].isalnum():
            sep_end += 1
        sep = text[pos:sep_end]
        if not sep or not (sep in INNER or sep.isspace()):
            return None
        ident = ident and sep in INNER
        if not text.startswith(word, sep_end):
            return None
        pos = sep_end + len(word)
    if pos < len(text):
        after = text[pos]
        if after.isalnum():
            return None
        glued = after in GLUE and pos + 1 < len(text) and text[pos + 1].isalnum()
        if glued and not _is_git_suffix(text, pos):
            return None
    return pos, ident


def _is_git_suffix(text: str, pos: int) -> bool:
    """`….git` ends a remote URL: `acme/billing.git` names billing."""
    return text.startswith(".git", pos) and not (pos + 4 < len(text) and text[pos + 4].isalnum())


def _distinctive(words: tuple[str, ...]) -> bool:
    from wikimem.recall.commonwords import COMMON

    return any(len(w) >= 3 and not w.isdigit() and w not in COMMON for w in words)


PLACE_WORDS = frozenset(("in", "inside", "within", "from", "into", "across", "to"))
# a name right after one of these is the subject of a question ("how does billing deploy?")
ASKING_WORDS = frozenset(
    "does do did is are was were will would can could should has have had".split()
)


def _referenced(text: str, at: int, end: int) -> bool:
    """Is the one word at `at`..`end` written as a place or a subject rather than as a word of
    a phrase: possessive ("billing's"), part of a path ("~/code/billing", "billing/"), right
    after "in", "from", … ("in billing") or the subject of a question ("how does billing
    deploy?")? With an article it is a phrase: "in the billing history table" (but "in the
    billing repo": a word such as "repo" says so, `_context_after`)."""
    if text.startswith(("'s", "\u2019s"), end) or text.startswith("/", end):
        return True
    if at > 0 and text[at - 1] == "/":
        return True
    before = text[:at].rstrip().rsplit(" ", 1)[-1]
    return before in PLACE_WORDS or before in ASKING_WORDS


def _context_after(text: str, pos: int) -> bool:
    """Is the word after `pos` one that says a repository is meant ("repo", "project")? A
    possessive in between counts too ("the api's repo")."""
    for skip in ("'s", "\u2019s"):
        if text.startswith(skip, pos):
            pos += len(skip)
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    end = pos
    while end < len(text) and text[end].isalnum():
        end += 1
    return text[pos:end] in CONTEXT
