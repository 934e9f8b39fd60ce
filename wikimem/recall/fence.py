"""Stored text made safe to put inside the injected `<memory>` block: data, never a way out.

Everything injected comes from notes a model or a tool output may have written, so none of it is
trusted to keep the block's shape. Contract:
  - `data(text)`: a note's body or a passage. It can neither close nor open the block: every
    `<` that begins a `memory` tag, in any case, spacing or look-alike form (`</memory>`,
    `< / MEMORY`, `＜/memory＞`), is written `&lt;`; invisible format characters (zero-width
    spaces and joiners, bidirectional controls, soft hyphens), which could hide such a tag from
    this check and from a person reading the note, are dropped. A line that would pass for one
    of the block's note headings (`### profile/x.md — …`) is escaped with a backslash, so stored
    text cannot pose as another note either.
  - `one_line(text)`: a title, a path or a section heading. The same, on one line: every line
    break (`\\n`, `\\r`, U+2028, U+0085 …) and run of whitespace becomes one space, control
    characters are dropped, so a heading stays one heading.
Both are idempotent, never raise, and leave ordinary text as it is.

Hook-path module: standard library only, no regular expressions (a scan with str.find).
"""

from __future__ import annotations

# `<` and the characters that normalise to it or read as it
_LESS_THAN = "<\uff1c\ufe64\u2329\u3008\u27e8"
_INVISIBLE = (
    "\u00ad\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)
_CONTROLS = "".join(chr(c) for c in range(32) if chr(c) not in "\t\n\r") + "\x7f"
_DROP = {ord(c): None for c in _INVISIBLE + _CONTROLS}
_DROP_INVISIBLE = {ord(c): None for c in _INVISIBLE}
_TAG_GAP = " \t\r\n/"  # what may stand between `<` and `memory` in a tag
_MAX_GAP = 8
ESCAPED_LT = "&lt;"


def data(text: str) -> str:
    text = text.translate(_DROP_INVISIBLE)
    if "memory" in text.lower():
        text = _escape_tags(text)
    if ".md" in text and "#" in text:
        text = _escape_headings(text)
    return _escape_trailing_lt(text)


def one_line(text: str) -> str:
    text = " ".join(text.translate(_DROP).split())
    text = _escape_tags(text) if "memory" in text.lower() else text
    return _escape_trailing_lt(text)


def _escape_trailing_lt(text: str) -> str:
    """A `<` at the very end could open a tag with whatever is put after it (a title "<" over a
    body "memory", two passages joined): it is escaped too."""
    end = len(text.rstrip(_TAG_GAP))
    if end and text[end - 1] in _LESS_THAN:
        return text[: end - 1] + ESCAPED_LT + text[end:]
    return text


def _escape_tags(text: str) -> str:
    lower = text.lower()
    if len(lower) != len(text):  # a character whose lower case is longer: compare one by one
        lower = "".join(c.lower()[:1] for c in text)
    starts: list[int] = []
    i = lower.find("memory")
    while i != -1:
        j = i - 1
        while j >= 0 and i - j <= _MAX_GAP and lower[j] in _TAG_GAP:
            j -= 1
        if j >= 0 and lower[j] in _LESS_THAN:
            starts.append(j)
        i = lower.find("memory", i + 1)
    if not starts:
        return text
    out: list[str] = []
    done = 0
    for j in starts:
        out.append(text[done:j])
        out.append(ESCAPED_LT)
        done = j + 1
    out.append(text[done:])
    return "".join(out)


def _escape_headings(text: str) -> str:
    lines = text.split("\n")
    for n, line in enumerate(lines):
        stripped = line.lstrip(" \t>")
        if stripped.startswith("#") and ".md" in stripped[:300]:
            hashes = len(stripped) - len(stripped.lstrip("#"))
            if 0 < hashes <= 6 and stripped[hashes : hashes + 1] in (" ", "\t"):
                lines[n] = line[: len(line) - len(stripped)] + "\\" + stripped
    return "\n".join(lines)
