"""A model's answer, validated, and the one chance it gets to correct it (DESIGN §7).

Shared by the model backends (`anthropic`, `claude-cli`): each turns its own reply into an
`Answer`, and `correct_once` decides whether to send it back, which answer stands, and what to
tell the user. Invalid operations never raise: what stays invalid is returned as rejected.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wikimem.dream.ops import Operation, Rejected, as_dict

RAW_CLIP = 400  # how much of a rejected operation is quoted back to the model


@dataclass(frozen=True)
class Answer:
    raw: object  # the backend's own reply: a Messages API message, or the CLI's text
    operations: tuple[Operation, ...]
    rejected: tuple[Rejected, ...]
    problem: str | None  # why the answer as a whole is unusable (no tool call, wrong shape)

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
    return Answer(answer.raw, tuple(keep), tuple(bad), None)


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
    first = screened(first, check)
    if first.usable and not first.rejected:
        return first, ""
    second = screened(ask_again(first), check)
    sent_back = f"the {noun}" if first.problem else f"{len(first.rejected)} invalid operation(s)"
    if second.usable:
        return second, f"{who}: sent {sent_back} back for correction once"
    return first, (
        f"{who}: sent {sent_back} back for correction; the corrected {noun} was unusable too "
        f"({second.problem}), so the first {noun}'s valid operations stand"
    )
