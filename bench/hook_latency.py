"""Hook latency: `wikimem hook claude` on a PostToolUse payload vs `python -c pass`.

Budget (DESIGN §11): median wall ≤ 1.6× `python -c pass`, same interpreter, same run.
Measured on the command `wikimem install` writes into harness configs (`python -I -S
…/hookentry.py claude --home …`), and, for reference, the `wikimem` console script.

    python bench/hook_latency.py [--runs 40] [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import alternate, machine, median_ms, table

BUDGET = 1.6
REPO = Path(__file__).resolve().parents[1]
PAYLOAD = {
    "session_id": "3f2b8c1e-7d4a-4e9b-9c21-5a6f0d8e4b17",
    "transcript_path": "/home/user/.claude/projects/-home-user-proj/3f2b8c1e.jsonl",
    "cwd": "/home/user/proj",
    "permission_mode": "default",
    "hook_event_name": "PostToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "npm test -- auth", "description": "Run auth test suite"},
    "tool_response": {
        "stdout": "PASS src/auth.test.ts (3 tests)\n",
        "stderr": "",
        "interrupted": False,
    },
    "tool_use_id": "toolu_01HXk3v9QmZ7pL2sR8tYwN4a",
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--check", action="store_true", help="exit 1 when over budget")
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    from wikimem.harness.install import hook_command
    from wikimem.home import Home
    from wikimem.layout import init_home

    with tempfile.TemporaryDirectory() as tmp:
        home = Home(os.path.join(tmp, "home"))
        init_home(home)
        installed = shlex.split(hook_command("claude", home))
        stdin = json.dumps(PAYLOAD).encode()
        env = dict(os.environ, WIKIMEM_HOME=home.root)
        cases = {
            "python -c pass": ([sys.executable, "-c", "pass"], b""),
            "python -I -S -c pass": ([sys.executable, "-I", "-S", "-c", "pass"], b""),
            "installed hook command": (installed, stdin),
        }
        beside = Path(sys.executable).parent / "wikimem"
        script = str(beside) if beside.exists() else shutil.which("wikimem")
        if script:
            cases["wikimem hook claude (console script)"] = ([script, "hook", "claude"], stdin)
        results = alternate(cases, args.runs, env)
        base = median_ms(results["python -c pass"])
        rows = [
            [name, f"{median_ms(s):.1f}", f"{median_ms(s) / base:.2f}x"]
            for name, s in results.items()
        ]
        print(f"hook latency, median of {args.runs} alternating runs ({machine()})")
        print(table(rows, ["command", "median ms", "vs python -c pass"]))
        ratio = median_ms(results["installed hook command"]) / base
        print(
            f"\ninstalled hook: {ratio:.2f}x (budget {BUDGET}x) -> {'OK' if ratio <= BUDGET else 'OVER BUDGET'}"
        )
        recorded = sum(f.read_text().count("\n") for f in Path(home.events_dir).glob("*.jsonl"))
        print(f"records written: {recorded}")
        return 1 if args.check and ratio > BUDGET else 0


if __name__ == "__main__":
    raise SystemExit(main())
