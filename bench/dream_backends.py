"""Dream backends end to end: the table of docs/benchmarks.md ("Dream backends end to end").

For each model backend, with the real client where there is one (Claude Code, Codex CLI, Gemini
CLI, driven by the end-to-end driver kit read from ../shared/realclients when present, answering through their local mock APIs; the `anthropic` SDK
against the mock Messages API; `openai` against a stdlib Chat Completions server), in a
loopback-only network namespace, the scenes of tests/e2e/test_dream_backends.py are run and
measured:

  - a good answer: model requests for the one chunk, the operations applied and committed,
    occurrences of a secret (planted in a note by hand, so it reaches the prompt) in what was
    sent, and the dream's wall time;
  - a hostile answer (traversal, another project, /etc), a malformed one (prose, no JSON), and a
    tool attempt: refused, and the chunk consolidated offline?
  - the model unreachable (its API's port closed): the wall time of `wikimem dream` (the
    process, start-up included) until it has consolidated offline, its exit status and the lines
    it wrote on stderr.

    python bench/dream_backends.py [--backends anthropic,claude-cli,codex-cli,gemini-cli,openai]

Needs that kit with its real clients installed (its install.sh) and a network namespace
(root, or unprivileged user namespaces).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, table

REPO = Path(__file__).resolve().parents[1]
REALCLIENTS = REPO.parent / "shared" / "realclients"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REALCLIENTS))

import realclient_claude  # noqa: E402
import realclient_codex  # noqa: E402
import realclient_gemini  # noqa: E402

from tests.e2e import test_dream_backends as scenes  # noqa: E402

LEAKY = ("WIKIMEM_", "GIT_", "ANTHROPIC_", "CLAUDE", "CODEX_", "GEMINI_", "GOOGLE_", "OPENAI_")
RC = {
    "anthropic": realclient_claude,
    "claude-cli": realclient_claude,
    "codex-cli": realclient_codex,
    "gemini-cli": realclient_gemini,
    "openai": None,
}


def fresh_env(root: Path) -> Path:
    """A temporary user HOME and memory home, as the test suite's fixture makes them."""
    for var in list(os.environ):
        if var.startswith(LEAKY) or var.lower() in ("http_proxy", "https_proxy", "all_proxy"):
            del os.environ[var]
    userhome = root / "userhome"
    userhome.mkdir(parents=True)
    gitconfig = root / "gitconfig"
    gitconfig.write_text("[user]\n\tname = Bench\n\temail = bench@example.com\n")
    os.environ.update(
        HOME=str(userhome),
        WIKIMEM_HOME=str(root / "wikimem-home"),
        CODEX_HOME=str(userhome / ".codex"),
        GIT_CONFIG_GLOBAL=str(gitconfig),
        GIT_CONFIG_NOSYSTEM="1",
        LC_ALL="C.UTF-8",
    )
    return root / "wikimem-home"


def run(name: str, answer: Any, *, unreachable: bool = False) -> dict[str, Any]:
    """One scene; `answer` is the model's reply (or replies), or makes them from the scene's
    folder."""
    root = Path(tempfile.mkdtemp(prefix=f"bench-dream-{name}-"))
    try:
        home = fresh_env(root)
        backend = scenes.BACKENDS[name](RC[name], root)
        try:
            if unreachable:
                url = f"http://127.0.0.1:{scenes.closed_port()}/v1"
                backend.configure(url if name != "gemini-cli" else url[:-3])
            else:
                replies = answer(root, backend) if callable(answer) else answer
                backend.start(replies if isinstance(replies, list) else [replies])
            scenes.scene(home, root, backend)
            before = scenes.files_outside(root, home)
            proc, seconds = scenes.dream(backend)
            result = json.loads(proc.stdout) if proc.returncode == 0 else {}
            bodies = [] if unreachable else backend.bodies()
            decisions = home / "memory" / "projects" / scenes.PROJECT / "decisions.md"
            return {
                "exit": proc.returncode,
                "seconds": seconds,
                "requests": len(bodies),
                "secrets": json.dumps(bodies).count(scenes.SECRET),
                "applied": decisions.exists() and "5433" in decisions.read_text(),
                "model_chunks": result.get("model_chunks"),
                "offline_chunks": result.get("offline_chunks"),
                "fallback": (result.get("fallback") or [""])[0],
                "outside": sorted(scenes.files_outside(root, home) - before),
                "stderr": [ln for ln in proc.stderr.splitlines() if ln.strip()],
                "pwned": (root / "pwned.txt").exists(),
            }
        finally:
            backend.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def refused(r: dict[str, Any]) -> str:
    ok = r["model_chunks"] == 0 and r["offline_chunks"] == 1 and not r["outside"]
    return "yes, chunk offline" if ok and not r.get("pwned") else f"NO ({r})"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backends", default=",".join(scenes.BACKENDS))
    names = [n for n in parser.parse_args().backends.split(",") if n]
    if not realclient_claude.isolate_network():
        print("cannot create a loopback-only network namespace here", file=sys.stderr)
        return 1
    rows = []
    for name in names:
        good = run(name, scenes.GOOD)
        hostile = run(name, scenes.HOSTILE)
        malformed = run(name, scenes.MALFORMED)
        tool = None
        if name not in ("anthropic", "openai"):  # those offer no tool to attempt
            tool = run(name, lambda root, b: [b.tool_reply(root / "pwned.txt"), scenes.GOOD])
        down = run(name, None, unreachable=True)
        rows.append(
            [
                name,
                f"{good['requests']} for 1 chunk ({good['seconds']:.1f} s)",
                "1 claim, committed" if good["applied"] and good["model_chunks"] == 1 else "NO",
                str(good["secrets"]),
                f"{refused(hostile)} / {refused(malformed)}",
                refused(tool) if tool else "n/a (no tool to try)",
                f"{down['seconds']:.2f} s, exit {down['exit']}, {len(down['stderr'])} stderr line",
            ]
        )
        print(f"{name}: done; the unreachable case said: {down['stderr']}", file=sys.stderr)
    print(f"Dream backends end to end ({machine()}); real clients, mock APIs, loopback only\n")
    header = [
        "backend",
        "model requests",
        "operations applied",
        "secrets in request",
        "hostile / malformed answer refused",
        "tool attempt refused",
        "model unreachable: offline dream in",
    ]
    print(table(rows, header))
    return 0


if __name__ == "__main__":
    sys.exit(main())
