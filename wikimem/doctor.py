"""`wikimem doctor`: is everything wired and healthy, and if not, exactly what to do.

Contract: `diagnose(home, project_dir)` returns `Check`s (ok / warn / fail / info) for the home,
config, the wiki's git state, the search index, the event log, and each harness: which events
are wired where, whether the installed command runs and how fast, Codex's hook trust (untrusted
hooks are skipped silently by Codex), Gemini CLI's folder trust (no hook runs in an untrusted
folder), hooks switched off in a harness's settings, and Cursor's double firing. Each problem carries a one-line fix. It changes nothing.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass

from wikimem.harness import CLIENTS, codextrust, is_wikimem_command
from wikimem.harness.install import WIRING, Installed, config_path, installed
from wikimem.home import DEFAULT_HOME, Home


@dataclass(frozen=True)
class Check:
    area: str
    status: str  # ok | warn | fail | info
    detail: str
    fix: str = ""


PROBE_PAYLOADS = {
    "claude": {
        "session_id": "wikimem-doctor",
        "hook_event_name": "Notification",
        "message": "doctor",
    },
    "codex": {
        "session_id": "wikimem-doctor",
        "hook_event_name": "Stop",
        "last_assistant_message": "",
    },
    "cursor": {
        "conversation_id": "wikimem-doctor",
        "hook_event_name": "stop",
        "status": "completed",
    },
    "gemini": {
        "session_id": "wikimem-doctor",
        "hook_event_name": "Notification",
        "message": "doctor",
    },
}


def _home_checks(home: Home) -> list[Check]:
    out = []
    if not os.path.isdir(os.path.join(home.memory_dir, ".git")):
        return [Check("home", "fail", f"{home.root} is not initialised", "run `wikimem init`")]
    out.append(Check("home", "ok", home.root))
    for sub in (home.events_dir, home.state_dir):
        mode = os.stat(sub).st_mode & 0o777 if os.path.isdir(sub) else None
        if mode is not None and mode & 0o077:
            out.append(
                Check(
                    "home", "warn", f"{sub} is readable by others ({oct(mode)})", f"chmod 700 {sub}"
                )
            )
    from wikimem.config import ConfigError, load_config

    try:
        load_config(home)
        out.append(Check("config", "ok", home.config_path))
    except ConfigError as exc:
        out.append(Check("config", "fail", str(exc), f"fix {home.config_path}"))
    return out


def _git_checks(home: Home) -> list[Check]:
    from wikimem.config import ConfigError, from_raw, load_config
    from wikimem.rawconfig import merge
    from wikimem.wiki.gitstore import GitError, Store

    try:
        git = load_config(home).git
    except ConfigError:  # the config check says so; memory/ is checked all the same
        git = from_raw(merge({})).git
    try:
        store = Store(home.memory_dir, git)
        dirty = store.dirty_paths()
        head = store.head()
    except (GitError, Exception) as exc:  # a broken repository must not stop the other checks
        return [Check("git", "fail", f"memory/: {exc}", "inspect it with `git -C memory status`")]
    if dirty and os.path.exists(home.state("batch-journal.json")):
        return []  # an interrupted batch: `leftovers` says what the next write does with it
    if dirty:
        shown = ", ".join(dirty[:5]) + (" …" if len(dirty) > 5 else "")
        return [
            Check(
                "git",
                "warn",
                f"{len(dirty)} uncommitted change(s) in memory/: {shown}",
                f"review with `git -C {home.memory_dir} diff`, then commit them through the "
                "gate with `wikimem watch --once` (or keep `wikimem watch` running)",
            )
        ]
    return [Check("git", "ok", f"memory/ at {str(head)[:10]}, clean")]


def _review_checks(home: Home) -> list[Check]:
    """Claims kept contested: the rules could not tell whether the newer replaces the earlier."""
    from wikimem.wiki.review import contested, held

    out = [
        Check(
            "claims",
            "warn",
            f"{h.path}: held until you confirm it (it has an agent run a command fetched from "
            f"the network, so it is never injected): {h.text[:160]}",
            f"if you mean it, delete the mark (`wikimem edit {h.path}`); else delete the line",
        )
        for h in held(home.memory_dir)
    ]
    pairs = contested(home.memory_dir)
    if not pairs:
        return out
    first = pairs[0]
    out.append(
        Check(
            "claims",
            "warn",
            f"{len(pairs)} claim(s) kept contested, e.g. in {first.path}: "
            f'"{first.newer}" (newer) and "{first.earlier}" (earlier); agents are given both',
            "keep the true one: delete the other line (`wikimem edit "
            f"{first.path}` or Obsidian), or say which holds in a session or with "
            "`wikimem remember`",
        )
    )
    return out


def _index_checks(home: Home) -> list[Check]:
    from wikimem.recall.index import open_index

    try:
        index = open_index(home.state_dir, home.memory_dir)
        try:
            start = time.monotonic()
            index.refresh(full=True)
            notes = len(index.notes())
            ms = (time.monotonic() - start) * 1000
        finally:
            index.close()
    except Exception as exc:
        return [
            Check(
                "index",
                "fail",
                f"search index: {exc}",
                f"delete {home.state('index.sqlite3')}; it is rebuilt",
            )
        ]
    return [Check("index", "ok", f"{notes} notes indexed (full check {ms:.0f} ms)")]


def _events_checks(home: Home) -> list[Check]:
    from wikimem.dream.reader import pending_count
    from wikimem.dream.watermark import load_state

    mark = load_state(home)
    out = [
        Check(
            "events",
            "ok",
            f"{pending_count(home.events_dir, mark)} events wait for the next dream; "
            f"last dream {mark.last_dream or 'never'}",
        )
    ]
    try:
        with open(home.errors_log, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except FileNotFoundError:
        lines = []
    try:
        with open(home.state("dream.log"), encoding="utf-8") as fh:
            last = json.loads(fh.read().splitlines()[-1])
        if isinstance(last, dict) and last.get("error"):
            out.append(
                Check(
                    "dream",
                    "fail",
                    f"the last automatic dream failed: {last['error']}",
                    f"run `wikimem dream` to see it; details in {home.state('dream.out')}",
                )
            )
    except (OSError, ValueError, IndexError):
        pass
    recent = [
        ln for ln in lines if ln[:10] >= time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86400))
    ]
    if recent:
        out.append(
            Check(
                "events",
                "warn",
                f"{len(recent)} hook error(s) in the last day; latest: {recent[-1][:200]}",
                f"see {home.errors_log}",
            )
        )
    return out


def _probe(client: str, command: str) -> tuple[bool, float, str]:
    env = dict(os.environ, WIKIMEM_HOOK_PROBE="1")
    data = json.dumps(PROBE_PAYLOADS[client]).encode()
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            command, shell=True, input=data, capture_output=True, env=env, timeout=10
        )
    except subprocess.TimeoutExpired:
        return False, 10_000.0, "timed out"
    ms = (time.perf_counter() - start) * 1000
    return proc.returncode == 0, ms, proc.stderr.decode(errors="replace").strip()[-200:]


def _hook_checks(found: Installed) -> list[Check]:
    area = f"{found.client} ({found.scope})"
    out = []
    wanted = [e for e, _, _ in WIRING[found.client]]
    missing = [e for e in wanted if e not in found.events]
    if missing:
        out.append(
            Check(
                area,
                "warn",
                f"{found.path}: not wired for {', '.join(missing)}",
                f"run `wikimem install {found.client} --scope {found.scope}`",
            )
        )
    argv = shlex.split(found.command)
    absent = [a for a in argv[:4] if a.startswith("/") and not os.path.exists(a)]
    if absent:
        out.append(
            Check(
                area,
                "fail",
                f"the hook command points at {absent[0]}, which no longer exists",
                f"run `wikimem install {found.client} --scope {found.scope}` from the wikimem you use now",
            )
        )
        return out
    ok, ms, err = _probe(found.client, found.command)
    base = _python_start_ms()
    if not ok:
        out.append(
            Check(
                area,
                "fail",
                f"the hook command failed: {err or 'no output'}",
                f"run `wikimem install {found.client} --scope {found.scope}`",
            )
        )
    else:
        status = "ok" if ms < 10 * base else "warn"
        out.append(
            Check(
                area,
                status,
                f"{len(found.events)} events wired in {found.path}; hook runs in {ms:.0f} ms "
                f"({ms / base:.1f}x python start-up)",
            )
        )
    return out


_BASE_MS: list[float] = []


def _python_start_ms() -> float:
    if not _BASE_MS:
        samples = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=False)
            samples.append((time.perf_counter() - start) * 1000)
        _BASE_MS.append(sorted(samples)[1])
    return _BASE_MS[0]


def _codex_checks(project_dir: str | None) -> list[Check]:
    out = []
    config = codextrust.config_path()
    try:
        with open(config, "rb") as fh:
            data = tomllib.load(fh)
        features = data.get("features", {})
        if isinstance(features, dict) and (
            features.get("hooks") is False or features.get("codex_hooks") is False
        ):
            out.append(
                Check(
                    "codex",
                    "fail",
                    f"hooks are turned off in {config} ([features] hooks = false)",
                    f"set `hooks = true` under [features] in {config}",
                )
            )
    except FileNotFoundError:
        pass
    except tomllib.TOMLDecodeError as exc:
        out.append(Check("codex", "fail", f"{config} is not valid TOML: {exc}", f"fix {config}"))
    seen: set[str] = set()
    for scope in ("user", "project"):
        if scope == "project" and project_dir is None:
            continue
        path = config_path("codex", scope, project_dir)
        if os.path.realpath(path) in seen:
            continue
        seen.add(os.path.realpath(path))
        try:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            continue
        wanted = codextrust.handler_keys(
            path, doc, only=lambda h: is_wikimem_command(h.get("command"), "codex")
        )
        if not wanted:
            continue
        untrusted = codextrust.untrusted_handlers(config, wanted)
        if untrusted:
            events = sorted({k.split(":")[-3] for k in untrusted})
            out.append(
                Check(
                    "codex trust",
                    "fail",
                    f"Codex skips {len(untrusted)} of wikimem's {len(wanted)} hooks in {path} until you trust them "
                    f"(silently: nothing is recorded); untrusted: {', '.join(events)}",
                    "open Codex and run /hooks to review and trust them, or run "
                    f"`wikimem install codex{' --scope project' if scope == 'project' else ''} --trust`",
                )
            )
        else:
            out.append(
                Check(
                    "codex trust", "ok", f"Codex trusts all {len(wanted)} wikimem hooks in {path}"
                )
            )
    return out


def _claude_checks(project_dir: str | None) -> list[Check]:
    out = []
    for scope in ("user", "project"):
        if scope == "project" and project_dir is None:
            continue
        path = config_path("claude", scope, project_dir)
        try:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and doc.get("disableAllHooks") is True:
            out.append(
                Check(
                    "claude",
                    "fail",
                    f'{path} sets "disableAllHooks": true; no hook runs',
                    f"remove disableAllHooks from {path}",
                )
            )
    return out


def _command_home(command: str) -> str:
    """The home an installed hook command writes to (`--home`, else the default)."""
    argv = shlex.split(command)
    for i, arg in enumerate(argv):
        if arg == "--home" and i + 1 < len(argv):
            return Home(argv[i + 1]).root
        if arg.startswith("--home="):
            return Home(arg.split("=", 1)[1]).root
    return Home(DEFAULT_HOME).root


def diagnose(home: Home, project_dir: str | None = None) -> list[Check]:
    checks = _home_checks(home)
    if checks and checks[0].status == "fail":
        return checks + _wiring(home, project_dir)
    from wikimem import leftovers

    checks += _git_checks(home) + _index_checks(home) + _events_checks(home)
    checks += _review_checks(home)
    from wikimem.sync.health import checks as sync_checks

    checks += sync_checks(home)
    checks += [Check(f.area, f.status, f.detail, f.fix) for f in leftovers.findings(home)]
    return checks + _wiring(home, project_dir)


def _wiring(home: Home, project_dir: str | None) -> list[Check]:
    found = installed(project_dir)
    checks: list[Check] = []
    if not found:
        checks.append(
            Check(
                "hooks",
                "warn",
                "wikimem is not wired into any harness",
                "run `wikimem install claude` (or codex, cursor, gemini)",
            )
        )
    for item in found:
        checks += _hook_checks(item)
        target = _command_home(item.command)
        if target != home.root:
            checks.append(
                Check(
                    f"{item.client} ({item.scope})",
                    "warn",
                    f"the hook records into {target}, not this home ({home.root})",
                    f"run `wikimem install {item.client} --scope {item.scope} --home {home.root}`",
                )
            )
    checks += _codex_checks(project_dir) + _claude_checks(project_dir)
    from wikimem.harness.geminicheck import gemini_checks

    gemini = gemini_checks(project_dir, wired=any(i.client == "gemini" for i in found))
    checks += gemini
    clients = {i.client for i in found} | ({"gemini"} if gemini else set())
    if {"claude", "cursor"} <= clients:
        checks.append(
            Check(
                "cursor",
                "info",
                "Cursor also runs Claude Code's hooks; wikimem records each event once",
            )
        )
    for client in CLIENTS:
        if client not in clients:
            checks.append(
                Check(client, "info", f"not wired (optional): `wikimem install {client}`")
            )
    return checks
