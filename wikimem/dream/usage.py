"""What model dreams cost today, and the day's caps (`dream.max_calls_per_day`,
`dream.max_tokens_per_day`).

Contract: `state/model-usage.json` holds, per local calendar day and per backend, the model calls
and tokens the dreams made (the last `KEEP_DAYS` days). `Meter.over_cap(estimate)` says why one
more chunk of about `estimate` tokens must not go to the model today (None: it may); `record`
adds what a chunk cost and saves the file at once (temp file + rename), so a dream that crashes
afterwards still counted it. A cap of 0 means no cap. The dream holds its lock while it writes;
`today_use` reads without it.

The caps are checked before each chunk: a chunk that passes may go over by its own size (and a
correction call), never by more.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from wikimem import boundedfile
from wikimem.fsutil import atomic_write
from wikimem.home import Home

USAGE_FILE = "model-usage.json"
KEEP_DAYS = 31
CHARS_PER_TOKEN = 4  # the estimate: English prose and code run at 3.5-4.5 characters a token


@dataclass(frozen=True)
class Usage:
    """What the calls of one `propose` cost: counted against the day's caps."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.calls + other.calls,
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
        )


def today() -> str:
    """The person's day: local time, so a cap resets at their midnight."""
    return time.strftime("%Y-%m-%d")


def estimate_tokens(chars: int) -> int:
    return -(-chars // CHARS_PER_TOKEN)


def _load(home: Home) -> dict[str, dict[str, dict[str, int]]]:
    try:
        data = json.loads(boundedfile.read_text(home.state(USAGE_FILE)))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, dict[str, dict[str, int]]] = {}
    for day, backends in data.items():
        if not isinstance(backends, dict):
            continue
        for name, counts in backends.items():
            if isinstance(counts, dict):
                out.setdefault(str(day), {})[str(name)] = {
                    k: int(v)
                    for k, v in counts.items()
                    if isinstance(v, int) and not isinstance(v, bool)
                }
    return out


def _usage(counts: dict[str, int]) -> Usage:
    return Usage(
        counts.get("calls", 0), counts.get("input_tokens", 0), counts.get("output_tokens", 0)
    )


def today_use(home: Home) -> dict[str, Usage]:
    """Per backend, what today's dreams cost."""
    return {name: _usage(c) for name, c in _load(home).get(today(), {}).items()}


@dataclass
class Meter:
    home: Home
    max_calls: int
    max_tokens: int

    def used(self) -> Usage:
        total = Usage()
        for usage in today_use(self.home).values():
            total = total + usage
        return total

    def over_cap(self, estimate: int) -> str | None:
        used = self.used()
        if self.max_calls and used.calls + 1 > self.max_calls:
            return (
                f"today's cap of {self.max_calls} model calls is reached (dream.max_calls_per_day)"
            )
        if self.max_tokens and used.tokens + estimate > self.max_tokens:
            return (
                f"today's cap of {self.max_tokens:,} model tokens would be passed "
                f"({used.tokens:,} used, about {estimate:,} more) (dream.max_tokens_per_day)"
            )
        return None

    def record(self, backend: str, usage: Usage) -> None:
        if not usage.calls and not usage.tokens:
            return
        data = _load(self.home)
        day = today()
        counts = data.setdefault(day, {}).setdefault(backend, {})
        for key, value in (
            ("calls", usage.calls),
            ("input_tokens", usage.input_tokens),
            ("output_tokens", usage.output_tokens),
        ):
            counts[key] = counts.get(key, 0) + value
        kept: dict[str, Any] = {d: data[d] for d in sorted(data)[-KEEP_DAYS:]}
        try:
            atomic_write(self.home.state(USAGE_FILE), json.dumps(kept, indent=1) + "\n")
        except OSError:
            pass  # a full disk must not fail the dream; the cap then counts from the file


def summary(home: Home, max_calls: int, max_tokens: int) -> str:
    """One line for `status`: today's model use against the caps."""
    use = today_use(home)
    total = Usage()
    for u in use.values():
        total = total + u
    caps = []
    caps.append(f"cap {max_calls} calls" if max_calls else "no call cap")
    caps.append(f"{max_tokens:,} tokens" if max_tokens else "no token cap")
    if not use:
        return f"no model calls today ({', '.join(caps)})"
    parts = ", ".join(
        f"{name} {u.calls} call{'s' if u.calls != 1 else ''}, {u.tokens:,} tokens"
        for name, u in sorted(use.items())
    )
    return f"{parts} ({', '.join(caps)})"


__all__ = ["Meter", "estimate_tokens", "summary", "today", "today_use"]
