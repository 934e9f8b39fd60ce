"""Passwords typed in prose: the prose rule on its development set and on a fresh set.

The development set (tests/corpus/prose.py PROSE, ORDINARY) was written beside the rule; the
fresh set (FRESH, FRESH_ORDINARY) after it, by the same author, and is never tuned against. The
held-out corpus (bench/secrets_heldout.py) is the independent measure. A sentence counts as
caught when redaction finds something and the secret is gone; an ordinary sentence counts as a
false positive when anything in it is redacted.

    python bench/secrets_prose.py
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, table  # noqa: E402

from tests.corpus.prose import FRESH, FRESH_ORDINARY, ORDINARY, PROSE  # noqa: E402
from wikimem.capture.redact import redact  # noqa: E402


def caught(pairs: list[tuple[str, str]]) -> list[str]:
    return [t for t, secret in pairs if redact(t)[1] and secret not in redact(t)[0]]


def main() -> int:
    print(f"prose secrets ({machine()})")
    rows = []
    for name, secrets, ordinary in (
        ("development", PROSE, ORDINARY),
        ("fresh", FRESH, FRESH_ORDINARY),
    ):
        hit = caught(secrets)
        flagged = [s for s in ordinary if redact(s)[1]]
        rows.append([name, f"{len(hit)}/{len(secrets)}", f"{len(flagged)}/{len(ordinary)}"])
        for t, _ in secrets:
            if t not in hit:
                print(f"  missed ({name}): {t!r}")
        for s in flagged:
            print(f"  flagged ({name}): {s!r}")
    print(table(rows, ["set", "secrets caught", "ordinary sentences flagged"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
