"""What the living notes say is no longer true, to keep older digests from saying it as if it
were (docs/recall.md): a value a newer claim replaced ("(was 9102 until 2026-11-30)"), a claim
replaced or retracted (the hidden `<!-- wikimem:was DAY TEXT -->` lines), and what a retraction
named when no living claim said it (`<!-- wikimem:retracted DAY TARGET -->`: it was only ever
in a digest). Also how a provenance link reads to an agent (`compact_provenance`).

Contract: `superseded_values(bodies)`, `past_claims(bodies)`, `retracted(bodies)` read the
notes; `restates(text, past)`, `mentions(text, values)`, `names(text, retracted)` test a digest
line against them; `words(text)` is the shared notion of a line's words.

Hook-path module: standard library only, no regular expressions.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def compact_provenance(line: str) -> str:
    """`… ([[projects/x/sessions/2026-11-30-ab12|codex 2026-11-30]])` → `… (codex, 2026-11-30)`:
    the link is for people browsing the vault; an agent needs who and when."""
    end = line.rstrip()
    if not end.endswith("]])"):
        return line
    start = end.rfind("([[")
    if start == -1:
        return line
    inside = end[start + 3 : -3]
    label = inside.split("|", 1)[1] if "|" in inside else inside.rsplit("/", 1)[-1]
    source, _, day = label.strip().rpartition(" ")
    label = f"{source}, {day}" if source and day[:2].isdigit() else label.strip()
    return f"{end[:start].rstrip()} ({label})"


def superseded_values(bodies: Sequence[str]) -> set[str]:
    """Values the claims say were replaced, lower-cased: "(was 9102 until 2026-11-30)", and a
    quoted value ('fn_', '@timer') of a claim replaced or retracted earlier (the hidden
    `<!-- wikimem:was … -->` lines), so a digest's "I'll start my function names with 'fn_'"
    from three changes ago is not given as if it held. A value a living claim still says is
    current is none of them."""
    out: set[str] = set()
    current: set[str] = set()
    for body in bodies:
        for line in body.split("\n"):
            if line.startswith(PAST_PREFIX):
                out |= quoted(line[len(PAST_PREFIX) :])
                continue
            i = line.find("(was ")
            while i != -1:
                j = line.find(" until ", i)
                k = line.find(")", i)
                if j != -1 and k != -1 and j < k and j - i < 120:
                    value = line[i + 5 : j].strip().strip("\"'").lower()
                    if value:
                        out.add(value)
                    line = line[:i] + line[k + 1 :]
                    i = line.find("(was ", i)
                else:
                    i = line.find("(was ", i + 5)
            current |= quoted(line)
    return out - current


def quoted(text: str) -> set[str]:
    """The single-quoted values in `text` ('fn_', '@timer'), lower-cased; an apostrophe inside
    a word ("I'll") opens nothing."""
    out: set[str] = set()
    i = text.find("'")
    while i != -1:
        if i > 0 and text[i - 1].isalnum():
            i = text.find("'", i + 1)
            continue
        j = text.find("'", i + 1)
        while j != -1 and j + 1 < len(text) and text[j + 1].isalnum():
            j = text.find("'", j + 1)
        if j == -1:
            break
        value = text[i + 1 : j]
        if 0 < len(value) <= 40 and " " not in value:
            out.add(value.lower())
        i = text.find("'", j + 1)
    return out


PAST_PREFIX = "<!-- wikimem:was "


def past_claims(bodies: Sequence[str]) -> list[set[str]]:
    """The words of each claim the notes say was replaced or retracted (hidden
    `<!-- wikimem:was DAY TEXT -->` lines), to recognise a digest that repeats one."""
    out = []
    for body in bodies:
        for line in body.split("\n"):
            if line.startswith(PAST_PREFIX):
                found = words(line[len(PAST_PREFIX) + 11 :].rsplit("-->", 1)[0])
                if len(found) >= 2:
                    out.append(found)
    return out


def words(text: str) -> set[str]:
    words: set[str] = set()
    token: list[str] = []
    for ch in text.lower() + " ":
        if ch.isalnum() or ch in "_-./:":
            token.append(ch)
        elif token:
            word = "".join(token).strip("-./:")
            token = []
            if len(word) > 2 and word not in COMMON_WORDS:
                words.add(word)
    return words


COMMON_WORDS = frozenset(
    """the and for with that this from into are was were has have had not but you your our its
    their they them there then than when what which who will would should could can may might
    must also only just very all any some one two use uses used using been being does did done
    now here""".split()
)


def restates(passage: str, past: list[set[str]]) -> bool:
    have = words(passage)
    return any(len(p & have) >= 0.7 * len(p) for p in past)


def mentions(text: str, values: set[str]) -> bool:
    lowered = text.lower()
    for value in values:
        i = lowered.find(value)
        while i != -1:
            before = lowered[i - 1] if i > 0 else " "
            after = lowered[i + len(value)] if i + len(value) < len(lowered) else " "
            if not (before.isalnum() or after.isalnum()):
                return True
            i = lowered.find(value, i + 1)
    return False


RETRACTED_PREFIX = "<!-- wikimem:retracted "


def retracted(bodies: Sequence[str]) -> list[set[str]]:
    """The words of what each retraction named where no living claim said it."""
    out = []
    for body in bodies:
        for line in body.split("\n"):
            if line.startswith(RETRACTED_PREFIX):
                found = words(line[len(RETRACTED_PREFIX) + 11 :].rsplit("-->", 1)[0])
                if found:
                    out.append(found)
    return out


def names(text: str, targets: list[set[str]]) -> bool:
    """Whether `text` holds every word of one retracted target."""
    have = words(text)
    return any(t <= have for t in targets)
