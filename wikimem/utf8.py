"""Text that came in as bytes (command-line arguments, JSON frames, file names): Python keeps
bytes that are not UTF-8 as lone surrogates, which nothing downstream can encode, so they are
refused where they come in.

Contract: `is_utf8(text)` is True when `text` encodes as UTF-8. Standard library only.
"""

from __future__ import annotations


def is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
