"""`wikimem doctor`: is everything wired and healthy, and if not, exactly what to do.

Contract: `diagnose(home, project_dir)` returns `Check`s (ok / warn / fail / info) for the home,
config, the wiki's git state, the search index, the event log, and each harness: which events
are wired where, whether the installed command runs and how fast, Codex's hook trust (untrusted
hooks are skipped silently by Codex), Gemini CLI's folder trust (no hook runs in an untrusted
folder), Copilot CLI's folder trust (repository hooks are skipped silently in an untrusted
folder), hooks switched off in a harness's settings (`disableAllHooks` in Claude Code, Copilot CLI
and Qwen Code), and Cursor's double firing. Each problem carries a one-line fix. It changes
nothing, and reads only regular files within their bounds (`wikimem.boundedfile`; notes up to
`gate.max_note_bytes`): a config or state file it refused to read (a FIFO, a device, a link out
of the project) is reported, one line naming it.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
import tomllib
from typing import Any

from wikimem import boundedfile
from wikimem.checks import Check
from wikimem.harness import CLIENTS, is_wikimem_command
from wikimem.home import DEFAULT_HOME, Home
from wikimem.setup import codextrust, copilottrust
from wikimem.setup.wiring import (
    WIRING,
    Installed,
    config_path,
    installed,
    project_folder,
    qwen_dir,
)

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
    # the installed command names the event (--event)
    "copilot": {"sessionId": "wikimem-doctor", "timestamp": 0, "reason": "complete"},
    "opencode": {"session_id": "wikimem-doctor", "hook_event_name": "Stop"},
    "qwen": {
        "session_id": "wikimem-doctor",
        "hook_event_name": "Notification",
        "message": "doctor",
    },
    # the installed command names the event (--event)
    "antigravity": {"conversationId": "wikimem-doctor", "terminationReason": "NO_TOOL_CALL"},
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
    from wikimem.wiki.gitstore import GitError, NotOwned, Store, back_on_branch

    try:
        git = load_config(home).git
    except ConfigError:  # the config check says so; memory/ is checked all the same
        git = from_raw(merge({})).git
    try:
        store = Store(home.memory_dir, git)
    except NotOwned as exc:
        return [Check("git", "fail", str(exc).split(". ", 1)[0], str(exc).split(". ", 1)[-1])]
    except (GitError, Exception) as exc:  # a broken repository must not stop the other checks
        return [Check("git", "fail", f"memory/: {exc}", "inspect it with `git -C memory status`")]
    try:
        detached = store.detached()
        dirty = store.dirty_paths()
        head = store.head()
    except (GitError, Exception) as exc:
        return [Check("git", "fail", f"memory/: {exc}", "inspect it with `git -C memory status`")]
    if detached is not None:
        return [
            Check(
                "git",
                "fail",
                f"memory/ is not on a branch (detached HEAD at {detached[0][:10]}): dreams, "
                "`remember`, `edit` and `sync` refuse to commit until it is",
                back_on_branch(home.memory_dir, *detached),
            )
        ]
    if dirty and os.path.exists(home.state("batch-journal.json")):
        return []  # an interrupted batch: `leftovers` says what the next write does with it
    if dirty:
        return _uncommitted(home, store, dirty)
    return [Check("git", "ok", f"memory/ at {str(head)[:10]}, clean")]


def _shown(paths: list[str]) -> str:
    return ", ".join(paths[:5]) + (" …" if len(paths) > 5 else "")


def _uncommitted(home: Home, store: Any, dirty: list[str]) -> list[Check]:
    """What is uncommitted in memory/, with a way to review each kind: `git diff` shows a
    change to a committed file, never a new one; an invalid note is named with its fault."""
    from wikimem.watch.handedits import is_note_path
    from wikimem.wiki.gate import read_current
    from wikimem.wiki.notes import NoteError, parse_note, validate_path

    tracked = store.tracked() if store.has_commits() else set()
    changed = [p for p in dirty if p in tracked]
    new = [p for p in dirty if p not in tracked]
    invalid: list[str] = []
    for rel in dirty:
        if not is_note_path(rel):
            continue
        try:
            text = read_current(home.memory_dir, rel)
        except UnicodeDecodeError:
            invalid.append(f"{rel} (not UTF-8 text)")
            continue
        if text is None:
            continue  # deleted: a valid change
        try:
            validate_path(rel)
            parse_note(rel, text)
        except NoteError as exc:
            why = str(exc).removeprefix(f"{rel}: ")
            invalid.append(f"{rel} ({why})")
    review = []
    if changed:
        review.append(f"`git -C {home.memory_dir} diff` shows the changes to {_shown(changed)}")
    if new:
        review.append(f"new, not yet in git (open them to review): {_shown(new)}")
    out = [
        Check(
            "git",
            "warn",
            f"{len(dirty)} uncommitted change(s) in memory/: {_shown(dirty)}",
            "; ".join(review) + "; then commit them through the gate with `wikimem watch "
            "--once` (or keep `wikimem watch` running)",
        )
    ]
    if invalid:
        out.append(
            Check(
                "git",
                "warn",
                f"{len(invalid)} of them not a valid note, so never committed or pushed: "
                + "; ".join(invalid[:5])
                + (" …" if len(invalid) > 5 else ""),
                "fix the front matter (a `title` and a known `kind`) or the path, or delete "
                "the file",
            )
        )
    return out


def _review_checks(home: Home) -> list[Check]:
    """Claims kept contested: the rules could not tell whether the newer replaces the earlier."""
    from wikimem.recall.index import note_limit
    from wikimem.wiki.review import contested, held

    limit = note_limit(home.root)

    out = [
        Check(
            "claims",
            "warn",
            f"{h.path}: line {h.id} from {h.source} is held until you confirm it ({h.why}; it "
            f"is never given to an agent): {h.text[:160]}",
            f"if you mean it, `wikimem confirm {h.path} --line {h.id}`; else delete the line",
        )
        for h in held(home.memory_dir, home.state_dir, limit)
    ]
    from wikimem.wiki import origins

    for name in origins.oversized(home.state_dir):
        out.append(
            Check(
                "claims",
                "warn",
                f"state/{origins.DIR}/{name} is over {origins.MAX_BYTES >> 20} MB and is not "
                "read: no line of its notes is given to agents as yours",
                "split the project's notes, or say again what matters with `wikimem remember`",
            )
        )
    pairs = contested(home.memory_dir, limit)
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
        lines = boundedfile.read_text(home.errors_log, errors="replace").splitlines()
    except FileNotFoundError:
        lines = []
    except boundedfile.Refused as exc:
        lines = []
        out.append(_refused("events", exc))
    try:
        last = json.loads(boundedfile.read_text(home.state("dream.log")).splitlines()[-1])
        if isinstance(last, dict) and last.get("error"):
            out.append(
                Check(
                    "dream",
                    "fail",
                    f"the last automatic dream failed: {last['error']}",
                    f"run `wikimem dream` to see it; details in {home.state('dream.out')}",
                )
            )
    except boundedfile.Refused as exc:
        out.append(_refused("dream", exc))
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


def _refused(area: str, refusal: boundedfile.Refused | str) -> Check:
    return Check(
        area,
        "warn",
        str(refusal),
        "put a regular file in its place (or remove it); wikimem never reads a FIFO, a device, "
        "a file over its size limit or a link that leaves the folder the file belongs to",
    )


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
        data = tomllib.loads(boundedfile.read_text(config))
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
    except boundedfile.Refused as exc:
        out.append(_refused("codex", exc))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
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
            doc = json.loads(
                boundedfile.read_text(path, within=project_folder("codex", scope, project_dir))
            )
        except boundedfile.Refused as exc:
            out.append(_refused("hooks", exc))
            continue
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


def _settings_files(client: str, project_dir: str | None) -> dict[str, str | None]:
    """The settings files where a harness reads `disableAllHooks`, each with the folder it must
    resolve inside (a project's) or None (the user's own)."""
    if client == "claude":
        user = config_path("claude", "user")
        project = config_path("claude", "project", project_dir) if project_dir else None
    elif client == "qwen":
        user = os.path.join(qwen_dir(), "settings.json")
        project = os.path.join(project_dir, ".qwen", "settings.json") if project_dir else None
    else:
        user = os.path.join(copilottrust.copilot_home(), "settings.json")
        project = (
            os.path.join(project_dir, ".github", "copilot", "settings.json")
            if project_dir
            else None
        )
    files: dict[str, str | None] = {user: None}
    if project is not None and project_dir is not None:
        files.setdefault(project, os.path.abspath(project_dir))
    return files


def _disabled_hooks_checks(project_dir: str | None) -> list[Check]:
    out = []
    for client in ("claude", "copilot", "qwen"):
        for path, within in _settings_files(client, project_dir).items():
            try:
                doc = json.loads(boundedfile.read_text(path, within=within))
            except boundedfile.Refused as exc:
                out.append(_refused("hooks", exc))
                continue
            except (OSError, ValueError):
                continue
            if isinstance(doc, dict) and doc.get("disableAllHooks") is True:
                out.append(
                    Check(
                        client,
                        "fail",
                        f'{path} sets "disableAllHooks": true; no hook runs',
                        f"remove disableAllHooks from {path}",
                    )
                )
    return out


def _copilot_checks(found: list[Installed]) -> list[Check]:
    """Copilot CLI skips repository hooks silently in a folder it does not trust."""
    out = []
    for item in found:
        if item.client != "copilot" or item.scope != "project":
            continue
        folder = os.path.dirname(os.path.dirname(os.path.dirname(item.path)))
        try:
            trust = copilottrust.folder_trust(folder)
        except copilottrust.TrustFileError as exc:
            out.append(Check("copilot trust", "fail", str(exc), "fix it; Copilot refuses it too"))
            continue
        if trust.trusted:
            out.append(Check("copilot trust", "ok", f"Copilot CLI trusts {folder} ({trust.why})"))
            continue
        out.append(
            Check(
                "copilot trust",
                "fail",
                f"Copilot CLI skips the repository hooks in {item.path} (silently: nothing is "
                f"recorded or injected): {folder} is not trusted ({trust.why})",
                "trust the folder when Copilot asks, or run `wikimem install copilot --scope "
                f"project --project-dir {folder} --trust`",
            )
        )
    return out


def _opencode_checks(found: list[Installed]) -> list[Check]:
    plugins = [i for i in found if i.client == "opencode"]
    out = []
    if len(plugins) > 1:
        out.append(
            Check(
                "opencode",
                "info",
                "wikimem's plugin is installed for the user and for this project: OpenCode loads "
                "both, and the first one loaded serves each project (each event is recorded once)",
            )
        )
    for item in plugins:
        if item.command == "wikimem hook opencode":
            out.append(
                Check(
                    f"opencode ({item.scope})",
                    "info",
                    f"{item.path} runs `wikimem hook opencode` from PATH ($WIKIMEM_BIN), as "
                    "copied by hand",
                    f"run `wikimem install opencode --scope {item.scope}` for a faster, "
                    "absolute command",
                )
            )
    return out


def _antigravity_checks(home: Home, found: list[Installed]) -> list[Check]:
    """Antigravity is given memory only through the GEMINI.md it reads: is the block there and
    current? And its support is built from documentation, which is said once."""
    wired = [i for i in found if i.client == "antigravity"]
    if not wired:
        return []
    from wikimem.export.files import check
    from wikimem.setup.wiring import antigravity_context_file

    out = [
        Check(
            "antigravity",
            "info",
            "Antigravity CLI support is built from its documentation, not yet proven with a real "
            "agy (see harness-antigravity.md)",
        )
    ]
    for item in wired:
        project = os.path.dirname(os.path.dirname(item.path)) if item.scope == "project" else None
        path = antigravity_context_file(item.scope, project)
        try:
            [state] = check(home, [path], item.scope)
        except Exception as exc:
            out.append(Check(f"antigravity ({item.scope})", "warn", f"{path}: {exc}"))
            continue
        if state.state == "current":
            out.append(
                Check(
                    f"antigravity ({item.scope})",
                    "ok",
                    f"{path} holds wikimem's block, up to date: what Antigravity is given",
                )
            )
        else:
            out.append(
                Check(
                    f"antigravity ({item.scope})",
                    "warn",
                    f"{path}: wikimem's block is missing or stale ({state.detail or 'stale'}): "
                    "Antigravity's hooks record sessions but give none memory",
                    f"run `wikimem export --to {path}`",
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
    from wikimem import heldback  # after _index_checks brought the index up to date

    checks += [Check(f.area, f.status, f.detail, f.fix) for f in heldback.findings(home)]
    checks += _dream_checks(home)
    return checks + _wiring(home, project_dir)


def _dream_checks(home: Home) -> list[Check]:
    """Which model a dream would use, what else could be used here, and what it would send."""
    from wikimem.config import ConfigError, load_config
    from wikimem.dream import choice

    try:
        config = load_config(home)
    except ConfigError:
        return []
    out = []
    current, why = choice.in_use(config)
    from wikimem.dream import BACKENDS

    if current not in BACKENDS:
        return []  # the dream's own check says so (an unknown backend fails every dream)
    options = choice.survey(config)
    chosen = next((o for o in options if o.name == current), None)
    if chosen is not None and not chosen.usable and current != "offline":
        out.append(
            Check(
                "dream backend",
                "warn",
                f"dreams use {current} ({why}), which cannot work here: {chosen.detail}; "
                "dreams run offline until it can",
                f"fix that, or set another `backend` under [dream] in {home.config_path}",
            )
        )
    else:
        out.append(Check("dream backend", "ok", f"dreams use {current} ({why})"))
    for o in options:
        if o.name == current:
            continue
        state = "could be used" if o.usable else "not available"
        out.append(Check("dream backend", "info", f"{o.name}: {state}: {o.detail}; costs {o.cost}"))
    sends = choice.estimate(home, config).line()
    out.append(Check("dream backend", "info", f"what a model dream would send now: {sends}"))
    if current != "offline":
        from wikimem.dream import usage

        out.append(
            Check(
                "dream backend",
                "info",
                "model use today: "
                + usage.summary(
                    home, config.dream.max_calls_per_day, config.dream.max_tokens_per_day
                ),
            )
        )
    return out


def _wiring(home: Home, project_dir: str | None) -> list[Check]:
    refused: list[str] = []
    found = installed(project_dir, refused)
    checks = [_refused("hooks", line) for line in refused]
    if not found:
        checks.append(
            Check(
                "hooks",
                "warn",
                "wikimem is not wired into any harness",
                "run `wikimem install claude` (or codex, cursor, gemini, copilot, opencode, qwen, "
                "antigravity)",
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
    checks += _codex_checks(project_dir) + _disabled_hooks_checks(project_dir)
    checks += _copilot_checks(found) + _opencode_checks(found)
    checks += _antigravity_checks(home, found)
    from wikimem.setup.geminicheck import gemini_checks

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
    return list(dict.fromkeys(checks))  # a file refused by two checks is said once
