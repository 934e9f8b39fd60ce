"""LoCoMo with dream-time work for recall: what the `about` lines a model dream writes into
digest turns do to the answer-present rate, measured as far as that is honest without a model.

The conversations are replayed once (as `bench/locomo.py` does: one home, each conversation
its own project); the replayed home is then copied and dreamed four ways, and each is asked the
same 510 questions:

  offline       `wikimem dream --backend offline` (the figure `bench/locomo.py` reports);
  model, none   the model path (`--backend anthropic`) against a scripted Messages API that
                answers every chunk with no operation: digests only, the control;
  model, rules  the same, the scripted model giving an `about` for every turn from the turn's
                own words: the speakers and the capitalised names in it, and its relative dates
                resolved (`wikimem.dream.dates`). What any model would give at the least;
  model, observations  the same, the `about` taken from the data set's own per-turn
                observations (written by a model when LoCoMo was made, `session_K_observation`,
                each tied to its turn): the names and words of what a model said the turn
                meant. Nearest to a real model this machine has, and optimistic: LoCoMo's
                questions were written from the same material.

What only a real model can measure: whether the names a model picks for a turn of a developer's
session (coreference, "the group" -> "the LGBTQ support group") find it better than these.
The `about` line is never injected, so it cannot put an answer in the text; it only changes
which turns are found.

    python bench/locomo_about.py [--work DIR] [--reuse] [--only offline,none,rules,observations]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, table
from locomo import BUDGETS, CATEGORIES, DATA, REPO, _replay, evaluate, formatted_turns

sys.path.insert(0, str(REPO))
from wikimem.dream import dates
from wikimem.evaluate.scripted_model import MessagesServer

VARIANTS = ("offline", "none", "rules", "observations")
_USER = re.compile(r"^\[\d\d:\d\d\] user \(turn (\d+)\): (.*)$")
_OTHER = re.compile(r"^\[\d\d:\d\d\] (?:assistant|subagent): (.*)$")
_HEAD = re.compile(r"^### session \S+ \(\w+, started [^;]*; id (\S+)\)$")
_TURN = re.compile(r"^\[([^\]]+)\] (\w+): (.*)$", re.S)
_NAME = re.compile(r"\b(?:[A-Z][a-z]+|[A-Z]{2,}\+?)(?: (?:[A-Z][a-z]+|[A-Z]{2,}\+?))*")
_NOT_NAMES = frozenset(
    "I Im Hey Hi Oh Wow Yes No Thanks Thank Sure Yeah Ok Okay That This It".split()
)


class AboutModel:
    """A scripted Messages API answering every chunk with one `about` per user turn."""

    def __init__(self, how: str, observations: dict[str, list[str]]) -> None:
        self.how = how
        self.observations = observations  # formatted turn text -> what the data set observed
        self.requests = 0

    def respond(self, request: dict[str, Any]) -> dict[str, Any]:
        self.requests += 1
        first = request["messages"][0]["content"]
        if isinstance(first, list):
            first = "".join(b.get("text", "") for b in first if isinstance(b, dict))
        ops = [] if self.how == "none" else self.operations(str(first))
        return {
            "id": f"msg_{self.requests}",
            "type": "message",
            "role": "assistant",
            "model": "scripted-about",
            "content": [
                {
                    "type": "tool_use",
                    "id": f"toolu_{self.requests}",
                    "name": request["tools"][0]["name"],
                    "input": {"operations": ops},
                }
            ],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": len(str(first)) // 4, "output_tokens": 50 * len(ops)},
        }

    def operations(self, prompt: str) -> list[dict[str, Any]]:
        ops: list[dict[str, Any]] = []
        session = ""
        turn: tuple[int, list[str]] | None = None

        def close() -> None:
            if turn is not None and session:
                names, when = self.about(turn[1])
                if names or when:
                    ops.append(
                        {
                            "op": "about",
                            "session": session,
                            "turn": turn[0],
                            "about": names,
                            "when": when,
                        }
                    )

        for line in prompt.split("\n"):
            if head := _HEAD.match(line):
                close()
                session, turn = head.group(1), None
            elif user := _USER.match(line):
                close()
                turn = (int(user.group(1)), [user.group(2)])
            elif (other := _OTHER.match(line)) and turn is not None:
                turn[1].append(other.group(1))
        close()
        return ops

    def about(self, texts: list[str]) -> tuple[list[str], list[str]]:
        names: list[str] = []
        when: list[str] = []
        for text in texts:
            m = _TURN.match(text)
            if not m:
                continue
            said_on = dates.parse_day(m.group(1))
            source = [m.group(3)]
            if self.how == "observations":
                source = self.observations.get(text, [])
            else:
                names.append(m.group(2))
            for part in source:
                names += _names(part)
                if self.how == "observations":
                    names += _words(part)
                resolved = dates.resolve(part, said_on) if isinstance(said_on, date) else part
                when += re.findall(r"\b\d{4}-\d\d-\d\d\b", resolved)
        names = [n[:60] for n in dict.fromkeys(names)][:8]
        return names, list(dict.fromkeys(when))[:4]


def _names(text: str) -> list[str]:
    """Capitalised words and runs of them, but not a sentence's first word (capitalised anyway)."""
    out = []
    for m in _NAME.finditer(text):
        before = text[: m.start()].rstrip()
        if (not before or before[-1] in '.!?"') and " " not in m.group(0):
            continue
        if m.group(0) not in _NOT_NAMES:
            out.append(m.group(0))
    return out


def _words(text: str) -> list[str]:
    """An observation's content as a few short phrases (the op takes names of a few words)."""
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text) if len(w) > 3]
    return [" ".join(words[i : i + 4]) for i in range(0, min(len(words), 16), 4)]


def observations() -> dict[str, list[str]]:
    """Formatted turn text -> the data set's observations that cite that turn."""
    out: dict[str, list[str]] = {}
    for conv_file in sorted(DATA.glob("*.json")):
        conv = json.loads(conv_file.read_text())
        turns = formatted_turns(conv)
        for key, value in conv.items():
            if not key.endswith("_observation") or not isinstance(value, dict):
                continue
            for facts in value.values():
                for fact in facts:
                    text, cited = fact[0], fact[1]
                    for dia in [cited] if isinstance(cited, str) else cited:
                        if dia in turns:
                            # as the prompt shows it (render clips a prompt at 1,200 characters)
                            out.setdefault(turns[dia], []).append(text)
    return out


def replay(work: Path) -> int:
    from locomo import _init_home

    files = [str(f) for f in sorted(DATA.glob("*.json"))]
    home = _init_home(work / "shared" / "home")
    Path(home.config_path).write_text(
        "[dream]\nauto = false\nmax_calls_per_day = 0\nmax_tokens_per_day = 0\n"
    )
    return sum(
        _replay(home.root, f, str(work / "shared" / "repos" / f"locomo-{Path(f).stem}"), True)
        for f in files
    )


def dream(work: Path, variant: str, seen: dict[str, list[str]]) -> tuple[float, int]:
    env = dict(os.environ, WIKIMEM_HOME=str(work / "shared" / "home"), PYTHONPATH=str(REPO))
    start = time.perf_counter()
    if variant == "offline":
        subprocess.run(
            [sys.executable, "-m", "wikimem", "dream", "--backend", "offline"],
            check=True,
            capture_output=True,
            env=env,
        )
        return time.perf_counter() - start, 0
    model = AboutModel(variant, seen)
    with MessagesServer(model) as server:  # type: ignore[arg-type]
        env.update(ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="sk-ant-scripted")
        proc = subprocess.run(
            [sys.executable, "-m", "wikimem", "dream", "--backend", "anthropic"],
            capture_output=True,
            text=True,
            env=env,
        )
    if proc.returncode != 0:
        raise SystemExit(f"dream ({variant}) failed: {proc.stderr[-2000:]}")
    return time.perf_counter() - start, model.requests


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", help="keep the homes here (default: a temp dir)")
    ap.add_argument("--reuse", action="store_true", help="evaluate the homes in --work as they are")
    ap.add_argument("--only", default=",".join(VARIANTS))
    args = ap.parse_args()
    variants = [v for v in args.only.split(",") if v in VARIANTS]
    tmp = None if args.work else tempfile.TemporaryDirectory(prefix="wikimem-locomo-about-")
    work = Path(args.work or tmp.name)  # type: ignore[union-attr]
    print(f"LoCoMo answer-present rate with `about` lines ({machine()}); one home, 10 projects")
    if not args.reuse:
        start = time.perf_counter()
        events = replay(work / "replayed")
        print(f"replayed {events:,} hook events in {time.perf_counter() - start:.0f} s")
    seen = observations()
    results: dict[str, dict[str, Any]] = {}
    for variant in variants:
        where = work / variant
        if not args.reuse:
            shutil.rmtree(where, ignore_errors=True)
            shutil.copytree(work / "replayed", where, symlinks=True)
            took, calls = dream(where, variant, seen)
            print(f"{variant}: dreamed in {took:.0f} s ({calls} model requests)")
        results[variant] = evaluate(str(where), True)
    n = next(iter(results.values()))["questions"]
    rows = []
    for variant, r in results.items():
        at3k = {c: r["by_category"][c][3000] for c in CATEGORIES}
        rows.append(
            [variant]
            + [f"{r['totals'][b][-1] / n:.3f}" for b in BUDGETS]
            + [f"{at3k[c][-2] / max(at3k[c][-1], 1):.3f}" for c in CATEGORIES]
        )
    print(f"\n{n} questions (categories 1, 2, 4 with the answer in their evidence turns)\n")
    heads = [f"{b:,}" for b in BUDGETS] + [f"{name} @3k" for name in CATEGORIES.values()]
    print(table(rows, ["dream", *heads]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
