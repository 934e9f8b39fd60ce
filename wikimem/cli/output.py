"""Writing to the terminal without typer or rich: exact JSON whatever the terminal's encoding,
and text that shows `?` rather than failing under a narrow locale.

Contract: `print_json(data)` writes `data` as indented JSON (`\\u` escapes when stdout is not
UTF-8); `tolerate_narrow_encodings()` makes stdout and stderr replace what they cannot encode;
`end_quietly_on_a_closed_pipe()` makes a reader that went away (`wikimem list | head -1`) cost
nothing: the rest of the output goes to /dev/null, the verb finishes and exits as it would have,
with nothing on stderr. All stay on the standard library, so the quick verbs (`wikimem.cli.quick`) can use them.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import sys
from typing import Any


def print_json(data: Any) -> None:
    sys.stdout.write(render_json(data))


def render_json(data: Any) -> str:
    # \u escapes keep the JSON exact where the terminal's encoding cannot hold every character
    ascii_only = not _is_utf8(sys.stdout)
    return json.dumps(data, indent=2, ensure_ascii=ascii_only, default=str) + "\n"


def tolerate_narrow_encodings() -> None:
    """Under a locale whose encoding cannot hold every character (Latin-1, ASCII), text output
    shows `?` for what it cannot encode instead of failing once the work is done."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not _is_utf8(stream):
            stream.reconfigure(errors="replace")


def _is_utf8(stream: Any) -> bool:
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name == "utf-8"
    except LookupError:
        return False


class _QuietWhenTheReaderLeaves:
    """stdout that, once its reader has gone away (a closed pipe: `wikimem list | head -1`),
    sends the rest of the output to /dev/null instead of failing: the verb finishes its work and
    exits as it would have, with nothing on stderr."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def _reader_gone(self) -> None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, self._stream.fileno())
        finally:
            os.close(devnull)

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            self._reader_gone()
            return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._reader_gone()
            self._stream.flush()  # what was buffered now goes to /dev/null


def end_quietly_on_a_closed_pipe() -> None:
    """Make a closed pipe on stdout end the verb quietly (exit as usual, nothing on stderr)."""
    stream = sys.stdout
    if stream is None or isinstance(stream, _QuietWhenTheReaderLeaves):
        return
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file: nothing to redirect
    sys.stdout = _QuietWhenTheReaderLeaves(stream)
