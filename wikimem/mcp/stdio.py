"""The stdio transport at the MCP server's edge: every frame a client sends gets an answer.

The SDK's own stdio transport hands each line to the protocol layer, which drops a line it
cannot parse without answering it: a lone surrogate (`"\\ud800"`), bytes that are not UTF-8, a
number of thousands of digits, a batch (an array of requests, which MCP does not use) or a
request whose id is `null`. The client waiting for that request then waits forever. Here each
line is read as bytes and checked once, strictly, before the SDK sees it (`check_frame`):

  - it must be UTF-8 JSON whose every string is Unicode text, without NaN or Infinity and
    without a number of more than `MAX_DIGITS` digits, at most `MAX_FRAME_BYTES` long;
  - it must be one JSON-RPC 2.0 message as the SDK's own types define it, and a request's id
    must be a string or an integer.

A frame that fails is answered with a JSON-RPC error (-32700 parse error, -32600 invalid
request) carrying the request's id whenever one can be read from it (else `null`), and the
session goes on. A batch is answered with an array holding an error for each request in it. A
frame that passes is given to the SDK unchanged.

While serving, file descriptor 0 reads from /dev/null and 1 writes to stderr, as in the SDK's
transport: a child process or a stray print can then never corrupt the protocol, which runs on
private duplicates of the original descriptors. Answers are written whole, one line each, under
a lock, so an error answer never lands inside another.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import AsyncIterator
from contextlib import contextmanager
from typing import Any, cast

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.stdio import stdio_server

from wikimem.utf8 import is_utf8

MAX_FRAME_BYTES = 8 * 1024 * 1024
MAX_DIGITS = 400
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
# The id of a frame that cannot be parsed, when it leads the object (SDK clients write
# `{"jsonrpc":"2.0","id":…` or `{"id":…`): enough to tell the waiting client which request failed.
_LEADING_ID = re.compile(
    rb'^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"\\]{0,16}"\s*,\s*)?"id"\s*:\s*'
    rb'(-?[0-9]{1,18}(?![0-9.eE])|"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]){0,256}")\s*[,}]'
)


class FrameError(Exception):
    def __init__(self, code: int, message: str, ident: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ident = ident


def _parse_int(text: str) -> int | float:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number of {len(text.lstrip('-')):,} digits")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise _Refused(f"a number of {len(text):,} characters")
    return float(text)


def _parse_constant(text: str) -> float:
    raise _Refused(f"{text}, which JSON does not have")


class _Refused(ValueError):
    pass


def _valid_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _leading_id(data: bytes) -> object:
    """The id at the head of a frame that could not be parsed whole; None when there is none."""
    m = _LEADING_ID.match(data[:1024])
    if m is None:
        return None
    raw = m.group(1)
    try:
        value = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None
    if isinstance(value, str) and not is_utf8(value):
        return None
    return value if _valid_id(value) else None


def _lone_surrogate(value: object, depth: int = 0) -> bool:
    if isinstance(value, str):
        return not is_utf8(value)
    if depth > 64:
        return False  # the parser's own depth limit has already bounded this
    if isinstance(value, dict):
        return any(
            _lone_surrogate(k, depth + 1) or _lone_surrogate(v, depth + 1) for k, v in value.items()
        )
    if isinstance(value, list):
        return any(_lone_surrogate(v, depth + 1) for v in value)
    return False


def _strict_json(text: str) -> Any:
    decoder = json.JSONDecoder(
        parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
    )
    return decoder.decode(text)


def check_frame(data: bytes) -> types.JSONRPCMessage:
    """The message a frame holds, or `FrameError` saying what is wrong with it (and the id of
    the request it was, when that can be read)."""
    if len(data) > MAX_FRAME_BYTES:
        raise FrameError(
            INVALID_REQUEST,
            f"frame of {len(data):,} bytes, over the limit of {MAX_FRAME_BYTES:,}",
            _leading_id(data),
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FrameError(
            PARSE_ERROR,
            f"the frame is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            _leading_id(data),
        ) from None
    try:
        value = _strict_json(text)
    except _Refused as exc:
        raise FrameError(PARSE_ERROR, f"the frame holds {exc}", _leading_id(data)) from None
    except (ValueError, RecursionError) as exc:
        raise FrameError(
            PARSE_ERROR, f"the frame is not JSON ({str(exc)[:120]})", _leading_id(data)
        ) from None
    ident = value.get("id") if isinstance(value, dict) else None
    if isinstance(value, dict) and not _valid_id(ident):
        ident = None
    if _lone_surrogate(value):
        raise FrameError(
            PARSE_ERROR,
            "the frame holds a lone surrogate escape (such as \\ud800), which is not Unicode text",
            ident,
        )
    if isinstance(value, list):
        raise _BatchError(value)
    if not isinstance(value, dict):
        raise FrameError(INVALID_REQUEST, "a frame must be one JSON-RPC message (an object)")
    if "id" in value and not _valid_id(value["id"]):
        raise FrameError(
            INVALID_REQUEST,
            f"id must be a string or an integer, not {json.dumps(value['id'])[:40]}",
        )
    try:
        # the very call the SDK's transport makes on the line: what passes here passes there
        return types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except Exception as exc:  # pydantic's ValidationError; its text names the fields at fault
        first = str(exc).splitlines()[1:3]
        raise FrameError(
            INVALID_REQUEST,
            "not a JSON-RPC 2.0 message: " + " ".join(s.strip() for s in first)[:200],
            ident,
        ) from None


class _BatchError(FrameError):
    def __init__(self, items: list[Any]) -> None:
        super().__init__(INVALID_REQUEST, "batches are not supported; send one message a line")
        self.items = items


def error_answer(exc: FrameError) -> str:
    """The line that answers a refused frame."""
    if isinstance(exc, _BatchError):
        answers = [
            _error(exc.code, exc.message, item["id"])
            for item in exc.items
            if isinstance(item, dict) and "method" in item and _valid_id(item.get("id"))
        ]
        if answers:
            return json.dumps(answers, ensure_ascii=False)
    return json.dumps(_error(exc.code, exc.message, exc.ident), ensure_ascii=False)


def _error(code: int, message: str, ident: object) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}


class _Wire:
    """The protocol's output: whole lines, one writer at a time."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()

    def _write_all(self, data: bytes) -> None:
        with self.lock:
            view = memoryview(data)
            while view:
                written = os.write(self.fd, view)
                view = view[written:]

    async def write(self, text: str) -> None:
        # Never lose an answer to an encoding error: a lone surrogate cannot reach this far (the
        # frames are checked), but the wire must stay UTF-8 whatever happens.
        data = text.encode("utf-8", "replace")
        await anyio.to_thread.run_sync(self._write_all, data)

    async def flush(self) -> None:
        return None  # every write is whole and unbuffered


class _Frames:
    """The protocol's input for the SDK: only the lines that passed `check_frame`, as text;
    every other line is answered here."""

    def __init__(self, fd: int, wire: _Wire) -> None:
        self.fd = fd
        self.wire = wire

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        pending = b""
        oversized: tuple[bytes, int] | None = None  # (head, bytes dropped) of a frame too long
        while True:
            chunk = await anyio.to_thread.run_sync(os.read, self.fd, 1 << 16)
            if not chunk:
                break
            pending += chunk
            while True:
                nl = pending.find(b"\n")
                if nl == -1:
                    if len(pending) > MAX_FRAME_BYTES:  # drop it to its newline, keep its head
                        head, dropped = oversized or (pending[:1024], 0)
                        oversized = (head, dropped + len(pending))
                        pending = b""
                    break
                line, pending = pending[:nl], pending[nl + 1 :]
                if oversized is not None:
                    head, dropped = oversized
                    oversized = None
                    size = dropped + len(line)
                    await self._answer(
                        FrameError(
                            INVALID_REQUEST,
                            f"frame of {size:,} bytes, over the limit of {MAX_FRAME_BYTES:,}",
                            _leading_id(head),
                        )
                    )
                    continue
                text = await self._checked(line)
                if text is not None:
                    yield text
        if pending.strip() and oversized is None:
            text = await self._checked(pending)
            if text is not None:
                yield text

    async def _checked(self, line: bytes) -> str | None:
        line = line.rstrip(b"\r").strip(b" \t")
        if not line:
            return None
        try:
            check_frame(line)
        except FrameError as exc:
            await self._answer(exc)  # from the reading task: answers stay in the frames' order
            return None
        return line.decode("utf-8")

    async def _answer(self, exc: FrameError) -> None:
        await self.wire.write(error_answer(exc) + "\n")


@contextmanager
def _diverted() -> Any:
    """(input fd, output fd) of the wire, while fd 0 reads /dev/null and fd 1 writes stderr."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
        yield wire_in, wire_out
    finally:
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        for fd in (null, saved_in, saved_out, wire_in, wire_out):
            try:
                os.close(fd)
            except OSError:
                pass


async def serve(lowlevel: Any) -> None:
    """Run the SDK's low-level server over checked stdio until the client closes stdin."""
    with _diverted() as (wire_in, wire_out):
        wire = _Wire(wire_out)
        frames = _Frames(wire_in, wire)
        async with stdio_server(stdin=cast(Any, frames), stdout=cast(Any, wire)) as (read, write):
            await lowlevel.run(read, write, lowlevel.create_initialization_options())
