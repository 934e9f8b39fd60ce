"""Antigravity CLI (`agy`) adapter, built from Antigravity's documentation: not yet run against a
real client (docs/harness-antigravity.md says what is unproven).

What the documentation says, and what is done with it:
  - hooks live in `hooks.json` files (user: `~/.gemini/config/`, project: `.agents/`), a map of
    hook names to events; five events: PreToolUse, PostToolUse (matched on the tool's name),
    PreInvocation (before every model call), PostInvocation (after it), Stop (the agent is done);
    there is no session-start or prompt event;
  - payloads are camelCase (`toolCall.name`, `toolCall.args`) and name no event: each installed
    command names its own (`--event PostToolUse`, which the hook entry puts into
    `hook_event_name`); the conversation is `conversationId`, the folders `workspacePaths`, a
    failed tool call carries `error`, Stop its `terminationReason`;
  - tools are Antigravity's own: `run_command` (argument `CommandLine`), `write_to_file`,
    `replace_file_content`, `multi_replace_file_content` (argument `TargetFile`), `view_file`, …

Mapping: the first PreInvocation of a conversation is its SessionStart (there is no other sign a
conversation began); every later one, and PostInvocation, are noise (one per model call, nothing
to remember). PostToolUse and Stop are recorded as such; PreToolUse is understood but never wired
(a hook before every tool call costs time, and a reported agy build treats a PreToolUse answer it
cannot read as a refusal).

Injection: no documented hook output adds context to a conversation, so nothing is ever printed
(`CAN_INJECT`); Antigravity is given memory through the `GEMINI.md` it reads, which `wikimem
install antigravity` keeps a managed block in (`wikimem.export`).

Hook-path module: standard library only.
"""

from __future__ import annotations

import os

from wikimem.capture import fastjson, once
from wikimem.harness import HookInputError, as_text, drop_none, opt_str

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

CLIENT = "antigravity"
EVENTS = ("PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop")
CAN_INJECT = False  # no documented hook output reaches the model: memory goes through GEMINI.md
EDIT_TOOLS = ("write_to_file", "replace_file_content", "multi_replace_file_content")
PATH_ARGS = ("TargetFile", "AbsolutePath", "path", "file_path")
SEEN_DIR = "antigravity-seen"
STARTED_DIR = "antigravity-started"  # one marker per conversation whose start was recorded
STARTED_KEEP_SECONDS = 30 * 86400


def _conversation(payload: dict[str, Any]) -> str:
    value = payload.get("conversationId")
    if value is None:
        value = payload.get("conversation_id")
    if not isinstance(value, str) or not value:
        raise HookInputError("missing or non-string field 'conversationId'")
    return value


def _cwd(payload: dict[str, Any], env: Mapping[str, str]) -> str | None:
    paths = payload.get("workspacePaths")
    if isinstance(paths, list):
        for path in paths:
            if isinstance(path, str) and path:
                return path
    elif isinstance(paths, str) and paths:
        return paths
    return opt_str(payload, "cwd") or env.get("PWD") or None


def _tool_fields(payload: dict[str, Any]) -> dict[str, Any]:
    call = payload.get("toolCall")
    fields: dict[str, Any] = {}
    if isinstance(call, dict):
        name = call.get("name")
        if name is not None and not isinstance(name, str):
            raise HookInputError("field 'toolCall.name' should be a string")
        args = call.get("args")
        fields["tool"] = name
        fields["input"] = args
        if name in EDIT_TOOLS and isinstance(args, dict):
            for key in PATH_ARGS:
                path = args.get(key)
                if isinstance(path, str) and path:
                    fields["files"] = [path]
                    break
    elif call is not None:
        raise HookInputError("field 'toolCall' should be an object")
    error = payload.get("error")
    if error not in (None, "", {}):
        fields["error"] = error if isinstance(error, str) else as_text(error)
    return fields


def normalise(payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
    native = payload.get("hook_event_name")
    if not isinstance(native, str) or not native:
        raise HookInputError(
            "no event name: Antigravity sends none, the installed command must pass --event"
        )
    if native == "PostInvocation":
        return None  # after every model call: nothing to remember
    session = _conversation(payload)
    fields: dict[str, Any] = {
        "session": session,
        "native_event": native,
        "cwd": _cwd(payload, env),
    }
    if native == "PreInvocation":
        fields["event"] = "SessionStart"  # only the first one is kept (first_delivery)
        fields["source"] = "startup"
    elif native in ("PreToolUse", "PostToolUse"):
        fields["event"] = native
        fields.update(_tool_fields(payload))
    elif native == "Stop":
        fields["event"] = "Stop"
        fields["reason"] = opt_str(payload, "terminationReason")
        error = payload.get("error")
        if isinstance(error, str) and error:
            fields["error"] = error
    else:
        fields["event"] = "Other"
    return drop_none(fields)


def render(native_event: str, event: str, context: str | None) -> str | None:
    return None  # see CAN_INJECT


# -- one event, one record -----------------------------------------------------------------------


def first_delivery(state_dir: str, payload: dict[str, Any], now: float) -> bool:
    """False for a PreInvocation after a conversation's first (one per model call), and for a
    second delivery of one event: Antigravity merges every hooks.json it finds, so wikimem wired
    for the user and for the project hears each event twice, with one payload. Only an event
    that names its step (`stepIdx`) can be told from a new one that looks the same; one without
    is always first."""
    native = payload.get("hook_event_name")
    conversation = payload.get("conversationId") or payload.get("conversation_id")
    if native == "PreInvocation":
        return _first_start(state_dir, str(conversation), now)
    step = payload.get("stepIdx")
    if not isinstance(step, int) or isinstance(step, bool):
        return True
    try:  # both deliveries carry the same payload, whole
        key = fastjson.dumps(payload)
    except (ValueError, TypeError, RecursionError):
        return True
    import time

    bucket = time.strftime("%Y-%m-%dT%H", time.gmtime(now))
    return once.first(state_dir, SEEN_DIR, key, bucket, now, prune=native == "Stop")


def _first_start(state_dir: str, conversation: str, now: float) -> bool:
    """True the first time a conversation is seen (a marker file made with O_EXCL); markers a
    month old are dropped when a new conversation starts. No marker possible: True."""
    directory = os.path.join(state_dir, STARTED_DIR)
    marker = os.path.join(directory, once._digest(conversation))
    for attempt in (0, 1):
        try:
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            break
        except FileExistsError:
            return False
        except FileNotFoundError:
            if attempt:
                return True
            try:
                os.makedirs(directory, mode=0o700, exist_ok=True)
            except OSError:
                return True
        except OSError:
            return True
    _prune_started(directory, now)
    return True


def _prune_started(directory: str, now: float) -> None:
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        try:
            if os.stat(path).st_mtime < now - STARTED_KEEP_SECONDS:
                os.unlink(path)
        except OSError:
            continue
