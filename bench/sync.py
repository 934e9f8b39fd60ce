"""`wikimem sync` on a 10,000-note wiki, two homes through a bare repository.

Timed, as the user runs it (`wikimem sync`, a fresh process each time), median of --runs rounds:
  - nothing to do;
  - 100 notes edited by hand on one machine: its sync (gate, commit, push), then the other
    machine's sync (fetch, fast-forward, re-index);
  - 50 notes edited on each machine: the second machine's sync (commit, fetch, three-way merge
    note by note, index.md regenerated, push).
Baseline, measured in the same rounds: plain `git fetch` + `git push` of the same memory/ with
nothing to send (the least any sync over git costs), so each row is also a ratio to it; and
the CLI's own start-up (`wikimem --help`), the part of each row that is not sync's work.

    python bench/sync.py [--notes 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, table

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def note(i: int, round_: int = 0) -> str:
    return (
        f"---\ntitle: Topic {i}\nkind: project\ntags: [bench]\ncreated: 2026-11-01\n"
        f"updated: 2026-11-20T10:00:00Z\nsources: [claude:{i:08x}]\npinned: false\n---\n"
        f"- **Service {i} port**: listens on port {9000 + i % 1000}. "
        f"([[projects/p{i % 50}/sessions/2026-11-20-{i:06x}|claude 2026-11-20]])\n"
        f"- Build with `make build-{i}` (round {round_}).\n"
        f"- Tests run with `pytest tests/test_{i}.py -q`.\n"
    )


def rel(i: int) -> str:
    return f"projects/p{i % 50}/topic-{i}.md"


def run(argv: list[str], env: dict[str, str], cwd: str | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.strip()[-400:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from wikimem.home import Home
    from wikimem.layout import init_home

    tmp = tempfile.mkdtemp(prefix="wikimem-bench-sync-")
    env = dict(os.environ)
    env["GIT_CONFIG_GLOBAL"] = os.path.join(tmp, "gitconfig")
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    Path(env["GIT_CONFIG_GLOBAL"]).write_text(
        "[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n"
    )
    os.environ.update({k: env[k] for k in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")})
    remote = os.path.join(tmp, "remote.git")
    subprocess.run(["git", "init", "-q", "--bare", remote], check=True, env=env)
    a, b = Home(os.path.join(tmp, "a")), Home(os.path.join(tmp, "b"))
    for home, name in ((a, "a"), (b, "b")):
        os.makedirs(home.root)
        Path(home.config_path).write_text(
            f'[sync]\nmachine = "{name}"\n[git]\nauthor_email = "w@{name}"\n'
        )
        init_home(home)

    print(f"writing {args.notes} notes …", file=sys.stderr)
    for i in range(args.notes):
        path = Path(a.memory_dir, rel(i))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(note(i))
    wikimem = [sys.executable, "-m", "wikimem", "sync", "--home"]
    setup = {}
    # the hand edits of 10,000 new notes go through the gate in the first sync
    setup["first sync of 10,000 new notes (gate, commit, push)"] = run(
        [*wikimem, a.root, "--remote", remote], env
    )
    setup["joining machine: first sync (fetch, join, index)"] = run(
        [*wikimem, b.root, "--remote", remote], env
    )

    rows: dict[str, list[float]] = {
        "plain git fetch + push, nothing to send (baseline)": [],
        "wikimem start-up alone (`wikimem --help`)": [],
        "sync, nothing to do": [],
        "sync, 100 notes edited here (commit + push)": [],
        "sync, 100 notes edited elsewhere (pull)": [],
        "sync, 50 + 50 notes edited on both (merge)": [],
    }
    count = min(100, args.notes)
    for r in range(1, args.runs + 1):
        print(f"round {r}/{args.runs} …", file=sys.stderr)
        rows["plain git fetch + push, nothing to send (baseline)"].append(
            run(["git", "-C", b.memory_dir, "fetch", "-q", remote], env)
            + run(["git", "-C", b.memory_dir, "push", "-q", remote, "main"], env)
        )
        rows["wikimem start-up alone (`wikimem --help`)"].append(
            run([sys.executable, "-m", "wikimem", "--help"], env)
        )
        rows["sync, nothing to do"].append(run([*wikimem, b.root], env))
        for i in range(count):
            Path(a.memory_dir, rel(i)).write_text(note(i, r * 10))
        rows["sync, 100 notes edited here (commit + push)"].append(run([*wikimem, a.root], env))
        rows["sync, 100 notes edited elsewhere (pull)"].append(run([*wikimem, b.root], env))
        for i in range(count // 2):
            Path(a.memory_dir, rel(i)).write_text(note(i, r * 10 + 1))
        run([*wikimem, a.root], env)
        for i in range(count // 2, count):
            Path(b.memory_dir, rel(i)).write_text(note(i, r * 10 + 2))
        rows["sync, 50 + 50 notes edited on both (merge)"].append(run([*wikimem, b.root], env))

    base = statistics.median(rows["plain git fetch + push, nothing to send (baseline)"])
    out = [
        [name, f"{statistics.median(v) * 1000:.0f}", f"{statistics.median(v) / base:.1f}x"]
        for name, v in rows.items()
    ]
    out += [[name, f"{v * 1000:.0f}", "(once)"] for name, v in setup.items()]
    print(f"\n{args.notes} notes, median of {args.runs} rounds; {machine()}\n")
    print(table(out, ["case", "ms", "vs baseline"]))
    a_head = subprocess.run(
        ["git", "-C", a.memory_dir, "rev-parse", "HEAD"], capture_output=True, text=True, env=env
    ).stdout
    b_head = subprocess.run(
        ["git", "-C", b.memory_dir, "rev-parse", "HEAD"], capture_output=True, text=True, env=env
    ).stdout
    print(
        f"\nboth machines at one commit: {a_head == b_head or 'no (b merged last; a syncs next)'}"
    )


if __name__ == "__main__":
    main()
