"""Durable statements in what a user types, and folding them into living notes.

Contract:
  - `extract(text)` finds the sentences worth remembering in a prompt: explicit requests
    ("remember that …", "note that …", "keep in mind …"), stated preferences and corrections
    ("always …", "never …", "use X instead of Y", "I prefer …", "we use …") and facts about the
    user ("I am …", "I work on …"). Questions and ordinary task requests are not statements.
  - `merge_statement(body, statement)` folds one statement into a note body made of bullets: a
    statement on the same subject REPLACES the earlier bullet (a correction wins, and the bullet
    says what it replaced); anything else is added. Merge, don't append (DESIGN §5).

Deterministic and dependency-free; used by `wikimem remember` and the offline dream backend.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

STOPWORDS = frozenset(
    """a an the and or but if then else of to in on at by for with from into onto about as is are
    was were be been being am do does did doing have has had having i me my we our us you your
    he she it its they them their this that these those there here what which who whom whose
    when where why how all any both each few more most other some such no nor not only own same
    so than too very can will just should would could may might must shall also please always
    never dont don't do not use using used prefer preferred instead over rather like want wants
    need needs make sure remember note keep mind that's it's let's lets one ones thing things
    way get got run runs repo repository project codebase here now ok okay btw fyi just really""".split()
)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#./-]*")
_EXPLICIT = re.compile(
    r"^(?:(?:ok(?:ay)?|also|and|btw|fyi|please|so)[, ]+)*"
    r"(?:remember|note|keep in mind|don'?t forget|for future reference|for the record|fyi)"
    r"(?:\s+that)?[,:]?\s+(?!to\b|what\b|how\b|when\b|where\b|why\b|if\b|whether\b|which\b)(?P<rest>.+)$",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"\b(?:always|never|instead of|rather than|prefer(?:s|red)?|(?:do not|don't|dont) (?:ever )?use|"
    r"stop using|avoid|we use|i use|we're using|we are using|make sure to|must not|should never|"
    r"should always|only use|from now on|going forward|by default|in (?:the )?future)\b",
    re.IGNORECASE,
)
_ABOUT_ME = re.compile(
    r"^(?:i am|i'm|my name is|i work (?:at|on|for|as)|i live|my (?:role|job|team|timezone) is|"
    r"call me|i speak)\b",
    re.IGNORECASE,
)
_NEGATIVE = re.compile(
    r"\b(?:never|don'?t|do not|avoid|stop using|must not|should never|no longer)\b", re.IGNORECASE
)
_INSTEAD = re.compile(
    r"\b(?:use\s+)?(?P<new>[\w.+#/-]+)\s+(?:instead of|rather than|over|not)\s+(?P<old>[\w.+#/-]+)",
    re.IGNORECASE,
)
_PROJECT_SCOPE = re.compile(
    r"\b(?:in|for|on) (?:this|the|our) (?:repo|repository|project|codebase|service|app)\b|\bhere\b",
    re.IGNORECASE,
)
_TASKY = re.compile(
    r"^(?:please\s+)?(?:fix|add|write|create|implement|refactor|run|check|show|explain|tell|find|"
    r"update|delete|remove|rename|why|what|how|can you|could you|would you|help)\b",
    re.IGNORECASE,
)
_PROVENANCE = re.compile(r"\s*\((?:stated|noted|seen) [^()]*(?:\([^()]*\)[^()]*)*\)\s*$")

MAX_STATEMENT = 300


@dataclass(frozen=True)
class Statement:
    kind: str  # "fact" (explicit request), "preference", "about"
    text: str
    project_scoped: bool

    @property
    def negative(self) -> bool:
        return bool(_NEGATIVE.search(self.text))


def sentences(text: str) -> list[str]:
    # Code blocks and quoted output are not statements.
    text = re.sub(r"```.*?(```|$)", " ", text, flags=re.DOTALL)
    parts = [p.strip(" \t-*>•") for p in _SENTENCE_SPLIT.split(text)]
    return [p for p in parts if 3 <= len(p) <= 600]


_FILLER = re.compile(
    r"^(?:(?:please|actually|also|and|so|btw|ok(?:ay)?|oh)[,]?\s+)+", re.IGNORECASE
)


def clean(sentence: str) -> str:
    s = sentence.strip().strip("\"'“”")
    s = re.sub(r"\s+", " ", s)
    s = _FILLER.sub("", s)
    if len(s) > MAX_STATEMENT:
        s = s[: MAX_STATEMENT - 1].rsplit(" ", 1)[0] + "…"
    if s and s[0].islower():
        s = s[0].upper() + s[1:]
    if s and s[-1] not in ".!?…":
        s += "."
    return s


def extract(text: str) -> list[Statement]:
    out: list[Statement] = []
    for sentence in sentences(text):
        if sentence.endswith("?"):
            continue
        sentence = _FILLER.sub("", sentence)  # "Actually, my timezone is…" is about the user
        m = _EXPLICIT.match(sentence)
        if m:
            rest = m.group("rest").strip()
            if len(rest) >= 3:
                kind = (
                    "about"
                    if _ABOUT_ME.match(rest)
                    else ("preference" if _PREFERENCE.search(rest) else "fact")
                )
                out.append(Statement(kind, clean(rest), bool(_PROJECT_SCOPE.search(rest))))
            continue
        if _ABOUT_ME.match(sentence):
            out.append(Statement("about", clean(sentence), False))
            continue
        if _PREFERENCE.search(sentence) and not _TASKY.match(sentence):
            out.append(
                Statement("preference", clean(sentence), bool(_PROJECT_SCOPE.search(sentence)))
            )
    return out


def terms(text: str) -> set[str]:
    """Content words, lower-cased, without stop words; light plural folding."""
    words = set()
    for w in _WORD.findall(text.lower()):
        w = w.strip("./-")
        if len(w) < 2 or w in STOPWORDS:
            continue
        if len(w) > 4 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        words.add(w)
    return words


def subject(text: str) -> set[str]:
    m = _INSTEAD.search(text)
    if m:
        return {m.group("new").lower().strip("./"), m.group("old").lower().strip("./")} - STOPWORDS
    return terms(text)


def same_subject(new: str, old: str) -> bool:
    """Whether `new` restates, refines or contradicts `old` (so it should replace it)."""
    a, b = subject(new), subject(old)
    if not a or not b:
        return False
    shared = a & b
    if _INSTEAD.search(new) or _INSTEAD.search(old):
        # "use pnpm instead of npm" vs "always use npm": the tools named are the subject
        return bool(shared)
    if bool(_NEGATIVE.search(new)) != bool(_NEGATIVE.search(old)) and shared:
        return True  # opposite polarity about the same thing: a correction
    if _one_slot_changed(new, old):
        return True  # the same sentence with another value: "tabs" -> "spaces" for indentation
    ta, tb = terms(new), terms(old)
    union = ta | tb
    overlap = ta & tb
    return len(overlap) >= 2 and len(overlap) / len(union) >= 0.4


_SLOT_WORD = re.compile(r"[\w.+#/-]+")
MAX_SLOT_WORDS = 3


def _one_slot_changed(a: str, b: str) -> bool:
    """Whether a and b are one statement with a short stretch of words swapped: a common start
    and end holding at least one content word, and at most MAX_SLOT_WORDS different words in
    between on either side."""
    wa = [w.strip(".") for w in _SLOT_WORD.findall(_FILLER.sub("", a).lower())]
    wb = [w.strip(".") for w in _SLOT_WORD.findall(_FILLER.sub("", b).lower())]
    if wa == wb:
        return True
    prefix = 0
    while prefix < min(len(wa), len(wb)) and wa[prefix] == wb[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(wa), len(wb)) - prefix and wa[-1 - suffix] == wb[-1 - suffix]:
        suffix += 1
    middle_a, middle_b = len(wa) - prefix - suffix, len(wb) - prefix - suffix
    if max(middle_a, middle_b) > MAX_SLOT_WORDS or prefix + suffix < 2:
        return False
    common = wa[:prefix] + wa[len(wa) - suffix :]
    return any(w not in STOPWORDS and len(w) > 1 for w in common)


def bullet_text(line: str) -> str:
    return _PROVENANCE.sub("", line[2:]).strip()


def merge_statement(
    body: str, statement: str, provenance: str, verb: str = "stated"
) -> tuple[str, str | None]:
    """(new body, the bullet text it replaced or None). `provenance` is e.g. `2026-11-29 in
    claude:3f2b8c1e`. The replaced statement is named in the new bullet."""
    lines = body.split("\n")
    best: int | None = None
    for i, line in enumerate(lines):
        if line.startswith("- ") and same_subject(statement, bullet_text(line)):
            best = i  # the latest matching bullet is the one in force
    if best is not None:
        old = bullet_text(lines[best])
        if old.rstrip(".").lower() == statement.rstrip(".").lower():
            lines[best] = f"- {statement} ({verb} {provenance})"
            return "\n".join(lines), None
        short = old if len(old) <= 90 else old[:89].rsplit(" ", 1)[0] + "…"
        lines[best] = f'- {statement} ({verb} {provenance}; replaces "{short}")'
        return "\n".join(lines), old
    insert_at = len(lines)
    while insert_at > 0 and not lines[insert_at - 1].strip():
        insert_at -= 1
    new_line = f"- {statement} ({verb} {provenance})"
    if insert_at > 0 and not lines[insert_at - 1].startswith(("- ", "  ")):
        lines.insert(insert_at, "")  # a blank line between a paragraph and the list
        insert_at += 1
    lines.insert(insert_at, new_line)
    text = "\n".join(lines)
    return (text if text.endswith("\n") else text + "\n"), None


@dataclass(frozen=True)
class Placement:
    path: str
    title: str
    kind: str


def placement(statement: Statement, project: str | None) -> Placement:
    """Which living note a statement belongs in."""
    if statement.kind == "about":
        return Placement("profile/about.md", "About me", "profile")
    if statement.kind == "preference":
        if project and statement.project_scoped:
            return Placement(
                f"projects/{project}/conventions.md", f"Conventions of {project}", "project"
            )
        return Placement("profile/preferences.md", "Preferences", "profile")
    if project:
        return Placement(f"projects/{project}/notes.md", f"Notes on {project}", "project")
    return Placement("general/notes.md", "Notes", "general")
