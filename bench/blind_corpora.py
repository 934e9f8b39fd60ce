"""The blind corpora (tests/corpus/blind/, written by an outside tester who read no wikimem
code): held commands, secrets in prose, ordinary prose.

- commands held: of the 142 lines labelled `hold`, how many the held-command detector holds;
  false holds: of the 105 labelled `ok`, how many it holds anyway.
- prose caught: of 56 sentences giving a secret, how many lose it to redaction; ordinary
  harmed: of 54 ordinary sentences, how many redaction changes at all.

First run, on the unchanged code (04af5e7): commands held 32/142, false holds 1/105; prose
caught 17/56, ordinary harmed 0/54. The figures after are in docs/benchmarks.md and held by
tests/test_blind_corpora.py.

    python bench/blind_corpora.py [--show]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, table  # noqa: E402

from tests.corpus.blind_corpora import Score, score_commands, score_prose  # noqa: E402
from wikimem.capture.redact import redact  # noqa: E402
from wikimem.wiki.confirmations import needs_confirming  # noqa: E402


def _rows(score: Score) -> list[list[str]]:
    return [[c, f"{h}/{t}"] for c, (h, t) in sorted(score.by_class.items())]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", action="store_true", help="list misses and false hits")
    args = ap.parse_args()
    held, false = score_commands(needs_confirming)
    caught, harmed = score_prose(redact)
    print(f"blind corpora ({machine()})")
    print(table(_rows(held), ["hold class", "held"]))
    print(table(_rows(false), ["ok class", "held (false hold)"]))
    print(table(_rows(caught), ["secret class", "caught"]))
    print(f"commands held:      {held.hit}/{held.total}")
    print(f"false holds:        {false.hit}/{false.total}")
    print(f"prose caught:       {caught.hit}/{caught.total}")
    print(f"ordinary harmed:    {harmed.hit}/{harmed.total}")
    if args.show:
        for label, texts in (
            ("not held", held.misses),
            ("false hold", false.hits),
            ("missed secret", caught.misses),
            ("harmed", harmed.hits),
        ):
            for text in texts:
                print(f"  {label}: {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
