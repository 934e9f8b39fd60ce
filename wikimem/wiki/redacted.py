"""Lines whose content redaction took away: what is left of them is no claim.

A secret is replaced by `[REDACTED:<kind>]` wherever it is stored (capture, the gate, `wikimem
scrub`). Where the secret *was* the claim, what is left says nothing and misleads an agent:
"Token is [REDACTED:github_token] for CI.", "We deploy with [REDACTED:scrubbed].",
"password=[REDACTED]", a commands row whose command is partly hidden. Such a line is kept in the
note (the person sees what was there and may rewrite it) but never given to an agent.

Contract: `redacted_away(line)` is True when a note line holds a redaction marker and
  - it is a table row whose first cell (a command) holds one: a command with a hidden part
    cannot be run as written; or
  - its statement (the list marker, the bold subject and the trailing provenance set aside)
    has the marker where its value goes — first, or after "is", "=", ":", "with", "to", "uses",
    … — and fewer than three words that carry meaning after it; or
  - fewer than two words that carry meaning are left in it once the markers are taken out.
A line without a marker is never touched. Hook-path module: standard library only, no regular
expressions (injection and the search index read it); the dream may import it too.
"""

from __future__ import annotations

MARK = "[REDACTED"
# Words after which what follows is the value the claim is about.
_VALUE_LEADS = frozenset(
    "is are was were be been being = : := -> => with to as uses use using via set".split()
)
# Words that carry no meaning of their own.
_FILLER = frozenset(
    (
        "a an the is are was were be been being it its this that these those we our us you "
        "your i my me they their he she his her for of to in on at with as by and or but not "
        "use uses using used via set here there so then also just"
    ).split()
)


def _statement(line: str) -> str:
    text = line.strip()
    for lead in ("- ", "* ", "+ "):
        if text.startswith(lead):
            text = text[len(lead) :].lstrip()
            break
    if text.startswith("**"):
        end = text.find("**", 2)
        if end != -1:
            text = text[end + 2 :].lstrip(": ").lstrip()
    if text.endswith(")") and " (" in text:
        text = text[: text.rfind(" (")]  # the provenance: who said it, where, when
    return text


def _pieces(text: str) -> list[str]:
    """The text around the markers: `before, between…, after` (one more than the markers)."""
    out = []
    rest = text
    while True:
        at = rest.find(MARK)
        if at == -1:
            out.append(rest)
            return out
        out.append(rest[:at])
        close = rest.find("]", at)
        rest = "" if close == -1 else rest[close + 1 :]


def _words(text: str) -> list[str]:
    cleaned = "".join(ch.lower() if ch.isalnum() or ch in "_=:" else " " for ch in text)
    return [w for w in cleaned.replace("=", " = ").replace(":", " : ").split() if w]


def _meaningful(words: list[str]) -> int:
    return sum(1 for w in words if w not in _FILLER and w not in "=:" and len(w) > 1)


def redacted_away(line: str) -> bool:
    if MARK not in line:
        return False
    stripped = line.strip()
    if stripped.startswith("|"):
        cells = stripped.split("|")
        return len(cells) > 1 and MARK in cells[1]
    pieces = _pieces(_statement(line))
    if len(pieces) == 1:
        return False  # the marker was in the subject or the provenance
    if _meaningful([w for piece in pieces for w in _words(piece)]) < 2:
        return True
    for i, before in enumerate(pieces[:-1]):
        words = _words(before)
        if words and words[-1] not in _VALUE_LEADS:
            continue
        after = [w for piece in pieces[i + 1 :] for w in _words(piece)]
        if _meaningful(after) < 3:
            return True
    return False
