"""When a hand edit was made: the note's `updated:` stamped with the file's change, not its commit.

A person edits a note in an editor or Obsidian; `wikimem sync` or `wikimem watch` commits it later,
perhaps much later. A sync conflict is settled for the side changed last, read from each side's
`updated:` (docs/sync.md), so the edit must carry the time it was made: the file's modification
time, to the second, in UTC. Two machines editing one line three seconds apart are then told apart
whichever commits first.

Contract: `stamp_hand_edit(memory_dir, rel, text, committed)` is `text` with `updated:` set to the
file's modification time when that is later than the `updated:` it has (never in this machine's
future), unless the person changed `updated:` themselves (compared with `committed`, the text
as last committed); only that one line of the front matter changes. Anything that is not a note
with front matter is returned as it is. `stamp_updated(original, edited, stamp)` is the same
for any stamp (`wikimem edit` stamps the time the editor closed).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import time

from wikimem.wiki.notes import NoteError, parse_note

_UPDATED_LINE = re.compile(r"^updated:[^\n]*$", re.MULTILINE)


def stamp_updated(original: str | None, edited: str, stamp: str) -> str:
    """`edited` with `updated:` set to `stamp`, unless the person changed it themselves. Only that
    one line of the front matter is touched, so the rest stays exactly as they wrote it."""
    from wikimem.wiki.notemeta import split

    block, _ = split(edited)
    if block is None:
        return edited
    old_block = split(original)[0] if original is not None else None
    mine = _UPDATED_LINE.search(block)
    theirs = _UPDATED_LINE.search(old_block) if old_block is not None else None
    if mine and (theirs is None or mine.group(0) != theirs.group(0)) and original is not None:
        return edited  # the person set it
    line = f"updated: {stamp}"
    new_block = _UPDATED_LINE.sub(line, block, count=1) if mine else block + line + "\n"
    start = edited.find("\n") + 1  # the block follows the opening `---` line
    return edited[:start] + new_block + edited[start + len(block) :]


def _instant(value: str) -> str:
    try:
        when = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return ""
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def changed_at(memory_dir: str, rel: str) -> str:
    """The file's modification time as `YYYY-MM-DDTHH:MM:SSZ` ("" when it cannot be read)."""
    try:
        mtime = os.lstat(os.path.join(memory_dir, rel)).st_mtime
    except OSError:
        return ""
    when = min(mtime, time.time())  # a file stamped in the future is no later than now
    return dt.datetime.fromtimestamp(when, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamp_hand_edit(memory_dir: str, rel: str, text: str, committed: str | None) -> str:
    try:
        note = parse_note(rel, text)
    except NoteError:
        return text  # the gate reports it; nothing to stamp
    stamp = changed_at(memory_dir, rel)
    if not stamp or stamp <= _instant(note.updated):
        return text
    return stamp_updated(committed, text, stamp)
