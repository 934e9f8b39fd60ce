"""Claims: the lines of a living note, what each is about, and which one is current (docs/memory.md).

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

from wikimem.dream.subjects import (
    _ISO_DATE,
    CATEGORIES,
    compatible,
    content_terms,
    key_of,
    strip_history,
)
from wikimem.dream.supersession import (
    DIFFERENT,
    SAME,
    UNSURE,
    _value_in,
    convention_slot,
    rewrite_with_value,
    verdict,
)
from wikimem.wiki import confirmations
from wikimem.wiki.confirmations import HELD_MARK
from wikimem.wiki.notemeta import CONTESTED

# -- the line format -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Provenance:
    """Who said a claim and when: a client (or remember, mcp, import) and a day, the digest of
    the session it was said in when there is one, and `by`: "" when the person said it, else
    "agent" (the agent's own finding, or its write through MCP), "tool" (a command's output) or
    "teammate" (arrived from someone else's machine)."""

    source: str
    date: str
    link: str | None = None  # note path without .md
    by: str = ""

    def _who(self) -> str:
        word = BY_WORDS.get(self.by, "")
        return f"{word} in {self.source}" if word and self.source else word or self.source

    def render(self) -> str:
        label = " ".join(p for p in (self._who(), self.date) if p)
        if self.link:
            return f"([[{self.link}|{label}]])"
        return f"({label})"

    def compact(self) -> str:
        return "(" + ", ".join(p for p in (self._who(), self.date) if p) + ")"


# How a provenance names who said a claim other than the person (the person is the default:
# lines written before this existed were all theirs).
BY_WORDS = {"agent": "agent", "tool": "tool output", "teammate": "teammate"}
_BY_LABEL = re.compile(r"^(?P<by>agent|tool output|teammate)(?: in (?P<source>.+))?$")


def _source_and_by(source: str) -> tuple[str, str]:
    m = _BY_LABEL.match(source.strip())
    if not m:
        return source, ""
    by = next(k for k, v in BY_WORDS.items() if v == m["by"])
    return (m["source"] or "").strip(), by


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
    r"\s*\((?P<source>[a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*){0,3}),? (?P<date>\d{4}-\d\d-\d\d)\)\s*$"
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
        source, by = _source_and_by(source)
        day = date_m.group(0) if date_m else ""
        provenance = Provenance(source, day, pm["link"].strip(), by)
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
                "copilot",
                "opencode",
                "qwen",
            ):
                source = source.split(":", 1)[0]
            source = source.replace("wikimem remember", "remember")
            source, by = _source_and_by(source)
            provenance = Provenance(source, pm["date"] or "", by=by)
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
    contested: str | None = None  # the earlier statement kept beneath it, contested


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


_RETRACTED_PREFIX = "<!-- wikimem:retracted "
# Words a retraction names its subject with that say nothing of which subject it is.
GENERIC_TARGET = frozenset(
    "thing things whole bit part rule rules stuff note notes business idea step decision "
    "change move switch call".split()
)


def record_retracted(body: str, target: str, day: str) -> str:
    """`body` with a hidden line saying that what `target` names was retracted on `day`
    (`<!-- wikimem:retracted DAY TARGET -->`), when no living claim said it: recall leaves out
    the older digests that do. The newest `MAX_PAST` are kept."""
    words = [w for w in re.findall(r"[\w.@/-]+", target.lower()) if w not in GENERIC_TARGET]
    words = [w for w in words if w not in ("the", "that", "this", "a", "an", "our", "my")]
    if not words:
        return body
    text = " ".join(words).replace("--", "- -")
    lines = body.rstrip("\n").split("\n")
    kept = [ln for ln in lines if not ln.startswith(_RETRACTED_PREFIX)]
    marks = [ln for ln in lines if ln.startswith(_RETRACTED_PREFIX)]
    mark = f"{_RETRACTED_PREFIX}{day} {text} -->"
    if mark in marks:
        return body
    marks = [*marks, mark][-MAX_PAST:]
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join([*kept, "", *marks]) + "\n"


def past_claims(body: str) -> list[str]:
    """The texts `record_past` keeps in a body."""
    out = []
    for ln in body.split("\n"):
        if ln.startswith(_PAST_PREFIX) and ln.rstrip().endswith("-->"):
            inner = ln[len(_PAST_PREFIX) : ln.rstrip().rfind("-->")].strip()
            out.append(inner[11:] if _ISO_DATE.match(inner) else inner)
    return out


def needs_confirming(text: str) -> bool:
    """Whether a claim is a hazard an agent is never given unconfirmed (`wikimem.wiki.hazards`:
    code fetched and run, a file uploaded, text written to the agent as its instructions, …)."""
    return confirmations.needs_confirming(text)


def hold_new(body: str, before: str) -> str:
    """`body` with each claim line that is new since `before` and needs confirming marked held
    (`held_text`). A line already there is left as it is: one the person confirmed (`wikimem
    confirm`, which also takes the mark off) must not get it back from the next dream."""
    old = set(before.split("\n"))
    lines = body.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("- ") and line not in old and needs_confirming(line):
            claim = parse_line(line)
            if claim is not None and HELD_MARK not in line:
                lines[i] = replace(claim, text=held_text(claim.text)).render()
    return "\n".join(lines)


def held_text(text: str) -> str:
    """A claim's text marked held for the person's confirmation (`confirmations.HELD_MARK`):
    stored and shown to the person, never injected or indexed until they confirm it."""
    if HELD_MARK in text:
        return text
    return f"{HELD_MARK} ({confirmations.why(text)}; `wikimem confirm` gives it to agents): {text}"


def contested_lines(body: str) -> list[tuple[int, Claim]]:
    """(line index, claim) of the earlier claims kept under a newer one because the rules could
    not tell whether the newer replaces them (`fold`)."""
    out = []
    for i, line in enumerate(body.split("\n")):
        if line.startswith(CONTESTED):
            claim = parse_line("- " + line[len(CONTESTED) :])
            if claim is not None and claim.text:
                out.append((i, claim))
    return out


def fold(
    body: str,
    claim: Claim,
    *,
    today: str,
    same: Callable[[str, str], bool] | None = None,
    change: bool = False,
    plain: bool = False,
    said: str = "",
) -> Folded:
    """`body` with `claim` in it: replacing the claim it supersedes (by `verdict`, or by `same`
    when given); when the rules cannot tell whether it replaces one, put above it with the
    earlier one kept beneath, marked contested (both dated); else appended."""
    lines = body.split("\n")
    target: int | None = None
    unsure: int | None = None
    for i, existing in claims_in(body):
        if same is not None:
            found = SAME if same(claim.text, existing.text) else DIFFERENT
        else:
            found = verdict(claim.text, existing.text, change, plain, said)
            if found is not SAME and not plain and same_label(claim, existing):
                found = SAME
        if found is SAME:
            target = i  # the latest matching line is the one in force
        elif found is UNSURE:
            unsure = i
    when = (claim.provenance.date if claim.provenance else "") or today
    if same is None:
        # An earlier claim kept as contested that the new one certainly replaces goes.
        gone = [(i, c) for i, c in contested_lines(body) if verdict(claim.text, c.text) is SAME]
        for i, _ in reversed(gone):
            del lines[i]
            target = None if target is None else target - (1 if i < target else 0)
            unsure = None if unsure is None else unsure - (1 if i < unsure else 0)
        if gone:
            body = record_past("\n".join(lines), [strip_history(c.text) for _, c in gone], when)
            lines = body.split("\n")
    if target is not None:
        old = parse_line(lines[target])
        assert old is not None
        restated = _norm_text(strip_history(old.text)) == _norm_text(strip_history(claim.text))
        same_value = _same_value(claim.text, old.text)
        if (
            (restated or same_value)
            and _said_by_someone_else(claim)
            and not _said_by_someone_else(old)
        ):
            return Folded(body, None, changed=False)  # the person's own words stay theirs
        text = claim.text
        if restated:
            text = old.text if len(old.text) >= len(claim.text) else claim.text
        elif same is None:
            rewritten = rewrite_with_value(old.text, claim.text, _change_date(claim.text, when))
            slots = convention_slot(claim.text), convention_slot(strip_history(old.text))
            if (
                slots[0] is not None
                and slots[1] is not None
                and slots[0][0] == slots[1][0]
                and slots[1][1]
                and slots[0][1] != slots[1][1]
                and f"'{slots[1][1]}'" not in claim.text
            ):
                # "End all variable names with '_q' (was '_wr' until 2026-03-04)."
                until = _change_date(claim.text, when)
                text = f"{claim.text.rstrip('.')} (was '{slots[1][1]}' until {until})."
            elif rewritten:
                text = rewritten
            else:
                a, b = key_of(claim.text), key_of(strip_history(old.text))
                if (
                    a.value
                    and b.value
                    and a.attribute
                    and b.attribute
                    and compatible(a.attribute, b.attribute)  # "was URL" beside a date: no
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
        if restated or same_value:
            return Folded("\n".join(lines), None)  # said again, not replaced
        replaced = strip_history(old.text)
        return Folded(record_past("\n".join(lines), [replaced], when), replaced)
    if unsure is not None:
        # Newest first, the earlier one beneath it, both dated: nothing a person said is lost
        # on a guess, and whoever reads the note (or is given it) sees the two disagree.
        earlier = lines[unsure]
        lines[unsure : unsure + 1] = [claim.render(), CONTESTED + earlier[2:]]
        text = "\n".join(lines)
        contested = parse_line(earlier)
        return Folded(
            text if text.endswith("\n") else text + "\n",
            contested=contested.text if contested else earlier,
        )
    insert_at = len(lines)
    while insert_at > 0 and not lines[insert_at - 1].strip():
        insert_at -= 1
    if insert_at > 0 and not lines[insert_at - 1].startswith(("- ", "  ")):
        lines.insert(insert_at, "")  # a blank line between a paragraph and the list
        insert_at += 1
    lines.insert(insert_at, claim.render())
    text = "\n".join(lines)
    return Folded(text if text.endswith("\n") else text + "\n")


def _same_value(new: str, old: str) -> bool:
    """Both give the same value (the same version in other words): a restatement."""
    a, b = key_of(new), key_of(strip_history(old))
    return bool(
        a.value and b.value and a.value.lower() == b.value.lower() and a.negative == b.negative
    )


def _said_by_someone_else(claim: Claim) -> bool:
    return claim.provenance is not None and bool(claim.provenance.by)


def same_label(new: Claim, old: Claim) -> bool:
    """Two claims whose bold subjects are the same words: one subject, whatever the wording.
    A tool family's label on a line that makes no choice in that family (an older version
    labelled "Run lint with pnpm lint" as the JS package manager) names nothing."""
    a, b = new.subject.strip().lower(), old.subject.strip().lower()
    if not a or a != b:
        return False
    if verdict(new.text, strip_history(old.text)) is DIFFERENT and _guessed(new, old):
        return False  # a label guessed from vocabulary is no evidence against the words
    family = next((c for c, (label, _) in CATEGORIES.items() if label.lower() == b), None)
    if family is None:
        return True
    # A tool family's label joins two claims only when both choose in that family: "We use
    # Podman" and "Docker Desktop is capped at 6 GB" are not one subject.
    return all(
        (k := key_of(strip_history(t))).category == family and k.normative and bool(k.favours)
        for t in (new.text, old.text)
    )


def _guessed(new: Claim, old: Claim) -> bool:
    """Either label is what wikimem's rules would have made of its words: a guess from
    vocabulary. A label a person or a model chose is their judgment that the two are one."""
    from wikimem.dream.subjects import subject_label

    return any(
        c.subject.strip().lower() in ("", subject_label(strip_history(c.text)).lower())
        for c in (new, old)
    )


def _change_date(text: str, default: str) -> str:
    """The day a change happened when the statement says it ("moved … on Monday 2026-11-30")."""
    m = re.search(r"\b(?:on|since|from|as of) (?:\w+day )?(\d{4}-\d\d-\d\d)", text)
    return m.group(1) if m else default


def _norm_text(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def drop_lines(body: str, drop: Iterable[int]) -> str:
    """`body` without the claim lines at `drop` (indexes into its lines). An earlier claim kept
    contested beneath a dropped one is contested by nothing any more: it becomes a claim line of
    its own again (unless it is dropped too)."""
    lines = body.split("\n")
    gone = set(drop)
    out = []
    orphaned = False
    for i, line in enumerate(lines):
        if line.startswith(CONTESTED):
            if i in gone:
                continue
            out.append("- " + line[len(CONTESTED) :] if orphaned else line)
            continue
        orphaned = False
        if i in gone:
            orphaned = True
            continue
        out.append(line)
    return "\n".join(out)


def remove_superseded(
    body: str, claim: Claim, change: bool = False, plain: bool = False, said: str = ""
) -> tuple[str, list[str]]:
    """`body` without the claims `claim` supersedes (for notes other than the one it goes in)."""
    drop: list[int] = []
    removed: list[str] = []
    for i, existing in (*claims_in(body), *contested_lines(body)):
        if verdict(claim.text, existing.text, change, plain, said) is SAME or (
            not plain and same_label(claim, existing)
        ):
            removed.append(existing.text)
            drop.append(i)
    if not removed:
        return body, []
    day = claim.provenance.date if claim.provenance else ""
    out = drop_lines(body, drop)
    return record_past(out, [strip_history(t) for t in removed], day or ""), removed


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

    want = terms(target) - GENERIC_TARGET - {"everyth", "everything", "anyth", "someth"}
    named = " ".join(target.lower().split()).strip(" .")
    # "pg-stg-03 is retired": an identifier names the claims that hold it, as a word of theirs
    idents = [
        t for t in re.findall(r"[\w.@/-]+", target) if re.search(r"\d|\w[./-]\w", t) and len(t) >= 4
    ]
    if not want and not named:
        return body, []
    drop: list[int] = []
    removed: list[str] = []
    for i, existing in (*claims_in(body), *contested_lines(body)):
        if existing.subject and existing.subject.lower() == named:
            removed.append(existing.text)  # the subject itself was named
            drop.append(i)
            continue
        current = strip_history(existing.text)
        if idents and all(
            re.search(r"(?<![\w-])" + re.escape(t) + r"(?![\w-])", current, re.IGNORECASE)
            for t in idents
        ):
            removed.append(existing.text)
            drop.append(i)
            continue
        have = terms(existing.subject + " " + current)
        shared = want & have
        if shared and (len(shared) >= 2 or len(shared) / len(want) >= 0.5):
            removed.append(existing.text)
            drop.append(i)
    if not removed:
        return body, []
    out = drop_lines(body, drop)
    return record_past(out, [strip_history(t) for t in removed], day), removed


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
