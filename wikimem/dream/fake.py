"""`FakeBackend`: the test double for a model backend. It records every request and prompt it is
given and answers with operations queued in advance (or none)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from wikimem.dream.base import DreamRequest, Prompt, Proposal, ReadNote
from wikimem.dream.ops import Operation, Rejected, parse_operations


class FakeBackend:
    name = "fake"
    needs_prompt = True

    def __init__(self, responses: Iterable[list[Operation] | dict[str, object]] = ()) -> None:
        self.responses: deque[list[Operation] | dict[str, object]] = deque(responses)
        self.requests: list[DreamRequest] = []

    @property
    def prompts(self) -> list[Prompt]:
        return [r.prompt for r in self.requests if r.prompt is not None]

    def queue(self, response: list[Operation] | dict[str, object]) -> None:
        """Queue operations, or raw JSON as a model would send it (validated like one)."""
        self.responses.append(response)

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        self.requests.append(request)
        if not self.responses:
            return Proposal(())
        response = self.responses.popleft()
        if isinstance(response, dict):
            ops, rejected = parse_operations(response)
            return Proposal(tuple(ops), tuple(rejected))
        return Proposal(tuple(response), tuple[Rejected, ...]())
