"""Secrets: how much of the corpus redaction catches, and how often it flags ordinary text.

Coverage: every format of tests/corpus/secrets.py in every context (alone, mid-line, deep in a
long line, in a log, JSON-escaped, in a YAML quoted scalar); a sample counts as caught when
redaction finds it and none of its secret is left. False positives: the ordinary developer
texts of tests/corpus/ordinary.py (lockfiles, SHAs, UUIDs, base64 images, code that handles
passwords, …); a text counts as a false positive when anything in it is redacted. Also the cost
of one redaction of ordinary text (median of repeated calls, microseconds).

    python bench/secrets.py [--show]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, table  # noqa: E402

from tests.corpus.ordinary import ORDINARY  # noqa: E402
from tests.corpus.secrets import CONTEXTS, SAMPLES  # noqa: E402
from wikimem.capture.redact import redact  # noqa: E402


def _cost(text: str, runs: int = 200) -> float:
    redact(text)
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(runs):
            redact(text)
        samples.append((time.perf_counter() - start) / runs)
    return statistics.median(samples) * 1e6


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", action="store_true", help="list misses and false positives")
    args = ap.parse_args()
    rows = []
    missed: list[str] = []
    for name, context in sorted(CONTEXTS.items()):
        caught = 0
        for sample in SAMPLES:
            out, kinds = redact(context(sample.text))
            if kinds and not any(n in out for n in sample.needles()):
                caught += 1
            else:
                missed.append(f"{sample.name} [{name}]")
        rows.append([name, f"{caught}/{len(SAMPLES)}"])
    flagged = [(cat, text) for cat, text in ORDINARY if redact(text)[1]]
    categories = sorted({cat for cat, _ in ORDINARY})
    print(f"secrets corpus: {len(SAMPLES)} formats x {len(CONTEXTS)} contexts ({machine()})")
    print(table(rows, ["context", "caught"]))
    rate = len(flagged) / len(ORDINARY)
    print(
        f"\nfalse positives: {len(flagged)} of {len(ORDINARY)} ordinary texts "
        f"({rate:.1%}) in {len(categories)} categories"
    )
    ordinary_log = "\n".join(f"line {i}: compiled module_{i}.py in 0.{i}s OK" for i in range(100))
    print(
        f"cost of one redaction: {_cost('Why does the login test fail after the OAuth2 migration?'):.0f} us "
        f"(a prompt), {_cost(ordinary_log):.0f} us (4 KB of build output)"
    )
    if args.show:
        for m in missed:
            print("missed:", m)
        for cat, text in flagged:
            print(f"flagged [{cat}]: {redact(text)[0][:160]!r}")
    return 0 if not missed and not flagged else 1


if __name__ == "__main__":
    raise SystemExit(main())
