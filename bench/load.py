"""Load: concurrent hook events across clients while dreams and `remember` run.

Each of `--writers` processes sends `--events` hook events, cycling through the registered
clients and their main events (session start, prompt, tool call, stop), each carrying a unique
marker; meanwhile one process runs a dream after another and one runs `wikimem remember`.
Checked on every run, whatever the machine: no event lost, torn or recorded twice; every event
consolidated by exactly one committed dream; every `remember` committed once; nothing left
uncommitted. Measured: the wall time of each hook as p50/p95/p99 ratios to `python -c pass`
started the same way, interleaved with the hooks in the same run, first on an otherwise idle
machine, then with the CPU saturated (2 busy processes per core).

    python bench/load.py                                  # 16 x 500, idle then saturated
    python bench/load.py --writers 4 --events 40 --no-saturated   # a quick look

`--inproc` calls the hook in forked processes instead of starting the installed command (no
interpreter start-up: what tests/test_load.py runs in the normal suite); latency is then not
comparable and is not printed. Timing figures are for a quiet machine (docs/benchmarks.md);
the correctness checks hold anywhere.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

MARK = re.compile(r"load-w(\d+)-e(\d+)")
SESSION_EVERY = 25  # a writer starts a new session every this many events
BASELINE_EVERY = 4  # one `python -c pass` per this many hooks, interleaved


# -- events --------------------------------------------------------------------------------------


def payload(client: str, writer: int, i: int, session: str, cwd: str) -> dict[str, Any]:
    """The i-th event of a writer in `client`'s own format; its marker is `load-w<w>-e<i>`."""
    mark = f"load-w{writer}-e{i}"
    kind = ("start", "prompt", "tool", "stop")[i % 4] if i % SESSION_EVERY else "start"
    if client in ("claude", "codex"):
        base = {"session_id": session, "cwd": cwd, "transcript_path": f"/tmp/{session}.jsonl"}
        if kind == "start":
            return {**base, "hook_event_name": "SessionStart", "source": f"startup {mark}"}
        if kind == "prompt":
            return {**base, "hook_event_name": "UserPromptSubmit", "prompt": f"fix {mark} please"}
        if kind == "tool":
            return {
                **base,
                "hook_event_name": "PostToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": f"pytest -k {mark}"},
                "tool_response": {"stdout": "1 passed", "stderr": ""}
                if client == "claude"
                else "1 passed",
            }
        return {**base, "hook_event_name": "Stop", "last_assistant_message": f"done {mark}"}
    if client == "cursor":
        base = {
            "conversation_id": session,
            "generation_id": str(uuid.uuid4()),
            "workspace_roots": [cwd],
            "cursor_version": "3.12.17",
        }
        if kind == "start":
            return {**base, "hook_event_name": "sessionStart", "model": f"m {mark}"}
        if kind == "prompt":
            return {**base, "hook_event_name": "beforeSubmitPrompt", "prompt": f"fix {mark}"}
        if kind == "tool":
            return {
                **base,
                "hook_event_name": "afterShellExecution",
                "command": f"pytest -k {mark}",
                "output": "1 passed",
            }
        return {**base, "hook_event_name": "afterAgentResponse", "text": f"done {mark}"}
    if client == "copilot":
        # camelCase, no event name in the payload: `writer` passes it as the command's --event
        # (popped from here); millisecond times, one per event (the same payload twice is one)
        camel: dict[str, Any] = {"sessionId": session, "cwd": cwd, "timestamp": _unique_ms()}
        if kind == "start":
            return {**camel, "hook_event_name": "sessionStart", "source": f"new {mark}"}
        if kind == "prompt":
            return {**camel, "hook_event_name": "userPromptSubmitted", "prompt": f"fix {mark}"}
        if kind == "tool":
            return {
                **camel,
                "hook_event_name": "postToolUse",
                "toolName": "bash",
                "toolArgs": {"command": f"pytest -k {mark}"},
                "toolResult": {
                    "resultType": "success",
                    "textResultForLlm": "1 passed\n<shellId: 0 completed with exit code 0>",
                },
            }
        return {**camel, "hook_event_name": "agentStop", "stopReason": f"end_turn {mark}"}
    if client in ("opencode", "qwen"):  # Claude Code's shape (OpenCode's: wikimem's plugin's)
        base = {"session_id": session, "cwd": cwd}
        if kind == "start":
            return {**base, "hook_event_name": "SessionStart", "source": f"startup {mark}"}
        if kind == "prompt":
            return {**base, "hook_event_name": "UserPromptSubmit", "prompt": f"fix {mark} please"}
        if kind == "tool":
            tool = "bash" if client == "opencode" else "run_shell_command"
            response: dict[str, Any] = (
                {"output": "1 passed", "metadata": {"exit": 0}}
                if client == "opencode"
                else {"llmContent": "Command: x\nOutput: 1 passed\nExit Code: 0"}
            )
            return {
                **base,
                "hook_event_name": "PostToolUse",
                "tool_name": tool,
                "tool_input": {"command": f"pytest -k {mark}"},
                "tool_response": response,
            }
        return {**base, "hook_event_name": "Stop", "last_assistant_message": f"done {mark}"}
    if client == "antigravity":
        # Antigravity CLI records no prompt or answer (none is in its documented payloads): each
        # event here is a tool call carrying the marker in its command line; camelCase, no event
        # name in the payload (`writer` passes it as the command's --event)
        return {
            "hook_event_name": "PostToolUse",
            "conversationId": session,
            "stepIdx": i,
            "workspacePaths": [cwd],
            "toolCall": {
                "name": "run_command",
                "args": {"CommandLine": f"pytest -k {mark}", "Cwd": cwd},
            },
        }
    if client != "gemini":
        raise ValueError(f"bench/load.py has no events for the client {client!r} yet: add them")
    # Gemini CLI: BeforeAgent is the prompt, AfterTool the tool call, AfterAgent the stop
    # each event its own time, as Gemini CLI gives it (the same payload twice is one event)
    base = {"session_id": session, "cwd": cwd, "timestamp": _utc_now_ms()}
    if kind == "start":
        return {**base, "hook_event_name": "SessionStart", "source": f"startup {mark}"}
    if kind == "prompt":
        return {**base, "hook_event_name": "BeforeAgent", "prompt": f"fix {mark}"}
    if kind == "tool":
        return {
            **base,
            "hook_event_name": "AfterTool",
            "tool_name": "run_shell_command",
            "tool_input": {"command": f"pytest -k {mark}"},
            "tool_response": {"llmContent": "1 passed"},
        }
    return {**base, "hook_event_name": "AfterAgent", "prompt_response": f"done {mark}"}


_LAST_MS = [0]


def _unique_ms() -> int:
    """Epoch milliseconds, never the same twice in this process (Copilot CLI's timestamps)."""
    _LAST_MS[0] = max(int(time.time() * 1000), _LAST_MS[0] + 1)
    return _LAST_MS[0]


def _utc_now_ms() -> str:
    now = time.time()
    return (
        time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1e6) % 1000000:06d}Z"
    )


def markers_in(value: object) -> list[str]:
    return [m.group(0) for m in MARK.finditer(json.dumps(value))]


# -- the processes -------------------------------------------------------------------------------


def _wall(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, bytes]:
    """(wall seconds, what it wrote on stderr: a hook must write nothing there)."""
    start = time.perf_counter()
    proc = subprocess.run(
        argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False
    )
    return time.perf_counter() - start, proc.stderr


def writer(home: str, clients: list[str], w: int, n: int, inproc: bool, out: str, cwd: str) -> None:
    """Send n events; write the hooks' and the interleaved baseline's wall times to `out`."""
    os.environ["WIKIMEM_HOME"] = home
    from wikimem.home import Home
    from wikimem.setup.install import hook_command

    hooks: list[float] = []
    baseline: list[float] = []
    noisy: list[str] = []
    env = dict(os.environ, WIKIMEM_HOME=home)
    session = str(uuid.uuid4())
    for i in range(n):
        if i % SESSION_EVERY == 0:
            session = str(uuid.uuid4())
        client = clients[(w + i) % len(clients)]
        event = payload(client, w, i, session, cwd)
        named = event.pop("hook_event_name") if client in ("copilot", "antigravity") else None
        data = json.dumps(event).encode()
        if inproc:
            from wikimem.capture import hook

            argv = [client] + (["--event", named] if named else [])
            hook.main(argv, stdin=io.BytesIO(data), stdout=io.BytesIO())
            continue
        wall, err = _wall(shlex.split(hook_command(client, Home(home), named)), data, env)
        hooks.append(wall)
        if err:
            noisy.append(err.decode("utf-8", "replace")[-300:])
        if i % BASELINE_EVERY == 0:
            baseline.append(_wall([sys.executable, "-c", "pass"], b"", env)[0])
    Path(out).write_text(json.dumps({"hooks": hooks, "baseline": baseline, "stderr": noisy}))


class RecordingOffline:
    """The offline backend, noting which markers each dream was given."""

    name = "offline"
    needs_prompt = False

    def __init__(self) -> None:
        from wikimem.dream.offline import OfflineBackend

        self.inner = OfflineBackend()
        self.seen: list[str] = []

    def propose(self, request: Any, read: Any) -> Any:
        for s in request.sessions:
            for record in s.events:
                self.seen.extend(markers_in(record))
        return self.inner.propose(request, read)


def dream_once(home: str, log: str) -> bool:
    """One dream; on success, append the markers it consolidated to `log`."""
    from wikimem.dream.runner import DreamBusy, run_dream
    from wikimem.home import Home
    from wikimem.lock import LockBusy

    backend = RecordingOffline()
    try:
        result = run_dream(Home(home), backend)  # type: ignore[arg-type]
    except (DreamBusy, LockBusy):
        return False
    with open(log, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"markers": backend.seen, "events": result.events}) + "\n")
    return True


def dreamer(home: str, log: str, stop: str) -> None:
    os.environ["WIKIMEM_HOME"] = home
    while not os.path.exists(stop):
        dream_once(home, log)
        time.sleep(0.2)


def rememberer(home: str, count: int, log: str, stop: str) -> None:
    os.environ["WIKIMEM_HOME"] = home
    from wikimem.home import Home
    from wikimem.lock import LockBusy
    from wikimem.wiki.batch import Wiki
    from wikimem.wiki.remember import remember

    wiki = Wiki(Home(home))
    done = 0
    while done < count:
        try:
            result = remember(
                wiki, f"remember that queue {done} drains into bucket b{done}", path=None
            )
        except LockBusy:
            time.sleep(0.1)
            continue
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"n": done, "commit": result.commit}) + "\n")
        done += 1
        if os.path.exists(stop):
            break
        time.sleep(0.05)


def _busy() -> None:
    while True:
        pass


# -- one run -------------------------------------------------------------------------------------


@dataclass
class Report:
    expected: int = 0
    recorded: int = 0
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    torn_lines: int = 0
    consolidated_twice: list[str] = field(default_factory=list)
    never_consolidated: list[str] = field(default_factory=list)
    dreams: int = 0
    remembered: int = 0
    remember_commits: int = 0
    uncommitted: str = ""
    pending_after: int = 0
    stderr: list[str] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    hooks: list[float] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (
            self.lost
            or self.duplicated
            or self.torn_lines
            or self.consolidated_twice
            or self.never_consolidated
            or self.uncommitted
            or self.pending_after
            or self.stderr
            or self.remember_commits != self.remembered
        )

    def problems(self) -> dict[str, object]:
        return {
            "lost": self.lost[:5],
            "duplicated": self.duplicated[:5],
            "torn_lines": self.torn_lines,
            "consolidated_twice": self.consolidated_twice[:5],
            "never_consolidated": self.never_consolidated[:5],
            "uncommitted": self.uncommitted[:200],
            "pending_after": self.pending_after,
            "hooks writing to stderr": self.stderr[:3],
            "remember": f"{self.remember_commits} commits for {self.remembered} remembered",
        }


def make_home(root: str) -> str:
    from wikimem.home import Home
    from wikimem.layout import init_home

    home = Home(os.path.join(root, "home"))
    init_home(home)
    config = Path(home.config_path)
    # dreams run on purpose here (and their count is checked): none spawned by a Stop hook
    config.write_text(config.read_text().replace("[dream]\n", "[dream]\nauto = false\n"))
    return home.root


def run(
    writers: int,
    events: int,
    *,
    inproc: bool = False,
    saturate: int = 0,
    remembers: int = 20,
    root: str | None = None,
) -> Report:
    """One load run in a fresh home under `root` (a temporary directory by default)."""
    from wikimem.harness import CLIENTS

    tmp = tempfile.TemporaryDirectory() if root is None else None
    base = tmp.name if tmp is not None else str(root)
    try:
        return _run(base, list(CLIENTS), writers, events, inproc, saturate, remembers)
    finally:
        if tmp is not None:
            tmp.cleanup()


def _run(
    base: str,
    clients: list[str],
    writers: int,
    events: int,
    inproc: bool,
    saturate: int,
    remembers: int,
) -> Report:
    ctx = multiprocessing.get_context("fork")
    home = make_home(base)
    cwd = os.path.join(base, "project")
    os.makedirs(cwd, exist_ok=True)
    dream_log = os.path.join(base, "dreams.jsonl")
    remember_log = os.path.join(base, "remember.jsonl")
    stop = os.path.join(base, "stop")
    busy = [ctx.Process(target=_busy, daemon=True) for _ in range(saturate)]
    for p in busy:
        p.start()
    started = time.monotonic()
    side = [
        ctx.Process(target=dreamer, args=(home, dream_log, stop)),
        ctx.Process(target=rememberer, args=(home, remembers, remember_log, stop)),
    ]
    outs = [os.path.join(base, f"writer-{w}.json") for w in range(writers)]
    procs = [
        ctx.Process(target=writer, args=(home, clients, w, events, inproc, outs[w], cwd))
        for w in range(writers)
    ]
    try:
        for p in side + procs:
            p.start()
        for p in procs:
            p.join()
        Path(stop).touch()
        for p in side:
            p.join(300)
    finally:
        for p in busy + procs + side:  # on any failure too: nothing may outlive the run
            if p.is_alive():
                p.kill()
            if p.pid is not None:
                p.join()
    report = Report(seconds=time.monotonic() - started)
    while not dream_once(home, dream_log):  # the last events, once nothing else runs
        time.sleep(0.1)
    _check(report, home, writers, events, dream_log, remember_log)
    for out in outs:
        data = json.loads(Path(out).read_text())
        report.hooks += data["hooks"]
        report.baseline += data["baseline"]
        report.stderr += data["stderr"]
    return report


def _check(
    report: Report, home: str, writers: int, events: int, dream_log: str, remember_log: str
) -> None:
    from wikimem.dream.reader import pending_count
    from wikimem.dream.runner import current_watermark
    from wikimem.home import Home
    from wikimem.wiki.batch import Wiki

    expected = {f"load-w{w}-e{i}" for w in range(writers) for i in range(events)}
    report.expected = len(expected)
    seen: dict[str, int] = {}
    for f in sorted(Path(home, "events").glob("*.jsonl")):
        for line in f.read_bytes().split(b"\n"):
            if not line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                report.torn_lines += 1
                continue
            report.recorded += 1
            for m in set(markers_in(record)):
                seen[m] = seen.get(m, 0) + 1
    report.lost = sorted(expected - set(seen))
    report.duplicated = sorted(m for m, n in seen.items() if n > 1)
    consolidated: dict[str, int] = {}
    for line in Path(dream_log).read_text().splitlines():
        entry = json.loads(line)
        report.dreams += 1
        for m in set(entry["markers"]):
            consolidated[m] = consolidated.get(m, 0) + 1
    report.consolidated_twice = sorted(m for m, n in consolidated.items() if n > 1)
    report.never_consolidated = sorted(set(seen) - set(consolidated))
    lines = Path(remember_log).read_text().splitlines() if Path(remember_log).exists() else []
    report.remembered = len(lines)
    wiki = Wiki(Home(home))
    log = subprocess.run(
        ["git", "-C", wiki.memory_dir, "log", "--format=%s"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    report.remember_commits = sum(1 for s in log if s.startswith("remember:"))
    report.uncommitted = subprocess.run(
        ["git", "-C", wiki.memory_dir, "status", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    report.pending_after = pending_count(Home(home).events_dir, current_watermark(Home(home), wiki))
    errors_log = Path(home, "state", "errors.log")
    if errors_log.exists():
        for line in errors_log.read_text().splitlines():
            what = line.split(": ", 1)[-1]
            key = re.sub(r"\d+(\.\d+)?", "N", what)[:70]
            report.errors[key] = report.errors.get(key, 0) + 1


# -- the command ---------------------------------------------------------------------------------


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_rows(name: str, r: Report) -> list[list[str]]:
    if not r.hooks or not r.baseline:
        return []
    row = [name, str(len(r.hooks))]
    for q in (0.5, 0.95, 0.99):
        hook, base = percentile(r.hooks, q), percentile(r.baseline, q)
        row.append(f"{hook * 1000:.0f} ms / {base * 1000:.0f} ms = {hook / base:.2f}x")
    return [row]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--writers", type=int, default=16)
    ap.add_argument("--events", type=int, default=500)
    ap.add_argument("--remembers", type=int, default=20)
    ap.add_argument("--no-saturated", action="store_true", help="skip the saturated phase")
    ap.add_argument("--inproc", action="store_true", help="no interpreter start-up per hook")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _common import machine, table

    phases = [("idle", 0)] + (
        [] if args.no_saturated else [("saturated", 2 * (os.cpu_count() or 2))]
    )
    reports = []
    for name, busy in phases:
        r = run(
            args.writers, args.events, inproc=args.inproc, saturate=busy, remembers=args.remembers
        )
        reports.append((name, busy, r))
    print(f"load: {args.writers} writers x {args.events} events, {machine()}")
    rows = [
        [
            f"{name} ({busy} busy)",
            f"{r.recorded}/{r.expected}",
            str(len(r.lost)),
            str(r.torn_lines),
            str(len(r.duplicated)),
            f"{r.dreams}, twice {len(r.consolidated_twice)}, never {len(r.never_consolidated)}",
            f"{r.remember_commits}/{r.remembered}",
            f"{r.seconds:.0f}s",
            "OK" if r.ok else "FAIL",
        ]
        for name, busy, r in reports
    ]
    print(
        table(
            rows,
            ["phase", "recorded", "lost", "torn", "dup", "dreams", "remember", "time", "checks"],
        )
    )
    lat = [row for name, busy, r in reports for row in latency_rows(f"{name} ({busy} busy)", r)]
    if lat:
        print("\nhook wall time vs `python -c pass` interleaved in the same run (p: percentile)")
        print(table(lat, ["phase", "hooks", "p50", "p95", "p99"]))
    for name, _, r in reports:
        if r.errors:
            print(f"\n{name}: state/errors.log lines by kind")
            for what, n in sorted(r.errors.items(), key=lambda kv: -kv[1])[:8]:
                print(f"  {n:6d}  {what}")
        if not r.ok:
            print(f"\n{name}: FAILED {json.dumps(r.problems())}")
    return 0 if all(r.ok for _, _, r in reports) else 1


if __name__ == "__main__":
    raise SystemExit(main())
