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

from wikimem.dream.subjects import _ISO_DATE, content_terms, key_of, strip_history
from wikimem.dream.supersession import _value_in, rewrite_with_value, supersedes

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
