"""Pitfalls: a command that failed, then the change that made it pass, with the agent's reason.

Contract: `find_pitfalls(records)` pairs a failing shell command with a later passing run of the
same command (or of the same tool on the same target: `npm test` then `npm test -- --runInBand`),
and keeps what happened in between: the files edited, the error, and from the agent's messages
the sentences that explain the cause or the fix (wherever they are in the message, not only its
first two sentences). `pitfall_text` renders one as a standalone claim starting with the
command in backticks, so a newer pitfall on the same command replaces the older (`same_pitfall`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wikimem.dream.render import clip, error_excerpt, shell_command, shell_outcome, touched_files

MAX_EXPLANATION = 420
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_CAUSE = re.compile(
    r"\b(?:because|caused by|the (?:root )?cause|the (?:problem|issue|bug|error) (?:was|is)|"
    r"turned out|it was|was missing|were missing|needed|needs|need to|required|requires|"
    r"fixed|fix(?:es)? (?:it|this|the)|the fix|resolved|solved|works now|passes now|now pass|"
    r"changed|added|removed|set|pinned|bumped|downgraded|upgraded|renamed|moved|updated|"
    r"instead of|so that|which (?:made|makes)|after (?:adding|setting|changing|removing))\b",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"^(?:great|done|perfect|all set|ok(?:ay)?|sure|good news|let me know|i'?ll|i will|"
    r"here'?s|here is|summary)\b",
    re.IGNORECASE,
)


@dataclass
class Pitfall:
    command: str
    error: str
    fixed_by: str  # the command that passed
    files: list[str] = field(default_factory=list)
    explanation: str = ""


def base_of(command: str) -> str:
    """The tool and what it runs, without the options: `npm test -- --x` → `npm test`."""
    words = [w for w in command.split() if not w.startswith("-")]
    return " ".join(words[:2]) if words else command


def explain(messages: Sequence[str]) -> str:
    """The sentences of the agent's messages that say why it failed or what fixed it."""
    chosen: list[str] = []
    for message in messages:
        for sentence in _SENTENCE.split(" ".join(message.split())):
            s = sentence.strip()
            if len(s) < 12 or _FILLER.match(s) or s in chosen:
                continue
            if _CAUSE.search(s):
                chosen.append(s)
    if not chosen:
        for message in messages:
            parts = [p for p in _SENTENCE.split(" ".join(message.split())) if not _FILLER.match(p)]
            chosen.extend(parts[:2])
            if chosen:
                break
    text = ""
    for s in chosen:
        if len(text) + len(s) + 1 > MAX_EXPLANATION:
            break
        text = f"{text} {s}".strip()
    return text or clip(" ".join(chosen[:1]), MAX_EXPLANATION)


def find_pitfalls(records: Sequence[dict[str, Any]]) -> list[Pitfall]:
    failing: dict[
        str, tuple[str, str, list[str], list[str]]
    ] = {}  # base -> cmd, error, files, msgs
    found: list[tuple[Pitfall, list[str]]] = []
    for r in records:
        event = r.get("event")
        if event in ("Stop", "AssistantMessage") and isinstance(r.get("message"), str):
            for _, _, _, messages in failing.values():
                messages.append(r["message"])
            for pitfall, messages in found:
                if not pitfall.explanation and len(messages) < 3:
                    messages.append(r["message"])
            continue
        if event not in ("PostToolUse", "PostToolUseFailure"):
            continue
        command = shell_command(r)
        if command:
            outcome = shell_outcome(r)
            base = base_of(command)
            if outcome == "failed":
                if base not in failing:
                    failing[base] = (command, error_excerpt(r), [], [])
            elif base in failing:
                cmd, error, files, messages = failing.pop(base)
                found.append((Pitfall(cmd, error, command, files), messages))
            continue
        for _, _, files, _ in failing.values():
            files.extend(f for f in touched_files(r) if f not in files)
    out = []
    for pitfall, messages in found:
        pitfall.explanation = explain(messages)
        out.append(pitfall)
    return out


def pitfall_text(p: Pitfall) -> str:
    text = f"`{clip(p.command, 160)}` failed"
    if p.error:
        text += f" ({clip(p.error, 200)})"
    if p.files:
        text += f"; fixed by editing {', '.join(f'`{f}`' for f in p.files[:4])}"
    if p.fixed_by != p.command:
        text += f"; `{clip(p.fixed_by, 120)}` passed"
    text += "."
    if p.explanation:
        text += f" {p.explanation}"
    return clip(text, 700)


_LEAD = re.compile(r"^`([^`]+)`")


def same_pitfall(new: str, old: str) -> bool:
    a, b = _LEAD.match(new), _LEAD.match(old)
    return bool(a and b and base_of(a.group(1)) == base_of(b.group(1)))
