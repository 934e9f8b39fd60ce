"""The checkable rules behind every score of the memory evaluation.

Values. A value ("9300", "Europe/Lisbon", "2-space") matches text when its words appear in order,
separated by nothing but spaces and punctuation, case ignored, and not inside a longer word
(`matcher`; underscores are part of a word). "localhost:5055" matches "localhost 5055"; "9300"
does not match "93001"; "__tests__" does not match "tests".

Offered as current. An occurrence of a superseded or retracted value is *marked as past* when
  (a) it sits under a heading that says so (History, Superseded, Previously, Past, Retired,
      Retracted), inside ~~strikethrough~~, or on wikimem's hidden record of a replaced claim
      (`<!-- wikimem:was DAY TEXT -->`, never shown to an agent);
  (b) it sits inside a quotation that a past marker introduces (`replaces "…"`);
  (c) its clause (the text between the nearest boundaries — `.`, `?`, `!` or `:` before a
      space, `;`, `,`, `(`, `)`, a line end — outside quotations) has a past marker before it (`was`, `until`, `formerly`, `previously`, `replaces`,
      `replacing`, `instead of`, `rather than`, `no longer`, `no more`, `never`, `not`,
      `don't`, `used to`, `moved from`, `switched from`, `scratch`, `forget`, …), or a
      past-tense ending after it (`… is gone`, `… was removed`, `… was replaced`, `… until …`).
Any other occurrence in injected text is a superseded value *offered as current*; in a living
note it is a *stale claim*. An expected answer counts where it is not under (a) or (b): rule (c)
would wrongly discount "was moved to 9300" and "never commit anything under data/raw/".

Junk. A line of a living note (not a digest, not front matter, headings, comments or table
rules) is junk when it is
  - a question: a `?` outside code and URLs;
  - a request: `please`, `can you`, `could you`, `let's`, `for me`, `meanwhile`, `accordingly`,
    `that way`, `while you're at it`, or a sentence opening with a task verb and its object
    ("Fix the …", "Update the …", "Add a …");
  - filler: `by the way`, `btw`, `fyi`, `just so you know`, `heads up`, `ugh`, `thanks`, `looks good`;
  - a relative date: `yesterday`, `today`, `tomorrow`, `tonight`, `this morning`, `last week`,
    `next month`, `on Monday`, `3 days ago`, `recently`, `the other day`, `right now`,
    `from now on`, `anymore`, `these days`, or `now` closing a clause;
  - a one-off command variant: a command with `--limit N` or a single test (`file::test`), or
    two commands in one note that differ only in their numbers;
  - a passing state of the person: `I'm seeing`, `I am going`, `I'm stuck`, `I'm not sure`, …,
    `weird error`;
  - clipped: a clip or truncation marker written into the note;
  - or it holds text a case declares junk (`Case.junk`).
The rules are deliberately simple and listed by `--verbose`, so a person can judge each line.

Bleed. Injected text is split at its `### <path>` headings (each injected note is introduced by one); a block whose path is
under `projects/<slug>/` for a slug other than the question's project (and not named in the
question) is bleed, and so is any of the case's `foreign` values anywhere in the text.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache

# -- values ------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def matcher(value: str) -> re.Pattern[str]:
    # Underscores belong to a word: `__tests__` is not the word "tests", `vat_2025` is one word.
    words = [w for w in re.findall(r"[a-z0-9_]+", value.lower()) if w.strip("_")]
    if not words:
        raise ValueError(f"value {value!r} has no words")
    body = r"[\W_]*".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![a-z0-9_]){body}(?![a-z0-9_])")


def present(text: str, alternatives: tuple[str, ...]) -> bool:
    """Any alternative anywhere in `text`, marked as past or not."""
    lowered = text.lower()
    return any(matcher(a).search(lowered) for a in alternatives)


def all_present(text: str, groups: tuple[tuple[str, ...], ...], same_line: bool = False) -> bool:
    """Every group has an alternative stated as current in `text` (on one line with
    `same_line`): not inside a past mark (`replaces "…"`, ~~…~~, a History heading), and not on
    a heading line (`### <path> — <title>`: a digest's path holds a date of its own)."""
    found = [
        {
            ln
            for a in g
            for ln in current_occurrences(text, a, clauses=False)
            if not ln.startswith("#")
        }
        for g in groups
    ]
    if same_line:
        return bool(set.intersection(*found)) if found else True
    return all(found)


# -- marked as past ----------------------------------------------------------------------------

PAST_HEADING = re.compile(r"history|superseded|previous|past\b|retired|retracted|former", re.I)
PRE_MARKER = re.compile(
    r"\b(?:was|were|until|formerly|previously|earlier|replaces|replaced|replacing|superseded|"
    r"supersedes|retracted|no longer|not anymore|used to|instead of|rather than|never|not|"
    r"don'?t|do not|no more|stop using|stopped using|dropped|removed|moved from|switched from|"
    r"changed from|migrated from|deprecated|obsolete|old|scratch|forget|ignore what)\b",
    re.I,
)
POST_MARKER = re.compile(
    r"\b(?:is gone|was removed|were removed|was replaced|was dropped|was retired|was moved|"
    r"was fixed|got fixed|is deprecated|is obsolete|no longer|until|before that)\b",
    re.I,
)
QUOTE = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")
STRIKE = re.compile(r"~~.*?~~")
BOUNDARY = re.compile(r"[.?!]\s|:\s|[;,()]")


def _past_spans(line: str) -> list[tuple[int, int]]:
    spans = [m.span() for m in STRIKE.finditer(line)]
    for m in QUOTE.finditer(line):
        lead = line[max(0, m.start() - 40) : m.start()]
        if PRE_MARKER.search(lead):
            spans.append(m.span())
    return spans


def _clause(line: str, start: int, end: int, quotes: list[tuple[int, int]]) -> tuple[int, int]:
    """The clause around [start, end): boundaries inside quotations do not count."""

    def quoted(i: int) -> bool:
        return any(a <= i < b for a, b in quotes)

    left = 0
    for m in BOUNDARY.finditer(line, 0, start):
        if not quoted(m.start()):
            left = m.end()
    right = len(line)
    for m in BOUNDARY.finditer(line, end):
        if not quoted(m.start()):
            right = m.start()
            break
    return left, right


def current_occurrences(text: str, value: str, clauses: bool = True) -> list[str]:
    """Lines of `text` where `value` occurs NOT marked as past (one entry per occurrence).

    With `clauses=False` only the structural marks count (past headings, strikethrough, a
    quotation a past marker introduces): that is how an expected answer is looked for, since
    "was moved to 9300" or "never commit anything under data/raw/" state the current value."""
    pattern = matcher(value)
    out: list[str] = []
    heading_past = False
    for line in text.split("\n"):
        if line.startswith("#"):
            heading_past = bool(PAST_HEADING.search(line.lstrip("#")))
            continue
        if line.lstrip().startswith("<!-- wikimem:was "):
            continue  # wikimem's hidden record of a replaced claim: marked as past, like (a)
        lowered = line.lower()
        found = list(pattern.finditer(lowered))
        if not found or heading_past:
            continue
        past = _past_spans(line)
        quotes = [m.span() for m in QUOTE.finditer(line)]
        for m in found:
            if any(a <= m.start() < b for a, b in past):
                continue
            if clauses:
                left, right = _clause(line, m.start(), m.end(), quotes)
                before, after = line[left : m.start()], line[m.end() : right]
                if PRE_MARKER.search(before) or POST_MARKER.search(after):
                    continue
            out.append(line.strip())
    return out


# -- junk lines ---------------------------------------------------------------------------------

_CODE = re.compile(r"`[^`]*`")
_URL = re.compile(r"https?://\S+")
_REQUEST = re.compile(
    r"\b(?:please|can you|could you|would you|let'?s|let me know|for me|meanwhile|accordingly|"
    r"that way|while you'?re at it|carry on)\b",
    re.I,
)
_TASK_START = re.compile(
    r"^(?:fix|update|check|look at|take a look|investigate|debug|help|finish|continue|rerun|"
    r"reinstall|install|add|move|merge|open|format|reformat|wire|point|adjust|remove|drop|"
    r"clean up|apply|migrate|rename|bump|schedule|try|cut|make it|build|dry-run|refactor|"
    r"implement|write|create|change|delete)\s+(?:the|this|that|these|those|it|them|my|our|a|an|"
    r"all|some|PR|\d)\b",
    re.I,
)
_FILLER = re.compile(
    r"\b(?:by the way|btw|fyi|just so you know|heads up|ugh|lol|thanks|thank you|looks good)\b",
    re.I,
)
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_RELATIVE = re.compile(
    rf"\b(?:yesterday|today|tomorrow|tonight|this (?:morning|afternoon|evening|week|month|year)|"
    rf"last (?:night|week|month|year|{_WEEKDAY})|next (?:week|month|year|{_WEEKDAY})|"
    rf"on {_WEEKDAY}|\d+ (?:days?|weeks?|months?|years?) ago|a (?:day|week|month|year) ago|"
    rf"recently|the other day|right now|just now|from now on|anymore|these days)\b|"
    r"\bnow\b(?=\s*(?:[,.;)!]|$))",
    re.I,
)
_ONE_OFF = re.compile(r"--limit[ =]\d+|\S::test\w*", re.I)
_TRANSIENT = re.compile(
    r"\b(?:i'?m|i am|we'?re|we are) (?:seeing|getting|stuck|having|going|trying|not sure|"
    r"confused|looking|back|done)\b|\bweird error\b",
    re.I,
)
_CLIPPED = re.compile(r"note clipped|wikimem truncated|\[…\]|\[\.\.\.\]")
_TABLE_RULE = re.compile(r"^\|[\s|:-]+\|$")
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_PROVENANCE = re.compile(
    r"\((?:stated|noted|seen|since|was)\b[^()]*(?:\([^()]*\)[^()]*)*\)|\(\[\[[^\]]*\]\]\)"
)


@dataclass(frozen=True)
class JunkLine:
    path: str
    line: str
    rule: str


def note_lines(body: str) -> list[str]:
    """The lines of a note body that state something (no headings, comments, table rules)."""
    out: list[str] = []
    in_table = False
    for raw in body.split("\n"):
        line = raw.strip()
        if not line or line.startswith("#") or (line.startswith("<!--") and line.endswith("-->")):
            in_table = False
            continue
        if line.startswith("|"):
            if _TABLE_RULE.match(line) or not in_table:
                in_table = True  # the header row and the rule under it
                continue
        else:
            in_table = False
        out.append(line)
    return out


def _bare(line: str) -> str:
    """A line without its bullet, provenance and quoted replaced text."""
    text = re.sub(r"^(?:[-*+]|\d+\.)\s+", "", line)
    text = _PROVENANCE.sub("", text)
    return text.strip()


def _commands(line: str) -> list[str]:
    return [c.strip("`") for c in _CODE.findall(line) if " " in c.strip("`")]


def junk_in_note(path: str, body: str, declared: tuple[str, ...] = ()) -> list[JunkLine]:
    lines = note_lines(body)
    out: list[JunkLine] = []
    shapes: dict[str, int] = {}
    for line in lines:
        for command in _commands(line):
            shape = re.sub(r"\d+", "N", command)
            if shape != command:
                shapes[shape] = shapes.get(shape, 0) + 1
    for line in lines:
        rule = line_rule(line, declared)
        if rule is None:
            for command in _commands(line):
                shape = re.sub(r"\d+", "N", command)
                if shape != command and shapes.get(shape, 0) > 1:
                    rule = "one-off variant"
                    break
        if rule is not None:
            out.append(JunkLine(path, line, rule))
    return out


def line_rule(line: str, declared: tuple[str, ...] = ()) -> str | None:
    """The first junk rule a living-note line breaks, or None."""
    lowered = line.lower()
    for text in declared:
        if text.lower() in lowered:
            return "case junk"
    if _CLIPPED.search(line):
        return "clipped"
    text = _bare(line)
    plain = _URL.sub(" ", _CODE.sub(" ", text))
    if "?" in plain:
        return "question"
    if _TRANSIENT.search(plain):
        return "passing state"
    if _FILLER.search(plain):
        return "filler"
    if _REQUEST.search(plain) or any(
        _TASK_START.match(s.strip(" \"'“”")) for s in _SENTENCES.split(plain)
    ):
        return "request"
    if _RELATIVE.search(plain):
        return "relative date"
    if _ONE_OFF.search(text):
        return "one-off variant"
    return None


# -- notes and injected text --------------------------------------------------------------------


@dataclass(frozen=True)
class Note:
    path: str
    kind: str
    body: str

    @property
    def living(self) -> bool:
        return self.kind != "session" and "/sessions/" not in self.path


def read_notes(memory_dir: str) -> list[Note]:
    notes: list[Note] = []
    for root, dirs, files in os.walk(memory_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            full = os.path.join(root, name)
            rel = os.path.relpath(full, memory_dir).replace(os.sep, "/")
            if rel == "index.md":
                continue
            with open(full, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            kind, body = "", text
            if text.startswith("---\n"):
                end = text.find("\n---\n", 4)
                if end != -1:
                    front, body = text[4:end], text[end + 5 :]
                    m = re.search(r"^kind:\s*(\S+)", front, re.M)
                    kind = m.group(1).strip("'\"") if m else ""
            notes.append(Note(rel, kind, body))
    return notes


def project_of(path: str) -> str | None:
    parts = path.split("/")
    return parts[1] if len(parts) >= 3 and parts[0] == "projects" else None


def visible(path: str, project: str, also: tuple[str, ...] = ()) -> bool:
    owner = project_of(path)
    return owner is None or owner == project or owner in also


@dataclass(frozen=True)
class Block:
    path: str
    chars: int


def blocks(injected: str) -> list[Block]:
    """The `### <path>` blocks of injected text, with their sizes."""
    out: list[Block] = []
    current: str | None = None
    size = 0
    for line in injected.split("\n"):
        if line.startswith("### "):
            if current is not None:
                out.append(Block(current, size))
            current = line[4:].split(" ", 1)[0]
            size = 0
        if current is not None:
            size += len(line) + 1
    if current is not None:
        out.append(Block(current, size))
    return out


def foreign_blocks(injected: str, project: str, also: tuple[str, ...] = ()) -> list[Block]:
    return [b for b in blocks(injected) if not visible(b.path, project, also)]
