"""Reading the events a dream has not consolidated yet.

Contract: `new_events(events_dir, watermark)` yields `(offset key, end offset, record)` for every
complete record after the watermark, oldest file first, in append order; the key is the file's
name and id (`wikimem.capture.events.offset_key`), so a file deleted and made again under the
same name is read from its start, never from the offset its predecessor reached. Only complete lines are
read (a hook mid-append is left for the next dream). A line that is not a record (torn by a
crash or a full disk) is skipped and, when a `damaged` list is given, reported there as a
`Damaged` (the record a writer may have appended onto it is still read); an unterminated last
line of a past day's file that has not changed for a minute is damage too, since no writer will
finish it. `pending_count` counts records cheaply.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from wikimem.capture import events
from wikimem.dream.watermark import Watermark

SETTLED_SECONDS = 60  # a past day's file untouched this long gets no more appends


@dataclass(frozen=True)
class Damaged:
    """A line of an events file that holds no record: skipped, never fatal."""

    file: str  # the offset key: `name#id`
    offset: int
    length: int

    @property
    def end(self) -> int:
        return self.offset + self.length

    def message(self) -> str:
        return (
            f"events/{self.file.split('#', 1)[0]}: skipped a damaged line at byte {self.offset} "
            f"({self.length} bytes; a crash or a full disk cut it short)"
        )


def new_events(
    events_dir: str, mark: Watermark, damaged: list[Damaged] | None = None
) -> Iterator[tuple[str, int, dict[str, Any]]]:
    today = events.utc_timestamp()[:10]
    keyed = events.keyed_names(mark.offsets)
    for name in events.list_files(events_dir):
        path = os.path.join(events_dir, name)
        try:
            stat = os.stat(path)
        except OSError:
            continue
        size = stat.st_size
        fid = events.file_id(path)
        key = events.offset_key(name, fid)
        start = events.offset_in(mark.offsets, name, fid, keyed)
        if start > size:
            start = 0  # shorter than what was read of it: another file, read from the start
        if size <= start:
            continue
        settled = name[:10] < today and time.time() - stat.st_mtime > SETTLED_SECONDS
        spans: list[tuple[int, int]] = []
        for end, record in events.read_from(path, start, spans, final=settled):
            yield key, end, record
        if damaged is not None:
            damaged.extend(Damaged(key, offset, length) for offset, length in spans)


def damage_report(damaged: list[Damaged], limit: int = 5) -> list[str]:
    """Warnings for the damaged lines skipped, at most `limit` of them and a count."""
    lines = [d.message() for d in damaged[:limit]]
    if len(damaged) > limit:
        lines.append(f"… and {len(damaged) - limit} more damaged event lines skipped")
    return lines


def pending_count(events_dir: str, mark: Watermark) -> int:
    return events.count_after(events_dir, mark.offsets)
