"""Injection latency of this tree beside another one (a scratch copy of an earlier commit), in
one run: the same 10,000-note wiki generated for each (their search indexes may differ in
schema, so each gets its own home), the installed hook command of each tree run alternately
with `python -c pass`, new session ids every run. On a busy machine the two trees share the
noise, which the ratios to `python -c pass` alone do not.

    git archive 04af5e7 | tar -x -C /tmp/base    # a scratch copy of the earlier commit
    .venv/bin/python bench/inject_beside.py --against /tmp/base [--runs 40]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, median_ms, table
from inject_latency import BUDGET, PROJECTS, WORDS

REPO = Path(__file__).resolve().parents[1]


def build(tree: str, root: str, notes: int) -> None:
    """Init a home with `tree`'s code, generate the wiki, record origins where the tree knows
    them, and index it once, as a commit would."""
    code = f"""
import random, sys
sys.path.insert(0, {tree!r}); sys.path.insert(0, {str(REPO / "bench")!r})
from pathlib import Path
from wikimem.home import Home
from wikimem.layout import init_home
from wikimem.recall.index import open_index
import inject_latency as bench
home = Home({root!r})
init_home(home)
bench.generate(Path(home.memory_dir), {notes}, random.Random(11))
try:
    import wikimem.wiki.origins  # noqa: F401 (a tree from before the record has none)
    bench.record_origins(home)
except ImportError:
    pass
index = open_index(home.state_dir, home.memory_dir)
index.refresh(full=True)
index.close()
"""
    env = dict(os.environ, PYTHONPATH=tree)
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=tree)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", required=True, help="the other tree (a scratch copy)")
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=40)
    args = ap.parse_args()
    trees = {"before": os.path.abspath(args.against), "after": str(REPO)}
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp:
        homes = {}
        for name, tree in trees.items():
            homes[name] = os.path.join(tmp, name)
            build(tree, homes[name], args.notes)
        project = Path(tmp, "proj-07")
        project.mkdir()
        subprocess.run(["git", "init", "-q", str(project)], check=True)

        def own(modulus: int) -> int:
            return rng.randrange(modulus // PROJECTS) * PROJECTS + 7

        names = ["python -c pass"] + [
            f"{which} {event}" for event in ("UserPromptSubmit", "SessionStart") for which in trees
        ]
        samples: dict[str, list[float]] = {n: [] for n in names}
        injected = dict.fromkeys(names, 0)
        for run in range(args.runs + 3):
            for name in names:
                env = None
                if name.startswith("python"):
                    argv, stdin = [sys.executable, "-c", "pass"], b""
                else:
                    which, event = name.split()
                    payload = {
                        "session_id": f"beside-{run}-{name}",
                        "hook_event_name": event,
                        "cwd": str(project),
                        "transcript_path": "/tmp/t.jsonl",
                        "source": "startup",
                        "prompt": " ".join(rng.choice(WORDS) for _ in range(12))
                        + f" — see ticket-{own(3000)} in handler_{own(5000)}?",
                    }
                    hook = os.path.join(trees[which], "wikimem", "hookentry.py")
                    argv = [sys.executable, "-I", "-S", hook, "claude", "--home", homes[which]]
                    stdin = json.dumps(payload).encode()
                    env = dict(os.environ, WIKIMEM_HOME=homes[which])
                start = perf_counter()
                proc = subprocess.run(argv, input=stdin, capture_output=True, env=env, check=False)
                elapsed = perf_counter() - start
                if run >= 3:
                    samples[name].append(elapsed)
                    injected[name] += bool(proc.stdout)
        base = median_ms(samples["python -c pass"])
        rows = [
            [n, f"{median_ms(s):.1f}", f"{median_ms(s) / base:.2f}x", str(injected[n])]
            for n, s in samples.items()
        ]
        print(
            f"injection latency beside {trees['before']}, {args.notes:,} notes, median of "
            f"{args.runs} alternating runs ({machine()}, load {os.getloadavg()[0]:.2f})\n"
        )
        print(table(rows, ["hook", "median ms", "vs python -c pass", "runs that injected"]))
        ratio = median_ms(samples["after UserPromptSubmit"]) / base
        verdict = "OK" if ratio <= BUDGET else "OVER BUDGET"
        print(f"\nafter, UserPromptSubmit: {ratio:.2f}x (budget {BUDGET}x) -> {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
