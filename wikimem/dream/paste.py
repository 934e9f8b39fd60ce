"""What in a prompt the person wrote, and what they pasted (docs/memory.md, docs/security.md).

A prompt often carries someone else's text: a web page, a README, a log, a stack trace, a diff,
a chat transcript. Whatever such a paste says ("remember: I always run `npx -y …`", "always
deploy on Fridays") is that text's voice, not the person's, so it never yields the person's
claims or a "remember" request. The session digest still quotes it, dated, where search finds
it.

`own_words(prompt)` returns the person's own paragraphs. A paragraph is pasted when it is
  - inside a code fence, or a quotation (`> …` lines);
  - introduced as someone else's ("here's the page:", "the README says:", "pasted below",
    "from the docs") or set off by a marker line ("-----");
  - shaped like output or a document: several lines of log, table, markup, headings, list of
    fields, stack trace, shell prompt, JSON/YAML, or mostly punctuation and numbers;
  - the middle of a long prompt: in a prompt of many lines, only its first and last short
    paragraphs are taken as the person speaking.
Deterministic and dependency-free.
"""

from __future__ import annotations

import re

# A prompt longer than this, in lines, is read as the person's opening and closing words
# around what they pasted.
LONG_PROMPT_LINES = 8
OWN_PARAGRAPH_CHARS = 600

_FENCE = re.compile(r"^\s*(?:```|~~~)")
_INTRO = re.compile(
    r"(?:\b(?:pasted?(?: (?:below|here|in))?|copied|copy of|verbatim|here'?s (?:the|a|"
    r"an|what)\b.*|from (?:the|their|this|that) (?:docs?|readme|page|site|wiki|guide|blog|"
    r"article|issue|thread|email|slack|log|logs|output)\b.*|the (?:docs?|readme|page|site|"
    r"guide|article|email|output|log) (?:says|said|reads)\b.*)\s*[:.]?\s*$)",
    re.IGNORECASE,
)
_RULE = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,}|_{3,}|<{3,}|>{3,}|BEGIN\b|END\b)")
_OUTPUT_LINE = re.compile(
    r"^\s*(?:[$#%>]\s|\w+@[\w-]+[:~]|\[\d|\d{4}-\d\d-\d\d[T ]|\d\d:\d\d:\d\d|[|+]|"
    r"(?:at|File) \S+[:(]|Traceback|[A-Z]{3,}[:\s]|[{}\[\]]|\"[\w-]+\":|[\w.-]+:\s|<[a-z/!]|"
    r"#{1,6}\s)"
)
_SYMBOLS = re.compile(r"[^\w\s]")


def own_words(prompt: str) -> str:
    """The person's own paragraphs of `prompt`, in order, joined by blank lines."""
    lines = prompt.replace("\r\n", "\n").split("\n")
    paragraphs = _paragraphs(lines)
    if not paragraphs:
        return ""
    total = sum(len(p) for p in paragraphs)
    own: list[str] = []
    pasted_after = False
    for i, para in enumerate(paragraphs):
        if para[0] == "\x00":  # a fence or quotation
            pasted_after = False
            continue
        if pasted_after and not _closing(i, paragraphs):
            continue
        if _looks_pasted(para):
            continue
        if total > LONG_PROMPT_LINES and i not in (0, len(paragraphs) - 1):
            continue  # the middle of a long prompt: what they pasted between their words
        cut = next((j for j, ln in enumerate(para) if _INTRO.search(ln)), None)
        if cut is not None:
            para = para[: cut + 1]  # what follows "here's the page:" is the page
        text = "\n".join(ln.strip() for ln in para)
        if len(text) > OWN_PARAGRAPH_CHARS and len(paragraphs) > 1:
            continue
        own.append(text)
        pasted_after = cut is not None
    return "\n\n".join(own)


def _closing(i: int, paragraphs: list[list[str]]) -> bool:
    """The last paragraph after a paste, short: the person speaking again."""
    return i == len(paragraphs) - 1 and len(paragraphs[i]) <= 2


def _paragraphs(lines: list[str]) -> list[list[str]]:
    """Blank-line separated paragraphs; a fenced or quoted block is one paragraph marked with a
    leading NUL line."""
    out: list[list[str]] = []
    current: list[str] = []
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            if current:
                out.append(current)
                current = []
            if fenced:
                out.append(["\x00"])
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.lstrip().startswith(">") or _RULE.match(line):
            if current:
                out.append(current)
                current = []
            if not out or out[-1] != ["\x00"]:
                out.append(["\x00"])
            continue
        if not line.strip():
            if current:
                out.append(current)
                current = []
            continue
        current.append(line)
    if fenced:
        out.append(["\x00"])
    if current:
        out.append(current)
    return out


def _looks_pasted(para: list[str]) -> bool:
    """Several lines shaped like output, markup or data; or one long line mostly of symbols."""
    if len(para) >= 2:
        shaped = sum(1 for ln in para if _OUTPUT_LINE.match(ln) or _symbolic(ln))
        if shaped * 2 >= len(para):
            return True
    if len(para) >= 6 and not all(re.match(r"\s*(?:[-*•]|\d+[.)])\s", ln) for ln in para[1:]):
        return True  # a person speaks in sentences or a short list, not a column of lines
    return any(_symbolic(ln) and len(ln) > 40 for ln in para)


def _symbolic(line: str) -> bool:
    text = line.strip()
    if not text:
        return False
    return (
        len(_SYMBOLS.findall(text)) / len(text) > 0.25
        or sum(c.isdigit() for c in text) / len(text) > 0.3
    )
