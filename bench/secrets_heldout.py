"""Secrets, held out: how redaction does on formats and prose it was not written beside.

Formats: every entry of tests/corpus/heldout_secrets.py in the contexts bench/secrets.py uses
(alone, mid-line, deep in a long line, in a log, JSON-escaped, in a YAML quoted scalar). A sample
counts as caught, as in bench/secrets.py, when redaction finds something and none of its secret
(the secret, and each long part of a key block) is left. Prose: each sentence in which a person
types a password, in the same contexts; caught when redaction finds something and the secret
substring is gone (whatever its length: a four-digit PIN must vanish too). False positives: a
sentence of ORDINARY_PROSE, or a text of tests/corpus/ordinary.py, counts when anything in it is
redacted.

This corpus is a test set: its first figure is recorded in tests/corpus/HELDOUT_BASELINE.md, and
the detector is never tuned by reading the misses of one run against it alone.

    python bench/secrets_heldout.py [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, table  # noqa: E402

from tests.corpus.heldout_secrets import (  # noqa: E402
    HELDOUT_FORMATS,
    ORDINARY_PROSE,
    PROSE_SECRETS,
)
from tests.corpus.ordinary import ORDINARY  # noqa: E402
from tests.corpus.secrets import CONTEXTS  # noqa: E402
from wikimem.capture.redact import redact  # noqa: E402


def _caught(text: str, needles: list[str]) -> bool:
    out, kinds = redact(text)
    return bool(kinds) and not any(n in out for n in needles)


@dataclass
class Figures:
    contexts: list[str]
    formats: int
    prose: int
    ordinary_prose: int
    ordinary: int
    formats_caught: dict[str, int] = field(default_factory=dict)
    prose_caught: dict[str, int] = field(default_factory=dict)
    # name (or sentence) -> the contexts it was missed in
    formats_missed: dict[str, list[str]] = field(default_factory=dict)
    prose_missed: dict[str, list[str]] = field(default_factory=dict)
    ordinary_prose_flagged: list[str] = field(default_factory=list)
    ordinary_flagged: list[tuple[str, str]] = field(default_factory=list)
    # category -> (formats caught in every context, formats)
    by_category: dict[str, tuple[int, int]] = field(default_factory=dict)


def measure() -> Figures:
    contexts = sorted(CONTEXTS)
    r = Figures(
        contexts, len(HELDOUT_FORMATS), len(PROSE_SECRETS), len(ORDINARY_PROSE), len(ORDINARY)
    )
    for name in contexts:
        r.formats_caught[name] = 0
        for f in HELDOUT_FORMATS:
            if _caught(CONTEXTS[name](f.text), f.needles()):
                r.formats_caught[name] += 1
            else:
                r.formats_missed.setdefault(f.name, []).append(name)
        r.prose_caught[name] = 0
        for p in PROSE_SECRETS:
            if _caught(CONTEXTS[name](p.text), [p.secret]):
                r.prose_caught[name] += 1
            else:
                r.prose_missed.setdefault(p.text, []).append(name)
    for f in HELDOUT_FORMATS:
        caught, total = r.by_category.get(f.category, (0, 0))
        r.by_category[f.category] = (caught + (f.name not in r.formats_missed), total + 1)
    r.ordinary_prose_flagged = [redact(s)[0] for s in ORDINARY_PROSE if redact(s)[1]]
    r.ordinary_flagged = [(c, redact(t)[0][:160]) for c, t in ORDINARY if redact(t)[1]]
    return r


def _where(contexts: list[str], where: list[str]) -> str:
    return "every context" if len(where) == len(contexts) else ", ".join(where)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", type=Path, help="also write the figures and lists to this file")
    args = ap.parse_args()
    r = measure()
    print(
        f"held-out corpus: {r.formats} formats, {r.prose} prose secrets x "
        f"{len(r.contexts)} contexts ({machine()})"
    )
    rows = [
        [c, f"{r.formats_caught[c]}/{r.formats}", f"{r.prose_caught[c]}/{r.prose}"]
        for c in r.contexts
    ]
    print(table(rows, ["context", "formats caught", "prose secrets caught"]))
    print(f"\nformats caught in every context: {r.formats - len(r.formats_missed)}/{r.formats}")
    print(
        table(
            [[c, f"{k}/{n}"] for c, (k, n) in r.by_category.items()],
            ["category", "caught in every context"],
        )
    )
    print(f"formats missed in at least one context: {len(r.formats_missed)}")
    for name, where in r.formats_missed.items():
        print(f"  missed: {name} [{_where(r.contexts, where)}]")
    print(f"\nprose secrets caught in every context: {r.prose - len(r.prose_missed)}/{r.prose}")
    print(f"prose secrets missed in at least one context: {len(r.prose_missed)}")
    for text, where in r.prose_missed.items():
        print(f"  missed: {text!r} [{_where(r.contexts, where)}]")
    print(
        f"\nfalse positives: {len(r.ordinary_prose_flagged)} of {r.ordinary_prose} ordinary "
        f"sentences about secrets; {len(r.ordinary_flagged)} of {r.ordinary} texts of "
        "tests/corpus/ordinary.py"
    )
    for text in r.ordinary_prose_flagged:
        print(f"  flagged: {text!r}")
    for category, text in r.ordinary_flagged:
        print(f"  flagged [{category}]: {text!r}")
    if args.json:
        args.json.write_text(json.dumps(asdict(r), indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
