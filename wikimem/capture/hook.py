"""`wikimem hook <client>`: the entry point every harness calls on every lifecycle event.

Contract (DESIGN §4): read one JSON object from stdin; append one normalised, redacted,
truncated record to `events/`; on SessionStart and UserPromptSubmit print the memory to inject in
the client's format; on Stop/SessionEnd maybe start a detached dream. Whatever happens (empty,
non-JSON or huge input, an unknown event, an unwritable home, a held lock, a slow disk) it exits 0,
prints nothing or valid JSON, leaves one line in `state/errors.log` and never a traceback, and
gives up at an internal deadline well under a second.

This is the hot path of every agent: standard library only (a test asserts it), nothing at import
time beyond what the event needs, and no pathlib, typing, dataclasses or tomllib.
"""

from __future__ import annotations

import os
import sys
import time

from wikimem.capture import events, fastjson
from wikimem.harness import CLIENTS, HookInputError, is_wikimem_command
from wikimem.home import Home, resolve_home

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import FrameType, ModuleType
    from typing import Any

DEADLINE_SECONDS = 0.75
MAX_PARSE_BYTES = 16 * 1024 * 1024  # bigger payloads are salvaged, not parsed
SALVAGE_HEAD = 1024 * 1024
REDACT_MARGIN = 1024
ERRORS_LOG_MAX = 1024 * 1024
TEXT_FIELDS = ("output", "error", "message", "summary")


class HookDeadline(Exception):
    """The hook's own deadline passed."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise HookDeadline(f"deadline of {_deadline_seconds()}s passed")


def main(argv: list[str] | None = None, stdin: Any = None, stdout: Any = None) -> int:
    """Run one hook invocation; always returns 0."""
    args = list(sys.argv[1:] if argv is None else argv)
    client, home_arg = _parse_args(args)
    home = resolve_home(home_arg)
    seconds = _deadline_seconds()
    armed = _arm_timer(seconds)
    output: str | None = None
    try:
        in_stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
        if client not in CLIENTS:
            raise HookInputError(f"unknown client {client!r}; expected one of {', '.join(CLIENTS)}")
        if in_stream is None:
            raise HookInputError("stdin is closed")
        output = handle(
            client, home, in_stream.read, time.monotonic() + seconds, os.environ, "--plugin" in args
        )
    except BaseException as exc:  # fail-open: the agent must never see us break
        _disarm_timer(armed)  # first: the alarm must not fire inside the error handling
        armed = False
        if not isinstance(exc, KeyboardInterrupt | SystemExit):
            log_error(home, client or "?", exc)
    finally:
        _disarm_timer(armed)
    if output:
        out_stream = stdout if stdout is not None else getattr(sys.stdout, "buffer", None)
        try:
            if out_stream is not None:
                out_stream.write(output.encode("utf-8", "surrogatepass"))
                out_stream.flush()
        except (OSError, ValueError):
            pass
    return 0


def _parse_args(args: list[str]) -> tuple[str | None, str | None]:
    client: str | None = None
    home: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--home" and i + 1 < len(args):
            home = args[i + 1]
            i += 2
            continue
        if arg.startswith("--home="):
            home = arg[len("--home=") :]
        elif client is None and not arg.startswith("-"):
            client = arg
        i += 1
    return client, home


def _deadline_seconds() -> float:
    raw = os.environ.get("WIKIMEM_HOOK_DEADLINE")
    if raw:
        try:
            return max(0.05, min(float(raw), 10.0))
        except ValueError:
            pass
    return DEADLINE_SECONDS


def _arm_timer(seconds: float) -> bool:
    """SIGALRM interrupts a blocked read, lock or write at the deadline (main thread only)."""
    try:
        sig = _signal_module()
        sig.signal(sig.SIGALRM, _on_alarm)
        sig.setitimer(sig.ITIMER_REAL, seconds)
        return True
    except (ValueError, OSError, AttributeError):  # not the main thread, or no SIGALRM
        return False


def _disarm_timer(armed: bool) -> None:
    if armed:
        sig = _signal_module()
        sig.setitimer(sig.ITIMER_REAL, 0)


def _signal_module() -> Any:
    # `_signal` is what `signal` wraps in enums; importing the wrapper costs ~0.7 ms.
    try:
        import _signal  # type: ignore[import-not-found]

        return _signal
    except ImportError:  # pragma: no cover
        import signal

        return signal


def _adapter(client: str) -> ModuleType:
    # Imported by name so only the one adapter this event needs is loaded.
    if client == "claude":
        from wikimem.harness import claude

        return claude
    if client == "codex":
        from wikimem.harness import codex

        return codex
    if client == "gemini":
        from wikimem.harness import gemini

        return gemini
    from wikimem.harness import cursor

    return cursor


def read_payload(read: Any) -> tuple[dict[str, Any] | None, int]:
    """(payload, size in bytes). Oversized input is salvaged from its head; None when empty."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = read(1 << 20)
        if not chunk:
            break
        total += len(chunk)
        if total <= MAX_PARSE_BYTES or sum(len(c) for c in chunks) < SALVAGE_HEAD:
            chunks.append(chunk)
        # beyond that: keep draining so the harness never sees a broken pipe
    raw = b"".join(chunks)
    if not raw.strip():
        return None, total
    if total > MAX_PARSE_BYTES:
        return _salvage(raw[:SALVAGE_HEAD], total), total
    try:
        payload = fastjson.loads(raw.decode("utf-8", "replace"))
    except ValueError as exc:
        raise HookInputError(
            f"stdin is not JSON ({exc.__class__.__name__}: {str(exc)[:80]})"
        ) from None
    if not isinstance(payload, dict):
        raise HookInputError(f"stdin is a JSON {type(payload).__name__}, not an object")
    return payload, total


def _salvage(head: bytes, total: int) -> dict[str, Any]:
    """The small top-level string fields of a payload too big to parse whole."""
    import re

    text = head.decode("utf-8", "replace")
    found: dict[str, Any] = {}
    for key in (
        "hook_event_name",
        "session_id",
        "conversation_id",
        "cwd",
        "tool_name",
        "tool_use_id",
        "prompt_id",
        "turn_id",
        "generation_id",
    ):
        m = re.search(rf'"{key}"\s*:\s*"((?:[^"\\]|\\.){{0,512}})"', text)
        if m:
            try:
                found[key] = fastjson.loads(f'"{m.group(1)}"')
            except ValueError:
                pass
    m = re.search(r'"workspace_roots"\s*:\s*\[\s*"((?:[^"\\]|\\.){0,1024})"', text)
    if m:
        found["workspace_roots"] = [fastjson.loads(f'"{m.group(1)}"')]
    found["__oversized__"] = total
    return found


def handle(
    client: str,
    home: Home,
    read: Any,
    deadline: float,
    env: Mapping[str, str],
    plugin: bool = False,
) -> str | None:
    payload, _ = read_payload(read)
    if payload is None:
        raise HookInputError("empty stdin")
    if plugin and _installed_hook_runs_too(client, payload, env):
        return None  # `wikimem install`'s hook records and injects this event (harness/plugin.py)
    if client == "claude" and env.get("CURSOR_VERSION") and _from_cursor(payload):
        client = _cursor_running_claude_hook(payload, env)
        if client == "":
            return None  # our Cursor hooks record this event; recording it here too would double it
    if client in ("claude", "gemini"):
        client = _claude_or_gemini(client, payload, env)
    adapter = _adapter(client)
    fields = adapter.normalise(payload, env)
    if fields is None:
        return None  # noise (Codex PreModelRequest)
    context = None
    try:
        settings = _settings(home, client)
        record = build_record(client, fields, settings, payload.get("__oversized__"))
        if env.get("WIKIMEM_HOOK_PROBE"):
            return None  # `wikimem doctor` timing the installed command: record nothing
        _ensure_dirs(home)
        if client == "gemini" and not adapter.first_delivery(home.state_dir, payload, time.time()):
            return None  # the same event through a second wiring (extension + install)
        events.append(home.events_dir, record, deadline)
        if record["event"] in ("SessionStart", "UserPromptSubmit"):
            context = _inject(home, record, settings, deadline)
        elif record["event"] == "PreCompact" and client == "gemini":
            _inject(home, record, settings, deadline)  # compression dropped what was given
        elif record["event"] in ("Stop", "SessionEnd"):
            _maybe_dream(home, settings)
    except Exception as exc:
        # Still answer the client below: Cursor's beforeSubmitPrompt expects its reply.
        log_error(home, client, exc)
        context = None
    rendered: str | None = adapter.render(fields["native_event"], fields["event"], context)
    return rendered


def _installed_hook_runs_too(client: str, payload: dict[str, Any], env: Mapping[str, str]) -> bool:
    from wikimem.harness.plugin import installed_covers

    native = payload.get("hook_event_name")
    return isinstance(native, str) and installed_covers(client, native, payload, env)


def _settings(home: Home, client: str) -> dict[str, Any]:
    from wikimem.rawconfig import ConfigError, load_raw, merge

    try:
        return load_raw(home)
    except ConfigError as exc:
        log_error(home, client, exc)
        return merge({})


def _claude_or_gemini(client: str, payload: dict[str, Any], env: Mapping[str, str]) -> str:
    """Gemini CLI gives its hooks CLAUDE_PROJECT_DIR and can run Claude Code hooks migrated into
    its settings, so `hook claude` may receive a Gemini event: it is recorded as Gemini's (once:
    see gemini.first_delivery), and a Claude Code event sent to `hook gemini` as Claude Code's.
    A Claude Code event outside Gemini takes the first return and loads nothing more."""
    native = payload.get("hook_event_name")
    if client == "claude" and not env.get("GEMINI_SESSION_ID"):
        from wikimem.harness import claude

        if native in claude.KNOWN:
            return client
    from wikimem.harness import gemini

    if gemini.sent_by_gemini(payload, env):
        return "gemini"
    if client == "gemini" and native in gemini.CLAUDE_ONLY:
        return "claude"
    return client


def _from_cursor(payload: dict[str, Any]) -> bool:
    """Cursor's own payload fields: CURSOR_VERSION alone could also be inherited by a real Claude
    Code started from Cursor's terminal, whose events must be recorded as Claude Code's."""
    return "conversation_id" in payload or "cursor_version" in payload


def _cursor_running_claude_hook(payload: dict[str, Any], env: Mapping[str, str]) -> str:
    """Cursor also runs Claude Code's hooks (third-party import). Record such an event once:
    not at all here when our own Cursor hooks are wired ('' = skip), else as a Cursor event."""
    roots = payload.get("workspace_roots")
    project = (
        env.get("CURSOR_PROJECT_DIR")
        or env.get("CLAUDE_PROJECT_DIR")
        or (roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None)
        or payload.get("cwd")
    )
    candidates = [os.path.join(os.path.expanduser("~"), ".cursor", "hooks.json")]
    if isinstance(project, str):
        candidates.append(os.path.join(project, ".cursor", "hooks.json"))
    for path in candidates:
        if _cursor_hooks_wired(path):
            return ""
    return "cursor"


def _cursor_hooks_wired(path: str) -> bool:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = fastjson.loads(fh.read())
        hooks = doc.get("hooks", {})
        return any(
            is_wikimem_command(entry.get("command"), "cursor")
            for entries in hooks.values()
            if isinstance(entries, list)
            for entry in entries
            if isinstance(entry, dict)
        )
    except (OSError, ValueError, AttributeError):
        return False


def build_record(
    client: str, fields: dict[str, Any], settings: dict[str, Any], oversized: object = None
) -> dict[str, Any]:
    """The normalised record: redacted, truncated, stamped with time and project."""
    from wikimem.capture.project import project_slug
    from wikimem.capture.redact import redact, redact_value

    limit = int(settings["events"]["max_output_bytes"])
    prompt_limit = int(settings["events"]["max_prompt_bytes"])
    cwd = fields.get("cwd")
    record: dict[str, Any] = {
        "v": events.RECORD_VERSION,
        "ts": events.utc_timestamp(),
        "client": client,
        "session": fields["session"],
        "event": fields["event"],
        "native_event": fields["native_event"],
        "cwd": cwd,
        "project": project_slug(cwd if isinstance(cwd, str) else None),
    }
    found: list[str] = []
    for key, value in fields.items():
        if key in record:
            continue
        if key == "prompt":
            value = clip(value, prompt_limit, found)
        elif key in TEXT_FIELDS:
            value = clip(value, limit, found)
        elif key == "input":
            value = clip_value(value, limit, found)
        elif isinstance(value, str):
            value, kinds = redact(value)
            found.extend(kinds)
        elif isinstance(value, list):
            value, kinds = redact_value(value)
            found.extend(kinds)
        record[key] = value
    for key in ("session", "cwd"):
        if isinstance(record[key], str):
            record[key], kinds = redact(record[key])
            found.extend(kinds)
    if found:
        record["redacted"] = len(found)
    if oversized:
        record["oversized_bytes"] = oversized
    return record


def clip(text: str, limit: int, found: list[str]) -> str:
    """Redact, then truncate to `limit` bytes. Redaction runs on a window a little larger than
    what is kept, so a secret straddling the cut is still recognised whole."""
    from wikimem.capture.redact import redact

    dropped = 0
    window = 2 * limit + REDACT_MARGIN
    # A key block reaching into the part cut away would lose its BEGIN line and no longer look
    # like a key: such text is redacted whole before anything is cut.
    if len(text) > window + limit and "PRIVATE KEY" not in text:
        dropped = len(text) - window - limit // 2
        text = text[:window] + text[len(text) - limit // 2 :]
    text, kinds = redact(text)
    found.extend(kinds)
    return events.truncate(text, limit, dropped)


def clip_value(value: object, limit: int, found: list[str]) -> object:
    """A tool input: strings clipped one by one, then the whole kept under ~limit bytes."""
    from wikimem.capture.redact import redact_value

    if isinstance(value, str):
        return clip(value, limit, found)

    def walk(v: object) -> object:
        if isinstance(v, str):
            return clip(v, limit, found) if len(v) > 64 else v
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v[:200]]
        return v

    value, kinds = redact_value(walk(value))
    found.extend(kinds)
    encoded = fastjson.dumps(value, ascii=False)
    if len(encoded.encode("utf-8", "surrogatepass")) > limit:
        return events.truncate(encoded, limit)
    return value


def _ensure_dirs(home: Home) -> None:
    for path in (home.root, home.events_dir, home.state_dir):
        if not os.path.isdir(path):
            os.makedirs(path, mode=0o700, exist_ok=True)


def _inject(
    home: Home, record: dict[str, Any], settings: dict[str, Any], deadline: float
) -> str | None:
    """Memory to inject for this event; None when there is none."""
    from wikimem.recall.inject import for_event

    return for_event(home, record, settings, deadline)


def _maybe_dream(home: Home, settings: dict[str, Any]) -> None:
    """Start a detached dream when one is due; never waits for it."""
    from wikimem.capture.autodream import maybe_dream

    maybe_dream(home, settings)


def log_error(home: Home, client: str, exc: BaseException | str) -> None:
    """One line in state/errors.log; never raises, never prints a traceback."""
    if isinstance(exc, BaseException):
        message = f"{exc.__class__.__name__}: {exc}"
    else:
        message = exc
    message = " ".join(message.split())[:500]
    line = f"{events.utc_timestamp()} hook {client}: {message}\n".encode("utf-8", "replace")
    try:
        os.makedirs(home.state_dir, mode=0o700, exist_ok=True)
        path = home.errors_log
        try:
            if os.stat(path).st_size > ERRORS_LOG_MAX:
                os.replace(path, path + ".1")
        except FileNotFoundError:
            pass
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
    except OSError:
        try:
            sys.stderr.write(f"wikimem: {message}\n")
        except (OSError, ValueError):
            pass
