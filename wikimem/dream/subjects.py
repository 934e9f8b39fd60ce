"""What a claim is about: its subject, as structure rather than wording (docs/memory.md).

Contract: `key_of(text)` reads a statement into a `Key`: the tool family it makes a choice in
(package manager, test runner, formatter, …) with the members it favours and rejects — only
when a member stands where a choice is made ("use pnpm", "never npm", "format with black"),
not where it is merely run ("pnpm lint", "`npm test`"): mentioning a tool in passing is not a
claim about which tool to use —, the entity it describes (the content words of its subject) and
the kind of value it gives (port, host, URL, version, owner, schedule, path, …), its polarity
and whether it says what to do. `subject_label(text)` is the short bold subject shown before a
claim, made only from such a choice or a typed value on a named thing. `content_terms` is the
shared notion of a statement's content words. Deterministic, dependency-free and cached.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

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
    "indentation": (
        "Indentation",
        ("tabs", "spaces", "2-space", "4-space", "8-space", "3-space"),
    ),
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
# "goes to java 21", "moved to node 22", "bumped to python 3.13": the tool a change moves to
_MOVED_TO_VERSION = re.compile(
    r"\b(?:goes|go|going|went|moved?|moving|switch(?:ed|es|ing)?|bump(?:ed|s|ing)?|"
    r"upgrad(?:ed|es|e|ing)|migrat(?:ed|es|e|ing)|jump(?:ed|s)?) (?:over )?(?:up )?to "
    r"([a-z][\w.+#-]*)\s+v?(\d+(?:\.\d+)*)\b",
    re.IGNORECASE,
)
# Short names of one thing, as a claim's entity terms (stemmed) read them
_ENTITY_ALIASES = {
    "pg": "postgre",
    "postgresql": "postgre",
    "psql": "postgre",
    "k8s": "kubernete",
    "kube": "kubernete",
    "gh": "github",
    "gl": "gitlab",
}

_SPACES = re.compile(
    r"\b(?P<n>two|four|eight|three|2|4|8|3)[- ]space(?:s)?(?: indent(?:ation|s)?)?\b|"
    r"\bindent(?:ation|ed)? (?:of|with|by|to)? ?(?P<n2>two|four|eight|2|4|8) spaces?\b|"
    r"\b(?P<tabs>tabs)\b(?= (?:for|over|instead|rather|not)| *[.,;]|$)|\bindent(?:ation|ed)? with (?P<tabs2>tabs)\b|"
    r"\b(?P<spaces>spaces)\b(?= (?:for (?:indent\w*|everything)|over tabs|instead of tabs|not tabs))",
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
    r"no more|back to|(?:format|lint|type-?check|test|check|bundle|build)\w* (?:everything |all |"
    r"code |the code )?with)\b",
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
            r"\b(?P<v3>\d{4,5}) (?:port)\b|\blisten(?:s|ing)? on (?P<v4>\d{2,5})\b",
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
            r"kubernetes|k8s|terraform|helm|nginx|openssl|rclone|gcc|clang|llvm) v?(?P<v3>\d{1,3}(?:\.\d+)*)\b",
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
            r"nightly|daily|weekly|monthly|hourly|(?:once|twice) (?:a|an|per|every) "
            r"(?:day|night|week|month|hour|year|quarter)|"
            r"on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)|"
            r"at (?:[01]?\d|2[0-3])(?::\d\d)? ?(?:am|pm|utc)?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "quantity",
        re.compile(
            r"(?<![\w.])(?P<v>\d+(?:\.\d+)?)\s?(?:connections?|workers?|executors?|replicas?|"
            r"cores?|threads?|retries|attempts|pods?|nodes?|shards?|partitions?|instances?|"
            r"gb|gib|mb|mib|tb|ms|seconds?|secs?|s|minutes?|mins?|hours?|h|%|percent)\b",
            re.IGNORECASE,
        ),
    ),
    ("path", re.compile(r"(?<![\w/])(?P<v>(?:\.{0,2}/)?[\w.-]+/[\w./-]*[\w/])")),
    ("number", re.compile(r"(?<![\w.:-])(?P<v>\d{2,6})(?![\w]|\.\d)")),
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
    ("quantity", "number"),
    ("number", "quantity"),
}


def compatible(a: str, b: str) -> bool:
    """Whether two kinds of value can stand for one another ("moved to 9300" and "port 9102")."""
    return a == b or (a, b) in _COMPATIBLE


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
    "quantity": "size",
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
    return set(_content_terms(text, numbers))


@functools.lru_cache(maxsize=16384)  # supersession asks it of each claim of a note per claim
def _content_terms(text: str, numbers: bool) -> frozenset[str]:
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
    return frozenset(out)


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


# What follows a tool's name when the tool is being run, not chosen: "pnpm lint", "npm
# install", "pytest tests/", "ruff check .". A claim that runs a tool says nothing about which
# member of its family to use ("Run lint with pnpm lint before pushing" is not a package
# manager rule, and must not replace one).
_SUBCOMMANDS = frozenset(
    """install i add remove rm uninstall run exec dlx x test tests lint build start dev ci
    publish audit update upgrade outdated init create format check fmt typecheck serve watch
    pack link why ls list config cache prune version compose pull push login logout sync lock
    tidy get mod vet clippy doc bench clean fix up down ps logs inspect tag image images
    container volume network buildx""".split()
)
_BACKTICKS = re.compile(r"`[^`\n]+`")


def _run_not_chosen(text: str, start: int, end: int, ticks: list[tuple[int, int]]) -> bool:
    """Whether the member at text[start:end] is a command being run (followed by a subcommand
    or a path, or quoted as code together with more than itself)."""
    for a, b in ticks:
        if a < start and end < b and text[a + 1 : b - 1].strip() != text[start:end]:
            return True
    nxt = re.match(r"\s+([\w./:-]+)", text[end:])
    if not nxt:
        return False
    word = nxt.group(1).lower()
    return (
        word in _SUBCOMMANDS
        or "/" in word
        or word.startswith(".")
        or bool(re.fullmatch(r"[\w-]+\.(?:py|js|ts|json|toml|ya?ml|cfg|lock|txt|md)", word))
    )


def _category_mentions(text: str) -> list[tuple[int, str]]:
    """(position, member) for every category member named in text where a choice is made,
    not where the tool is merely run."""
    ticks = [m.span() for m in _BACKTICKS.finditer(text)]
    return [
        (pos, member)
        for pos, member, end in _all_mentions(text)
        if not _run_not_chosen(text, pos, end, ticks)
    ]


def _all_mentions(text: str) -> list[tuple[int, str, int]]:
    """(position, member, end) for every category member named in text."""
    found: list[tuple[int, str, int]] = []
    for m in _SPACES.finditer(text):
        n = m["n"] or m["n2"]
        if m["spaces"]:
            found.append((m.start(), "spaces", m.end()))
            continue
        member = "tabs" if (m["tabs"] or m["tabs2"]) else f"{_NUMBER_WORDS.get(n.lower(), n)}-space"
        found.append((m.start(), member, m.end()))
    for m in _QUOTES.finditer(text):
        found.append((m.start(), f"{m['kind'].lower()}-quotes", m.end()))
    for m in _EXPORTS.finditer(text):
        found.append((m.start(), f"{m['kind'].lower()}-exports", m.end()))
    for m in _MERGES.finditer(text):
        kind = (m["kind"] or "merge").lower()
        member = "merge-commits" if kind == "merge" else f"{kind}-merges"
        found.append((m.start(), member, m.end()))
    lowered = text.lower()
    for m in re.finditer(r"ruff format", lowered):
        found.append((m.start(), "ruff-format", m.end()))
    for m in re.finditer(r"github actions|gitlab ci|vs ?code", lowered):
        member = m.group(0).replace(" ", "-").replace("vs-code", "vscode")
        found.append((m.start(), member, m.end()))
    for m in _TOKEN.finditer(text):
        t = _norm_token(m.group(0))
        if t in _MEMBER and t not in {"ruff-format"}:
            # the token may carry trailing punctuation ("npm."): the name ends where it does
            end = m.start() + len(m.group(0).rstrip(".,;:!?"))
            found.append((m.start(), t, end))
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
    owned = _OWNERSHIP.search(text)
    if owned:
        # "Priya owns the network modules", "Tomasz took over modules/net from her": what is
        # described is the thing owned, and its value the owner
        attribute, value, subject = "owner", owned["who"], owned["what"]
    elif changed := _CHANGED_OBJECT.search(text):
        subject = changed["obj"]  # "partner pushed their SFTP drop back an hour": the drop
    entity = content_terms(subject or entity_text, numbers=True) - {
        _norm_token(t) for t in (*favours, *rejects)
    }
    if not entity and subject:
        entity = content_terms(entity_text, numbers=True)
    elif subject and not owned:
        # "The GeoIP table is refreshed manually": the refresh is what the claim is about too
        # (a later "the geoip refresh runs itself" names it so)
        after = entity_text[len(subject) :].split()[:3]
        participles = [w for w in after[1:] if w.lower().endswith("ed") and len(w) > 4]
        entity |= content_terms(" ".join(participles[:1]))
    if attribute == "version" and value:
        moved = _MOVED_TO_VERSION.search(text)
        if moved and moved.group(1).lower() not in STOPWORDS | VERBS:
            value = moved.group(2)  # "quire 2.0 goes to java 21": the change is to java 21
        # "terraform 1.9.8", "python 3.12", "node 20": the tool before the version is what the
        # version is of, however the rest of the sentence goes
        tool = re.search(
            r"\b([a-z][\w.+#-]*)(?:'s)?\s+(?:version\s+|v)?" + re.escape(value) + r"\b",
            text,
            re.IGNORECASE,
        )
        if tool and tool.group(1).lower() not in STOPWORDS | VERBS | {"to", "from", "version"}:
            entity = {_stem(tool.group(1).lower())}
    if attribute and attribute != "number":
        entity.discard(attribute)
        entity.discard(_stem(attribute))  # "version" is stemmed "vers"
    # "the local pg" is the local postgres: one thing under its short name
    entity = {_ENTITY_ALIASES.get(t, t) for t in entity}
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


_OWNERSHIP = re.compile(
    r"(?:^|[,;]\s+|\band\s+)(?P<who>@?[A-Z][\w.-]*(?: [A-Z][\w-]*)?) (?:owns|maintains|"
    r"looks after|is responsible for|took over|takes over|has taken over|inherited|now owns) "
    r"(?:the )?(?P<what>[^,;]+?)(?: from (?:her|him|them|[A-Z][\w-]*(?: [A-Z][\w-]*)?))?"
    r"(?=[,;.]|\s+so\b|$)"
)
_CHANGED_OBJECT = re.compile(
    r"\b(?:pushed|moved|shifted|bumped|delayed|rescheduled|renamed|brought) (?:their |the |our |"
    r"its |his |her )?(?P<obj>[\w' .-]{2,40}?) (?:back|forward|up|down|to|from|over|by)\b",
    re.IGNORECASE,
)


def _category_of_special(member: str) -> str | None:
    for cat, (_, members) in CATEGORIES.items():
        if member in members:
            return cat
    return None


def category_label(category: str | None) -> str:
    return CATEGORIES[category][0] if category in CATEGORIES else ""


def subject_label(text: str) -> str:
    """A short bold subject for a statement, or "" when none is clear enough to show."""
    key = key_of(text)
    if key.category and key.category in CATEGORIES:
        # a family's label only on a choice in it ("We use Podman"), never on a fact that
        # merely names a member ("Docker Desktop is capped at 6 GB")
        return category_label(key.category) if key.normative and key.favours else ""
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
