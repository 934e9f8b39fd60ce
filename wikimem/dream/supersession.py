"""Whether a newer claim replaces an older one: yes, no, or cannot tell (docs/memory.md).

Contract: `verdict(new, old)` returns SAME when both are certainly about one subject — one
tool family's choice, the same typed value (port, host, version, …) of the same thing, a
negation of what the old one favoured, the newer one naming the older one's value as what it
is not, a move off what the old one names, or the same sentence with one short stretch
changed; UNSURE when they look alike but the rules cannot tell (a value of the same kind for a
thing described with more or other words, and no word of change); DIFFERENT otherwise. Only
SAME replaces; an UNSURE pair is kept, both dated, newest first, and marked contested
(`wikimem.dream.claims.fold`): an unsure rule never removes what a person said.
`supersedes(new, old)` is `verdict(...) is SAME`. `rewrite_with_value` turns "moved to 9300"
into the old statement with its value changed and "was OLD until DATE".
"""

from __future__ import annotations

import functools
import re
from enum import Enum

from wikimem.dream.subjects import (
    _COMPATIBLE,
    _TOKEN,
    STOPWORDS,
    VERBS,
    _stem,
    _subject_words,
    content_terms,
    key_of,
    strip_history,
)

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


class Verdict(Enum):
    SAME = "same"  # one subject: the newer claim replaces the older
    UNSURE = "unsure"  # alike, but the rules cannot tell: keep both, contested
    DIFFERENT = "different"


SAME, UNSURE, DIFFERENT = Verdict.SAME, Verdict.UNSURE, Verdict.DIFFERENT

# Words by which a statement says it changes something ("moved to 9300", "is 3.12 now"): a
# value of the same kind for a thing described a little differently is then the same thing.
_CHANGE = re.compile(
    r"\b(?:moved|move|changed|change|switched|migrated|bumped|upgraded|downgraded|raised|"
    r"lowered|renamed|relocated|now|no longer|anymore|instead|replac\w*|from now on|"
    r"as of|going forward|updated|reassigned|handed over|took over|new)\b",
    re.IGNORECASE,
)


# What says a value is no longer it, before the value ("not 9102", "instead of the db-1") or
# after it ("9102 is gone"). Static patterns, the value compared in place: a pattern made for
# each value cost a compile per call, most of what the check cost.
_BEFORE_OLD = re.compile(
    r"\b(?:not|no longer|instead of|rather than|was|were|from|replacing|replaces|formerly|"
    r"previously|used to be|no more)\s+",
    re.IGNORECASE,
)
_BEFORE_OLD_WORD = re.compile(r"the\s+|on\s+|at\s+|port\s+|version\s+|v", re.IGNORECASE)
_AFTER_OLD = re.compile(
    r"\s*(?:->|→|is gone|was dropped|was removed|no longer|isn'?t|is not|anymore)", re.IGNORECASE
)
_WORDISH = re.compile(r"[\w.]")


def _value_ends_at(text: str, start: int, value: str) -> bool:
    """Whether `value` is at `start` in `text` (any case), not followed by a word character."""
    end = start + len(value)
    return text[start:end].lower() == value.lower() and not _WORDISH.match(text, end)


def _names_old_value(new: str, value: str) -> bool:
    """Whether `new` says the old value is no longer it: "3.12 now, not 3.11", "instead of
    9102", "was 9102", "from 9102 to 9300", "9102 is gone", "rather than db-1"."""
    if not value:
        return False
    for m in _BEFORE_OLD.finditer(new):
        at = m.end()
        if _value_ends_at(new, at, value):
            return True
        word = _BEFORE_OLD_WORD.match(new, at)
        if word and _value_ends_at(new, word.end(), value):
            return True
    low, v = new.lower(), value.lower()
    at = low.find(v)
    while at >= 0:
        if (at == 0 or not _WORDISH.match(new, at - 1)) and _AFTER_OLD.match(new, at + len(v)):
            return True
        at = low.find(v, at + 1)
    return False


def verdict(
    new: str, old: str, change: bool = False, plain: bool = False, said: str = ""
) -> Verdict:
    """Whether statement `new` replaces statement `old` (SAME), may (UNSURE), or is about
    something else (DIFFERENT). `change`: the person said it as a change ("… now", "no longer
    …"), a word the stored statement no longer carries; `said`: the whole sentence it came
    from, which may name the old value ("…, 4000 clashed with grafana"). `plain`: a plain `wikimem remember`,
    which replaces nothing unless it says it changes something (it may still be contested).

    Only evidence makes SAME: the same typed slot on the same thing, or a word of change or
    retraction naming what the older claim says. A label or vocabulary in common is not
    evidence, and two things told apart by an identifier (issue 123 and issue 789, db-1 and
    db-2, two files) are never one."""
    found = _verdict(new, old, change, said or new)
    if (
        found is SAME
        and plain
        and not change
        and not _CHANGE.search(new)
        and not _exact_slot(new, old)
    ):
        return UNSURE
    return found


def _exact_slot(new: str, old: str) -> bool:
    """One typed slot of one thing, told the same way: the same words, the same kind of value
    of exactly the same thing, or one naming convention's slot."""
    a, b = key_of(new), key_of(old)
    if a.words == b.words:
        return True
    slot_a, slot_b = convention_slot(new), convention_slot(old)
    if slot_a is not None and slot_b is not None:
        return slot_a[0] == slot_b[0]
    return bool(
        a.attribute
        and a.attribute == b.attribute != "number"
        and a.value
        and b.value
        and a.entity
        and a.entity == b.entity
    )


# Tokens that name one thing among its kind: a number, a host or file name, a path.
_IDENTIFIER = re.compile(r"\d|[/.]\w|\w-\w")


def identifiers(entity: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in entity if _IDENTIFIER.search(t))


@functools.lru_cache(maxsize=16384)  # asked of both claims at every verdict of a fold
def _subject_identifiers(text: str) -> frozenset[str]:
    subject = _subject_words(strip_history(text)) or ""
    return frozenset(
        t.strip(".,;:()#").lower()
        for t in subject.split()
        if _IDENTIFIER.search(t.strip(".,;:()#")) or t.startswith("#")
    ) - {""}


def distinct_things(new: str, old: str) -> bool:
    """Both claims name their subject with an identifier, and not the same one: issue 123
    and issue 789, pg-stg-03 and pg-stg-07 as the thing described (not as its value)."""
    a, b = _subject_identifiers(new), _subject_identifiers(old)
    if not (a and b):
        a, b = identifiers(key_of(new).entity), identifiers(key_of(old).entity)
    return bool(a and b and not (a & b))


def _verdict(new: str, old: str, change: bool, said: str) -> Verdict:
    a, b = key_of(new), key_of(old)
    if a.words == b.words:
        return SAME
    limit = _same_limit(new, old, change or bool(_CHANGE.search(said)), said)
    if limit is not None:
        return limit  # before the numbers are read as two things' identifiers
    if distinct_things(new, old):
        return DIFFERENT
    slot_a, slot_b = convention_slot(new), convention_slot(old)
    if slot_a is not None and slot_b is not None:
        return SAME if slot_a[0] == slot_b[0] else DIFFERENT
    if a.normative and b.normative:
        # Two rules about one family of tools: the newer choice is the one in force.
        if a.category and a.category == b.category:
            if a.favours and (b.favours or b.rejects):
                return SAME
            if a.rejects & b.favours:
                return SAME
            if not a.favours and a.rejects and not b.favours and a.rejects & b.rejects:
                return SAME
        if a.rejects & b.favours:
            return SAME  # "never use npm" replaces "we use npm"
    if a.attribute and b.attribute and a.value and b.value:
        compatible = a.attribute == b.attribute or (a.attribute, b.attribute) in _COMPATIBLE
        if compatible and a.entity & b.entity:
            said_changed = bool(
                change
                or _CHANGE.search(new)
                or _names_old_value(said, b.value)
                # "Local API is on 5055, 4000 clashed with grafana": the old value, named
                or (
                    a.value.lower() != b.value.lower()
                    and any(_value_in(said, v) for v in _value_forms(b.value))
                )
            )
            if a.entity == b.entity and a.attribute == b.attribute != "number":
                return SAME  # the same typed slot on the same thing
            if said_changed and (a.entity <= b.entity or _entities_match(a.entity, b.entity)):
                return SAME  # a change, said of the thing or a shorter reference back to it
            if a.entity <= b.entity or b.entity <= a.entity:
                return UNSURE  # "the API" after "the admin API": the same one, or another?
            if _entities_match(a.entity, b.entity):
                # "The admin API listens on 9000" after "The API listens on 8080": the same
                # API, or another one? The rules cannot tell.
                return UNSURE
    if _REPLACING.search(new) and _entities_match(a.entity, b.entity):
        verbs_a = {w for w in a.words if w in _PREDICATES}
        if verbs_a & {w for w in b.words if w in _PREDICATES}:
            return SAME  # "the alpha script logs to journald instead of its log file"
    if _moved_off(new, old):
        return SAME  # "we migrated flags off Unleash" replaces "flags are served by Unleash"
    if _turned_around(new, old):
        return SAME  # "quit explaining every step" replaces "explain every step as you go"
    dropped = _drops_what_old_said(new, old)
    if dropped is not None:
        return dropped  # "binaries use color-eyre instead of anyhow" replaces "anyhow for …"
    if _one_slot_changed(a.words, b.words):
        # The same sentence with a stretch changed: a change only when it says so; otherwise
        # two things said alike ("issue 123 was fixed by PR 456", "… 789 … PR 1011").
        return SAME if (change or _CHANGE.search(new)) else UNSURE
    return DIFFERENT


# A limit on a count of one kind of thing: "3 bullets max", "at most 5 bullets", "no more than
# 400 lines"
_LIMIT = re.compile(
    r"\b(?:(?P<n>\d+)\s+(?P<unit>[a-z]+?)s?\s+(?:max(?:imum)?|tops|at most|or (?:fewer|less))|"
    r"(?:max(?:imum)?(?: of)?|at most|no more than|up to|under)\s+(?P<n2>\d+)\s+(?P<unit2>[a-z]+?)s?)\b",
    re.IGNORECASE,
)


# A count a rule requires: "need 2 approvals", "dropped to one approval", "at least 3 reviewers"
_COUNT = re.compile(
    r"\b(?:needs?|requires?|required|to|at least|minimum of|min(?:imum)?)\s+"
    r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|a single|single)\s+"
    r"(?P<unit>[a-z]{3,}?)s?\b",
    re.IGNORECASE,
)
_NUMBER_WORDS = {
    "one": "1",
    "a single": "1",
    "single": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
}


def _count_of(text: str) -> tuple[str, str] | None:
    """(unit, number) of the limit or required count `text` states, else None."""
    m = _LIMIT.search(text)
    if m:
        return (m["unit"] or m["unit2"]).lower(), (m["n"] or m["n2"])
    m = _COUNT.search(text)
    if m:
        n = m["n"].lower()
        return m["unit"].lower(), _NUMBER_WORDS.get(n, n)
    return None


def _same_limit(new: str, old: str, change: bool, said: str) -> Verdict | None:
    """A limit on the same kind of thing changed ("3 bullets max, everywhere" after "keep it to
    5 bullets max"): SAME when it is said as a change or the sentence speaks of what the older
    one does (an answer's length); UNSURE when only the unit is shared; None when either holds
    no limit or both hold the same one."""
    a, b = _count_of(new), _count_of(old)
    if a is None or b is None or a[0] != b[0] or a[1] == b[1]:
        return None
    about_old = (content_terms(old) - content_terms(b[0])) & content_terms(said or new)
    return SAME if change and about_old else UNSURE


# A convention's typed slot: which kind of name starts or ends with what, which decorator goes
# on which kind of thing, which module is always imported, which case a kind of name is in.
# Two rules in one slot are one rule; its newer value replaces the older.
_KIND = (
    r"(?P<kind>(?:function |method |class )?(?:argument|parameter|arg|param)s?|"
    r"variables?|functions?|methods?|attributes?|class(?:es)?|constants?|modules?|files?|"
    r"branch(?:es)?|tests?|test files?|tables?|columns?|fields?|components?|hooks?|"
    r"env(?:ironment)? vars?|environment variables?|types?|interfaces?|enums?|packages?)"
)
# "start using a digit in variable names", "begin incorporating …": to start doing, not where
_NOT_A_POSITION = (
    r"(?!\s+(?:to\s+)?(?:us(?:e|ing)|incorporat\w*|includ\w*|add(?:ing)?|putting|put|doing|do|"
    r"follow\w*|writ\w*|apply\w*)\b)"
)
_AFFIX = re.compile(
    r"\b(?P<pos>start|begin|prefix|prepend|end|finish|suffix|append)\w*\b"
    + _NOT_A_POSITION
    + r"[^.;]{0,40}?\b(?:names? of "
    r"(?:your |our |all |the |every |each )*)?"
    + _KIND
    + r"(?: names?)?\b|\b"
    + _KIND.replace("kind>", "kind2>")
    + r"(?: names?)?\b[^.;]{0,50}?\b(?P<pos2>start|begin|end|finish|prefix|suffix|prepend|append)"
    r"\w*\b|"
    r"\b(?P<pos3>prefix|suffix)(?:es)? (?:[^.;]{0,20} )?(?:for|on|of) (?:all |every |each )?"
    r"(?:your |our )?" + _KIND.replace("kind>", "kind3>") + r"\b",
    re.IGNORECASE,
)
_POSITION = re.compile(
    r"\b(?:start|begin|prefix|prepend|end|finish|suffix|append)\w*\b", re.IGNORECASE
)
_HOLD_VERB = r"(?:includ|incorporat|us|add|put|hav)\w*"
_CONTAINS = re.compile(
    r"\b"
    + _HOLD_VERB
    + r" (?:a |the |one |an? single )?(?P<what>digit|number|string|[\w' ]{1,20}?) "
    r"(?:in|into|within|inside|somewhere (?:in|within)) (?:the |their |its )?"
    r"(?:all |every |each |your |our )*" + _KIND + r" names?\b|"
    # "when naming variables, always include a single digit"
    r"\b(?:when|while) (?:you(?:'re| are) )?(?:(?:naming|name) (?:all |every |each |your |our |the )*"
    + _KIND.replace("kind>", "kind2>")
    + r"|(?:writing|creating|coming up with) (?:all |every |each |your |our |the )*"
    + _KIND.replace("kind>", "kind3>")
    + r" names?)\b[^.;]{0,40}?\b"
    + _HOLD_VERB
    + r" (?:a |the |one |an? single )?(?P<what2>digit|number|[\w']+(?: [\w']+)?)\s*(?:[.;!]|$)",
    re.IGNORECASE,
)
_DECORATOR = re.compile(
    r"\bdecorator\b[^.;]{0,60}?\b(?:to|on) (?:all |every |each |your )*" + _KIND + r"\b|"
    r"\b(?:decorate|annotate) (?:all |every |each |your )*"
    + _KIND.replace("kind>", "kind2>")
    + r"\b[^.;]{0,30}?\bwith\b",
    re.IGNORECASE,
)
_IMPORT = re.compile(r"\b(?:always )?import (?:the )?['\"`]?[\w.]+['\"`]? module\b", re.I)
_CASES = (
    r"(?P<case>snake_case|snake case|camelcase|camel case|pascalcase|pascal case|kebab-case|"
    r"kebab case|upper ?case|all uppercase|lower ?case|screaming_snake_case)"
)
_CASE = re.compile(
    r"\b"
    + _CASES
    + r"\b[^.;]{0,30}?\b(?:for|in) (?:all |every |each |your )*"
    + _KIND
    + r" names?\b|"
    # "for class names, always use snake_case", "when naming your classes, please use CamelCase"
    r"\b(?:for|when naming) (?:all |every |each |your |the )*"
    + _KIND.replace("kind>", "kind2>")
    + r"(?: names?)?\b[^.;]{0,30}?\b"
    + _CASES.replace("case>", "case2>")
    + r"\b",
    re.IGNORECASE,
)


def _kind(m: re.Match[str]) -> str:
    kind = next(v for k, v in m.groupdict().items() if k.startswith("kind") and v).lower()
    kind = re.sub(r"\b(?:arg|param|parameter)s?\b", "argument", kind)
    kind = re.sub(r"^(?:function|method) (?=argument)", "", kind)  # an argument is an argument
    if re.search(r"(?:ss|ch|sh|x)es$", kind):
        return kind[:-2]  # classes, branches
    if kind.endswith("ies"):
        return kind[:-3] + "y"
    return kind[:-1] if kind.endswith("s") and not kind.endswith("ss") else kind


# A convention's value as it is said: 'o_', "@timer", `_ud` (group 1 without its quotes)
QUOTED_VALUE = re.compile(r"(?<!\w)['\"`]([^'\"`\n]{1,40})['\"`](?!\w)")


# What comes just before a value that is left behind: "instead of 'j_'", "drop the 'j_' prefix",
# "from 'j_' to 'y_'", "replace 'j_' with …", "no more 'j_'"
_LEFT_BEHIND = re.compile(
    r"\b(?:instead of|rather than|in place of|no more|no longer|not|never|drop(?:ping)?|"
    r"ditch(?:ing)?|stop using|replac(?:e|ing)|swap(?:ping)? out|from|was|were|used to be|"
    r"old|previous(?:ly)?)\s+(?:(?:the|your|our|my|a|an|using|with)\s+)*(?:\w+\s+)?$",
    re.IGNORECASE,
)


def _kept_value(text: str) -> re.Match[str] | None:
    """The quoted value a convention holds: the first one not left behind ("drop the 'j_'
    prefix and use 'y_'" holds 'y_'), else the first."""
    values = list(QUOTED_VALUE.finditer(text))
    if len(values) < 2:
        return values[0] if values else None
    for m in values:
        if not _LEFT_BEHIND.search(text, max(0, m.start() - 40), m.start()):
            return m
    return values[0]


@functools.lru_cache(maxsize=16384)  # a fold asks it of every claim of a note, for each claim
def convention_slot(text: str) -> tuple[str, str] | None:
    """(the slot, its value) of a naming, decorator, import or case convention, else None."""
    text = strip_history(text)
    value = _kept_value(text)
    v = value.group(1) if value else ""
    m = _AFFIX.search(text)
    if m and (v or re.search(r"\bnames?\b", m.group(0), re.IGNORECASE)):
        # the position word nearest the value says which end: "start ending your variable
        # names with '_vr'" is an end
        near = value.start() if value else m.end()
        words = [w.group(0).lower() for w in _POSITION.finditer(text[: max(near, m.end())])]
        pos = words[-1] if words else (m["pos"] or m["pos2"] or m["pos3"]).lower()
        where = "start" if pos.startswith(("start", "begin", "prefix", "prepend")) else "end"
        return f"name-{where}:{_kind(m)}", v
    m = _CASE.search(text)
    if m:
        return f"name-case:{_kind(m)}", (m["case"] or m["case2"]).lower()
    # What a name holds, which decorator, which import: each is one more convention beside the
    # others ("add @count_calls to all methods" and "add @validate to all methods" both hold);
    # only a restatement of the same one is the same slot.
    m = _CONTAINS.search(text)
    if m:
        # "a single digit", "one digit" and "a digit" are one rule
        what = re.sub(
            r"^(?:(?:a|an|one|single)\s+)+", "", (m["what"] or m["what2"]).strip().lower()
        )
        return f"name-contains:{what}:{_kind(m)}:{v.lower()}", v
    m = _DECORATOR.search(text)
    if m:
        return f"decorator:{_kind(m)}:{v.lower()}", v
    if _IMPORT.search(text):
        return f"import-always:{v.lower()}", v
    return None


# What follows these in a statement is what it no longer holds or wants.
_DROPS = re.compile(
    r"\b(?:no more|no longer(?: use| using| need| want)?|instead of|rather than|not|never|stop "
    r"using|stopped using|quit using|dropped|drop|ditched|avoid)\s+(?P<what>[^,;:.()]{2,60})",
    re.IGNORECASE,
)
_GENERIC_TERMS = frozenset("thing things stuff way ones one".split())


def _drops_what_old_said(new: str, old: str) -> Verdict | None:
    """SAME when `new` says no more of what `old` says to do or use, about the same thing: the
    words it drops are all in `old` (not where `old` itself negates them), and the rest of what
    `new` is about overlaps `old`. UNSURE when the overlap is thin; None when neither."""
    if _TURN.search(old):
        return None  # the old one says what not to do: another rule's business
    old_terms = content_terms(old)
    new_terms = content_terms(new)
    for m in _DROPS.finditer(new):
        dropped = content_terms(m["what"]) - _GENERIC_TERMS
        if not dropped or not dropped <= old_terms:
            continue
        rest_new = new_terms - dropped
        rest_old = old_terms - dropped
        if len(dropped) >= 2:
            return SAME  # "no more How to test section in PR descriptions"
        if not rest_new or not rest_old:
            continue
        shared = rest_new & rest_old
        ratio = len(shared) / min(len(rest_new), len(rest_old))
        if ratio >= 0.5:
            return SAME
        if shared:
            return UNSURE
    return None


# Words that turn a rule around ("quit explaining …", "stop squashing …", "no more …").
_TURN = re.compile(
    r"\b(?:never|don'?t|do not|stop|quit|avoid|no more|no longer|not anymore|must not|"
    r"should not|shouldn'?t|cut out|skip)\b",
    re.IGNORECASE,
)
_TURN_WORDS = frozenset(
    "never dont don't stop quit avoid longer anymore must should shouldn't cut skip always".split()
)


def _turned_around(new: str, old: str) -> bool:
    """The same rule with its polarity flipped: one says to do what the other says not to, about
    the same action and object (at least two content words, one set holding the other)."""
    if bool(_TURN.search(new)) == bool(_TURN.search(old)):
        return False
    # "Never deploy on Fridays" after "Always deploy on Fridays": the same words, turned
    rest_a = [w for w in key_of(new).words if w not in _TURN_WORDS and w not in ("do", "not")]
    rest_b = [w for w in key_of(old).words if w not in _TURN_WORDS and w not in ("do", "not")]
    if rest_a == rest_b and len(rest_a) >= 2:
        return True
    a = content_terms(new) - _TURN_WORDS
    b = content_terms(old) - _TURN_WORDS
    shared = a & b
    return len(shared) >= 2 and (a <= b or b <= a or len(shared) / len(a | b) >= 0.6)


def supersedes(new: str, old: str) -> bool:
    """Whether statement `new` certainly replaces statement `old` (one subject)."""
    return verdict(new, old) is SAME


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


def _value_forms(value: str) -> list[str]:
    """A value and the short forms people name it by: a URL's or host's port."""
    return [value, *re.findall(r":(\d{2,5})\b", value)]


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
    found = list(re.finditer(r"(?<![\w.])" + re.escape(b.value) + r"(?![\w])", base, re.I))
    if len(found) != 1:
        # "java 17 — jvmToolchain(17) — users still run 17": changing one of them would
        # leave the others saying the old value; the new statement stands as it is
        return None
    m = found[0]
    changed = base[: m.start()] + a.value + base[m.end() :]
    changed = changed.rstrip(".")
    return f"{changed} (was {b.value} until {date})."
