"""Dream throughput and prompt size.

1. Offline dream over synthetic sessions: events per second (budget ≥ 5,000/s) and peak memory at
   10,000 vs 100,000 events (budget: flat). Events are written by the hook's own record builder
   and appended with the hook's append, so the files are what real hooks produce.
2. Model prompt size with the FakeBackend on a 10-note vs a 10,000-note wiki (budget: same order).

    python bench/dream.py [--events 100000] [--small 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, table

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PROMPTS = [
    "Why does the {x} test fail after the migration? Check src/{x}.ts",
    "Refactor the {x} module to use the new client",
    "Always run the {x} suite with --runInBand.",
    "Remember that the {x} service listens on port {n}.",
    "Use pnpm instead of npm in {x}.",
    "Add a test for {x} edge cases",
]
COMMANDS = [
    "pnpm test",
    "pnpm run lint",
    "pnpm build",
    "pytest -q",
    "ruff check .",
    "make test",
    "ls -la",
    "git status",
]


def _put(
    events_dir: str,
    settings: dict[str, object],
    client: str,
    sid: str,
    project: str,
    fields: dict[str, object],
) -> None:
    from wikimem.capture.events import append
    from wikimem.capture.hook import build_record

    fields = {"session": sid, "native_event": fields["event"], "cwd": project, **fields}
    append(events_dir, build_record(client, fields, settings))  # type: ignore[arg-type]


def synth(home: str, n_events: int, seed: int = 7, events_per_session: int = 100) -> int:
    """Write n_events realistic records across sessions of 20 projects; returns sessions."""
    from wikimem.rawconfig import merge

    settings = merge({})
    rng = random.Random(seed)
    events_dir = os.path.join(home, "events")
    written = sessions = 0
    while written < n_events:
        sessions += 1
        project = f"/work/proj-{rng.randrange(20):02d}"
        sid = f"{rng.getrandbits(64):016x}-sess"
        client = rng.choice(["claude", "codex", "cursor"])
        batch: list[dict[str, object]] = [{"event": "SessionStart", "source": "startup"}]
        while len(batch) < events_per_session and written + len(batch) < n_events:
            x = rng.choice(["auth", "billing", "search", "upload", "profile"])
            batch.append(
                {
                    "event": "UserPromptSubmit",
                    "prompt": rng.choice(PROMPTS).format(x=x, n=rng.randrange(1000, 9999)),
                }
            )
            for _ in range(rng.randrange(2, 8)):
                cmd = rng.choice(COMMANDS)
                if rng.random() < 0.2:
                    batch.append(
                        {
                            "event": "PostToolUseFailure",
                            "tool": "Bash",
                            "input": {"command": cmd},
                            "error": f"Exit code 1\nFAIL src/{x}.test.ts\n  expected 200, got 500",
                        }
                    )
                else:
                    batch.append(
                        {
                            "event": "PostToolUse",
                            "tool": "Bash",
                            "input": {"command": cmd},
                            "output": "ok " * 40,
                        }
                    )
                if rng.random() < 0.5:
                    batch.append(
                        {
                            "event": "PostToolUse",
                            "tool": "Edit",
                            "input": {"file_path": f"{project}/src/{x}.ts"},
                            "files": [f"{project}/src/{x}.ts"],
                            "output": "{}",
                        }
                    )
            batch.append(
                {
                    "event": "Stop",
                    "message": f"Fixed the {x} test: the handler returned 500 on empty input.",
                }
            )
        batch.append({"event": "SessionEnd", "reason": "other"})
        for fields in batch:
            _put(events_dir, settings, client, sid, project, fields)
        written += len(batch)
    return sessions


def run_dream_child(home: str, backend: str = "offline") -> tuple[float, int, dict[str, object]]:
    """(wall seconds, peak RSS KB, JSON summary) of `wikimem dream` in its own process."""
    env = dict(os.environ, WIKIMEM_HOME=home)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "wikimem", "dream", "--json", "--backend", backend],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"dream failed: {err.decode()[-2000:]}")
    return elapsed, usage.ru_maxrss, json.loads(out)


def offline_throughput(n_events: int) -> dict[str, object]:
    from wikimem.home import Home
    from wikimem.layout import init_home

    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        init_home(Home(home))
        sessions = synth(home, n_events)
        size = sum(f.stat().st_size for f in Path(home, "events").glob("*.jsonl"))
        wall, rss, summary = run_dream_child(home)
        notes = len(list(Path(home, "memory").rglob("*.md")))
        return {
            "events": summary["events"],
            "sessions": sessions,
            "mb": size / 1e6,
            "wall": wall,
            "rate": int(summary["events"]) / wall,
            "rss_mb": rss / 1024,
            "notes": notes,
        }


def prompt_sizes(note_counts: list[int]) -> list[tuple[int, int, int]]:
    from wikimem.dream.fake import FakeBackend
    from wikimem.dream.runner import run_dream
    from wikimem.home import Home
    from wikimem.layout import init_home

    out = []
    for count in note_counts:
        with tempfile.TemporaryDirectory() as tmp:
            home = os.path.join(tmp, "home")
            init_home(Home(home))
            synth(home, 2000)
            for i in range(count):
                project = f"proj-{i % 20:02d}"
                path = Path(
                    home,
                    "memory",
                    "projects",
                    project,
                    "sessions",
                    f"2026-11-{1 + i % 28:02d}-{i:08x}.md",
                )
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(
                    f"---\ntitle: Session {i}\nkind: session\n---\nWorked on item {i}.\n"
                )
            fake = FakeBackend()
            run_dream(Home(home), fake, dry_run=True)
            sizes = [p.size for p in fake.prompts]
            out.append((count, max(sizes), sum(sizes) // len(sizes)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--small", type=int, default=10_000)
    args = ap.parse_args()
    print(f"dream benchmark ({machine()})\n")
    rows = []
    results = [offline_throughput(args.small), offline_throughput(args.events)]
    for r in results:
        rows.append(
            [
                f"{r['events']:,}",
                f"{r['sessions']:,}",
                f"{r['mb']:.1f}",
                f"{r['notes']:,}",
                f"{r['wall']:.1f}",
                f"{r['rate']:,.0f}",
                f"{r['rss_mb']:.0f}",
            ]
        )
    print(
        table(
            rows,
            ["events", "sessions", "events MB", "notes after", "wall s", "events/s", "peak RSS MB"],
        )
    )
    rate = results[1]["rate"]
    growth = results[1]["rss_mb"] / results[0]["rss_mb"]  # type: ignore[operator]
    print(
        f"\noffline: {rate:,.0f} events/s (budget ≥ 5,000) -> {'OK' if rate >= 5000 else 'UNDER BUDGET'}"
    )  # type: ignore[str-format]
    print(
        f"memory: peak RSS x{growth:.2f} for x{args.events / args.small:.0f} events (budget: flat)\n"
    )
    sizes = prompt_sizes([10, 10_000])
    print(
        table(
            [[f"{c:,}", f"{m:,}", f"{a:,}"] for c, m, a in sizes],
            ["notes in wiki", "max prompt chars", "mean prompt chars"],
        )
    )
    ratio = sizes[1][1] / sizes[0][1]
    print(
        f"\nprompt size 10,000 vs 10 notes: x{ratio:.2f} (budget: same order) -> {'OK' if ratio < 10 else 'TOO BIG'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
