"""What in memory/ waits for the person's judgment: claims kept contested, claims held.

When the rules cannot tell whether a newer claim replaces an older one, both are kept, the
newer first, the older beneath it marked `contested, earlier:` (`wikimem.dream.claims.fold`).
Contract: `contested(memory_dir)` lists each such pair (note path, the newer claim, the earlier
one) from the living notes (session digests are history, never contested); `status` counts
them and `doctor` says where they are and how to settle one (delete the line that is wrong, in
an editor or Obsidian, or say which is true in a session or with `wikimem remember`).
`held(memory_dir, state_dir)` lists the lines withheld from agents (`wikimem.wiki.holds`): a
rule that would have an agent run code fetched from the network, or text worded as an
instruction to the agent that is not the person's own, stored but never given until the person
confirms that very line (`wikimem confirm PATH --line ID`, with the id listed here).
Both read a note only up to `limit` bytes (`gate.max_note_bytes`): a larger one is never read,
indexed or injected (`wikimem.wiki.vetting`), so it holds nothing to settle or confirm here.
"""

from __future__ import annotations

from dataclasses import dataclass

from wikimem.wiki import confirmations, holds, notemeta, origins, plainfile, vetting
from wikimem.wiki.notemeta import CONTESTED
from wikimem.wiki.plainfile import note_paths


@dataclass(frozen=True)
class Contested:
    path: str
    newer: str
    earlier: str


def contested(memory_dir: str, limit: int = vetting.DEFAULT_MAX_BYTES) -> list[Contested]:
    out: list[Contested] = []
    for rel in note_paths(memory_dir):
        if "/sessions/" in rel:
            continue
        text = plainfile.read_text(memory_dir, rel, limit=limit)
        if not text or CONTESTED not in text:
            continue
        # the claim parser only for a note that has a pair: `status` stays quick
        from wikimem.dream.claims import parse_line

        head = ""
        for line in text.split("\n"):
            if line.startswith("- "):
                claim = parse_line(line)
                head = claim.text if claim is not None else ""
            elif line.startswith(CONTESTED) and head:
                earlier = parse_line("- " + line[len(CONTESTED) :])
                if earlier is not None:
                    out.append(Contested(rel, head, earlier.text))
    return out


@dataclass(frozen=True)
class Held:
    path: str
    text: str
    id: str = ""  # what `wikimem confirm PATH --line ID` takes
    why: str = ""
    source: str = ""  # who brought it, as this machine recorded it


def held(memory_dir: str, state_dir: str, limit: int = vetting.DEFAULT_MAX_BYTES) -> list[Held]:
    """Lines withheld from agents until the person confirms them: marked held, a hazard, or
    worded as an instruction and not the person's, and not confirmed on this machine."""
    out: list[Held] = []
    confirmed = confirmations.confirmed(state_dir)
    book = origins.Book(state_dir)
    for rel in note_paths(memory_dir):
        if "/sessions/" in rel:
            continue
        text = plainfile.read_text(memory_dir, rel, limit=limit)
        if not text:
            continue
        for line in notemeta.split(text)[1].split("\n"):  # front matter is never given
            origin = book.origin(rel, line)
            if not line.strip() or not holds.held(line, origin, confirmed):
                continue
            source = "you" if origins.is_person(origin) else origins.label(origin)
            ident, why = holds.line_id(line), holds.why(line, origin)
            if line.startswith(("- ", "  - ")):  # a claim: shown without its provenance
                from wikimem.dream.claims import parse_line  # only when a line is held

                claim = parse_line("- " + line.lstrip()[2:])
                shown = claim.text if claim is not None else line
            else:  # prose, a hand-written or pulled note's: withheld just the same
                shown = line.strip()
            out.append(Held(rel, shown, ident, why, source))
    return out
