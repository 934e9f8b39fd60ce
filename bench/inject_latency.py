"""Injection latency: `wikimem hook claude` on UserPromptSubmit (and SessionStart) with a
10,000-note wiki, vs `python -c pass`, same interpreter, same run.

Budget (docs/architecture.md, "Budgets"): median wall ≤ 1.5× `python -c pass`. The wiki is generated (profile notes,
20 projects with standing notes, the rest session digests), indexed once as after a commit, and
each run uses a new session id so nothing is skipped as already given. Prompts mix common words
with one ticket and one function name of the project the session is in, like real prompts
(injection is scoped: another project's tickets would rightly find nothing); notes name such
things too.

With `--beside DIR`, the installed command of another checkout (`git worktree add DIR <rev>`)
answers the same events on the same wiki in the same rounds: before and after in one run.

    python bench/inject_latency.py [--notes 10000] [--runs 30] [--beside DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, median_ms, table

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
PROJECTS = 20
BUDGET = 1.5  # prompt injection on 10,000 notes
WORDS = [
    "auth",
    "token",
    "billing",
    "invoice",
    "search",
    "upload",
    "profile",
    "cache",
    "queue",
    "worker",
    "retry",
    "timeout",
    "migration",
    "schema",
    "deploy",
    "rollback",
    "canary",
    "feature",
    "flag",
    "pnpm",
    "pytest",
    "docker",
    "compose",
    "redis",
    "postgres",
    "index",
    "latency",
    "memory",
    "leak",
    "refactor",
    "client",
    "server",
    "handler",
    "route",
    "middleware",
    "session",
    "cookie",
]


def generate(memory: Path, notes: int, rng: random.Random) -> None:
    def write(rel: str, title: str, kind: str, body: str) -> None:
        path = memory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"---\ntitle: {title}\nkind: {kind}\ntags: []\nsources: []\npinned: false\n---\n{body}"
        )

    def sentence() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(14)).capitalize() + "."

    write(
        "profile/preferences.md",
        "Preferences",
        "profile",
        "\n".join(f"- {sentence()}" for _ in range(8)) + "\n",
    )
    count = 1
    for p in range(PROJECTS):
        for name in ("overview", "conventions", "commands", "pitfalls"):
            write(
                f"projects/proj-{p:02d}/{name}.md",
                f"{name} of proj-{p:02d}",
                "project",
                "\n".join(f"- {sentence()}" for _ in range(10)) + "\n",
            )
            count += 1
    i = 0
    while count < notes:
        p = i % PROJECTS
        # each digest names a few specific things (tickets, functions), as real ones do
        specific = f"ticket-{i % 3000} handler_{i % 5000}"
        body = "## Turns\n\n" + "\n".join(
            f"- **Asked:** {sentence()} ({specific})\n  **Answered:** {sentence()}"
            for _ in range(6)
        )
        write(
            f"projects/proj-{p:02d}/sessions/2026-11-{1 + i % 28:02d}-{i:08x}.md",
            f"Session {i}",
            "session",
            body + "\n",
        )
        count += 1
        i += 1


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--beside", metavar="DIR", help="another checkout's installed hook too")
    args = ap.parse_args()
    from wikimem.home import Home
    from wikimem.layout import init_home
    from wikimem.recall.index import open_index
    from wikimem.setup.install import hook_command

    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        home = Home(os.path.join(tmp, "home"))
        init_home(home)
        generate(Path(home.memory_dir), args.notes, rng)
        start = time.perf_counter()
        index = open_index(home.state_dir, home.memory_dir)
        index.refresh(full=True)
        index.close()
        build = time.perf_counter() - start
        project = Path(tmp, "proj-07")
        project.mkdir()
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        command = shlex.split(hook_command("claude", home))
        env = dict(os.environ, WIKIMEM_HOME=home.root)
        samples: dict[str, list[float]] = {
            "python -c pass": [],
            "python -I -S -c pass": [],
            "UserPromptSubmit": [],
            "SessionStart": [],
        }
        injected = {"UserPromptSubmit": 0, "SessionStart": 0}
        commands = {"UserPromptSubmit": command, "SessionStart": command}
        if args.beside:
            entry = str(Path(args.beside).resolve() / "wikimem" / "hookentry.py")
            other = [entry if a.endswith("hookentry.py") else a for a in command]
            for event in ("UserPromptSubmit", "SessionStart"):
                name = f"{event} of {args.beside}"
                samples[name], injected[name], commands[name] = [], 0, other

        def own(modulus: int) -> int:
            # a ticket or function that proj-07's digests name (digest i is proj-(i % 20))
            return rng.randrange(modulus // PROJECTS) * PROJECTS + 7

        for run in range(args.runs + 3):
            for name in samples:
                if name.startswith("python"):
                    argv, stdin = [sys.executable, *name.split()[1:-1], "pass"], b""
                else:
                    payload = {
                        "session_id": f"bench-{run}-{name.replace(' ', '-').replace('/', '-')}",
                        "hook_event_name": name.split(" of ")[0],
                        "cwd": str(project),
                        "transcript_path": "/tmp/t.jsonl",
                        "source": "startup",
                        "prompt": " ".join(rng.choice(WORDS) for _ in range(12))
                        + f" — see ticket-{own(3000)} in handler_{own(5000)}?",
                    }
                    argv, stdin = commands[name], json.dumps(payload).encode()
                t0 = time.perf_counter()
                proc = subprocess.run(argv, input=stdin, capture_output=True, env=env, check=False)
                elapsed = time.perf_counter() - t0
                if run >= 3:  # warm-up rounds are dropped
                    samples[name].append(elapsed)
                    if name in injected and proc.stdout:
                        injected[name] += 1
        base = median_ms(samples["python -c pass"])
        rows = [
            [
                name,
                f"{median_ms(s):.1f}",
                f"{median_ms(s) / base:.2f}x",
                str(injected.get(name, "-")),
            ]
            for name, s in samples.items()
        ]
        print(
            f"injection latency on a {args.notes:,}-note wiki, median of {args.runs} alternating runs ({machine()})"
        )
        print(f"(index built once in {build:.1f} s, as `wikimem search` or a commit would)\n")
        print(table(rows, ["hook event", "median ms", "vs python -c pass", "runs that injected"]))
        ratio = median_ms(samples["UserPromptSubmit"]) / base
        print(
            f"\nUserPromptSubmit: {ratio:.2f}x (budget {BUDGET}x) -> {'OK' if ratio <= BUDGET else 'OVER BUDGET'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
