"""Reading the events a dream has not consolidated yet.

Contract: `new_events(events_dir, watermark)` yields `(file name, end offset, record)` for every
complete record after the watermark, oldest file first, in append order. Only complete lines are
read (a hook mid-append is left for the next dream). `pending_count` counts them cheaply.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from wikimem.capture import events
from wikimem.dream.watermark import Watermark


def new_events(events_dir: str, mark: Watermark) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for name in events.list_files(events_dir):
        path = os.path.join(events_dir, name)
        try:
            size = os.path.getsize(path)
        except OSError:
            continue
        start = mark.offset(name)
        if start > size:
            start = 0  # the file was replaced (deleted and recreated): read it from the start
        if size <= start:
            continue
        for end, record in events.read_from(path, start):
            yield name, end, record


def pending_count(events_dir: str, mark: Watermark) -> int:
    return events.count_after(events_dir, mark.offsets)
