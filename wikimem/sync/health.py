"""What `status` and `doctor` say about sync: the remote, the last outcome, notes in conflict.

Contract: `summary(home)` is one line for `wikimem status` (or None when sync was never set up);
`checks(home)` are doctor's checks with a fix for each problem: the last sync failed (and
since when), a sync was interrupted, notes hold a conflict the next dream will settle (or one
only a person can: malformed markers), the merge driver points at an interpreter that is gone.
A `conflict: true` flag left on a note whose markers are gone is no conflict.
`flagged_paths(memory_dir)` is the notes whose front matter says `conflict: true` (committed or
not), found by `git grep`; given a `limit`, a note larger than it (`gate.max_note_bytes`: never
read, indexed or injected, so never settled either) is neither searched nor read. All read only;
none touches the network.
"""

from __future__ import annotations

import os
import shlex
import time

from wikimem import gitrun
from wikimem.checks import Check
from wikimem.home import Home
from wikimem.sync import record
from wikimem.wiki.notemeta import CONFLICT_KEY

JOURNAL = "sync-journal.json"


def _configured_remote(home: Home) -> str:
    from wikimem.config import load_config

    try:
        url = load_config(home).sync.remote
    except Exception:  # a broken config is doctor's config check's to report
        url = ""
    if url:
        return url
    proc = gitrun.run_text(home.memory_dir, "config", "--get", "remote.origin.url")
    return proc.stdout.strip()


def standing(home: Home) -> list[tuple[str, bool]]:
    """(path, the next dream settles it) of the notes that still hold a sync conflict."""
    if not os.path.isdir(os.path.join(home.memory_dir, ".git")):
        return []
    from wikimem.recall.index import note_limit

    return _standing_in(home.memory_dir, note_limit(home.root))


def flagged_paths(memory_dir: str, limit: int | None = None) -> list[str]:
    """Notes whose front matter says `conflict: true` (committed or not)."""
    skipped = [] if limit is None else _larger_than(memory_dir, limit)
    proc = gitrun.run_text(
        memory_dir,
        *(
            "grep",
            "-l",
            "--untracked",
            "-I",
            "-E",
            f"^{CONFLICT_KEY}: *(true|yes)",
            "--",
            "*.md",
            *(f":(exclude,literal){rel}" for rel in skipped),
        ),
    )
    return sorted(p for p in proc.stdout.splitlines() if p and p != "index.md")


def _larger_than(memory_dir: str, limit: int) -> list[str]:
    from wikimem.wiki.plainfile import note_paths

    out = []
    for rel in note_paths(memory_dir):
        try:
            if os.lstat(os.path.join(memory_dir, rel)).st_size > limit:
                out.append(rel)
        except OSError:
            continue
    return out


def _standing_in(memory_dir: str, limit: int | None = None) -> list[tuple[str, bool]]:
    flagged_notes = flagged_paths(memory_dir, limit)
    if not flagged_notes:
        return []
    # PyYAML and the merge rules only once a note is flagged: `status` stays quick
    from wikimem.sync import markers
    from wikimem.sync.merge import flagged, needs_settling
    from wikimem.wiki import plainfile
    from wikimem.wiki.notes import NoteError, parse_note

    out = []
    for path in flagged_notes:
        text = plainfile.read_text(memory_dir, path, limit=limit)
        if text is None:
            continue
        try:
            note = parse_note(path, text)
        except NoteError:
            out.append((path, False))
            continue
        if not flagged(note) or not needs_settling(note.body):
            continue
        out.append((path, markers.split(note.body) is not None))
    return out


def conflicts(home: Home) -> list[str]:
    """Notes that still hold a sync conflict (a flag left after the markers went is none)."""
    return [path for path, _ in standing(home)]


def summary(home: Home) -> str | None:
    rec = record.load(home)
    url = _configured_remote(home)
    flagged = conflicts(home)
    if not url and not rec.last_attempt and not flagged:
        return None
    parts = [url or "no remote configured"]
    if rec.last_error:
        parts.append(
            f"FAILING since {rec.failing_since} ({rec.failures} attempt(s)): {rec.last_error}"
        )
    parts.append(f"last synced {rec.last_success}" if rec.last_success else "never synced")
    if rec.deferred:
        parts.append(f"deferred {rec.deferred}")
    if flagged:
        parts.append(f"{len(flagged)} note(s) in conflict: {', '.join(flagged[:3])}")
    return "; ".join(parts)


def checks(home: Home) -> list[Check]:
    rec = record.load(home)
    url = _configured_remote(home)
    out: list[Check] = []
    if not url:
        out.append(Check("sync", "info", "not set up (optional): `wikimem sync --remote URL`"))
    elif rec.last_error:
        out.append(
            Check(
                "sync",
                "fail",
                f"the last sync failed ({rec.failures} attempt(s) since {rec.failing_since}): "
                f"{rec.last_error}",
                "run `wikimem sync` to see it now; automatic syncs retry at the next dream or "
                "remember",
            )
        )
    else:
        when = rec.last_success or "never"
        out.append(Check("sync", "ok", f"{url}; last synced {when}"))
    if os.path.exists(home.state(JOURNAL)):
        out.append(
            Check(
                "sync",
                "warn",
                "a sync was interrupted while it updated memory/",
                "run `wikimem sync`: it finishes the interrupted one first",
            )
        )
    found = standing(home)
    by_dream = [p for p, settles in found if settles]
    by_hand = [p for p, settles in found if not settles]
    if by_dream:
        shown = ", ".join(by_dream[:5]) + (" …" if len(by_dream) > 5 else "")
        out.append(
            Check(
                "sync",
                "warn",
                f"{len(by_dream)} note(s) were edited on two machines and hold both versions "
                f"(agents are given the newer one), flagged `conflict: true`: {shown}",
                "run `wikimem dream` to settle them (the newer claim is current, the other kept "
                'as "was … until …"), or edit them by hand and remove the markers',
            )
        )
    if by_hand:
        shown = ", ".join(by_hand[:5]) + (" …" if len(by_hand) > 5 else "")
        out.append(
            Check(
                "sync",
                "warn",
                f"{len(by_hand)} note(s) hold a sync conflict no rule can settle (malformed "
                f"conflict markers, or not a valid note): {shown}",
                "edit them by hand: keep what is true, remove every `<<<<<<<`, `=======` and "
                "`>>>>>>>` line; the flag clears by itself once they are gone",
            )
        )
    out += _driver_checks(home)
    out += _clock_checks(home)
    return out


CLOCK_SLACK = 300.0  # seconds: clocks that agree this well are not worth a word


def _clock_checks(home: Home, now: float | None = None) -> list[Check]:
    """A commit in memory/ dated in this machine's future: this clock is behind (or the other
    machine's was ahead). Conflicts are settled by the time each side was changed, so a clock
    behind loses conflicts it should win: say so."""
    proc = gitrun.run_text(
        home.memory_dir,
        "for-each-ref",
        "--sort=-committerdate",
        "--count=1",
        "--format=%(committerdate:unix) %(committerdate:iso-strict)",
    )
    try:
        stamp, when = proc.stdout.split()
        ahead = float(stamp) - (time.time() if now is None else now)
    except ValueError:
        return []
    if ahead <= CLOCK_SLACK:
        return []
    hours = ahead / 3600
    return [
        Check(
            "sync",
            "warn",
            f"memory/ holds a commit dated {when}, {hours:.1f} h after this machine's clock: "
            "this clock is behind (or the machine that made it was ahead)",
            "set the clock right (enable network time); until then an edit made here counts "
            "as older than it is when a sync conflict is settled",
        )
    ]


def _driver_checks(home: Home) -> list[Check]:
    proc = gitrun.run_text(home.memory_dir, "config", "--get", "merge.wikimem.driver")
    command = proc.stdout.strip()
    if not command:
        return []
    try:
        interpreter = shlex.split(command)[0]
    except (ValueError, IndexError):
        interpreter = ""
    if interpreter and os.path.isabs(interpreter) and not os.path.exists(interpreter):
        return [
            Check(
                "sync",
                "warn",
                f"the merge driver a plain `git pull` in memory/ uses points at {interpreter}, "
                "which no longer exists",
                "run `wikimem sync` from the wikimem you use now: it registers the driver again",
            )
        ]
    return []
