"""Note paths as they may be echoed into a commit message, a report or a log.

Contract: `echo_path(p)` is the path itself when it is plainly a name (a valid note path, or an
invalid one such as `../../.bashrc` that is short, printable and shaped like words), with any
secret redacted; otherwise a description that holds none of it: its top folder when that is a
real one, its length and a short digest. A path a model or a person proposed can be anything (a
token, a random password, a forged `Wikimem-Watermark:` trailer, a megabyte of text), and a
random-looking name cannot be told from a secret. `echo_reason(reason, p)` is a refusal's reason
with such a path (and the segments of it the reason quotes) replaced by that description,
scrubbed: one line, capped, secrets redacted.
"""

from __future__ import annotations

import hashlib

from wikimem.capture.redact import redact, scrub, token_shaped
from wikimem.wiki.notemeta import TOP_FOLDERS
from wikimem.wiki.notes import NoteError, validate_path

PLAIN_MAX = 160
RANDOM_SEGMENT = 16  # a segment this long mixing three kinds of characters looks random


def echo_path(path: object) -> str:
    if isinstance(path, str) and _plain(path):
        return scrub(path, 200)
    raw = path if isinstance(path, str) else repr(path)
    digest = hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    top = raw.split("/", 1)[0]
    where = f"{top}/…" if "/" in raw and top in TOP_FOLDERS else "…"
    return f"{where} (a path of {len(raw)} characters that looks like data, #{digest})"


def echo_reason(reason: str, path: object) -> str:
    if isinstance(path, str) and path and not _plain(path):
        described = echo_path(path)
        for form in (repr(path), path):
            if form in reason:
                reason = reason.replace(form, described)
        # the message may quote one segment of it, too
        for segment in sorted(set(path.split("/")), key=len, reverse=True):
            for part in (segment, segment.removesuffix(".md")):
                if len(part) > 2 and repr(part) in reason:
                    reason = reason.replace(repr(part), "'…'")
    return scrub(reason)


def _plain(path: str) -> bool:
    if token_shaped(path) or redact(path)[1]:
        return False
    try:
        validate_path(path)
        return True
    except NoteError:
        pass
    if len(path) > PLAIN_MAX or not path.isprintable():
        return False
    return not any(_random_looking(segment) for segment in path.split("/"))


def _random_looking(segment: str) -> bool:
    if len(segment) < RANDOM_SEGMENT:
        return False
    kinds = (
        any(c.isupper() for c in segment),
        any(c.islower() for c in segment),
        any(c.isdigit() for c in segment),
        any(not c.isalnum() and c not in "-_. " for c in segment),
    )
    return sum(kinds) >= 3
