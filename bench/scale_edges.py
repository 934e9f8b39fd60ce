"""Scale and edges of the dream and sync: counts first, times as observed.

- the offline dream over N short sessions (a prompt and a stop each, one events file):
  digests written of N, and the dream's seconds;
- K machines syncing with one bare remote at the same moment (each a fresh `wikimem sync`
  process, each with a note of its own): how many got through, notes on the remote, wall time;
- a remote over "ssh" that accepts the connection and then hangs: seconds until the sync
  gives up, and whether the ssh process is still running afterwards.

  .venv/bin/python bench/scale_edges.py [--sessions 10000] [--machines 24]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from wikimem.config import DEFAULT_CONFIG_TEXT  # noqa: E402
from wikimem.dream.runner import run_dream  # noqa: E402
from wikimem.home import Home  # noqa: E402
from wikimem.layout import init_home  # noqa: E402
from wikimem.sync.remote import set_setting  # noqa: E402


def make_home(root: Path, name: str) -> Home:
    home = Home(str(root / name))
    os.makedirs(home.root)
    text = set_setting(DEFAULT_CONFIG_TEXT, "sync", "machine", f'"{name}"')
    Path(home.config_path).write_text(text)
    init_home(home)
    return home


def offline_dream(sessions: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="wikimem-bench-") as tmp:
        home = make_home(Path(tmp), "h")
        lines = []
        for i in range(sessions):
            for event, extra in (
                ("UserPromptSubmit", {"prompt": f"Fix the flaky test number {i} in payments"}),
                ("Stop", {"message": f"Fixed test {i}: it waited on a real clock."}),
            ):
                record = {
                    "v": 1,
                    "ts": f"2026-11-30T10:{i // 60 % 60:02d}:{i % 60:02d}.{i:06d}Z",
                    "client": "claude",
                    "session": f"s-{i:05d}",
                    "event": event,
                    "native_event": event,
                    "cwd": "/work/api",
                    "project": "api",
                    **extra,
                }
                lines.append(json.dumps(record) + "\n")
        Path(home.events_dir, "2026-11-30.jsonl").write_text("".join(lines))
        start = time.perf_counter()
        result = run_dream(home, backend_name="offline")
        seconds = time.perf_counter() - start
        digests = len(list(Path(home.memory_dir, "projects/api/sessions").glob("*.md")))
        dropped = [r for _, r in result.rejected if "ignored" in r]
        return {"sessions": sessions, "digests": digests, "dropped": len(dropped), "s": seconds}


def concurrent_syncs(machines: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="wikimem-bench-") as tmp:
        root = Path(tmp)
        url = str(root / "remote.git")
        subprocess.run(["git", "init", "-q", "--bare", url], check=True)
        homes = [make_home(root, f"m{i:02d}") for i in range(machines)]
        for i, home in enumerate(homes):
            Path(home.memory_dir, "general").mkdir(exist_ok=True)
            Path(home.memory_dir, f"general/machine-{i:02d}.md").write_text(
                f"---\ntitle: Machine {i}\nkind: general\ntags: []\ncreated: 2026-11-01\n"
                f"updated: 2026-11-20T10:00:00Z\nsources: []\npinned: false\n---\n- m{i}\n"
            )
        start = time.perf_counter()
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "wikimem", "sync", "--remote", url, "--home", h.root],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for h in homes
        ]
        errors = []
        for proc in procs:
            _, err = proc.communicate()
            if proc.returncode != 0:
                errors.append(err.strip().splitlines()[-1] if err.strip() else "?")
        seconds = time.perf_counter() - start
        listing = subprocess.run(
            ["git", "-C", url, "ls-tree", "-r", "--name-only", "main"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        landed = sum(1 for i in range(machines) if f"general/machine-{i:02d}.md" in listing)
        return {
            "machines": machines,
            "ok": machines - len(errors),
            "notes on the remote": landed,
            "s": seconds,
            "errors": errors[:3],
        }


def hanging_ssh() -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="wikimem-bench-") as tmp:
        root = Path(tmp)
        url = str(root / "remote.git")
        subprocess.run(["git", "init", "-q", "--bare", url], check=True)
        pids = root / "ssh.pids"
        fake = root / "fake-ssh"
        fake.write_text(f'#!/bin/sh\necho $$ >> "{pids}"\nexec sleep 600\n')
        fake.chmod(0o755)
        home = make_home(root, "a")
        env = {**os.environ, "GIT_SSH_COMMAND": str(fake), "GIT_SSH_VARIANT": "simple"}
        start = time.perf_counter()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "wikimem",
                "sync",
                "--remote",
                f"host:{url}",
                "--home",
                home.root,
            ],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        seconds = time.perf_counter() - start
        time.sleep(0.5)
        alive = []
        for pid in pids.read_text().split() if pids.exists() else []:
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    if fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
                        alive.append(pid)
            except OSError:
                pass
        return {
            "s until sync gave up": seconds,
            "exit": proc.returncode,
            "ssh left running": len(alive),
            "said": proc.stderr.strip().splitlines()[-1][:160] if proc.stderr.strip() else "",
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10000)
    parser.add_argument("--machines", type=int, default=24)
    args = parser.parse_args()
    print(json.dumps(offline_dream(args.sessions)))
    print(json.dumps(concurrent_syncs(args.machines)))
    print(json.dumps(hanging_ssh()))


if __name__ == "__main__":
    main()
