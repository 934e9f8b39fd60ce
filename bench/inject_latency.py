"""Injection latency: `wikimem hook claude` on UserPromptSubmit (and SessionStart) with a
10,000-note wiki, vs `python -c pass`, same interpreter, same run.

Budget (docs/architecture.md, "Budgets"): median wall ≤ 1.5× `python -c pass`. The wiki is generated (profile notes,
20 projects with standing notes, the rest session digests), indexed once as after a commit, and
each run uses a new session id so nothing is skipped as already given. Who brought each line is
recorded as a home that wrote these notes through wikimem would have it (the profile and
standing notes the person's, the digests wikimem's record), so the hook reads that record too. Prompts mix common words
with one ticket and one function name of the project the session is in, like real prompts
(injection is scoped: another project's tickets would rightly find nothing); notes name such
things too.

With `--against DIR` (another checkout of wikimem, e.g. `git worktree add /tmp/base <commit>`),
that checkout's hook runs in the same rounds on a copy of the same wiki, indexed by its own
code: before and after measured side by side on a busy machine.

    python bench/inject_latency.py [--notes 10000] [--runs 30] [--against DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
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


def index_with(checkout: Path, home_root: str) -> None:
    """Build the index of the home at `home_root` with another checkout's code."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from wikimem.recall.index import open_index;"
        "i = open_index(sys.argv[2] + '/state', sys.argv[2] + '/memory');"
        "i.refresh(full=True); i.close()"
    )
    subprocess.run([sys.executable, "-c", code, str(checkout), home_root], check=True)


def record_origins(home: object) -> None:
    """Who brought each line, as a home that wrote these notes through wikimem would have it
    (`wikimem.wiki.origins`): the profile and the standing notes the person's, the digests
    wikimem's record, so that injection reads the record it would read on a real home."""
    from wikimem.home import Home
    from wikimem.wiki import origins
    from wikimem.wiki.plainfile import note_paths, read_text

    assert isinstance(home, Home)
    person = origins.code(origins.PERSON, "codex", "2026-11-30")
    session = origins.code(origins.SESSION, "dream", "2026-11-30")
    notes = {}
    for rel in note_paths(home.memory_dir):
        who = session if "/sessions/" in rel else person
        keys = origins.body_keys(read_text(home.memory_dir, rel))
        notes[rel] = {k: who for k in keys}
    origins.save(home.state_dir, notes)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--against", help="another wikimem checkout, timed in the same rounds")
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
        record_origins(home)
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
        commands = {"": command}
        if args.against:
            other = Path(args.against).resolve()
            other_home = os.path.join(tmp, "home-against")
            shutil.copytree(home.root, other_home, symlinks=True)
            for suffix in ("", "-wal", "-shm"):  # its own index, built by its own code
                Path(other_home, "state", "index.sqlite3" + suffix).unlink(missing_ok=True)
            index_with(other, other_home)
            commands[" (--against)"] = [
                sys.executable,
                "-I",
                "-S",
                str(other / "wikimem" / "hookentry.py"),
                "claude",
                "--home",
                other_home,
            ]
        samples: dict[str, list[float]] = {"python -c pass": [], "python -I -S -c pass": []}
        injected: dict[str, int] = {}
        for label in commands:
            for event in ("UserPromptSubmit", "SessionStart"):
                samples[event + label] = []
                injected[event + label] = 0

        def own(modulus: int) -> int:
            # a ticket or function that proj-07's digests name (digest i is proj-(i % 20))
            return rng.randrange(modulus // PROJECTS) * PROJECTS + 7

        for run in range(args.runs + 3):
            # one prompt per round, the same for every checkout
            text = (
                " ".join(rng.choice(WORDS) for _ in range(12))
                + f" — see ticket-{own(3000)} in handler_{own(5000)}?"
            )
            for name in samples:
                if name.startswith("python"):
                    argv, stdin = [sys.executable, *name.split()[1:-1], "pass"], b""
                else:
                    event, _, label = name.partition(" ")
                    payload = {
                        "session_id": f"bench-{run}-{name}",
                        "hook_event_name": event,
                        "cwd": str(project),
                        "transcript_path": "/tmp/t.jsonl",
                        "source": "startup",
                        "prompt": text,
                    }
                    argv = commands[f" {label}" if label else ""]
                    stdin = json.dumps(payload).encode()
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
        for label in commands:
            ratio = median_ms(samples["UserPromptSubmit" + label]) / base
            verdict = "OK" if ratio <= BUDGET else "OVER BUDGET"
            print(f"\nUserPromptSubmit{label}: {ratio:.2f}x (budget {BUDGET}x) -> {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
