"""Merging two versions of a note: by field and by claim line, never a lost edit.

Contract: `merge_note(path, base, ours, theirs, labels, edited)` returns the merged text (or None
for a note both sides agree to delete) and whether it holds a conflict. The rules, the same whichever
machine merges (so two machines merging the same versions write the same note):
  - one side unchanged: the other side's version; both the same: that version;
  - deleted on one side, edited on the other: the edit is kept (`kept_edit`);
  - edited on both: front matter field by field (`tags`, `sources`: union, minus what one side
    removed; `created`: the earliest; `updated`: the latest; `title`, `kind`, a person's own
    keys: the side that changed it, and if both did, the side changed last (its `updated:`, or
    the time of a commit a person made by hand, `edited`, when that is later; equal: the
    greater value); `pinned`: the side that changed it, or true when both added the note), the
    body merged three-way, claim line by claim line (`wikimem.sync.lines`). Where the body cannot be merged, BOTH versions
    are kept between conflict markers and the front matter says `conflict: true`: `status`
    shows it, `doctor` explains it, the next dream reconciles it (`wikimem.sync.reconcile`).
  - a version that is not a valid note is merged as plain text; if that conflicts, the note
    keeps the valid side's front matter, flagged, and both whole versions in its body.
A note never leaves here with conflict markers and without the flag. Files that are not notes
(`.gitignore`, a README) are merged as text keeping both sides' lines (`merge_text`); `index.md`
is never merged (the caller regenerates it). `needs_settling(body)` says whether a body still
holds a conflict (markers, or one subject claimed twice): a flag stays only while it does.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from wikimem.sync import lines, markers
from wikimem.sync.markers import END, MIDDLE, START
from wikimem.wiki.notemeta import CONFLICT_KEY
from wikimem.wiki.notes import Note, NoteError, default_kind, parse_note, render_note, validate_path

T = TypeVar("T")
ABSENT = "\0absent"  # a front-matter key one version does not have
_FLAG_LINE = re.compile(
    r"^conflict:[ \t]*(true|yes)[ \t]*(#[^\n]*)?\n", re.MULTILINE | re.IGNORECASE
)


@dataclass(frozen=True)
class Merged:
    text: str | None  # None: deleted
    conflict: bool = False
    kept_edit: bool = False  # deleted on one side, edited on the other: the edit survives


def has_markers(text: str) -> bool:
    return markers.has_markers(text)


def flagged(note: Note) -> bool:
    for key, raw in note.extra:
        if key == CONFLICT_KEY:
            return raw.split(":", 1)[1].split("#", 1)[0].strip().lower() in ("true", "yes")
    return False


def with_flag(note: Note, on: bool) -> Note:
    extra = tuple((k, raw) for k, raw in note.extra if k != CONFLICT_KEY)
    if on:
        extra += ((CONFLICT_KEY, f"{CONFLICT_KEY}: true"),)
    return note.with_changes(extra=extra)


def needs_settling(body: str) -> bool:
    """Whether a body still holds a conflict: markers, or one subject claimed twice."""
    if markers.has_markers(body):
        return True
    lines = body.split("\n")
    if sum(1 for ln in lines if ln.startswith("- ")) < 2:
        return False
    # Claims are read with the dream's parser: only a body of claims pays for importing it.
    from wikimem.sync.claims import settle_claims

    return len(settle_claims(lines).lines) != len(lines)


def without_stale_flag(path: str, text: str) -> str:
    """`text` without its `conflict: true` line when the note holds no conflict any more (a
    person removed the markers): the flag clears when the markers are gone. Only that line of
    the front matter changes; anything else is returned as it is."""
    if CONFLICT_KEY not in text:
        return text
    try:
        note = parse_note(path, text)
    except NoteError:
        return text
    if not flagged(note) or needs_settling(note.body):
        return text
    end = text.find("\n---", 4)
    head, rest = text[: end + 1], text[end + 1 :]
    cleared = _FLAG_LINE.sub("", head, count=1) + rest
    try:
        return cleared if not flagged(parse_note(path, cleared)) else text
    except NoteError:
        return text


# -- text ---------------------------------------------------------------------------------------


def merge_text(base: str | None, ours: str | None, theirs: str | None) -> str | None:
    """A file that is not a note: three-way, and where both changed the same lines, both sides'
    lines kept (no markers). None when one side deleted it and the other did not change it."""
    trivial = _trivial(base, ours, theirs)
    if trivial is not None:
        return trivial.text
    if ours is None or theirs is None:
        return ours if theirs is None else theirs
    return lines.merge_text(base or "", ours, theirs, ("ours", "theirs"), union=True)[0]


# -- notes --------------------------------------------------------------------------------------


def _trivial(base: str | None, ours: str | None, theirs: str | None) -> Merged | None:
    if ours == theirs:
        return Merged(ours)
    if ours == base:
        return Merged(theirs)
    if theirs == base:
        return Merged(ours)
    if ours is None or theirs is None:
        return Merged(ours if theirs is None else theirs, kept_edit=base is not None)
    return None


def _nl(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def is_note_path(path: str) -> bool:
    try:
        validate_path(path)
        return True
    except NoteError:
        return False


def merge_note(
    path: str,
    base: str | None,
    ours: str | None,
    theirs: str | None,
    labels: tuple[str, str] = ("ours", "theirs"),
    edited: tuple[str, str] = ("", ""),
) -> Merged:
    trivial = _trivial(base, ours, theirs)
    if trivial is not None:
        return trivial
    assert ours is not None and theirs is not None
    if not is_note_path(path):
        return Merged(merge_text(base, ours, theirs))
    try:
        o, t = parse_note(path, ours), parse_note(path, theirs)
    except NoteError:
        return _merge_broken(path, base, ours, theirs, labels)
    b: Note | None
    try:
        b = parse_note(path, base) if base is not None else None
    except NoteError:
        b = None
    note, conflict = merge_notes(b, o, t, labels, edited)
    return Merged(render_note(note), conflict)


def merge_notes(
    base: Note | None,
    ours: Note,
    theirs: Note,
    labels: tuple[str, str],
    edited: tuple[str, str] = ("", ""),
) -> tuple[Note, bool]:
    """The merged note and whether its body holds both versions of a part (then flagged).
    `edited`: per side, the time of a commit a person made themselves that changed the note
    (`YYYY-MM-DDTHH:MM:SSZ`, or ""): such a commit leaves `updated:` as it was, yet it is when
    that side was changed."""
    when = (
        max(_instant(ours.updated), edited[0]),
        max(_instant(theirs.updated), edited[1]),
    )
    newer = (when[0] > when[1]) - (when[0] < when[1])
    # Each marker says which machine's version it is and when that version was changed: the
    # side changed last is then known from the note alone, whoever merged it.
    stamped = (markers.label(labels[0], when[0]), markers.label(labels[1], when[1]))
    body, conflicts, clashes = _merge_body(
        base.body if base else "", ours.body, theirs.body, stamped
    )
    extra = _merge_extra(base, ours, theirs, newer)
    if base is None:
        pinned = ours.pinned or theirs.pinned  # a pin is cheap to undo, costly to lose
    else:
        pinned = _pick(base.pinned, ours.pinned, theirs.pinned, newer)
    note = Note(
        path=ours.path,
        title=_pick(base.title if base else None, ours.title, theirs.title, newer),
        kind=_pick(base.kind if base else None, ours.kind, theirs.kind, newer),
        body=body,
        tags=_merge_set(base.tags if base else None, ours.tags, theirs.tags),
        created=min((d for d in (ours.created, theirs.created) if d), default=""),
        updated=max(ours.updated, theirs.updated),
        sources=_merge_set(base.sources if base else None, ours.sources, theirs.sources),
        pinned=pinned,
        extra=extra,
    )
    # A subject claimed differently on both sides, in different places, is a conflict too. A
    # flag either side still had stays only while the merged body holds a conflict: the flag
    # clears when the markers are gone (a person settled it on one machine, the other still
    # had the conflicted version).
    flag = conflicts > 0 or clashes > 0 or has_markers(body)
    if not flag and (flagged(ours) or flagged(theirs)):
        flag = needs_settling(body)
    return with_flag(note, flag), conflicts > 0 or clashes > 0


def _instant(updated: str) -> str:
    """`updated:` as a UTC time comparable as text (`2026-11-30T10:02:11Z`): a bare date is the
    start of that day, another offset is converted; text that is no time stays as it is."""
    text = updated.strip()
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return text
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _pick(base: T | None, ours: T, theirs: T, newer: int) -> T:
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    if newer:
        return ours if newer > 0 else theirs
    return max(ours, theirs, key=repr)  # the same answer on both machines


def _merge_set(
    base: Sequence[str] | None, ours: Sequence[str], theirs: Sequence[str]
) -> tuple[str, ...]:
    """Both sides' items, minus those one side removed since the base; ours first."""
    removed = set()
    if base is not None:
        removed = (set(base) - set(ours)) | (set(base) - set(theirs))
    return tuple(x for x in dict.fromkeys([*ours, *theirs]) if x not in removed)


def _merge_extra(
    base: Note | None, ours: Note, theirs: Note, newer: int
) -> tuple[tuple[str, str], ...]:
    b = dict(base.extra) if base else {}
    o, t = dict(ours.extra), dict(theirs.extra)
    out: list[tuple[str, str]] = []
    for key in dict.fromkeys([*o, *t]):
        if key == CONFLICT_KEY:
            continue  # decided from the merged body
        value = _pick(b.get(key, ABSENT), o.get(key, ABSENT), t.get(key, ABSENT), newer)
        if value != ABSENT:
            out.append((key, value))
    return tuple(out)


def _merge_body(base: str, ours: str, theirs: str, labels: tuple[str, str]) -> tuple[str, int, int]:
    if ours == theirs:
        return ours, 0, 0
    if ours == base:
        return theirs, 0, 0
    if theirs == base:
        return ours, 0, 0
    return lines.merge_text(base, ours, theirs, labels)


def _both(ours: str, theirs: str, labels: tuple[str, str]) -> str:
    return f"{START} {labels[0]}\n{_nl(ours)}{MIDDLE}\n{_nl(theirs)}{END} {labels[1]}\n"


def _merge_broken(
    path: str, base: str | None, ours: str, theirs: str, labels: tuple[str, str]
) -> Merged:
    """At least one side is not a valid note (a hand edit git committed without the gate)."""
    text, conflicts, clashes = lines.merge_text(base or "", ours, theirs, labels)
    if conflicts == clashes == 0:
        return Merged(text)  # merged cleanly as text; the gate judges it on the next write
    valid: Note | None = None
    for text in (ours, theirs):
        try:
            valid = parse_note(path, text)
            break
        except NoteError:
            continue
    if valid is None:
        title = path.rsplit("/", 1)[-1][:-3].replace("-", " ").capitalize()
        valid = Note(path=path, title=title, kind=default_kind(path), body="")
    note = with_flag(valid.with_changes(body=_both(ours, theirs, labels)), True)
    return Merged(render_note(note), conflict=True)
