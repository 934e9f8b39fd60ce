"""Recovery per fault (docs/reliability.md): each fault is injected into a dream over the same
events (three projects, two clients, a pre_write check that blocks one project's writes until it
is "fixed"), then `wikimem dream` is simply run again. For each fault the table says what the
person saw, how many plain runs it took to finish the job, and whether the wiki is then exactly
what one uninterrupted dream makes (nothing lost, nothing twice). Counts, not timings.

    .venv/bin/python bench/faults.py
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_fault_suite import CRASH_POINTS, GARBAGE, scenario  # noqa: E402
from wikimem.home import Home  # noqa: E402
from wikimem.layout import init_home  # noqa: E402


def snapshot(home: Path) -> dict[str, str]:
    out = {}
    for path in sorted((home / "memory").rglob("*.md")):
        if ".git" not in path.parts:
            text = re.sub(r"(?m)^updated: .*$", "", path.read_text())
            out[str(path.relative_to(home / "memory"))] = text
    return out


def dream(home: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", "dream", "--home", str(home)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def fresh(root: Path, name: str, lines: list[str], flag: Path | None) -> Path:
    home = root / name
    init_home(Home(str(home)))
    (home / "events" / "2026-11-30.jsonl").write_text("".join(lines))
    if flag is not None:
        with open(home / "config.toml", "a") as fh:
            fh.write(
                f'\n[[gate.pre_write]]\ncommand = "test ! -e {flag} || exit 2"\n'
                'match = "projects/acme-web/**"\n'
            )
    return home


def finish(home: Path, flag: Path) -> tuple[int, str]:
    """Plain runs until nothing is pending; (runs, first stderr line of the first run)."""
    with contextlib.suppress(FileNotFoundError):
        flag.unlink()
    said = ""
    for runs in range(1, 6):
        done = dream(home)
        if runs == 1:
            said = (done.stderr.strip().splitlines() or ["(nothing)"])[0][:90]
        status = subprocess.run(
            [sys.executable, "-m", "wikimem", "status", "--json", "--home", str(home)],
            capture_output=True,
            text=True,
        )
        extra = json.loads(status.stdout)["extra"]
        if done.returncode == 0 and not extra["events pending"] and not extra["writes parked"]:
            return runs, said
    return -1, said


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="wikimem-faults-") as tmp:
        root = Path(tmp)
        os.environ.setdefault("GIT_CONFIG_GLOBAL", str(root / "gitconfig"))
        (root / "gitconfig").write_text("[user]\n\tname = B\n\temail = b@example.com\n")
        lines = scenario(root)
        clean = fresh(root, "clean", lines, None)
        dream(clean)
        want = snapshot(clean)
        rows = []
        cases: list[tuple[str, str]] = [(f"kill -9 at {p}", p) for p in CRASH_POINTS]
        cases += [("process group killed after 0.8 s", "group")]
        cases += [(f"corrupt state/{n}", f"corrupt:{n}") for n in sorted(GARBAGE)]
        cases += [("stale .git/index.lock", "lock")]
        for i, (label, how) in enumerate(cases):
            flag = root / f"flag{i}"
            flag.write_text("")
            home = fresh(root, f"h{i}", lines, flag)
            if how == "mid_rollback":
                dream(home, {"WIKIMEM_CRASH_AT": "after_write"})
            if how == "group":
                proc = subprocess.Popen(
                    [sys.executable, "-m", "wikimem", "dream", "--home", str(home)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
                time.sleep(0.8)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            elif how.startswith("corrupt:"):
                dream(home)
                (home / "state" / how.split(":", 1)[1]).write_bytes(GARBAGE[how.split(":", 1)[1]])
            elif how == "lock":
                lock = home / "memory" / ".git" / "index.lock"
                lock.write_text("")
                os.utime(lock, (time.time() - 3600, time.time() - 3600))
            else:
                dream(home, {"WIKIMEM_CRASH_AT": how})
            runs, said = finish(home, flag)
            same = "yes" if snapshot(home) == want else "NO"
            rows.append((label, runs, same, said))
        print(
            "| fault | plain runs to finish | same as one clean dream | first line the person sees |"
        )
        print("|---|---:|---|---|")
        for label, runs, same, said in rows:
            print(f"| {label} | {runs} | {same} | {said.replace('|', '/')} |")


if __name__ == "__main__":
    main()
