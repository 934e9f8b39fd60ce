"""Session digests: one bounded, dated note per session, never shared by two.

Contract:
  - `short_id(session)` is a readable, unique form of an opaque session id: its first 16
    characters folded to lower-case kebab-case (a UUID's first 8), then 6 hex characters of a
    hash of the whole id,
    so ids that share a prefix (`proj-session_1` and `proj-session_12`; the time bits of Codex's
    UUIDv7) still name two notes; it is also the session's entry in a note's `sources`
    (`wikimem.dream.base`, where it lives). `digest_path` is `projects/<slug>/sessions/YYYY-MM-DD-<short>.md`
    dated by the session's first event; `find_digest` finds a session's digest again whatever
    day a later chunk of it arrives on.
  - `render_turn` writes one turn: what was asked, done and answered, and what a model said the
    turn is about (`About`, a line the search index finds the turn by).
  - `render_digest` writes what was asked, done and answered, turn by turn (the middle is
    dropped past `DIGEST_MAX`, how it started and how it went on are kept), the outcome, and
    links to the project's overview and the notes this session changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikimem.dream.base import short_id as short_id  # kept here for its callers
from wikimem.dream.ops import About
from wikimem.dream.render import (
    clip,
    error_excerpt,
    is_prompt,
    shell_command,
    shell_outcome,
    touched_files,
)
from wikimem.wiki.notemeta import ABOUT_LINE

DIGEST_MAX = 12000
TURN_TEXT = 600
CLIENT_NAMES = {
    "claude": "Claude Code",
    "codex": "Codex",
    "cursor": "Cursor",
    "gemini": "Gemini CLI",
    "copilot": "GitHub Copilot CLI",
    "opencode": "OpenCode",
    "qwen": "Qwen Code",
}


def digest_path(project: str, date: str, session: str) -> str:
    return f"projects/{project}/sessions/{date}-{short_id(session)}.md"


def find_digest(listing: Sequence[str], project: str, session: str) -> str | None:
    """The path of `session`'s digest among `listing` (note paths), whatever its date."""
    suffix = f"-{short_id(session)}.md"
    prefix = f"projects/{project}/sessions/"
    for path in listing:
        if path.startswith(prefix) and path.endswith(suffix):
            return path
    return None


def client_name(client: str) -> str:
    return CLIENT_NAMES.get(client, client)


@dataclass
class Turn:
    asked: str = ""
    did: list[str] = field(default_factory=list)
    answered: str = ""
    number: int = 0  # the prompt's `(turn N)` in the rendered events (0: before any prompt)


def turns_of(records: Sequence[dict[str, Any]]) -> list[Turn]:
    turns: list[Turn] = []
    current: Turn | None = None
    prompts = 0
    for r in records:
        event = r.get("event")
        if is_prompt(r):
            prompts += 1
            current = Turn(asked=r["prompt"], number=prompts)
            turns.append(current)
            continue
        if current is None:
            current = Turn()
            turns.append(current)
        if event in ("Stop", "AssistantMessage") and isinstance(r.get("message"), str):
            current.answered = r["message"]
        elif event in ("PostToolUse", "PostToolUseFailure"):
            command = shell_command(r)
            outcome = shell_outcome(r)
            if command:
                detail = f"ran `{clip(command, 120)}` ({outcome if outcome != 'unknown' else 'ran'}"
                if outcome == "failed":
                    excerpt = error_excerpt(r, 120)
                    detail += f": {excerpt}" if excerpt else ""
                current.did.append(detail + ")")
            else:
                files = touched_files(r)
                if files:
                    current.did.append(f"edited {', '.join(f'`{f}`' for f in files[:3])}")
        elif event == "PostCompact" and isinstance(r.get("summary"), str):
            current.did.append(f"compacted the context ({clip(r['summary'], 200)})")
    return [t for t in turns if t.asked or t.did or t.answered]


def render_turn(
    t: Turn, resolve: Callable[[str], str] = lambda s: s, about: About | None = None
) -> str:
    lines = []
    if t.asked:
        said, asked, pasted = split_prompt(resolve(t.asked))
        if said:
            lines.append(f"{SAID} {clip(said, TURN_TEXT)}")
        if asked:
            lines.append(f"{ASKED} {clip(asked, TURN_TEXT)}")
        if pasted:
            lines.append(f"{PASTED} {clip(pasted, TURN_TEXT // 2)}")
    if t.did:
        did = "; ".join(_dedupe(t.did))
        lines.append(f"**Did:** {clip(did, TURN_TEXT)}")
    if t.answered:
        lines.append(f"**Answered:** {clip(resolve(t.answered), TURN_TEXT)}")
    if about is not None and lines:
        lines.append(ABOUT_LINE.strip() + " " + " · ".join([*about.about, *about.when]))
    return "- " + "\n  ".join(lines)


# A prompt in a digest, told apart (docs/memory.md): what the person said (given with a later
# prompt that asks about it), what they asked of the agent then (a request, a question: kept,
# searched, never given as if it still stood) and what they pasted (someone else's words).
SAID = "**Said:**"
ASKED = "**Asked of the agent:**"
PASTED = "**Pasted:**"


def split_prompt(prompt: str) -> tuple[str, str, str]:
    """(said, asked of the agent, pasted) of a prompt, each in the order it was typed."""
    from wikimem.dream import durable, paste, statements

    own = paste.own_words(prompt)
    said: list[str] = []
    asked: list[str] = []
    for sentence in statements.sentences(own) if own else []:
        if durable.addressed_to_agent(sentence):
            asked.append(sentence)
        else:
            said.append(sentence)
    own_lines = {ln.strip() for ln in own.split("\n") if ln.strip()}
    rest = [
        ln.strip()
        for ln in prompt.split("\n")
        if ln.strip() and ln.strip() not in own_lines and not ln.strip().startswith("```")
    ]
    join = " ".join
    return join(said), join(asked), " / ".join(rest)


def _dedupe(items: list[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        if not out or out[-1] != item:
            out.append(item)
    return out


def section(body: str, name: str) -> tuple[str, str, str] | None:
    """(before, inside, after) of a `<!-- wikimem:name -->` … `<!-- /wikimem:name -->` block."""
    start, end = f"<!-- wikimem:{name} -->", f"<!-- /wikimem:{name} -->"
    i = body.find(start)
    j = body.find(end, i + 1) if i != -1 else -1
    if i == -1 or j == -1:
        return None
    return body[: i + len(start)], body[i + len(start) : j], body[j:]


def turn_blocks(body: str) -> list[str]:
    found = section(body, "turns")
    if not found:
        return []
    blocks: list[str] = []
    for line in found[1].strip("\n").split("\n"):
        if line.startswith("- "):
            blocks.append(line)
        elif blocks and line.strip():
            blocks[-1] += "\n" + line
    return [b for b in blocks if not b.startswith("- … ")]


def digest_owner(body: str) -> str | None:
    m = re.search(r"Session id: `([^`]+)`", body)
    return m.group(1) if m else None


def started_at(body: str) -> str | None:
    m = re.search(r", (\d\d:\d\d)–\d\d:\d\d UTC\.", body)
    return m.group(1) if m else None


def outcome_of(body: str) -> str:
    m = re.search(r"## Outcome\n\n(.+?)(?:\n\n## |\s*$)", body, re.DOTALL)
    return m.group(1).strip() if m else ""


def links_of(body: str) -> list[str]:
    found = section(body, "links")
    if not found:
        return []
    return re.findall(r"\[\[([^\]|]+)", found[1])


def render_digest(
    header: str, blocks: list[str], outcome: str, project: str, changed: Sequence[str]
) -> str:
    kept = list(blocks)
    omitted = 0
    while sum(len(b) + 1 for b in kept) > DIGEST_MAX - 2000 and len(kept) > 4:
        kept.pop(2)  # keep how it started and how it went on; drop the middle
        omitted += 1
    if omitted:
        kept.insert(2, f"- … {omitted} turn{'s' if omitted != 1 else ''} omitted …")
    parts = [header, "", "## Turns", "", "<!-- wikimem:turns -->", *kept, "<!-- /wikimem:turns -->"]
    if outcome:
        parts += ["", "## Outcome", "", clip(outcome, 1000)]
    links = [f"[[projects/{project}/overview|{project} overview]]"]
    links += [f"[[{p[:-3]}]]" for p in changed if p.endswith(".md")][:20]
    parts += [
        "",
        "## Links",
        "",
        "<!-- wikimem:links -->",
        " · ".join(links),
        "<!-- /wikimem:links -->",
    ]
    return "\n".join(parts) + "\n"
