"""Claims: the lines of a living note, what each is about, and which one is current (DESIGN §5).

A living note (everything but session digests) is prose a person may write plus claim lines:

    - **Metrics collector port**: The metrics collector runs on port 9300 (was 9102 until 2026-11-30). ([[projects/acme-api/sessions/2026-11-30-0199a2b3-3fa2c1|codex 2026-11-30]])

an optional bold subject, one standalone statement, and its provenance (who said it, when, and a
wikilink to the session digest where it was said). Lines written by hand without a subject or a
provenance are claims too.

Contract:
  - `parse_line` / `Claim.render` read and write that format; `parse_line` also reads the
    provenance wikimem wrote before claims had a format (`(stated 2026-11-29 in claude:3f2b8c1e)`).
  - `key_of(text)` says what a statement is about: a tool category (package manager,
    indentation, …) with the tools it favours and rejects, the entity it describes and the kind
    of value it gives (port, host, version, owner, schedule, …), and its polarity.
  - `supersedes(new, old)` decides whether a newer statement replaces an older one: the same
    category, the same entity with a value of the same kind, a negation of what the old one
    favoured, or the same sentence with one short stretch changed. Sharing a verb or a generic
    word is not enough ("always run typecheck before you commit" does not replace "never commit
    anything under data/raw/").
  - `fold(body, claim)` puts a claim into a note body: it replaces the claim it supersedes in
    place (a changed value keeps "was OLD until DATE"), refreshes a restatement, or appends.
    At most one current claim per subject remains; text outside claim lines is kept.
  - `retract(body, target)` removes the claims a retraction names.

Deterministic and dependency-free; used by the offline dream, `wikimem remember`, reconciliation
of synced notes, and to check a model's operations.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

# -- vocabulary ----------------------------------------------------------------------------------

STOPWORDS = frozenset(
    """a an the and or but if then else of to in on at by for with from into onto about as is are
    was were be been being am do does did doing have has had having i me my we our us you your
    he she it its they them their this that these those there here what which who whom whose
    when where why how all any both each few more most other some such no nor not only own same
    so than too very can will just should would could may might must shall also please always
    never dont don't do not use uses using used prefer prefers preferred instead over rather like
    want wants need needs make sure remember note keep mind that's it's let's lets one ones thing
    things way get got ok okay btw fyi really now currently still anymore longer new old moved
    move switched switch changed change set runs run running lives live sits located found
    available default defaults default. every all any""".split()
)
# Words that say what happened rather than what the claim is about.
VERBS = frozenset(
    """is are was were be been runs run running listens listen lives live sits moved move moving
    migrated migrate switched switch switching changed change uses use using used deploy deploys
    deployed deploying hosted hosts host served serves serve points point pointed owned owns own
    maintained maintains maintain belongs belong happens happen happened scheduled goes go went
    cut cuts tagged tags tag released releases pinned pin requires require required needs need
    needed works work worked built builds build stored stores store kept keeps keep called named
    became become now today""".split()
)

# Tool families: two claims favouring members of one family are about the same thing.
CATEGORIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "js-package-manager": ("JS package manager", ("npm", "pnpm", "yarn", "bun")),
    "python-package-manager": (
        "Python package manager",
        ("pip", "poetry", "uv", "pdm", "pipenv", "conda", "hatch"),
    ),
    "python-test-runner": ("Python test runner", ("pytest", "unittest", "nose", "nose2")),
    "js-test-runner": ("JS test runner", ("jest", "vitest", "mocha", "ava", "jasmine")),
    "python-formatter": ("Python formatter", ("black", "yapf", "autopep8", "ruff-format")),
    "js-formatter": ("JS formatter", ("prettier", "biome", "dprint")),
    "python-type-checker": ("Python type checker", ("mypy", "pyright", "pyre", "pytype")),
    "indentation": ("Indentation", ("tabs", "2-space", "4-space", "8-space", "3-space")),
    "quotes": ("Quote style", ("single-quotes", "double-quotes")),
    "module-exports": ("Exports", ("default-exports", "named-exports")),
    "database": (
        "Database",
        ("postgres", "postgresql", "mysql", "mariadb", "sqlite", "mongodb", "dynamodb"),
    ),
    "container-engine": ("Container engine", ("docker", "podman")),
    "ci": ("CI", ("github-actions", "gitlab-ci", "circleci", "jenkins", "buildkite")),
    "editor": ("Editor", ("vim", "neovim", "emacs", "vscode", "helix", "zed")),
    "shell": ("Shell", ("bash", "zsh", "fish")),
    "merge-style": ("Merge style", ("squash-merges", "rebase-merges", "merge-commits")),
    "line-length": ("Line length", ()),
}
_ALIASES = {
    "postgresql": "postgres",
    "psql": "postgres",
    "node_modules": "",
    "neovim": "neovim",
    "nvim": "neovim",
    "vs-code": "vscode",
    "code": "",
}
_MEMBER = {m: cat for cat, (_, members) in CATEGORIES.items() for m in members}

_SPACES = re.compile(
    r"\b(?P<n>two|four|eight|three|2|4|8|3)[- ]space(?:s)?(?: indent(?:ation|s)?)?\b|"
    r"\bindent(?:ation|ed)? (?:of|with|by|to)? ?(?P<n2>two|four|eight|2|4|8) spaces?\b|"
    r"\b(?P<tabs>tabs)\b(?= (?:for|over|instead|rather|not)| *[.,;]|$)|\bindent(?:ation|ed)? with (?P<tabs2>tabs)\b",
    re.IGNORECASE,
)
_QUOTES = re.compile(r"\b(?P<kind>single|double)[- ]quot(?:es|ed|e)\b", re.IGNORECASE)
_MERGES = re.compile(
    r"\b(?P<kind>squash|rebase)(?:[- ]?(?:and[- ])?merg\w*)?\b|\b(?P<m>merge) commits\b",
    re.IGNORECASE,
)
_EXPORTS = re.compile(r"\b(?P<kind>default|named) exports?\b", re.IGNORECASE)
_LINE_LENGTH = re.compile(
    r"\b(?:line[- ]length|max(?:imum)?[- ]line[- ]length|lines?(?: of)? (?:at most|up to|max))\D{0,12}(?P<n>\d{2,3})\b",
    re.IGNORECASE,
)
_NUMBER_WORDS = {"two": "2", "three": "3", "four": "4", "eight": "8"}

_NEGATORS = (
    r"never(?: ever)?(?: use| run| call)?|don'?t(?: ever)?(?: use)?|do not(?: ever)?(?: use)?|"
    r"no longer(?: use)?|not(?: use)?|stop(?:ped)? using|avoid(?: using)?|instead of|rather than|"
    r"over|got rid of|dropped|removed|moved away from|migrated (?:away )?from|switched (?:away )?from|"
    r"replaced"
)
_NEGATIVE = re.compile(
    r"\b(?:never|don'?t|do not|avoid|stop(?:ped)? using|must not|should never|no longer|"
    r"not anymore|anymore)\b",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d")
_NORMATIVE_HINT = re.compile(
    r"\b(?:use|uses|using|prefer|prefers|always|never|don'?t|do not|avoid|switch(?:ed)? to|"
    r"moved to|instead of|rather than|only|should|must|like|love|stick with|go with|dropped|"
    r"no more|format\w* (?:everything|all|code) with)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#./:@-]*")

# Values: what a statement says a thing is.
_VALUE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("url", re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s)>\],]+", re.IGNORECASE)),
    ("email", re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")),
    (
        "port",
        re.compile(
            r"\bport(?: number)?(?: is| of| =|:)? ?(?P<v>\d{2,5})\b|(?<![\w.])(?::)(?P<v2>\d{2,5})\b|"
            r"\b(?P<v3>\d{4,5}) (?:port)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "host",
        re.compile(
            r"\b(?P<v>(?:\d{1,3}\.){3}\d{1,3}|[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\."
            r"(?:internal|local|lan|corp|com|net|org|io|dev|cloud|svc|cluster\.local))\b",
            re.IGNORECASE,
        ),
    ),
    (
        "version",
        re.compile(
            r"\b(?:v|version |release )(?P<v>\d+(?:\.\d+)*)\b|\b(?P<v2>\d+\.\d+(?:\.\d+)*)\b|"
            r"\b(?:postgres(?:ql)?|node(?:\.js)?|python|java|go|ruby|php|redis|mysql|ubuntu|debian|"
            r"rust|kotlin|swift|perl|elixir|erlang|dotnet|\.net|react|vue|angular|django|rails|"
            r"kubernetes|k8s|terraform|helm|nginx|openssl|rclone|gcc|clang|llvm) (?P<v3>\d{1,3})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "time",
        re.compile(
            r"(?<![\w:])(?P<v>\d{1,2}:\d\d(?:\s?[ap]m)?|\d{1,2}\s?[ap]m)(?![\w:])", re.IGNORECASE
        ),
    ),
    (
        "owner",
        re.compile(
            r"\b(?:owned by|maintained by|owner is|owners are|on-call is|on call is|"
            r"ask|contact|belongs to) (?P<v>@?[A-Z][\w.-]*(?: [A-Z][\w-]*)?|@[\w.-]+)",
        ),
    ),
    (
        "schedule",
        re.compile(
            r"\b(?P<v>(?:every|each) (?:day|night|week|month|hour|morning|evening|"
            r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday)s?|"
            r"nightly|daily|weekly|monthly|hourly|"
            r"on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)|"
            r"at \d{1,2}(?::\d\d)? ?(?:am|pm|utc)?)\b",
            re.IGNORECASE,
        ),
    ),
    ("path", re.compile(r"(?<![\w/])(?P<v>(?:\.{0,2}/)?[\w.-]+/[\w./-]*[\w/])")),
    ("number", re.compile(r"(?<![\w.:-])(?P<v>\d{2,6})(?![\w.])")),
    ("date", re.compile(r"(?<!\d)(?P<v>\d{4}-\d\d-\d\d)(?!\d)")),
)
# Kinds of value that can stand in for each other: "moved to 9300" corrects "port 9102".
_COMPATIBLE = {
    ("number", "port"),
    ("port", "number"),
    ("number", "version"),
    ("version", "number"),
    ("time", "schedule"),
    ("schedule", "time"),
    ("url", "host"),
    ("host", "url"),
}
# Kinds of value a label is made for: "Metrics collector port", "Grafana host". A path, a
# schedule or a bare number says too little about what it is the value of.
_ATTRIBUTE_LABEL = {
    "port": "port",
    "host": "host",
    "url": "URL",
    "email": "contact",
    "owner": "owner",
    "version": "version",
    "time": "time",
}
_NOT_A_NAME = frozenset(
    """never always don't do not use please one we i you it they this that there if when before
    after rule note also just so then only all every each any some no""".split()
)


@dataclass(frozen=True)
class Key:
    """What a statement is about."""

    category: str | None = None
    favours: frozenset[str] = frozenset()  # members of a category, or tools, it says to use
    rejects: frozenset[str] = frozenset()  # … and those it says not to use
    entity: frozenset[str] = frozenset()  # content words naming the thing described
    attribute: str | None = None  # kind of value: port, host, version, …
    value: str | None = None
    negative: bool = False
    normative: bool = False  # says what to do (use, prefer, always, never…), not what is
    words: tuple[str, ...] = ()  # the statement's words, for the one-slot rule


def _norm_token(token: str) -> str:
    t = token.lower().strip(".,;:!?()[]{}\"'`")
    return _ALIASES.get(t, t)


_TIME_WORDS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays
    thursdays fridays saturdays sundays yesterday tomorrow week month year weekend morning
    evening night since until day days hour hours minute minutes""".split()
)
# A month is a date only beside a number or after a word that introduces a time ("in March",
# "14 November", "since June"); elsewhere it is a name ("the november script").
_MONTHS = frozenset(
    "january february march april june july august september october november december".split()
)
_BEFORE_A_DATE = frozenset(
    "in on since until till by from last next early late mid before after of end start".split()
)


def content_terms(text: str, numbers: bool = False) -> set[str]:
    """Content words, lower-cased, without stop words or verbs; light stemming. With
    `numbers`, bare numbers count too (in a name: "service number 3")."""
    out = set()
    tokens = [raw.strip("./-:@") for raw in _TOKEN.findall(text.lower())]
    for i, w in enumerate(tokens):
        if not w or w in STOPWORDS or w in VERBS or w in _TIME_WORDS:
            continue
        if w in _MONTHS and _dated(tokens, i):
            continue
        if w.isdigit():
            if numbers:
                out.add(w)
            continue
        if len(w) < 2:
            continue
        if _ISO_DATE.fullmatch(w):
            continue
        out.add(_stem(w))
    return out


def _dated(tokens: list[str], i: int) -> bool:
    before = tokens[i - 1] if i else ""
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    return before.isdigit() or after[:1].isdigit() or before in _BEFORE_A_DATE or not before


_SUFFIXES = ("ations", "ation", "ating", "ated", "ates", "ions", "ion", "ing", "ed", "es", "s")


def _stem(word: str) -> str:
    """A light stem, so "generated" and "generation", "metrics" and "metric" meet."""
    if "/" in word or "." in word or any(c.isdigit() for c in word):
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            if suffix == "s" and word.endswith("ss"):
                return word
            if suffix == "es" and word[-3] not in "sxzh":
                return word[:-1]  # "invoices" is "invoice" + s
            return word[: -len(suffix)]
    return word


def _category_mentions(text: str) -> list[tuple[int, str]]:
    """(position, member) for every category member named in text."""
    found: list[tuple[int, str]] = []
    for m in _SPACES.finditer(text):
        n = m["n"] or m["n2"]
        member = "tabs" if (m["tabs"] or m["tabs2"]) else f"{_NUMBER_WORDS.get(n.lower(), n)}-space"
        found.append((m.start(), member))
    for m in _QUOTES.finditer(text):
        found.append((m.start(), f"{m['kind'].lower()}-quotes"))
    for m in _EXPORTS.finditer(text):
        found.append((m.start(), f"{m['kind'].lower()}-exports"))
    for m in _MERGES.finditer(text):
        kind = (m["kind"] or "merge").lower()
        found.append((m.start(), "merge-commits" if kind == "merge" else f"{kind}-merges"))
    lowered = text.lower()
    for m in re.finditer(r"ruff format", lowered):
        found.append((m.start(), "ruff-format"))
    for m in re.finditer(r"github actions|gitlab ci|vs ?code", lowered):
        found.append((m.start(), m.group(0).replace(" ", "-").replace("vs-code", "vscode")))
    for m in _TOKEN.finditer(text):
        t = _norm_token(m.group(0))
        if t in _MEMBER and t not in {"ruff-format"}:
            found.append((m.start(), t))
    return sorted(set(found))


def _negated_positions(text: str) -> list[tuple[int, int]]:
    """Spans of text governed by a negator: from the negator to the end of its clause."""
    spans = []
    for m in re.finditer(r"\b(?:" + _NEGATORS + r")\b", text, re.IGNORECASE):
        end = len(text)
        stop = re.search(r"[,;.](?:\s|$)|\b(?:but|and use|use|instead|prefer)\b", text[m.end() :])
        if stop and m.group(0).lower() not in ("instead of", "rather than", "over"):
            end = m.end() + stop.start()
        elif m.group(0).lower() in ("instead of", "rather than", "over"):
            nxt = re.search(r"[,;.](?:\s|$)", text[m.end() :])
            end = m.end() + (nxt.start() if nxt else len(text) - m.end())
        spans.append((m.start(), end))
    return spans


def _first_value(text: str) -> tuple[str | None, str | None, tuple[int, int] | None]:
    for kind, pattern in _VALUE_PATTERNS:
        for m in pattern.finditer(text):
            groups = {k: v for k, v in m.groupdict().items() if v}
            value = next(iter(groups.values()), m.group(0))
            if kind == "number" and _is_date_part(text, m.start()):
                continue
            if kind == "version" and _is_date_part(text, m.start()):
                continue
            if kind == "path" and ("://" in value or re.fullmatch(r"[\d/.-]+", value)):
                continue
            if kind == "date" and not _ISO_DATE.fullmatch(value):
                continue
            return kind, value.rstrip(".,"), m.span()
    return None, None, None


def _is_date_part(text: str, pos: int) -> bool:
    return any(m.start() <= pos < m.end() for m in _ISO_DATE.finditer(text))


_WAS_UNTIL = re.compile(r"\s*\((?:was|previously|formerly) [^()]*? until \d{4}-\d\d-\d\d\)")


def strip_history(text: str) -> str:
    """A statement without its "(was … until …)" note: what it says now."""
    return _WAS_UNTIL.sub("", text)


_MAIN_VERB = re.compile(
    r"\b(?:is|are|was|were|has been|have been|runs|run|listens|lives|sits|uses|goes|go|writes|"
    r"reads|logs|talks|sends|stores|keeps|needs|requires|points|serves|deploys|publishes|owns|"
    r"moved|migrated|switched|upgraded|changed|allows|happens|comes|come|expires|rotates|"
    r"generates|generated|connects|belongs)\b",
    re.IGNORECASE,
)
_PERSONAL_SUBJECT = re.compile(r"^(?:i|we|you|it|they|this|that|there)$", re.IGNORECASE)


def _subject_words(text: str) -> str:
    """The words before a statement's main verb, without asides in parentheses ("" when the
    subject is a pronoun or missing)."""
    text = re.sub(r"\([^)]*\)", " ", text)
    m = _MAIN_VERB.search(text)
    if not m:
        return ""
    head = text[: m.start()].strip(" ,")
    words = head.split()
    if not words or all(_PERSONAL_SUBJECT.match(w) for w in words) or len(words) > 8:
        return ""
    return head


KEY_CHARS = 1000


@functools.lru_cache(maxsize=16384)
def key_of(text: str) -> Key:
    # cached: a fold compares each new claim with every claim of its note, so the same lines
    # are keyed again and again (a Key is immutable). A claim is a sentence: what it is about
    # is in its first KEY_CHARS characters, and a hand-made 50 KB line must not cost a dream
    # seconds in the value patterns.
    text = strip_history(text)[:KEY_CHARS]
    mentions = _category_mentions(text)
    negated = _negated_positions(text)
    favours: set[str] = set()
    rejects: set[str] = set()
    category = None
    for pos, member in mentions:
        if any(a <= pos < b for a, b in negated):
            rejects.add(member)
        else:
            favours.add(member)
    cats = [_MEMBER.get(m) or _category_of_special(m) for m in (*favours, *rejects)]
    cats = [c for c in cats if c]
    if cats:
        category = max(set(cats), key=cats.count)
    line_length = _LINE_LENGTH.search(text)
    if line_length and category is None:
        category = "line-length"
        favours.add(line_length["n"])
    attribute, value, span = _first_value(text)
    entity_text = text
    if span is not None:
        entity_text = text[: span[0]] + " " + text[span[1] :]
    # What the claim is about is its subject ("The backup script writes to …"); the rest of the
    # sentence (an aside, a reason) would make one thing look like another.
    subject = _subject_words(entity_text)
    entity = content_terms(subject or entity_text, numbers=True) - {
        _norm_token(t) for t in (*favours, *rejects)
    }
    if not entity and subject:
        entity = content_terms(entity_text, numbers=True)
    if attribute and attribute != "number":
        entity.discard(attribute)
    words = tuple(w.strip(".").lower() for w in re.findall(r"[\w.+#/-]+", text))
    return Key(
        category=category,
        favours=frozenset(favours - rejects),
        rejects=frozenset(rejects),
        entity=frozenset(entity),
        attribute=attribute,
        value=value,
        negative=bool(_NEGATIVE.search(text)),
        normative=bool(_NORMATIVE_HINT.search(text)),
        words=words,
    )


def _category_of_special(member: str) -> str | None:
    for cat, (_, members) in CATEGORIES.items():
        if member in members:
            return cat
    return None


def category_label(category: str | None) -> str:
    return CATEGORIES[category][0] if category in CATEGORIES else ""


# -- supersession --------------------------------------------------------------------------------


def _entities_match(a: frozenset[str], b: frozenset[str]) -> bool:
    """The same thing: one description contains the other ("collector" and "metrics
    collector"), or they share most of their words. Two things that each have a word of their
    own ("alpha script", "bravo script") are two things."""
    shared = a & b
    if not shared:
        return False
    if a <= b or b <= a:
        return True
    return len(shared) / len(a | b) >= 0.6


def _one_slot_changed(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The same statement with a short stretch of words swapped: a common start and end holding
    a content word, and at most 3 different words in between on either side."""
    if a == b:
        return True
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(a), len(b)) - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    if max(len(a), len(b)) - prefix - suffix > 3 or prefix + suffix < 2:
        return False
    if min(len(a), len(b)) - prefix - suffix == 0 and abs(len(a) - len(b)) > 0:
        # one is the other plus a few words: a refinement, not a different claim
        return prefix + suffix >= 3
    common = a[:prefix] + a[len(a) - suffix :]
    return any(w not in STOPWORDS and w not in VERBS and len(w) > 1 for w in common)


def supersedes(new: str, old: str) -> bool:
    """Whether statement `new` replaces statement `old` (they are about the same subject)."""
    a, b = key_of(new), key_of(old)
    if a.words == b.words:
        return True
    if a.normative and b.normative:
        # Two rules about one family of tools: the newer choice is the one in force.
        if a.category and a.category == b.category:
            if a.favours and (b.favours or b.rejects):
                return True
            if a.rejects & b.favours:
                return True
            if not a.favours and a.rejects and not b.favours:
                return bool(a.rejects & b.rejects)
        if a.rejects & b.favours:
            return True  # "never use npm" replaces "we use npm"
    if a.attribute and b.attribute and a.value and b.value:
        compatible = a.attribute == b.attribute or (a.attribute, b.attribute) in _COMPATIBLE
        if compatible and _entities_match(a.entity, b.entity):
            return True
    if _REPLACING.search(new) and _entities_match(a.entity, b.entity):
        verbs_a = {w for w in a.words if w in _PREDICATES}
        if verbs_a & {w for w in b.words if w in _PREDICATES}:
            return True  # "the alpha script logs to journald instead of its log file"
    if _moved_off(new, old):
        return True  # "we migrated flags off Unleash" replaces "flags are served by Unleash"
    return _one_slot_changed(a.words, b.words)


_MOVED_OFF = re.compile(
    r"\b(?:moved|migrated|switched|ported)\s+(?:[\w-]+\s+){0,3}?(?:off(?: of)?|away from|from)"
    r"\s+(?P<x>[\w.+#/-]+)|\b(?:replaced|swapped(?: out)?)\s+(?P<y>[\w.+#/-]+)\s+(?:with|for)\b",
    re.IGNORECASE,
)


def _moved_off(new: str, old: str) -> bool:
    """Whether `new` says it moved away from something the old claim names, and it speaks of
    what the old claim is about: every word of the old claim's subject ("feature flags" in
    "Feature flags are served by Unleash") is in the new one. One shared generic word ("site",
    "team") is not enough: the docs site moving off Netlify says nothing of the marketing site."""
    old_words = {w.strip(".").lower() for w in _TOKEN.findall(old)}
    for m in _MOVED_OFF.finditer(new):
        thing = (m["x"] or m["y"]).strip(".").lower()
        if thing in old_words and thing not in STOPWORDS:
            subject = key_of(old).entity - {_stem(thing)}
            if subject and subject <= content_terms(new):
                return True
    return False


_REPLACING = re.compile(
    r"\b(?:instead of|rather than|no longer|not anymore|replacing|in place of|moved from|"
    r"switched from|migrated from)\b",
    re.IGNORECASE,
)
_PREDICATES = frozenset(
    """logs writes reads runs uses lives listens talks sends stores keeps calls points serves
    deploys publishes builds goes sits connects is are""".split()
)


# -- the line format -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Provenance:
    """Who said a claim and when: a client (or remember, mcp, import) and a day, and the digest
    of the session it was said in, when there is one."""

    source: str
    date: str
    link: str | None = None  # note path without .md

    def render(self) -> str:
        label = " ".join(p for p in (self.source, self.date) if p)
        if self.link:
            return f"([[{self.link}|{label}]])"
        return f"({label})"

    def compact(self) -> str:
        return "(" + ", ".join(p for p in (self.source, self.date) if p) + ")"


@dataclass(frozen=True)
class Claim:
    text: str
    subject: str = ""
    provenance: Provenance | None = None
    extra: tuple[str, ...] = field(default=())  # continuation lines kept with the claim

    def render(self) -> str:
        head = f"**{self.subject}**: " if self.subject else ""
        tail = f" {self.provenance.render()}" if self.provenance else ""
        return "\n".join((f"- {head}{self.text}{tail}", *self.extra))


_LINE = re.compile(r"^- (?:\*\*(?P<subject>[^*\n]{1,80})\*\*:\s*)?(?P<rest>.*)$")
_PROV_LINK = re.compile(r"\s*\(\[\[(?P<link>[^\]|]+)(?:\|(?P<label>[^\]]*))?\]\]\)\s*$")
_PROV_PLAIN = re.compile(
    r"\s*\((?P<source>[a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)?),? (?P<date>\d{4}-\d\d-\d\d)\)\s*$"
)
_PROV_LEGACY = re.compile(
    r"\s*\((?:stated|noted|seen) (?P<date>\d{4}-\d\d-\d\d)?\s*(?:in|via) (?P<source>[^;()]+?)"
    r"(?:; replaces [^()]*(?:\([^()]*\)[^()]*)*)?\)\s*$"
)


@functools.lru_cache(maxsize=16384)
def parse_line(line: str) -> Claim | None:
    """The claim on a bullet line, or None when the line is not a bullet. Cached: a fold reads
    its whole note again for each claim it adds (a Claim is immutable)."""
    m = _LINE.match(line.rstrip())
    if not m:
        return None
    rest = m["rest"]
    provenance = None
    pm = _PROV_LINK.search(rest)
    if pm:
        label = (pm["label"] or "").strip()
        date_m = re.search(r"\d{4}-\d\d-\d\d", label)
        source = label.replace(date_m.group(0), "").strip(" ,") if date_m else label
        provenance = Provenance(source, date_m.group(0) if date_m else "", pm["link"].strip())
        rest = rest[: pm.start()]
    else:
        pm = _PROV_PLAIN.search(rest) or _PROV_LEGACY.search(rest)
        if pm:
            source = pm["source"].strip()
            if ":" in source and source.split(":", 1)[0] in (
                "claude",
                "codex",
                "cursor",
                "gemini",
            ):
                source = source.split(":", 1)[0]
            source = source.replace("wikimem remember", "remember")
            provenance = Provenance(source, pm["date"] or "")
            rest = rest[: pm.start()]
    return Claim(rest.strip(), (m["subject"] or "").strip(), provenance)


def claims_in(body: str) -> list[tuple[int, Claim]]:
    """(line index, claim) for every claim line of a body, continuation lines attached."""
    lines = body.split("\n")
    out: list[tuple[int, Claim]] = []
    for i, line in enumerate(lines):
        claim = parse_line(line)
        if claim is not None and claim.text:
            out.append((i, claim))
    return out


def compact_line(line: str) -> str:
    """A claim line as injected: the provenance wikilink shortened to `(client, date)`."""
    m = _PROV_LINK.search(line)
    if not m:
        return line
    claim = parse_line(line)
    if claim is None or claim.provenance is None:
        return line
    return line[: m.start()] + " " + claim.provenance.compact()


# -- folding a claim into a note -----------------------------------------------------------------


@dataclass(frozen=True)
class Folded:
    body: str
    replaced: str | None = None  # the statement the new claim superseded
    changed: bool = True


def _value_in(text: str, value: str) -> bool:
    return (
        re.search(r"(?<![\w.])" + re.escape(value) + r"(?![\w])", text, re.IGNORECASE) is not None
    )


def rewrite_with_value(old: str, new: str, date: str) -> str | None:
    """When `new` only gives another value for what `old` describes ("moved to 9300"), `old`
    with the value changed and "was OLD until DATE"; None when `new` should stand as it is."""
    a, b = key_of(new), key_of(strip_history(old))
    if (
        not (a.value and b.value and a.attribute and b.attribute)
        or a.value.lower() == b.value.lower()
    ):
        return None
    compatible = a.attribute == b.attribute or (a.attribute, b.attribute) in _COMPATIBLE
    if not compatible or not _entities_match(a.entity, b.entity):
        return None
    if a.entity >= b.entity and len(a.entity) >= 2:
        return None  # the new statement names the thing fully: it stands on its own
    base = strip_history(old).rstrip()
    m = re.search(r"(?<![\w.])" + re.escape(b.value) + r"(?![\w])", base, re.IGNORECASE)
    if not m:
        return None
    changed = base[: m.start()] + a.value + base[m.end() :]
    changed = changed.rstrip(".")
    return f"{changed} (was {b.value} until {date})."


MAX_PAST = 20
_PAST_PREFIX = "<!-- wikimem:was "


def record_past(body: str, texts: Iterable[str], day: str) -> str:
    """`body` with a hidden line per replaced or retracted claim (`<!-- wikimem:was DAY TEXT -->`):
    not shown in Obsidian's reading view, never given to an agent, but it lets recall leave out
    a session digest that still says what is no longer true. The newest `MAX_PAST` are kept."""
    texts = [" ".join(t.replace("-->", "- ->").split()) for t in texts if t.strip()]
    if not texts:
        return body
    lines = body.rstrip("\n").split("\n")
    past = [ln for ln in lines if ln.startswith(_PAST_PREFIX)]
    rest = [ln for ln in lines if not ln.startswith(_PAST_PREFIX)]
    while rest and not rest[-1].strip():
        rest.pop()
    past += [f"{_PAST_PREFIX}{day} {t} -->" for t in texts]
    past = past[-MAX_PAST:]
    return "\n".join([*rest, "", *past]) + "\n"


def past_claims(body: str) -> list[str]:
    """The texts `record_past` keeps in a body."""
    out = []
    for ln in body.split("\n"):
        if ln.startswith(_PAST_PREFIX) and ln.rstrip().endswith("-->"):
            inner = ln[len(_PAST_PREFIX) : ln.rstrip().rfind("-->")].strip()
            out.append(inner[11:] if _ISO_DATE.match(inner) else inner)
    return out


def fold(
    body: str,
    claim: Claim,
    *,
    today: str,
    same: Callable[[str, str], bool] | None = None,
) -> Folded:
    """`body` with `claim` in it: replacing the claim it supersedes (by `supersedes`, or by
    `same` when given), else appended."""
    lines = body.split("\n")
    target: int | None = None
    matches = same or supersedes
    for i, existing in claims_in(body):
        if matches(claim.text, existing.text) or (same is None and same_label(claim, existing)):
            target = i  # the latest matching line is the one in force
    if target is not None:
        old = parse_line(lines[target])
        assert old is not None
        restated = _norm_text(strip_history(old.text)) == _norm_text(strip_history(claim.text))
        when = (claim.provenance.date if claim.provenance else "") or today
        text = claim.text
        if restated:
            text = old.text if len(old.text) >= len(claim.text) else claim.text
        elif same is None:
            rewritten = rewrite_with_value(old.text, claim.text, _change_date(claim.text, when))
            if rewritten:
                text = rewritten
            else:
                a, b = key_of(claim.text), key_of(strip_history(old.text))
                if (
                    a.value
                    and b.value
                    and a.value.lower() != b.value.lower()
                    and not _value_in(claim.text, b.value)
                ):
                    until = _change_date(claim.text, when)
                    text = f"{claim.text.rstrip('.')} (was {b.value} until {until})."
        subject = claim.subject or old.subject
        new_line = replace(claim, text=text, subject=subject).render()
        if new_line == lines[target]:
            return Folded(body, None, changed=False)
        lines[target] = new_line
        if restated:
            return Folded("\n".join(lines), None)
        replaced = strip_history(old.text)
        return Folded(record_past("\n".join(lines), [replaced], when), replaced)
    insert_at = len(lines)
    while insert_at > 0 and not lines[insert_at - 1].strip():
        insert_at -= 1
    if insert_at > 0 and not lines[insert_at - 1].startswith(("- ", "  ")):
        lines.insert(insert_at, "")  # a blank line between a paragraph and the list
        insert_at += 1
    lines.insert(insert_at, claim.render())
    text = "\n".join(lines)
    return Folded(text if text.endswith("\n") else text + "\n")


def same_label(new: Claim, old: Claim) -> bool:
    """Two claims whose bold subjects are the same words: one subject, whatever the wording."""
    a, b = new.subject.strip().lower(), old.subject.strip().lower()
    return bool(a) and a == b


def _change_date(text: str, default: str) -> str:
    """The day a change happened when the statement says it ("moved … on Monday 2026-11-30")."""
    m = re.search(r"\b(?:on|since|from|as of) (?:\w+day )?(\d{4}-\d\d-\d\d)", text)
    return m.group(1) if m else default


def _norm_text(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def remove_superseded(body: str, claim: Claim) -> tuple[str, list[str]]:
    """`body` without the claims `claim` supersedes (for notes other than the one it goes in)."""
    lines = body.split("\n")
    removed = []
    for i, existing in reversed(claims_in(body)):
        if supersedes(claim.text, existing.text) or same_label(claim, existing):
            removed.append(existing.text)
            del lines[i]
    out = "\n".join(lines)
    if removed:
        day = claim.provenance.date if claim.provenance else ""
        out = record_past(out, [strip_history(t) for t in removed], day or "")
    return out, removed


def retract(body: str, target: str, day: str = "") -> tuple[str, list[str]]:
    """`body` without the claims that `target` (a retracted statement or its topic) names."""

    # "the dedupe-before-aggregates thing" names dedupe and aggregates: hyphenated words count
    # whole and in parts
    # (only word-like parts: "db-stg-1" must not name everything "db" and "stg")
    def terms(text: str) -> set[str]:
        parts = [
            p
            for token in re.findall(r"(?<![A-Za-z])[A-Za-z]+(?:-[A-Za-z]+)+", text)
            for p in token.split("-")
            if len(p) >= 4
        ]
        return content_terms(text) | content_terms(" ".join(parts))

    want = terms(target)
    named = " ".join(target.lower().split()).strip(" .")
    if not want and not named:
        return body, []
    lines = body.split("\n")
    removed = []
    for i, existing in reversed(claims_in(body)):
        if existing.subject and existing.subject.lower() == named:
            removed.append(existing.text)  # the subject itself was named
            del lines[i]
            continue
        have = terms(existing.subject + " " + strip_history(existing.text))
        shared = want & have
        if shared and (len(shared) >= 2 or len(shared) / len(want) >= 0.5):
            removed.append(existing.text)
            del lines[i]
    out = "\n".join(lines)
    if removed:
        out = record_past(out, [strip_history(t) for t in removed], day)
    return out, removed


def subject_label(text: str) -> str:
    """A short bold subject for a statement, or "" when none is clear enough to show."""
    key = key_of(text)
    if key.category and key.category in CATEGORIES:
        return category_label(key.category)
    if key.attribute and key.attribute in _ATTRIBUTE_LABEL and key.value:
        head = _head_phrase(text)
        label = _ATTRIBUTE_LABEL[key.attribute]
        if (
            head
            and label
            and not (set(head.split()) & _NOT_A_NAME)
            and all(re.fullmatch(r"[a-z][a-z.+#-]*", w) for w in head.split())
        ):
            words = head.split()
            if words[-1] in (label.lower(), label.lower() + "s"):
                words = words[:-1]
            return " ".join([*words, label])[:60].strip().capitalize()
    return ""


def _head_phrase(text: str) -> str:
    """The noun phrase a statement starts with ("The metrics collector runs…" → "metrics
    collector"), at most four words."""
    words = re.findall(r"[\w.+#/-]+", strip_history(text))
    out: list[str] = []
    for w in words:
        lw = w.lower()
        if lw in ("the", "our", "a", "an", "this", "that", "its", "their", "my"):
            if out:
                break
            continue
        if lw in VERBS or lw in ("on", "at", "in", "to", "for", "is", "are", "was", "were"):
            break
        out.append(lw)
        if len(out) == 4:
            break
    return " ".join(out)


def current_values(bodies: Iterable[str]) -> set[str]:
    """Values named by current claims (for telling stale history from what is true now)."""
    out: set[str] = set()
    for body in bodies:
        for _, claim in claims_in(body):
            key = key_of(claim.text)
            if key.value:
                out.add(key.value)
    return out


def superseded_values(bodies: Iterable[str]) -> set[str]:
    """Old values the claims of `bodies` say were replaced ("was 9102 until …")."""
    out: set[str] = set()
    for body in bodies:
        for m in re.finditer(
            r"\((?:was|previously|formerly) ([^()]*?) until \d{4}-\d\d-\d\d\)", body
        ):
            value = m.group(1).strip().strip('"').lower()
            if value:
                out.add(value)
    return out
