"""`wikimem hook <client>`: the entry point every harness calls on every lifecycle event.

Contract (docs/architecture.md): read one JSON object from stdin; append one normalised, redacted,
truncated record to `events/`; on SessionStart and UserPromptSubmit print the memory to inject in
the client's format; on Stop/SessionEnd maybe start a detached dream. Whatever happens (empty,
non-JSON, deeply nested or huge input, an unknown event, an unwritable home, a held lock, a slow
disk) it exits 0, prints nothing or valid JSON, leaves one line in `state/errors.log` and never a
traceback.

Two clocks bound it. The record is the one thing that must not be lost, so the deadline never
cuts it: only a stdin that never closes or a lock a stuck writer keeps holding gives up, after
`RECORD_WAIT_SECONDS` of waiting for that one thing (CPU starvation before or during the work is
not waiting, and costs nothing). The files read before the record (config.toml, the project's
`.git` file and git config) are read through `wikimem.boundedfile` (regular files of bounded
size: a FIFO or /dev/zero is refused, not waited on or read) and each within
`RECORD_WAIT_SECONDS`: one that cannot be read in time is logged and done without (the default
settings, the folder's name as the project), and the record is written all the same. The
internal deadline (`DEADLINE_SECONDS` from the start) bounds the optional work that follows the
record, every read in it included: injection and the auto-dream check start only before it and
are cut at it. A hook that reaches the record after its deadline (a busy machine) records and
skips the optional work, saying so in the error log.

This is the hot path of every agent: standard library only (a test asserts it), nothing at import
time beyond what the event needs, and no pathlib, typing, dataclasses or tomllib.
"""

from __future__ import annotations

import os
import sys
import time

from wikimem import boundedfile
from wikimem.capture import events, fastjson
from wikimem.harness import CLIENTS, HookInputError, is_wikimem_command
from wikimem.home import Home, resolve_home

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from types import FrameType, ModuleType
    from typing import Any

DEADLINE_SECONDS = 0.75  # optional work (injection, auto-dream) starts before this and stops at it
RECORD_WAIT_SECONDS = 3.0  # longest wait for stdin to close, or for the events file's lock
ALARM_REPEAT = 0.05  # seconds between alarms once a bound has passed, until work stops
MAX_PARSE_BYTES = 16 * 1024 * 1024  # bigger payloads are salvaged, not parsed
SALVAGE_BYTES = 1024 * 1024  # of an oversized payload, its first and last MB are searched
SALVAGE_TEXT_CHARS = 64 * 1024  # the head kept of a big text field in an oversized payload
MAX_DEPTH = 32  # containers nested deeper are replaced by a marker
DEPTH_MARK = "[…wikimem: nested deeper than {} levels, dropped…]"
REDACT_MARGIN = 1024
SHORT_LIMIT = (
    1024  # identifiers and names (session, tool, model, reason …): no legitimate one is longer
)
PATH_LIMIT = 4096  # PATH_MAX
LIST_LIMIT = 50  # items of a list field (files), each at most LIST_ITEM_LIMIT
LIST_ITEM_LIMIT = 512
ERRORS_LOG_MAX = 1024 * 1024
TEXT_FIELDS = ("output", "error", "message", "summary")
# Top-level fields of an oversized payload worth recovering whole (short identifiers) and by
# their head (long texts: a 50 MB prompt is still a prompt the user typed).
SALVAGE_IDS = (
    "hook_event_name",
    "session_id",
    "sessionId",
    "conversation_id",
    "conversationId",
    "cwd",
    "tool_name",
    "toolName",
    "tool_use_id",
    "prompt_id",
    "turn_id",
    "generation_id",
    "source",
    "reason",
    "trigger",
    "status",
)
SALVAGE_TEXTS = (
    "prompt",
    "last_assistant_message",
    "prompt_response",
    "text",
    "output",
    "message",
    "error",
    "error_message",
    "command",
    "compact_summary",
    "summary",
)


class HookDeadline(Exception):
    """The hook's own deadline passed."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise HookDeadline("the hook's time ran out")


def main(argv: list[str] | None = None, stdin: Any = None, stdout: Any = None) -> int:
    """Run one hook invocation; always returns 0."""
    args = list(sys.argv[1:] if argv is None else argv)
    client, home_arg, event_arg = _parse_args(args)
    home = resolve_home(home_arg)
    deadline = time.monotonic() + _seconds("WIKIMEM_HOOK_DEADLINE", DEADLINE_SECONDS)
    wait = _seconds("WIKIMEM_HOOK_RECORD_WAIT", RECORD_WAIT_SECONDS)
    output: str | None = None
    # An alarm can land in a callback Python runs for itself (an import's lock, a finaliser);
    # the exception is then "ignored" and printed to stderr, which no harness should ever see.
    unraisable = sys.unraisablehook
    sys.unraisablehook = _ignore
    try:
        in_stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
        if client not in CLIENTS:
            raise HookInputError(f"unknown client {client!r}; expected one of {', '.join(CLIENTS)}")
        if in_stream is None:
            raise HookInputError("stdin is closed")
        raw = _within(wait, "stdin did not close", read_input, in_stream.read)
        output = handle(
            client,
            home,
            raw,
            deadline,
            os.environ,
            wait=wait,
            plugin="--plugin" in args,
            event=event_arg,
        )
    except BaseException as exc:  # fail-open: the agent must never see us break
        _disarm_timer(True)
        if not isinstance(exc, KeyboardInterrupt | SystemExit):
            log_error(home, client or "?", exc)
        output = fail_open_answer(client, None)
    finally:
        sys.unraisablehook = unraisable
    if output:
        out_stream = stdout if stdout is not None else getattr(sys.stdout, "buffer", None)
        try:
            if out_stream is not None:
                out_stream.write(output.encode("utf-8", "surrogatepass"))
                out_stream.flush()
        except (OSError, ValueError):
            pass
    return 0


def _ignore(unraisable: Any) -> None:
    pass


def _parse_args(args: list[str]) -> tuple[str | None, str | None, str | None]:
    """(client, --home, --event). `--event NAME` names the event a command serves, for a
    harness whose payloads carry no event name (GitHub Copilot CLI's camelCase hooks)."""
    client: str | None = None
    values: dict[str, str] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("--home", "--event") and i + 1 < len(args):
            values[arg] = args[i + 1]
            i += 2
            continue
        if arg.startswith(("--home=", "--event=")):
            name, _, value = arg.partition("=")
            values[name] = value
        elif client is None and not arg.startswith("-"):
            client = arg
        i += 1
    return client, values.get("--home"), values.get("--event")


def _seconds(variable: str, default: float) -> float:
    raw = os.environ.get(variable)
    if raw:
        try:
            return max(0.05, min(float(raw), 60.0))
        except ValueError:
            pass
    return default


def _within(seconds: float, what: str, func: Any, *args: Any) -> Any:
    """func(*args), interrupted by SIGALRM after `seconds` (a blocked read, lock or write)."""
    armed = _arm_timer(seconds)
    try:
        return func(*args)
    except HookDeadline:
        raise HookDeadline(f"{what} within {seconds:g}s") from None
    finally:
        _disarm_timer(armed)


def _arm_timer(seconds: float) -> bool:
    """SIGALRM interrupts a blocked call at the deadline (main thread only)."""
    if seconds <= 0:
        raise HookDeadline("no time left")
    try:
        sig = _signal_module()
        sig.signal(sig.SIGALRM, _on_alarm)
        # Repeating: an alarm swallowed where Python ignores exceptions is followed by another
        sig.setitimer(sig.ITIMER_REAL, seconds, ALARM_REPEAT)
        return True
    except (ValueError, OSError, AttributeError):  # not the main thread, or no SIGALRM
        return False


def _disarm_timer(armed: bool) -> None:
    if armed:
        try:
            sig = _signal_module()
            sig.setitimer(sig.ITIMER_REAL, 0)
        except (ValueError, OSError, AttributeError):
            pass


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
    if client == "copilot":
        from wikimem.harness import copilot

        return copilot
    if client == "opencode":
        from wikimem.harness import opencode

        return opencode
    if client == "qwen":
        from wikimem.harness import qwen

        return qwen
    if client == "antigravity":
        from wikimem.harness import antigravity

        return antigravity
    from wikimem.harness import cursor

    return cursor


def fail_open_answer(client: str | None, native_event: str | None) -> str | None:
    """What the client must still be told when this hook failed: Cursor waits for
    `{"continue": true}` on beforeSubmitPrompt. When the event is unknown (input that could not
    be read, or a name Cursor's adapter does not know) the same answer is given, which every
    other Cursor event ignores."""
    if client == "cursor":
        from wikimem.harness.cursor import needs_continue

        return '{"continue":true}' if needs_continue(native_event) else None
    return None


# -- reading stdin -----------------------------------------------------------------------------


def read_input(read: Any) -> tuple[bytes, bytes, int]:
    """(head, tail, total bytes). Input up to MAX_PARSE_BYTES comes whole as `head`; of bigger
    input only the first and the last SALVAGE_BYTES are kept. All of it is drained, so the
    harness never sees a broken pipe."""
    chunks: list[bytes] = []
    tail: list[bytes] = []
    total = tail_len = 0
    while True:
        chunk = read(1 << 20)
        if not chunk:
            break
        total += len(chunk)
        if total <= MAX_PARSE_BYTES:
            chunks.append(chunk)
            continue
        tail.append(chunk)
        tail_len += len(chunk)
        while len(tail) > 1 and tail_len - len(tail[0]) >= SALVAGE_BYTES:
            tail_len -= len(tail.pop(0))
    head = b"".join(chunks)
    if total <= MAX_PARSE_BYTES:
        return head, b"", total
    end = b"".join(tail)
    if len(end) < SALVAGE_BYTES:
        end = head[len(head) - (SALVAGE_BYTES - len(end)) :] + end
    return head[:SALVAGE_BYTES], end[-SALVAGE_BYTES:], total


def parse_payload(head: bytes, tail: bytes, total: int) -> dict[str, Any] | None:
    """The payload; oversized or too deeply nested input is salvaged; None when empty."""
    if total > MAX_PARSE_BYTES:
        return _salvage(head, tail, total)
    if not head.strip():
        return None
    try:
        payload = fastjson.loads(head.decode("utf-8", "replace"))
    except ValueError as exc:
        if str(exc) == fastjson.TOO_DEEP:
            return _salvage(head[:SALVAGE_BYTES], head[-SALVAGE_BYTES:], total, deep=True)
        raise HookInputError(
            f"stdin is not JSON ({exc.__class__.__name__}: {str(exc)[:80]})"
        ) from None
    if not isinstance(payload, dict):
        raise HookInputError(f"stdin is a JSON {type(payload).__name__}, not an object")
    return payload


def _salvage(head: bytes, tail: bytes, total: int, deep: bool = False) -> dict[str, Any]:
    """The top-level fields that can be recovered from a payload too big (or too deeply nested)
    to parse whole: short identifiers whole, long texts by their head with a visible marker."""
    import re

    texts = [head.decode("utf-8", "replace"), tail.decode("utf-8", "replace")]
    found: dict[str, Any] = {}
    for key in SALVAGE_IDS:
        for text in texts:
            m = re.search(rf'"{key}"\s*:\s*"((?:[^"\\]|\\.){{0,1024}})"', text)
            if m:
                found[key] = _json_string(m.group(1))
                break
    for key in SALVAGE_TEXTS:
        for text in texts:
            m = re.search(rf'"{key}"\s*:\s*"((?:[^"\\]|\\.){{0,{SALVAGE_TEXT_CHARS}}})("?)', text)
            if m:
                value = _json_string(m.group(1))
                if not m.group(2):  # the string goes on beyond what was kept
                    value += events.TRUNCATION_MARK.format(max(total - len(value), 0))
                found[key] = value
                break
    for text in texts:
        m = re.search(r'"workspace_roots"\s*:\s*\[\s*"((?:[^"\\]|\\.){0,1024})"', text)
        if m:
            found["workspace_roots"] = [_json_string(m.group(1))]
            break
    if deep:
        found["__too_deep__"] = True
    else:
        found["__oversized__"] = total
    return found


def _json_string(body: str) -> str:
    """The value of a JSON string's body, tolerating an escape cut off at its end."""
    for cut in range(7):
        try:
            value = fastjson.loads(f'"{body[: len(body) - cut]}"')
        except ValueError:
            continue
        return value if isinstance(value, str) else body
    return body


def sniff_event(head: bytes, tail: bytes) -> str | None:
    """The `hook_event_name` of input that could not be parsed, when it can still be seen."""
    import re

    for part in (head[:SALVAGE_BYTES], tail or head[-SALVAGE_BYTES:]):
        m = re.search(rb'"hook_event_name"\s*:\s*"([A-Za-z_]{1,64})"', part)
        if m:
            return m.group(1).decode("ascii")
    return None


def prune(value: object, depth: int = MAX_DEPTH) -> object:
    """`value` with containers nested deeper than `depth` replaced by a marker."""
    if isinstance(value, dict):
        if depth <= 0:
            return DEPTH_MARK.format(MAX_DEPTH)
        return {k: prune(v, depth - 1) for k, v in value.items()}
    if isinstance(value, list):
        if depth <= 0:
            return DEPTH_MARK.format(MAX_DEPTH)
        return [prune(v, depth - 1) for v in value]
    return value


# -- one event ---------------------------------------------------------------------------------


def handle(
    client: str,
    home: Home,
    raw: tuple[bytes, bytes, int],
    deadline: float,
    env: Mapping[str, str],
    wait: float = RECORD_WAIT_SECONDS,
    plugin: bool = False,
    event: str | None = None,
) -> str | None:
    """Record one event, then do the optional work while time is left; the client's answer."""
    native: str | None = None
    try:
        payload = parse_payload(*raw)
        if payload is None:
            raise HookInputError("empty stdin")
        if event:
            payload["hook_event_name"] = event  # the command's word over the payload's
        name = payload.get("hook_event_name")
        native = name if isinstance(name, str) else None
        if plugin and _installed_hook_runs_too(client, payload, env):
            return (
                None  # `wikimem install`'s hook records and injects this event (harness/plugin.py)
            )
        if client == "claude" and env.get("CURSOR_VERSION") and _from_cursor(payload):
            client = _cursor_running_claude_hook(payload, env)
            if client == "":
                return None  # our Cursor hooks record this event; recording it here too would double it
        if client in ("claude", "gemini"):
            client = _claude_or_gemini(client, payload, env)
        adapter = _adapter(client)
        settings = _settings(home, client, wait)

        def slug(project_dir: str | None) -> str:
            return _project_slug(home, client, project_dir, wait)

        try:
            fields, record = _normalise(adapter, client, payload, settings, env, slug)
        except RecursionError:  # nesting the parser allowed but our walk cannot: cut it
            pruned = prune(payload)
            assert isinstance(pruned, dict)
            fields, record = _normalise(adapter, client, pruned, settings, env, slug)
        if fields is None or record is None:
            return None  # noise (Codex PreModelRequest), or a probe
        _ensure_dirs(home)
        first = getattr(adapter, "first_delivery", None)
        if first is not None and not first(home.state_dir, payload, time.time()):
            return None  # the same event through a second wiring (two scopes, extension + install)
        events.append(home.events_dir, record, time.monotonic() + wait)
    except Exception as exc:
        log_error(home, client, exc)
        return fail_open_answer(client, native or sniff_event(raw[0], raw[1]))
    context = _optional_work(
        home, client, record, settings, deadline, getattr(adapter, "CAN_INJECT", True)
    )
    rendered: str | None = adapter.render(fields["native_event"], fields["event"], context)
    return rendered


def _normalise(
    adapter: ModuleType,
    client: str,
    payload: dict[str, Any],
    settings: dict[str, Any],
    env: Mapping[str, str],
    slug: Callable[[str | None], str] | None = None,
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    fields = adapter.normalise(payload, env)
    if fields is None:
        return None, None
    record = build_record(client, fields, settings, payload.get("__oversized__"), slug)
    if payload.get("__too_deep__"):
        record["nested_too_deep"] = True
    if env.get("WIKIMEM_HOOK_PROBE"):
        return None, None  # `wikimem doctor` timing the installed command: record nothing
    return fields, record


def _optional_work(
    home: Home,
    client: str,
    record: dict[str, Any],
    settings: dict[str, Any],
    deadline: float,
    can_inject: bool = True,
) -> str | None:
    """Injection or the auto-dream check, only while the deadline has not passed; None when
    there is nothing to inject or no time to do it (or the client cannot be given any)."""
    event = record["event"]
    gemini_compacted = event == "PreCompact" and client == "gemini"
    if event not in ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd") and not (
        gemini_compacted
    ):
        return None
    if event in ("SessionStart", "UserPromptSubmit") and not can_inject:
        return None
    left = deadline - time.monotonic()
    what = "auto-dream check" if event in ("Stop", "SessionEnd") else "injection"
    if left <= 0:
        log_error(home, client, f"{event} recorded; {what} skipped: the deadline had passed")
        return None
    armed = False
    try:
        armed = _arm_timer(left)
        if event in ("SessionStart", "UserPromptSubmit"):
            return _inject(home, record, settings, deadline)
        if gemini_compacted:
            _inject(home, record, settings, deadline)  # compression dropped what was given
            return None
        _maybe_dream(home, settings)
    except Exception as exc:
        _disarm_timer(armed)  # first: the alarm must not fire inside the error handling
        armed = False
        if isinstance(exc, HookDeadline):
            exc = HookDeadline(f"{event} recorded; {what} cut at the deadline")
        log_error(home, client, exc)
    finally:
        _disarm_timer(armed)
    return None


def _installed_hook_runs_too(client: str, payload: dict[str, Any], env: Mapping[str, str]) -> bool:
    from wikimem.harness.plugin import installed_covers

    native = payload.get("hook_event_name")
    return isinstance(native, str) and installed_covers(client, native, payload, env)


def _settings(home: Home, client: str, wait: float = RECORD_WAIT_SECONDS) -> dict[str, Any]:
    from wikimem.rawconfig import ConfigError, load_raw, merge

    try:
        settings: dict[str, Any] = _within(wait, "reading config.toml", load_raw, home)
        return settings
    except (ConfigError, HookDeadline) as exc:
        log_error(home, client, f"{exc} (recorded with the default settings)")
        return merge({})


def _project_slug(home: Home, client: str, project_dir: str | None, wait: float) -> str:
    """The project's slug, from its git files read within `wait`; else its folder's name."""
    from wikimem.capture.project import project_slug

    try:
        slug: str = _within(wait, "reading the project's git files", project_slug, project_dir)
        return slug
    except HookDeadline as exc:
        log_error(home, client, f"{exc} (recorded under the folder's name)")
        return project_slug(project_dir, read_git=False)


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
        doc = fastjson.loads(boundedfile.read_text(path))
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
    client: str,
    fields: dict[str, Any],
    settings: dict[str, Any],
    oversized: object = None,
    slug: Callable[[str | None], str] | None = None,
) -> dict[str, Any]:
    """The normalised record: redacted, truncated, stamped with time and project (named by
    `slug`, by default `project_slug`)."""
    if slug is None:
        from wikimem.capture.project import project_slug

        slug = project_slug

    limit = int(settings["events"]["max_output_bytes"])
    prompt_limit = int(settings["events"]["max_prompt_bytes"])
    found: list[str] = []
    cwd = fields.get("cwd")
    project_dir = cwd if isinstance(cwd, str) else None
    if project_dir is not None:
        before = len(found)
        cwd = clip(project_dir, PATH_LIMIT, found)
        if len(found) > before or cwd != project_dir:
            # a secret in a folder name must not become a project name either, nor a path no
            # file system has be walked
            project_dir = cwd
    record: dict[str, Any] = {
        "v": events.RECORD_VERSION,
        "ts": events.utc_timestamp(),
        "client": client,
        "session": fields["session"],
        "event": fields["event"],
        "native_event": fields["native_event"],
        "cwd": cwd,
        "project": slug(project_dir),
    }
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
            value = clip(value, SHORT_LIMIT, found)
        elif isinstance(value, list):
            value = [
                clip(v, LIST_ITEM_LIMIT, found) if isinstance(v, str) else v
                for v in value[:LIST_LIMIT]
                if isinstance(v, str | int | float | bool)
            ]
        record[key] = value
    for key in ("session", "native_event"):
        if isinstance(record[key], str):
            record[key] = clip(record[key], SHORT_LIMIT, found)
    if found:
        record["redacted"] = len(found)
    if oversized:
        record["oversized_bytes"] = oversized
    return record


def clip(text: str, limit: int, found: list[str]) -> str:
    """Redact, then truncate to `limit` bytes. Redaction runs on a window a little larger than
    what is kept, so a secret straddling the cut is still recognised whole."""
    from wikimem.capture.redact import redact, redact_keys

    dropped = 0
    window = 2 * limit + REDACT_MARGIN
    if len(text) > window + limit:
        # A key block reaching into the part cut away would lose its BEGIN line and no longer
        # look like a key: key blocks are redacted in the whole text before anything is cut
        # (one search for a literal; the other rules run on the kept part only).
        if "PRIVATE KEY" in text:
            text, kinds = redact_keys(text)
            found.extend(kinds)
        dropped = len(text) - window - limit // 2
        text = text[:window] + text[len(text) - limit // 2 :]
    text, kinds = redact(text)
    found.extend(kinds)
    return events.truncate(text, limit, dropped)


def clip_value(value: object, limit: int, found: list[str]) -> object:
    """A tool input: kept as a structure when it is small (each string redacted, secret-named
    keys' values replaced), else as its JSON text clipped like any text, so the work stays
    bounded whatever the harness sends."""
    from wikimem.capture.redact import redact_value

    if isinstance(value, str):
        return clip(value, limit, found)
    encoded = fastjson.dumps(value, ascii=False)
    if len(encoded) > 2 * limit:
        return clip(encoded, limit, found)
    value, kinds = redact_value(value)
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
