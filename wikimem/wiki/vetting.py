"""Vetting a note as it is on disk: the gate's content rules for text that did not pass the gate.

Everything wikimem writes to memory/ passes the write gate, but text also arrives around it: a
teammate's commit that `wikimem sync` merges or a plain `git pull` brings, a file copied in, a
hand edit not committed yet. Before any of it is indexed, injected into a session or shown to a
model it is read through `vet`, which applies the gate's content rules and says what it held
back:

  - size: a note over `gate.max_note_bytes` is not read at all (`HELD_SIZE`); it is neither
    indexed nor injected, so one 20 MB file cannot crowd out every other note or stall a hook;
  - secrets: what the detector finds is replaced by `[REDACTED:<kind>]` in the reading
    (`HELD_SECRET`); only that reading is indexed and injected;
  - pinning: `pinned: true` counts only for a pin this machine saw the person set
    (`wikimem.wiki.pins`); any other is read as unpinned (`HELD_PIN`).

What was held back is recorded with the note in the search index (`state/`, machine-local), so
`wikimem status` and `wikimem doctor` can say which notes and what to do, and the prompt hook
learns it from a query it makes anyway. Nothing here changes memory/: a person fixes the note
(`wikimem edit`, `forget`, `pin`, `scrub`), or the next gated write of it does.

Hook-path module: standard library only (the index vets notes while a hook refreshes it).
"""

from __future__ import annotations

from wikimem.capture.redact import redact_note
from wikimem.wiki import notemeta

HELD_SIZE = "size"
HELD_SECRET = "secret"
HELD_PIN = "pin"
DEFAULT_MAX_BYTES = 20000


class Reading:
    """A note as it may be used: its text (None when not read: over the size limit), its front
    matter and body from that text, and what was held back, as `held` codes with details
    (`size=20971520`, `secret=aws_access_key,github_token`, `pin`)."""

    __slots__ = ("body", "held", "meta", "pinned", "text")

    def __init__(
        self, text: str | None, meta: dict[str, object], body: str, pinned: bool, held: str
    ) -> None:
        self.text = text
        self.meta = meta
        self.body = body
        self.pinned = pinned
        self.held = held


def vet(text: str | None, size: int, max_bytes: int, pin_honoured: bool) -> Reading:
    """The reading of a note of `size` bytes whose text is `text` (None when it was not read
    because it is over `max_bytes`)."""
    if text is None or size > max_bytes:
        return Reading(None, {}, "", False, f"{HELD_SIZE}={size}")
    held: list[str] = []
    redacted, kinds = redact_note(text)
    if kinds:
        held.append(f"{HELD_SECRET}={','.join(sorted(set(kinds)))}")
        text = redacted
    meta, body = notemeta.read_meta(text)
    pinned = meta.get("pinned") is True
    if pinned and not pin_honoured:
        held.append(HELD_PIN)
        pinned = False
    return Reading(text, meta, body, pinned, " ".join(held))


def codes(held: str) -> dict[str, str]:
    """`held` as {code: detail}: {"size": "20971520", "secret": "aws_access_key", "pin": ""}."""
    out: dict[str, str] = {}
    for part in held.split():
        code, _, detail = part.partition("=")
        out[code] = detail
    return out
