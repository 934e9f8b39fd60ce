"""A model's answer, validated, and the one chance it gets to correct it.

Shared by the model backends (`anthropic`, `claude-cli`): each turns its own reply into an
`Answer`, and `correct_once` decides whether to send it back, which answer stands, and what to
tell the user. Invalid operations never raise: what stays invalid is returned as rejected.
A reply cut off at the token limit is never applied as it stands, even when what arrived parses
(the operations after the cut are missing, and a later one may have undone an earlier one): it
is sent back like an unusable one, and when the correction is unusable too, `BackendError` says
so, and the dream retries the chunk later instead of losing its events.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wikimem.dream.base import BackendError
from wikimem.dream.ops import Operation, Rejected, as_dict

RAW_CLIP = 400  # how much of a rejected operation is quoted back to the model


@dataclass(frozen=True)
class Answer:
    raw: object  # the backend's own reply: a Messages API message, or the CLI's text
    operations: tuple[Operation, ...]
    rejected: tuple[Rejected, ...]
    problem: str | None  # why the answer as a whole is unusable (no tool call, wrong shape)
    truncated: bool = False  # cut off at max_tokens

    def cut_short(self, noun: str) -> Answer:
        """This answer, unusable because it was cut off at the token limit."""
        if not self.truncated:
            return self
        why = (
            f"the {noun} was cut off at the max_tokens limit, so its operations may be "
            "incomplete; send the complete list again, with fewer or shorter operations"
        )
        if self.problem is not None:
            why = f"{self.problem}; {why}"
        return Answer(self.raw, (), self.rejected, why, True)

    @property
    def usable(self) -> bool:
        return self.problem is None

    @property
    def final_rejections(self) -> tuple[Rejected, ...]:
        """What to report as rejected if this answer stands."""
        return (Rejected(None, self.problem),) if self.problem is not None else self.rejected


def one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def describe_rejected(rejected: Sequence[Rejected]) -> str:
    lines = []
    for i, r in enumerate(rejected, 1):
        op = r.raw.get("op", "?") if isinstance(r.raw, dict) else "?"
        try:
            raw = json.dumps(r.raw, ensure_ascii=False)
        except (TypeError, ValueError):
            raw = repr(r.raw)
        if len(raw) > RAW_CLIP:
            raw = raw[: RAW_CLIP - 1] + "…"
        lines.append(f"{i}. {op} {r.path}: {r.reason}\n   {raw}")
    return "\n".join(lines)


def what_was_wrong(answer: Answer, noun: str) -> str:
    """The model is told this about its unusable `noun` ("reply", "answer") or rejected ops."""
    if answer.problem is not None:
        return f"Your {noun} could not be used: {answer.problem}."
    n, ok = len(answer.rejected), len(answer.operations)
    return (
        f"{n} of your operations {'was' if n == 1 else 'were'} rejected; "
        f"{ok} {'was' if ok == 1 else 'were'} valid.\n" + describe_rejected(answer.rejected)
    )


Check = Callable[[Operation], "str | None"]


def screened(answer: Answer, check: Check | None) -> Answer:
    """`answer` with the operations `check` refuses moved to its rejected ones."""
    if check is None or not answer.usable:
        return answer
    keep: list[Operation] = []
    bad = list(answer.rejected)
    for op in answer.operations:
        why = check(op)
        if why:
            bad.append(Rejected(as_dict(op), why))
        else:
            keep.append(op)
    return Answer(answer.raw, tuple(keep), tuple(bad), None, answer.truncated)


def correct_once(
    first: Answer,
    ask_again: Callable[[Answer], Answer],
    who: str,
    noun: str,
    check: Check | None = None,
) -> tuple[Answer, str]:
    """(the answer that stands, a note for the user, "" when no correction was needed).

    Operations `check` refuses count as invalid. A usable correction replaces the first
    answer; an unusable one leaves the first answer's valid operations standing."""
    first = screened(first.cut_short(noun), check)
    if first.usable and not first.rejected:
        return first, ""
    second = screened(ask_again(first).cut_short(noun), check)
    sent_back = f"the {noun}" if first.problem else f"{len(first.rejected)} invalid operation(s)"
    if second.usable:
        return second, f"{who}: sent {sent_back} back for correction once"
    if first.truncated or (second.truncated and not first.usable):
        raise BackendError(
            f"{who}: the {noun} was cut off at the max_tokens limit twice; raise `max_tokens` "
            "or lower `chunk_chars` under [dream] in config.toml",
            request_fault=True,
        )
    return first, (
        f"{who}: sent {sent_back} back for correction; the corrected {noun} was unusable too "
        f"({second.problem}), so the first {noun}'s valid operations stand"
    )
