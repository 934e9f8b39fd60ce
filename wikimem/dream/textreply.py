"""The operations as a model writes them in plain text, for backends that have no tool call.

Contract: a backend that can only get text back (an agent CLI in print mode, a Chat Completions
server) sends `system_prompt(prompt.system)` — the dream rules plus how to answer without the
tool, the operations' JSON schema quoted — and `first_input(prompt.user)`; `validate(text)` takes
the JSON object out of the answer (the whole text, a ```json fence, or an object in prose) and
checks its operations with `parse_operations`; `correction_input(user, answer)` is what a second
call is given when the answer was unusable or had invalid operations (see `correct_once`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from wikimem.dream.correction import Answer, what_was_wrong
from wikimem.dream.ops import OPERATIONS_SCHEMA, parse_operations

ANSWER_CLIP = 60000  # how much of the previous answer the correction call repeats
SCAN_LIMIT = 200  # `{` positions tried when the object is buried in prose

ANSWER_RULES = """

## How to answer in this setting
There are no tools here: do NOT try to call `apply_operations` or any other tool. Instead, your
whole reply is ONE JSON object, exactly the input that `apply_operations` would take:
{"operations": [...]}, with an empty list when nothing durable was learned. No prose before or
after it. The object must match this JSON schema:
"""

# The closing fence must start a line: a ``` inside a JSON string (a note body quoting code)
# follows the two characters \n, never a real newline.
_FENCE = re.compile(r"```[\w-]*[ \t]*\n(.*?)\n[ \t]*```", re.S)
_OPERATIONS_START = re.compile(r'\{\s*"operations"\s*:')


def system_prompt(system: str) -> str:
    """The dream rules, plus how to answer without the tool (the schema quoted)."""
    return system.rstrip() + ANSWER_RULES + json.dumps(OPERATIONS_SCHEMA, indent=1) + "\n"


def first_input(user: str) -> str:
    return (
        user.rstrip() + "\n\nThere is no tool here: instead of calling it, reply with ONLY "
        'the JSON object {"operations": [...]} that the call would carry.\n'
    )


def extract_json(text: str) -> Any:
    """The JSON value an answer holds: the whole text, a fenced block, or an object in prose.

    Raises ValueError when there is none."""
    stripped = text.strip()
    candidates = [stripped] + [m.group(1).strip() for m in _FENCE.finditer(text)]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    decoder = json.JSONDecoder()
    starts = [m.start() for m in _OPERATIONS_START.finditer(text)]
    starts += [i for i, ch in enumerate(text) if ch == "{"][:SCAN_LIMIT]
    for start in dict.fromkeys(starts):
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise ValueError("the answer held no JSON object")


def validate(text: str, truncated: bool = False) -> Answer:
    """The answer's operations; `truncated` when the model hit its output limit (such an answer
    is sent back even when what arrived parses)."""
    try:
        data = extract_json(text)
    except (ValueError, RecursionError) as exc:
        return Answer(text, (), (), str(exc) or "the answer could not be read", truncated)
    items = data.get("operations") if isinstance(data, dict) else data
    if not isinstance(items, list):
        return Answer(
            text, (), (), 'the answer must be a JSON object {"operations": [...]}', truncated
        )
    ops, rejected = parse_operations(items)
    return Answer(text, tuple(ops), tuple(rejected), None, truncated)


def correction_input(user: str, answer: Answer) -> str:
    """The second call's input: the first prompt, the previous answer and what was wrong."""
    wrong = what_was_wrong(answer, "answer")
    previous = str(answer.raw).strip()
    if len(previous) > ANSWER_CLIP:
        previous = previous[:ANSWER_CLIP] + "\n[… clipped …]"
    return (
        f"{user.rstrip()}\n\n## Your previous answer\n{previous}\n\n"
        f"## What was wrong with it\n{wrong}\n\n"
        'Answer again with ONLY the corrected COMPLETE JSON object {"operations": [...]}, the '
        "valid operations included: it replaces your previous answer. Drop an operation you "
        "cannot fix.\n"
    )
