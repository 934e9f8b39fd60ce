"""Shared helpers for the benchmarks: alternating timed runs, medians, a printed table."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

Stdin = bytes | Callable[[], bytes]  # a payload, or a maker of a fresh one per run


def time_command(
    argv: Sequence[str], stdin: bytes = b"", env: dict[str, str] | None = None
) -> float:
    start = time.perf_counter()
    subprocess.run(
        argv,
        input=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        check=False,
    )
    return time.perf_counter() - start


def alternate(
    cases: dict[str, tuple[Sequence[str], Stdin]],
    runs: int,
    env: dict[str, str] | None = None,
    warmup: int = 3,
) -> dict[str, list[float]]:
    """Run every case once per round, `runs` rounds, so machine noise hits all cases alike."""
    for _ in range(warmup):
        for argv, stdin in cases.values():
            time_command(argv, stdin() if callable(stdin) else stdin, env)
    results: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, (argv, stdin) in cases.items():
            data = stdin() if callable(stdin) else stdin
            results[name].append(time_command(argv, data, env))
    return results


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows]
    return "\n".join(out)


def machine() -> str:
    return f"python {sys.version.split()[0]} on {os.cpu_count()} cores, {sys.platform}"
