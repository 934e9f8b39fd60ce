"""What no agent is given until the person confirms it on this machine, by whichever door it
asks: session start, a prompt, search (the hook's, `wikimem search`, MCP `memory_search`),
`memory_read`, `wikimem show`, an export.

A line is held when
  - it is a hazard whoever wrote it (`wikimem.wiki.confirmations`, `wikimem.wiki.hazards`:
    code fetched and run, a file uploaded, a force-push, text written to the agent as its
    instructions, …), or carries the held mark a writer put on it; or
  - it is shaped as an instruction to the agent (`wikimem.wiki.directives`: "SYSTEM: …",
    "ignore previous instructions", "do not tell the user", an order to send the person's
    files) and it is not the person's own line (`wikimem.wiki.origins`: a teammate's remote, a
    model's dream, an agent through MCP, a tool's output, a line nobody recorded);
and the person has not confirmed its text (`wikimem confirm PATH --line ID`, which takes the
ids `wikimem confirm PATH` and `doctor` list: only lines that were shown).

Contract: `held(line, origin, confirmed)`; `why(line, origin)` says which of the two;
`line_id(line)` is the short id a person confirms a line by (of its text: a line added or
changed since it was listed has another); `shown(rel, body, book, confirmed)` is a body with
each held line replaced by one line saying what is held and how to see it (for `memory_read`,
`wikimem show` and exports, which must not hand the text out).

Hook-path module: standard library only.
"""

from __future__ import annotations

from wikimem.wiki import confirmations, directives, origins

TYPE_CHECKING = False
if TYPE_CHECKING:
    from wikimem.wiki.origins import Book

FETCHED = "it runs a command fetched from the network"
INSTRUCTION = "it is worded as an instruction to the agent"


def held(
    line: str,
    origin: str,
    confirmed: frozenset[str] = frozenset(),
    rules: frozenset[str] = directives.EVERY,
) -> bool:
    """`rules`: the instruction rules worth trying (`directives.screen` of the whole note)."""
    if confirmations.held(line, confirmed):
        return True
    if origins.is_person(origin) or not line.strip():
        return False
    return directives.instruction_shaped(line, rules) and confirmations.key(line) not in confirmed


def why(line: str, origin: str) -> str:
    if confirmations.needs_confirming(line):
        from wikimem.wiki import hazards

        if hazards.hazard(line) == "injection" and not origins.is_person(origin):
            return f"{INSTRUCTION}, and came from {origins.label(origin)}"
        return confirmations.why(line)
    if confirmations.HELD_MARK in line:
        return FETCHED
    return f"{INSTRUCTION}, and came from {origins.label(origin)}"


def line_id(line: str) -> str:
    return confirmations.key(line)[:10]


def placeholder(rel: str, line: str, origin: str) -> str:
    indent = line[: len(line) - len(line.lstrip())]
    return (
        f"{indent}[a line held until the person confirms it ({why(line, origin)}); "
        f"`wikimem confirm {rel}` shows it]"
    )


def shown(rel: str, body: str, book: Book, confirmed: frozenset[str]) -> str:
    out = []
    for line in body.split("\n"):
        origin = book.origin(rel, line)
        out.append(placeholder(rel, line, origin) if held(line, origin, confirmed) else line)
    return "\n".join(out)


def safe_title(title: str, rel: str) -> str:
    """A note's title as given to an agent: its file name instead when the title is worded as
    an instruction (a heading is read before anything under it)."""
    stem = rel.rsplit("/", 1)[-1][:-3] if rel.endswith(".md") else rel.rsplit("/", 1)[-1]
    if not title.strip() or directives.instruction_shaped(title):
        return stem
    return title
