"""Writing to the terminal without typer or rich: exact JSON whatever the terminal's encoding,
and text that shows `?` rather than failing under a narrow locale.

Contract: `print_json(data)` writes `data` as indented JSON (`\\u` escapes when stdout is not
UTF-8); `tolerate_narrow_encodings()` makes stdout and stderr replace what they cannot encode.
Both stay on the standard library, so the quick verbs (`wikimem.cli.quick`) can use them.
"""

from __future__ import annotations

import codecs
import io
import json
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
