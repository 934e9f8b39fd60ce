"""What wikimem adds to a real harness session: hooks vs none.

A scripted session (Claude Code 2.1.332 `claude -p`, Gemini CLI 0.61.0 `gemini -p`, GitHub
Copilot CLI 1.0.102 `copilot -p`, OpenCode 1.18.33 `opencode run`, Qwen Code 0.24.4 `qwen -p`,
driven by the end-to-end driver kit read from ../shared/realclients when present, offline, against their mock APIs: one prompt, two shell commands,
the answer) is timed with wikimem installed by `wikimem install <client>` into one temporary
HOME, and with no hooks in another, alternating, over ≥ 10 runs. Reported: median wall per
session, the difference, and that difference per hook event the session fired (events recorded:
for OpenCode the plugin's, for Qwen without its empty re-fires, which start a process but record
nothing). The wiki holds a few notes, so session start and the prompt do inject. For the drivers
other than Claude Code's the time is the CLI process's own wall (the driver starts a mock and a
network namespace around each session; that is left out).

    python bench/e2e_overhead.py [--runs 12] [--client claude|gemini|copilot|opencode|qwen|all]
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
REALCLIENTS = REPO.parent / "shared" / "realclients"
PROMPT = "Why does the auth test fail? Run the tests."
TOOLS = ["echo 'FAIL tests/test_auth.py: TOKEN_TTL too large'", "echo 'PASS tests/test_auth.py'"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--client", choices=("claude", *DRIVERS, "all"), default="all")
    args = ap.parse_args()
    sys.path.insert(0, str(REALCLIENTS))
    status = 0
    if args.client in ("claude", "all"):
        status |= bench_claude(args.runs)
    for client in DRIVERS:
        if args.client in (client, "all"):
            if args.client == "all":
                print()
            status |= bench_driver(client, args.runs)
    return status


def bench_claude(runs: int) -> int:
    import realclient_claude as rc

    if not os.access(rc.CLAUDE_BIN, os.X_OK):
        print(f"Claude Code not installed at {rc.CLAUDE_BIN}; run ../shared/realclients/install.sh")
        return 2
    isolated = rc.isolate_network()
    with tempfile.TemporaryDirectory(prefix="wikimem-e2e-bench-") as tmp:
        root = Path(tmp)
        home = root / "wikimem-home"
        with_hooks, without = root / "user-with", root / "user-without"
        project = root / "acme-api"
        for p in (with_hooks, without, project):
            p.mkdir()
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        subprocess.run(
            ["git", "-C", str(project), "remote", "add", "origin", "git@github.com:acme/api.git"],
            check=True,
        )
        env = dict(os.environ, WIKIMEM_HOME=str(home), HOME=str(with_hooks))
        wikimem = [sys.executable, "-m", "wikimem"]
        subprocess.run(
            [*wikimem, "install", "claude", "--scope", "user"],
            env=env,
            check=True,
            capture_output=True,
        )
        for text in (
            "We use pnpm, never npm.",
            "The auth tests need TOKEN_TTL at most 900 seconds.",
        ):
            subprocess.run(
                [*wikimem, "remember", text, "--project", "acme-api"],
                env=env,
                check=True,
                capture_output=True,
            )
        mock = rc.MockAnthropic(root / "mock.jsonl").start()
        samples: dict[str, list[float]] = {"without hooks": [], "with wikimem": []}
        events_per_session = []
        try:
            for run in range(runs + 2):
                for name, user_home in (("without hooks", without), ("with wikimem", with_hooks)):
                    before = _count_events(home)
                    start = time.perf_counter()
                    result = rc.run_session(
                        None, PROMPT, str(project), str(user_home), mock=mock, tool_commands=TOOLS
                    )
                    elapsed = time.perf_counter() - start
                    if not result["ok"]:
                        raise SystemExit(f"session failed: {result['stderr'][-1500:]}")
                    if run >= 2:  # two warm-up rounds
                        samples[name].append(elapsed)
                        if name == "with wikimem":
                            events_per_session.append(_count_events(home) - before)
        finally:
            mock.stop()
        network = "loopback-only namespace" if isolated else "host (isolation not permitted)"
        _report(
            f"real Claude Code session with and without wikimem, median of {runs} alternating "
            f"runs ({machine()})\nnetwork: {network}\n",
            samples,
            events_per_session,
        )
    return 0


# client -> (driver module, the attribute naming its binary, name, options of every session)
DRIVERS: dict[str, tuple[str, str, str, dict[str, object]]] = {
    "gemini": ("realclient_gemini", "GEMINI_BIN", "Gemini CLI", {}),
    # user hooks: Copilot runs them in every folder (no trust written)
    "copilot": ("realclient_copilot", "COPILOT_BIN", "GitHub Copilot CLI", {"trust": "none"}),
    "opencode": ("realclient_opencode", "OPENCODE_BIN", "OpenCode", {}),
    "qwen": ("realclient_qwen", "QWEN_CLI_JS", "Qwen Code", {}),
}


def bench_driver(client: str, runs: int) -> int:
    """A client whose driver runs each session in a loopback-only namespace of its own and
    reports the CLI process's wall (`elapsed_s`)."""
    import importlib

    module, binary, name, options = DRIVERS[client]
    rc = importlib.import_module(module)
    if not os.path.exists(getattr(rc, binary)):
        print(
            f"{name} not installed at {getattr(rc, binary)}; run ../shared/realclients/install.sh"
        )
        return 2
    with tempfile.TemporaryDirectory(prefix=f"wikimem-e2e-bench-{client}-") as tmp:
        root = Path(tmp)
        home = root / "wikimem-home"
        with_hooks, without = root / "user-with", root / "user-without"
        project = _project(root)
        env = dict(os.environ, WIKIMEM_HOME=str(home), HOME=str(with_hooks))
        _install_and_seed(env, client)
        samples: dict[str, list[float]] = {"without hooks": [], "with wikimem": []}
        events_per_session = []
        for run in range(runs + 2):
            for label, user_home in (("without hooks", without), ("with wikimem", with_hooks)):
                before = _count_events(home)
                result = rc.run_session(
                    None, PROMPT, str(project), str(user_home), tool_commands=TOOLS, **options
                )
                if not result["ok"]:
                    raise SystemExit(f"session failed: {result['stderr'][-1500:]}")
                if run >= 2:  # two warm-up rounds
                    samples[label].append(float(result["elapsed_s"]))
                    if label == "with wikimem":
                        events_per_session.append(_count_events(home) - before)
        _report(
            f"real {name} session with and without wikimem, median of {runs} alternating "
            f"runs ({machine()})\nnetwork: loopback-only namespace (the driver's own)\n",
            samples,
            events_per_session,
        )
    return 0


def _project(root: Path) -> Path:
    project = root / "acme-api"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(
        ["git", "-C", str(project), "remote", "add", "origin", "git@github.com:acme/api.git"],
        check=True,
    )
    return project


def _install_and_seed(env: dict[str, str], client: str) -> None:
    wikimem = [sys.executable, "-m", "wikimem"]
    subprocess.run([*wikimem, "install", client], env=env, check=True, capture_output=True)
    for text in ("We use pnpm, never npm.", "The auth tests need TOKEN_TTL at most 900 seconds."):
        subprocess.run(
            [*wikimem, "remember", text, "--project", "acme-api"],
            env=env,
            check=True,
            capture_output=True,
        )


def _report(title: str, samples: dict[str, list[float]], events_per_session: list[int]) -> None:
    without_ms = statistics.median(samples["without hooks"]) * 1000
    with_ms = statistics.median(samples["with wikimem"]) * 1000
    events = statistics.median(events_per_session)
    print(title)
    print(
        table(
            [
                ["without hooks", f"{without_ms:.0f}", "-", "-"],
                [
                    "with wikimem",
                    f"{with_ms:.0f}",
                    f"{with_ms - without_ms:+.0f}",
                    f"{(with_ms - without_ms) / events:+.1f}",
                ],
            ],
            [
                "session",
                "median ms",
                "added ms per session",
                f"added ms per event ({events:.0f} events)",
            ],
        )
    )


def _count_events(home: Path) -> int:
    return (
        sum(f.read_text().count("\n") for f in (home / "events").glob("*.jsonl"))
        if (home / "events").exists()
        else 0
    )


if __name__ == "__main__":
    raise SystemExit(main())
