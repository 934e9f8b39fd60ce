"""Reconciling the notes a sync flagged `conflict: true`, in the next dream.

Contract: `reconcile_flagged(memory_dir, read, backend, today)` is called by the dream runner
before any events are consolidated. It finds the flagged notes (`flagged_paths`, by `git grep`,
so a plain `git pull` with the merge driver counts too) and returns, per note it could settle,
the reconciled `Note` (no markers, no flag) for the dream's single commit, plus what it could
not settle:
  - a model backend (`needs_prompt`) is given the note in a prompt of its own, with the rules of
    the dream's system prompt and the instruction to reconcile; its upsert of that path is
    taken if it holds no conflict markers;
  - otherwise, or when the model gives nothing usable, the offline rules settle it: each side
    of a conflict is a list of claim lines; lines on one side only are kept; two lines about
    the same subject (the same bold subject, the same text once the trailing provenance is
    removed, or one superseding the other) are one claim, and the newer-dated one wins (the date in its provenance label).
    Ties are broken by the text, so every machine settles a conflict the same way. Then, in
    the whole note, one claim per subject stands (a subject both machines claimed in
    different places is flagged without markers). "The same subject" is the dream's own
    supersession rule (`wikimem.sync.claims` over `wikimem.dream.claims`).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field

from wikimem.dream.base import Backend, DreamRequest, Prompt
from wikimem.dream.ops import Upsert
from wikimem.sync.claims import current_claims
from wikimem.sync.lines import END, MIDDLE, START
from wikimem.sync.merge import CONFLICT_KEY, flagged, has_markers, with_flag
from wikimem.wiki import gitenv
from wikimem.wiki.notes import Note, NoteError, parse_note, project_of

ReadNote = Callable[[str], str | None]


# -- conflict regions ---------------------------------------------------------------------------


@dataclass
class Region:
    ours: list[str] = field(default_factory=list)
    theirs: list[str] = field(default_factory=list)


def split_regions(body: str) -> list[str | Region] | None:
    """The body as plain lines and conflict regions; None when the markers are malformed."""
    out: list[str | Region] = []
    current: Region | None = None
    side = ""
    for line in body.splitlines():
        if line.startswith(START) and (len(line) == len(START) or line[len(START)] == " "):
            if current is not None:
                return None
            current, side = Region(), "ours"
        elif line == MIDDLE and current is not None and side == "ours":
            side = "theirs"
        elif line.startswith(END) and (len(line) == len(END) or line[len(END)] == " "):
            if current is None or side != "theirs":
                return None
            out.append(current)
            current = None
        elif current is not None:
            (current.ours if side == "ours" else current.theirs).append(line)
        else:
            out.append(line)
    return None if current is not None else out


def settle(region: Region) -> list[str]:
    """One list of lines from both sides of a region: one claim per subject, the newer wins;
    other lines (headings, prose) once each."""
    out = current_claims([*region.ours, *region.theirs], dedupe_other=True)
    tidy: list[str] = []
    for line in out:
        if line.strip() or (tidy and tidy[-1].strip()):
            tidy.append(line)
    while tidy and not tidy[-1].strip():
        tidy.pop()
    return tidy


def settle_body(body: str) -> str | None:
    """The body with every conflict settled offline; None when its markers are malformed."""
    parts = split_regions(body)
    if parts is None:
        return None
    lines: list[str] = []
    for part in parts:
        lines.extend(settle(part) if isinstance(part, Region) else [part])
    text = "\n".join(current_claims(lines))
    return text + "\n" if text else ""


# -- the dream's entry point --------------------------------------------------------------------


def flagged_paths(memory_dir: str) -> list[str]:
    """Notes whose front matter says `conflict: true` (committed or not)."""
    proc = subprocess.run(
        [
            "git",
            "-C",
            memory_dir,
            "grep",
            "-l",
            "--untracked",
            "-I",
            "-E",
            f"^{CONFLICT_KEY}: *(true|yes)",
            "--",
            "*.md",
        ],
        capture_output=True,
        text=True,
        env=gitenv.environ(),
        check=False,
    )
    return sorted(p for p in proc.stdout.splitlines() if p and p != "index.md")


@dataclass
class Reconciled:
    notes: list[Note] = field(default_factory=list)
    unsettled: list[tuple[str, str]] = field(default_factory=list)  # (path, why)


RECONCILE_INSTRUCTION = """\
## A note to reconcile

`wikimem sync` merged two machines' versions of this note and could not merge every part: both
versions of those parts are kept between conflict markers (`<<<<<<< machine`, `=======`,
`>>>>>>> machine`). Reconcile it: call apply_operations with ONE upsert of `{path}` whose body
keeps everything still true from both sides, one current claim per subject (when the two sides
disagree, the claim with the newer date in its provenance wins; keep provenance links as they
are), and no conflict markers. Keep its title and kind unless they are wrong.
"""


def _prompt(path: str, text: str, system: str) -> Prompt:
    user = (
        RECONCILE_INSTRUCTION.format(path=path)
        + f"\n### {path}\n```markdown\n{text.rstrip()}\n```\n"
    )
    return Prompt(system=system, user=user)


def _from_model(backend: Backend, note: Note, text: str, today: str, read: ReadNote) -> Note | None:
    from wikimem.dream.prompt import SYSTEM_PROMPT

    request = DreamRequest(
        project=project_of(note.path) or "reconcile",
        sessions=(),
        today=today,
        prompt=_prompt(note.path, text, SYSTEM_PROMPT),
    )
    try:
        proposal = backend.propose(request, read)
    except Exception:  # a failing model must not stop the offline rules from settling it
        return None
    for op in proposal.operations:
        if isinstance(op, Upsert) and op.path == note.path and not has_markers(op.body):
            return note.with_changes(
                title=op.title, kind=op.kind, body=op.body, tags=op.tags or note.tags
            )
    return None


def reconcile_flagged(
    memory_dir: str, read: ReadNote, backend: Backend | None, today: str, stamp: str
) -> Reconciled:
    out = Reconciled()
    for path in flagged_paths(memory_dir):
        text = read(path)
        if text is None:
            continue
        try:
            note = parse_note(path, text)
        except NoteError as exc:
            out.unsettled.append((path, str(exc)))
            continue
        if not flagged(note):
            continue  # "conflict: true" in the body, not the front matter
        settled: Note | None = None
        if backend is not None and backend.needs_prompt:
            settled = _from_model(backend, note, text, today, read)
        if settled is None:
            body = settle_body(note.body)
            if body is None:
                out.unsettled.append(
                    (path, "its conflict markers are malformed; resolve it by hand")
                )
                continue
            settled = note.with_changes(body=body)
        out.notes.append(with_flag(settled, False).with_changes(updated=stamp))
    return out
