"""The person's own rules from other projects, when a prompt is about how they work
(docs/recall.md, "Your rules from other projects").

A rule the person states once ("wherever I'm committing, commits carry a sign-off") belongs to
them, not to the repository it was said in; the dream files such rules in the profile when it
can tell. This is the net under that judgment: when a prompt touches how the person works, the
person's own first-person statements in other projects are candidates too, each labelled with
where and when it was said. Never another project's facts, commands, hosts or names.

Contract:
  - `about_work(words)`: whether a prompt's words (`index.query_terms`) touch how the person
    works: commits, branches and reviews, formatting and style, the shell and scripts, editors
    and tools, dependencies, tests, types, comments (`WORK`).
  - `find(index, project, terms, given, named)`: the rules worth giving, best first: sentences the
    person said in another project (the prompts of its digests, in their own words; the claims
    of its living notes the person made, only where they say they hold beyond it: the dream
    filed them there, and may have dropped an "in this repo" on the way), which
      * state a rule or preference in the first person ("I", "my", "me"; not "we" or "our",
        a team's), are no question, and are about how they work (`WORK`);
      * share a word about work with the prompt (its topic), on which no profile note this
        session was given speaks (the dream's judgment stands where it made one);
      * and either say they hold beyond that repository ("every repo I own", "all my …",
        "wherever", "not just this repo": `CROSS`), or name nothing of it: not the project, no
        path, file, host, address, port or other long number, no command (quoted, run with
        `make`, `npm`, … or given options), nothing about "here", "this repo" or a day ("this
        week", "until").
    Of the rules on one topic only the newest is given (a later statement of a rule is likelier
    to stand). Sentences this session was given already (at its start, as a claim of a note
    given whole, or with an earlier prompt) are left out.
  - `render(rules, room)`: a block `### Your own rules, said in other projects`, one line per
    rule with `(said in <project>, <date>)`, within `room` characters; the `turn_id`s given.

Hook-path module: standard library only, no regular expressions; run only for prompts that
touch how the person works (one more bounded search).
"""

from __future__ import annotations

from wikimem.recall import ranking
from wikimem.recall.fence import data, one_line
from wikimem.recall.given import turn_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from wikimem.recall.index import Index
    from wikimem.wiki.origins import Book

MAX_RULES = 3
MAX_CHARS = 400  # a longer sentence is a story, not a rule
ROWS = 30  # passages of other projects looked at
HEADING = "### Your own rules, said in other projects"

# Words that say a prompt (or a sentence) is about how the person works. Only words that mean
# software work wherever they appear: "type", "style", "test", "library" or "release" are as
# often about anything else ("what type of movies does …").
WORK = frozenset(
    """
    commit commits committing committed branch branches rebase rebasing merge merges merging
    squash signoff gpg pr prs review reviews reviewing reviewer changelog changelogs format
    formatting formatter formatted indent indentation tabs linter lint linting prettier ruff
    eslint gofmt rustfmt shell bash zsh script scripts alias aliases editor vim neovim emacs
    vscode tooling dependency dependencies deps pin pins pinned lockfile lockfiles logging logger
    exception exceptions tests testing suite pytest mypy typing typed todo todos docstring
    docstrings naming conventions workflow sudo grep rg ripgrep httpie curl git docker
    makefile crate crates
    """.split()
)
OWN_WORDS = frozenset("i i'm im i'd i've ive i'll my me mine myself".split())
# a team's or a project's ("we deploy …", "our staging db"), or a statement about what was said
NOT_OWN = frozenset("we we're we've we'll our ours us scratch forget ignore".split())
CROSS = (
    "every repo",
    "every project",
    "every codebase",
    "every service",
    "any repo",
    "any project",
    "any codebase",
    "each repo",
    "all my",
    "all of my",
    "everywhere",
    "anywhere",
    "wherever",
    "whatever i",
    "across the board",
    "across all",
    "not just",
    "not only",
    "me thing",
    "i own",
    "i work on",
    "i touch",
    "everything i",
    "anything i",
    "in general",
    "generally",
    "house rule",
    "no matter",
    "any language",
    "every language",
)
LOCAL = (
    "here",
    "this repo",
    "this project",
    "this codebase",
    "this service",
    "this one",
    "this branch",
    "this pr",
    "this week",
    "this sprint",
    "today",
    "tomorrow",
    "tonight",
    "right now",
    "for now",
    "until",
    "yesterday",
)
# what starts a command of a project ("make seed-minio", "npm run e2e"): its commands stay there
RUNNERS = (
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "bun run",
    "uv run",
    "poetry run",
    "cargo run",
    "go run",
    "./",
)
_HOST_ENDS = (".com", ".org", ".net", ".io", ".dev", ".internal", ".local", ".lan", ".corp")


def about_work(words: Iterable[str]) -> bool:
    return any(w in WORK for w in words)


class Rule:
    __slots__ = ("day", "path", "project", "score", "text", "topics")

    def __init__(
        self, text: str, project: str, day: str, path: str, score: float, topics: frozenset[str]
    ) -> None:
        self.topics = topics  # the prompt's words about work it speaks of, by stem
        self.text = text
        self.project = project
        self.day = day
        self.path = path
        self.score = score


class Block:
    __slots__ = ("given", "text")

    def __init__(self, text: str, given: list[str]) -> None:
        self.text = text
        self.given = given


def find(
    index: Index,
    project: str,
    terms: Sequence[str],
    given: dict[str, list[object]],
    named: Iterable[str] = (),
    known: Sequence[set[str]] = (),
    book: Book | None = None,
) -> list[Rule]:
    if not terms:
        return []
    weights = {ranking.stem(t): index.term_weights.get(ranking.stem(t), 1.0) for t in terms}
    others = [p for p in dict.fromkeys([project, *named]) if p]
    match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    sql = (
        "SELECT p.path, p.body, n.project, n.kind, n.updated FROM passages p"
        " JOIN notes n ON n.path = p.path WHERE passages MATCH ? AND n.project != ''"
        + "".join(" AND n.project != ?" for _ in others)
        + " ORDER BY bm25(passages, "
        + ", ".join(str(w) for w in ranking.BM25_WEIGHTS)
        + ") LIMIT ?"
    )
    try:
        rows = index.db.execute(sql, (match, *others, ROWS)).fetchall()
    except Exception:  # a damaged or busy index: no rules, never a failed prompt
        return []
    seen_ids = set(str(t) for t in given.get("turns", []))
    topics = {ranking.stem(t) for t in terms if t in WORK}
    settled = _settled(index, given.get("notes", []), topics)
    found: dict[str, Rule] = {}
    for path, body, slug, kind, updated in rows:
        path, slug = str(path), str(slug)
        said = _said(str(body), kind == "session", path, str(updated), _whose(book, path))
        for sentence, day in said:
            key = " ".join(sentence.lower().split())
            if key in found or turn_id(path, sentence) in seen_ids:
                continue
            if not is_rule(sentence, slug):
                continue
            lowered = sentence.lower()
            about = {s for s in topics if ranking.occurrences(lowered, s)}
            if not about or about & settled:
                continue  # not on the prompt's topic, or the profile says what holds now
            if known and _restates(sentence, known):
                continue
            score = ranking.line_score(sentence, weights, 120.0)
            found[key] = Rule(sentence, slug, day, path, score, frozenset(about))
    # one rule per topic, the newest: a later statement of a rule is likelier to stand
    newest = sorted(found.values(), key=lambda r: _neg_day(r.day))
    kept: list[Rule] = []
    for rule in newest:
        if not any(rule.topics & k.topics for k in kept):
            kept.append(rule)
    kept.sort(key=lambda r: (-round(r.score, 3), _neg_day(r.day)))
    return kept[:MAX_RULES]


def _settled(index: Index, paths: Sequence[object], topics: set[str]) -> set[str]:
    """The topics a profile note this session was given whole speaks of: the dream judged the
    person's rule on them, and that judgment stands."""
    profile = tuple(str(p) for p in paths if str(p).startswith("profile/"))
    if not profile or not topics:
        return set()
    marks = ",".join("?" * len(profile))
    rows = index.db.execute(f"SELECT body FROM passages WHERE path IN ({marks})", profile)
    text = " ".join(str(r[0]) for r in rows).lower()
    return {t for t in topics if ranking.occurrences(text, t)}


def _neg_day(day: str) -> int:
    number = ranking.day_number(day)
    return -number if number is not None else 0


def _whose(book: Book | None, path: str) -> Callable[[str], str]:
    if book is None:
        return lambda line: ""
    return lambda line: book.origin(path, line)


def _said(
    body: str, digest: bool, path: str, updated: str, origin: Callable[[str], str]
) -> list[tuple[str, str]]:
    """(sentence, date) the person said in a passage: the prompts of a digest this machine's
    dream wrote, a living note's claims the record says are the person's (never what the text
    of a line says of who wrote it: `wikimem.wiki.origins`)."""
    from wikimem.wiki import origins

    out: list[tuple[str, str]] = []
    note_day = ranking.digest_day(path) or updated[:10]
    for line in body.split("\n"):
        text = line.strip()
        if digest:
            label = next(
                (
                    lb
                    for lb in ("**Said:** ", "**Asked of the agent:** ", "**Asked:** ")
                    if lb in text
                ),
                None,
            )
            if label is None or not text.removeprefix("- ").startswith(label):
                continue
            if origins.who(origin(line)) not in (origins.SESSION, origins.PERSON):
                continue  # a digest line a remote brought (or changed) is nobody's word here
            text = text.split(label, 1)[1]
            day = note_day
        else:
            if not text.startswith("- ") or not origins.is_person(origin(line)):
                continue
            text, day = _claim(text[2:])
            if not day:
                continue  # no sign the person said it
        for s in sentences(text):
            lowered = " " + s.lower() + " "
            # a claim the dream filed under its project keeps a rule only where the words say
            # it holds beyond it: the dream may have dropped "in this repo" when it wrote it
            if digest or any(_has_phrase(lowered, cue) for cue in CROSS):
                out.append((s, day))
    return out


def _claim(text: str) -> tuple[str, str]:
    """A claim's text without its subject and provenance, and the day it was said."""
    from wikimem.recall.past import compact_provenance

    text = compact_provenance(text).rstrip()
    day = ""
    if text.endswith(")") and "(" in text:
        start = text.rfind("(")
        label = text[start + 1 : -1]
        if ", " in label and ranking.day_number(label.rsplit(", ", 1)[1]) is not None:
            day = label.rsplit(", ", 1)[1]
            text = text[:start].rstrip()
    if text.startswith("**"):
        end = text.find("**:", 2)
        if end != -1:
            text = text[end + 3 :].strip()
    return text, day


def sentences(text: str) -> list[str]:
    """`text` cut at sentence ends; a fragment of one or two words joins the sentence before."""
    out: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch in ".!?" and (i + 1 == len(text) or text[i + 1] == " "):
            out.append(text[start : i + 1].strip())
            start = i + 1
    if text[start:].strip():
        out.append(text[start:].strip())
    merged: list[str] = []
    for s in out:
        if merged and len(s.split()) <= 2:
            merged[-1] = f"{merged[-1]} {s}"
        else:
            merged.append(s)
    return [s for s in merged if s]


def _tokens(lowered: str) -> list[str]:
    out: list[str] = []
    word: list[str] = []
    for ch in lowered + " ":
        if ch.isalnum() or ch in "'\u2019":
            word.append("'" if ch == "\u2019" else ch)
        elif word:
            out.append("".join(word).strip("'"))
            word = []
    return out


def is_rule(sentence: str, slug: str) -> bool:
    """A first-person rule about how the person works that holds beyond `slug` (see the
    module's contract)."""
    if not 12 <= len(sentence) <= MAX_CHARS or "?" in sentence:
        return False
    lowered = " " + " ".join(sentence.lower().split()) + " "
    tokens = _tokens(lowered)
    if not OWN_WORDS.intersection(tokens) or not WORK.intersection(tokens):
        return False
    if any(_has_phrase(lowered, cue) for cue in CROSS):
        return True
    if NOT_OWN.intersection(tokens):
        return False
    if any(_has_phrase(lowered, p) for p in LOCAL) or "`" in sentence:
        return False
    from wikimem.recall.scope import named_projects

    if named_projects(sentence, [slug]) or any(_has_phrase(lowered, r) for r in RUNNERS):
        return False
    if _make_target(lowered):
        return False
    return not any(_specific(word) for word in sentence.split())


def _make_target(lowered: str) -> bool:
    """`make seed-minio`, `just e2e_local`: a target of one project's Makefile or justfile
    ("I make small commits" is no command)."""
    words = lowered.split()
    for i in range(len(words) - 1):
        first, second = words[i], words[i + 1]
        if first in ("make", "just") and ("-" in second.strip("-") or "_" in second):
            return True
    return False


def _has_phrase(lowered: str, phrase: str) -> bool:
    i = lowered.find(phrase)
    while i != -1:
        end = i + len(phrase)
        if not lowered[i - 1].isalnum() and (end >= len(lowered) or not lowered[end].isalnum()):
            return True
        i = lowered.find(phrase, i + 1)
    return False


def _specific(word: str) -> bool:
    """A path, file, host, address, port or other number that belongs to one place."""
    w = word.strip(".,;:!?()[]{}\"'")
    lowered = w.lower()
    if "://" in w or lowered.startswith("www."):
        return True
    if w.startswith("-") and w.lstrip("-")[:1].isalpha():
        return True  # a command's option
    if "/" in w.strip("/") and any(c.isalpha() for c in w):
        return True
    if lowered.endswith(_HOST_ENDS):
        return True
    dot = w.rfind(".")
    if 0 < dot < len(w) - 1 and w[:dot].replace("_", "").replace("-", "").isalnum():
        ext = w[dot + 1 :]
        if ext.isalpha() and len(ext) <= 4 and ext.islower():
            return True  # a file name: deploy.sh, settings.py
    digits = 0
    for ch in w:
        digits = digits + 1 if ch.isdigit() else 0
        if digits >= 3:
            return True
    return False


def _restates(sentence: str, known: Sequence[set[str]]) -> bool:
    from wikimem.recall.past import restates

    return restates(sentence, list(known))


def render(rules: Sequence[Rule], room: int) -> Block | None:
    lines = [HEADING]
    given: list[str] = []
    used = len(HEADING) + 2
    for rule in rules:
        line = f"- {data(one_line(rule.text))} (said in {one_line(rule.project)}, {rule.day})"
        if used + len(line) + 1 > room:
            continue
        lines.append(line)
        given.append(turn_id(rule.path, rule.text))
        used += len(line) + 1
    if len(lines) == 1:
        return None
    return Block("\n".join(lines) + "\n", given)
