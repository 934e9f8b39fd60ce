"""One record per event, however many registrations deliver it.

Some harnesses run every hook registration of an event, each with the same payload: Gemini CLI
(`wikimem install gemini` and the Gemini extension), GitHub Copilot CLI (user and repository
hooks). The payload's own timestamp, taken when the event fired, tells a repeat from a new event.

Contract: `first(state_dir, seen_dir, key, bucket, now, prune)` is True for the first call with
`key` and False for every later one: a marker file created with O_EXCL under
`state/<seen_dir>/<bucket>/` (the bucket is the event's UTC hour, `2026-11-29T18`) decides. When
no marker can be made it answers True: an event recorded twice is better than one lost. With
`prune`, buckets older than a few hours (a repeat arrives within seconds) are removed.

Hook-path module: standard library only, no regular expressions.
"""

from __future__ import annotations

import os

SEEN_KEEP_SECONDS = 3 * 3600


def iso_hour(stamp: object) -> str | None:
    """`2026-11-29T18` of an ISO time like `2026-11-29T18:04:11.123Z`, else None."""
    if not isinstance(stamp, str):
        return None
    head = stamp[:13]
    if len(head) != 13:
        return None
    digits = head[0:4] + head[5:7] + head[8:10] + head[11:13]
    if not (
        digits.isascii() and digits.isdigit() and head[4] == head[7] == "-" and head[10] in "T "
    ):
        return None
    return f"{head[:10]}T{head[11:13]}"


def epoch_ms_hour(stamp: object) -> str | None:
    """The UTC hour of an epoch time in milliseconds (an int, as Copilot CLI sends), else None."""
    if not isinstance(stamp, int) or isinstance(stamp, bool) or not 0 < stamp < 10**14:
        return None
    import time

    return time.strftime("%Y-%m-%dT%H", time.gmtime(stamp / 1000))


def first(state_dir: str, seen_dir: str, key: str, bucket: str, now: float, prune: bool) -> bool:
    """True for the first delivery of the event `key` identifies, False for a repeat."""
    if len(bucket) != 13 or not all(c.isalnum() or c == "-" for c in bucket):
        return True
    directory = os.path.join(state_dir, seen_dir, bucket)
    marker = os.path.join(directory, _digest(key))
    for attempt in (0, 1):
        try:
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            break
        except FileExistsError:
            return False
        except FileNotFoundError:
            if attempt:
                return True  # no marker possible: rather twice than never
            try:
                os.makedirs(directory, mode=0o700, exist_ok=True)
            except OSError:
                return True
        except OSError:
            return True
    if prune:
        prune_seen(state_dir, seen_dir, now, keep=bucket)
    return True


def _digest(key: str) -> str:
    try:
        from _sha1 import sha1  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - CPython always has it
        from hashlib import sha1
    return str(sha1(key.encode("utf-8", "surrogatepass")).hexdigest()[:32])


def prune_seen(state_dir: str, seen_dir: str, now: float, keep: str = "") -> None:
    """Drop marker buckets older than a few hours, except `keep`, the one just written to."""
    import time

    cutoff = time.strftime("%Y-%m-%dT%H", time.gmtime(now - SEEN_KEEP_SECONDS))
    root = os.path.join(state_dir, seen_dir)
    try:
        buckets = [b for b in os.listdir(root) if b < cutoff and b != keep]
    except OSError:
        return
    for bucket in buckets:
        path = os.path.join(root, bucket)
        try:
            for name in os.listdir(path):
                os.unlink(os.path.join(path, name))
            os.rmdir(path)
        except OSError:
            continue
