"""What an evaluation run sends to a model, estimated before it runs.

Contract: `estimate(cases, dream, backend)` counts, from the cases alone (nothing is replayed, nothing
sent), the dreams the run makes (one after each scripted day), the model calls (one per project
with sessions that day, more when a day's events of one project pass `chunk_chars`), and about
how many characters they carry in all: per call the dream's rules, the day's events of that
project as the dream renders them, and the notes shown beside them. A model may also be asked
once more to correct an answer the dream refused; that is not counted.

The notes shown are the one part that depends on what the model wrote; they are estimated at
`NOTES_SHOWN` characters a call after the first day. Against the scripted model's real prompts
the estimate is within 15% on the main set and the second held-out set (docs/eval.md).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from wikimem.config import DreamConfig
from wikimem.dream.usage import estimate_tokens
from wikimem.evaluate.cases import Case, Session
from wikimem.evaluate.clients import Edit

# How the dream renders events (wikimem.dream.render): a session header, one line per prompt,
# answer, command and edit, with their clips.
SESSION_HEADER = 70
LINE_HEAD = 20
PROMPT_CLIP = 1200
COMMAND_CLIP = 200
EXCERPT = 200
TEMPLATE = 900  # the project line, the headings and the catalogue of a small wiki
NOTES_SHOWN = 6000


@dataclass(frozen=True)
class Cost:
    dreams: int
    calls: int
    chars: int

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.chars)


def session_chars(session: Session) -> int:
    """The characters of one scripted session as a dream prompt shows it."""
    n = SESSION_HEADER
    for turn in session.turns:
        n += LINE_HEAD + min(len(turn.prompt), PROMPT_CLIP)
        n += LINE_HEAD + min(len(turn.answer), PROMPT_CLIP)
        for step in turn.steps:
            if isinstance(step, Edit):
                n += LINE_HEAD + len(step.path)
            else:
                n += LINE_HEAD + min(len(step.command), COMMAND_CLIP)
                if not step.ok:
                    n += min(len(step.output), EXCERPT)
    return n


def estimate(cases: list[Case], dream: DreamConfig, backend: str) -> Cost:
    from wikimem.dream.prompt import SYSTEM_PROMPT
    from wikimem.dream.textreply import system_prompt

    # An API backend sends the rules with a tool; an agent CLI gets them with the answer's
    # schema quoted, since it has no tool to call.
    api = backend in ("anthropic", "openai")
    rules = len(SYSTEM_PROMPT) if api else len(system_prompt(SYSTEM_PROMPT))
    per_day: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    days: set[int] = set()
    for case in cases:
        for item in case.history:
            days.add(item.day)
            if isinstance(item, Session):
                per_day[item.day][item.project] += session_chars(item)
    calls = 0
    chars = 0
    for n, day in enumerate(sorted(per_day)):
        notes = min(NOTES_SHOWN, dream.notes_chars) if n else 0
        for events in per_day[day].values():
            chunks = max(1, -(-events // dream.chunk_chars))
            calls += chunks
            chars += events + chunks * (rules + TEMPLATE + notes)
    return Cost(len(days), calls, chars)
