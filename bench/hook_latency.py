"""Hook latency: `wikimem hook claude` on a PostToolUse payload vs `python -c pass`.

Budget (docs/architecture.md, "Budgets"): median wall ≤ 1.0× `python -c pass`, same interpreter,
same run (aim: ≤ 1.3× `python -I -S -c pass`, printed for reference).
Measured on the command `wikimem install` writes into harness configs (`python -I -S
…/hookentry.py claude --home …`), and, for reference, the `wikimem` console script. With
`--all-clients`, also the installed commands of GitHub Copilot CLI (`--event postToolUse`, a
fresh timestamp each run, so its one-record-per-event marker is made every time), OpenCode and
Qwen Code, each on a logging-only PostToolUse the real client sent (tests/fixtures/<client>).
With `--secrets`, also the installed command on a PostToolUse whose output carries 14 secrets of
common formats (drawn from a fixed seed, none real), the case redaction costs most on. With
`--beside PATH`, every installed case runs a second time from another checkout (a scratch
worktree of an earlier commit), alternating with this one, so both are measured in one run.

    python bench/hook_latency.py [--runs 40] [--check] [--all-clients] [--secrets]
                                 [--beside PATH]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Stdin, alternate, machine, median_ms, table

BUDGET = 1.0
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


def secrets_output() -> str:
    """A command's output with 14 secrets in it, the way `env` or a config dump shows them."""
    import random
    import string

    rng = random.Random(14)
    alnum = string.ascii_letters + string.digits

    def r(n: int, alphabet: str = alnum) -> str:
        return "".join(rng.choice(alphabet) for _ in range(n))

    hexdigits = "0123456789abcdef"
    lines = [
        f"GITHUB_TOKEN=ghp_{r(36)}",
        f"AWS_ACCESS_KEY_ID=AKIA{r(16, string.ascii_uppercase + string.digits)}",
        f"AWS_SECRET_ACCESS_KEY={r(40)}",
        f"OPENAI_API_KEY=sk-proj-{r(48)}",
        f"ANTHROPIC_API_KEY=sk-ant-api03-{r(93)}AA",
        f"SLACK_BOT_TOKEN=xoxb-{r(12, string.digits)}-{r(12, string.digits)}-{r(24)}",
        f"STRIPE_SECRET_KEY=sk_live_{r(24)}",
        f"GITLAB_TOKEN=glpat-{r(20)}",
        f"GOOGLE_API_KEY=AIza{r(35)}",
        f"NPM_TOKEN=npm_{r(36)}",
        f"DATABASE_URL=postgres://app:{r(16)}@db.internal:5432/app",
        f"SENTRY_AUTH_TOKEN=sntryu_{r(64, hexdigits)}",
        f"HF_TOKEN=hf_{r(34)}",
        f"auth: Bearer ey{r(20)}.ey{r(40)}.{r(43)}",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--check", action="store_true", help="exit 1 when over budget")
    ap.add_argument("--all-clients", action="store_true", help="Copilot, OpenCode, Qwen too")
    ap.add_argument("--secrets", action="store_true", help="a PostToolUse carrying 14 secrets")
    ap.add_argument("--beside", help="another checkout whose installed hook runs alongside")
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    from wikimem.home import Home
    from wikimem.layout import init_home
    from wikimem.setup.install import hook_command

    with tempfile.TemporaryDirectory() as tmp:
        home = Home(os.path.join(tmp, "home"))
        init_home(home)
        installed = shlex.split(hook_command("claude", home))
        stdin = json.dumps(PAYLOAD).encode()
        env = dict(os.environ, WIKIMEM_HOME=home.root)
        cases: dict[str, tuple[list[str], Stdin]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], b""),
            "python -I -S -c pass": ([sys.executable, "-I", "-S", "-c", "pass"], b""),
            "installed hook command": (installed, stdin),
        }
        beside = Path(sys.executable).parent / "wikimem"
        script = str(beside) if beside.exists() else shutil.which("wikimem")
        if script:
            cases["wikimem hook claude (console script)"] = ([script, "hook", "claude"], stdin)
        if args.beside:
            other = Home(os.path.join(tmp, "beside"))
            init_home(other)
            entry = str(Path(args.beside).resolve() / "wikimem" / "hookentry.py")
            argv = shlex.split(hook_command("claude", other))
            argv[argv.index(next(a for a in argv if a.endswith("hookentry.py")))] = entry
            cases[f"installed hook command of {args.beside}"] = (argv, stdin)
        if args.all_clients:
            cases.update(other_clients(home, hook_command))
        if args.secrets:
            heavy = dict(PAYLOAD, tool_response={"stdout": secrets_output(), "stderr": ""})
            cases["installed hook command, 14 secrets"] = (installed, json.dumps(heavy).encode())
        if args.beside:
            mine = str(REPO / "wikimem" / "hookentry.py")
            theirs = str(Path(args.beside).resolve() / "wikimem" / "hookentry.py")
            for name, (argv, stdin_) in list(cases.items()):
                if name.startswith("installed") and mine in argv:
                    other = [theirs if a == mine else a for a in argv]
                    cases[name.replace("installed", "beside: installed", 1)] = (other, stdin_)
        results = alternate(cases, args.runs, env)
        base = median_ms(results["python -c pass"])
        rows = [
            [name, f"{median_ms(s):.1f}", f"{median_ms(s) / base:.2f}x"]
            for name, s in results.items()
        ]
        print(f"hook latency, median of {args.runs} alternating runs ({machine()})")
        print(table(rows, ["command", "median ms", "vs python -c pass"]))
        ratio = max(
            median_ms(s) / base
            for name, s in results.items()
            if name.startswith("installed") and " of " not in name
        )
        print(
            f"\ninstalled hook (the slowest client's): {ratio:.2f}x (budget {BUDGET}x) -> "
            f"{'OK' if ratio <= BUDGET else 'OVER BUDGET'}"
        )
        recorded = sum(f.read_text().count("\n") for f in Path(home.events_dir).glob("*.jsonl"))
        print(f"records written: {recorded}")
        return 1 if args.check and ratio > BUDGET else 0


def other_clients(
    home: object, hook_command: Callable[..., str]
) -> dict[str, tuple[list[str], Stdin]]:
    fixtures = REPO / "tests" / "fixtures"

    def read(path: Path) -> str:
        # the Claude Code payload's file name: `test_auth` holds a redaction rule's trigger
        # (`_auth`), which would compile a regex the Claude Code case never does
        return path.read_text().replace("tests/test_auth.py", "src/auth.test.ts")

    copilot = json.loads(read(fixtures / "copilot" / "postToolUse.json"))
    stamps = itertools.count(copilot["timestamp"])

    def fresh_copilot() -> bytes:
        return json.dumps({**copilot, "timestamp": next(stamps)}).encode()

    return {
        "installed hook command, copilot": (
            shlex.split(hook_command("copilot", home, "postToolUse")),
            fresh_copilot,
        ),
        "installed hook command, opencode": (
            shlex.split(hook_command("opencode", home)),
            read(fixtures / "opencode" / "PostToolUse.json").encode(),
        ),
        "installed hook command, qwen": (
            shlex.split(hook_command("qwen", home)),
            read(fixtures / "qwen" / "PostToolUse.json").encode(),
        ),
    }


if __name__ == "__main__":
    raise SystemExit(main())
