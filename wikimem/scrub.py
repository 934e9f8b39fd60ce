"""`wikimem scrub VALUE`: remove one stored value (a leaked password, a token the detector did
not know) from everywhere wikimem keeps text on this machine, and say what remains.

Contract: `scrub(home, value)` replaces every occurrence of `value`
  - in the notes of memory/ (their text, titles, front matter; session digests are notes) by
    `[REDACTED:scrubbed]`, through the write gate as the person's change, in one commit (a note
    whose path holds the value is moved to a path without it);
  - in events/ and in state/'s files (the dream's parked writes, the batch journal, edit drafts,
    the error log, …) by a run of `*` as long as what it hides, in place, under each events
    file's lock: byte offsets (the dream's watermark) stay valid, and JSON stays JSON;
  - in the search index, which is deleted and rebuilt from the scrubbed notes (SQLite keeps
    deleted text in free pages and its journal);
  - in index.md's cache of entries (rebuilt), and in memory/.git's reflogs and last commit
    message (masked in place: a commit's subject names the note it wrote).
The value is looked for in any letter case, as written, as JSON escaping writes it, and as the
slug wikimem makes of it for a note's path or a project's folder (`My_Token 9` ->
`my-token-9`). It returns a `ScrubResult`:
what was changed where, and how many commits of memory/'s history (every branch and the
remote-tracking ones) still hold it. History is not rewritten here: that changes every later
commit id and every machine that synced must follow, so `history_advice` says how, and why.
A value shorter than `MIN_CHARS` is refused: it would match ordinary text.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from dataclasses import dataclass, field

from wikimem import gitrun
from wikimem.errors import WikimemError
from wikimem.home import Home

MARKER = "[REDACTED:scrubbed]"
MIN_CHARS = 6
CHUNK = 8 * 1024 * 1024
REPLACEMENTS_FILE = "scrub-replacements.txt"


class ScrubError(WikimemError):
    """The value cannot be scrubbed (too short, empty)."""


@dataclass
class ScrubResult:
    notes: list[str] = field(default_factory=list)  # notes rewritten (and committed)
    moved: list[tuple[str, str]] = field(default_factory=list)
    blocked: list[tuple[str, str]] = field(default_factory=list)  # (path, the gate's reason)
    commit: str | None = None
    events: dict[str, int] = field(default_factory=dict)  # file -> occurrences masked
    state: dict[str, int] = field(default_factory=dict)
    index_rebuilt: bool = False
    history_commits: int = 0
    remote: str = ""


def text_forms(value: str) -> list[str]:
    """`value`, and the slug wikimem makes of it for a path (when it differs beyond case)."""
    from wikimem.capture.project import slugify

    out = [value]
    slug = slugify(value)
    if len(slug) >= MIN_CHARS and slug != value.lower():
        out.append(slug)
    return out


def _pattern(form: str) -> re.Pattern[str]:
    return re.compile(re.escape(form), re.IGNORECASE)


def forms(value: str) -> list[bytes]:
    """The byte strings `value` is stored as: itself and its slug, each JSON-escaped once and
    twice (a tool's JSON output inside a record), ASCII-escaped or not. Matched in any case
    (`mask_file`)."""
    out: list[bytes] = []
    text_forms_ = text_forms(value)
    for _ in range(2):
        text_forms_ += [
            json.dumps(t, ensure_ascii=a)[1:-1] for t in text_forms_ for a in (True, False)
        ]
    for text in text_forms_:
        data = text.encode("utf-8", "surrogatepass").lower()
        if data not in out:
            out.append(data)
    return sorted(out, key=len, reverse=True)


def scrub(home: Home, value: str) -> ScrubResult:
    if len(value.strip()) < MIN_CHARS:
        raise ScrubError(
            f"a value of fewer than {MIN_CHARS} characters would match ordinary text; "
            "nothing was changed"
        )
    result = ScrubResult()
    _scrub_notes(home, value, result)
    patterns = forms(value)
    for name in _files(home.events_dir):
        count = mask_file(os.path.join(home.events_dir, name), patterns)
        if count:
            result.events[name] = count
    _scrub_state(home, patterns, result)
    result.history_commits = history_count(home.memory_dir, value)
    from wikimem.config import load_config

    result.remote = load_config(home).sync.remote
    return result


def _scrub_notes(home: Home, value: str, result: ScrubResult) -> None:
    from wikimem.wiki.batch import Wiki
    from wikimem.wiki.gate import MemoryWrite, content_hash

    wiki = Wiki(home)

    patterns = [_pattern(f) for f in text_forms(value)]

    def writes() -> list[MemoryWrite]:
        out = []
        for rel in wiki.paths():
            text = wiki.read(rel)
            new_rel = rel
            for pat in patterns:
                new_rel = pat.sub("scrubbed", new_rel)
            if text is None:
                continue
            content = _scrubbed_note(new_rel, text, patterns)
            if content == text and new_rel == rel:
                continue
            if new_rel != rel:
                out.append(MemoryWrite(new_rel, "create", content, "scrub", ()))
                out.append(
                    MemoryWrite(rel, "delete", None, "scrub", (), content_hash(text), new_rel)
                )
            else:
                out.append(MemoryWrite(rel, "update", content, "scrub", (), content_hash(text)))
        return out

    batch = wiki.commit_writes(writes, "scrub: remove a stored value from notes")
    result.commit = batch.commit
    done = {r.write.path for r in batch.written}
    for r in batch.written:
        if r.write.operation == "update":
            result.notes.append(r.write.path)
        elif r.write.operation == "delete" and r.write.requires in done:
            result.moved.append((r.write.path, r.write.requires))
    result.blocked = [(r.write.path, r.reason) for r in batch.blocked]


def _scrubbed_note(path: str, text: str, patterns: list[re.Pattern[str]]) -> str:
    """The note with every form of the value replaced by the marker, still a note: a title that
    was the value whole would read as a YAML list (`title: [REDACTED:scrubbed]`), so such a
    note is rendered again from its fields."""
    from wikimem.wiki.notes import NoteError, parse_note, render_note

    def clean(s: str) -> str:
        for pat in patterns:
            s = pat.sub(MARKER, s)
        return s

    content = clean(text)
    if content == text:
        return text
    try:
        parse_note(path, content)
        return content
    except NoteError:
        pass
    try:
        note = parse_note(path, text)
    except NoteError:
        return content
    return render_note(
        note.with_changes(
            title=clean(note.title),
            tags=tuple(clean(t) for t in note.tags),
            sources=tuple(clean(t) for t in note.sources),
            body=clean(note.body),
            extra=tuple((k, clean(raw)) for k, raw in note.extra),
        )
    )


def _files(directory: str) -> list[str]:
    try:
        return sorted(
            n for n in os.listdir(directory) if os.path.isfile(os.path.join(directory, n))
        )
    except OSError:
        return []


def _scrub_state(home: Home, patterns: list[bytes], result: ScrubResult) -> None:
    index_files = {"index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"}
    for dirpath, dirnames, filenames in os.walk(home.state_dir):
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames:
            path = os.path.join(dirpath, name)
            if name in index_files or os.path.islink(path):
                continue
            count = mask_file(path, patterns)
            if count:
                result.state[os.path.relpath(path, home.state_dir)] = count
    entries = os.path.join(home.memory_dir, ".git", "wikimem-index-entries.json")
    if os.path.exists(entries) and mask_file(entries, patterns):
        os.unlink(entries)  # a cache: rebuilt from the (scrubbed) notes by the next commit
    # the reflogs and the last commit message hold commit subjects, which name notes' paths
    dot_git = os.path.join(home.memory_dir, ".git")
    logs = [os.path.join(dot_git, "COMMIT_EDITMSG")]
    for dirpath, dirnames, filenames in os.walk(os.path.join(dot_git, "logs")):
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        logs += [os.path.join(dirpath, n) for n in filenames]
    for path in logs:
        if not os.path.islink(path) and (count := mask_file(path, patterns)):
            result.state[os.path.relpath(path, home.root)] = count
    result.index_rebuilt = rebuild_index(home)


def rebuild_index(home: Home) -> bool:
    """Delete the search index and build it again from memory/ (SQLite keeps the text of
    deleted rows in free pages and in its write-ahead log until they are reused)."""
    import sqlite3

    from wikimem.lock import file_lock
    from wikimem.recall.index import open_index

    with file_lock(home.state("memory.lock")):
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(home.state("index.sqlite3") + suffix)
            except FileNotFoundError:
                pass
        try:
            index = open_index(home.state_dir, home.memory_dir)
            try:
                index.refresh(full=True)
            finally:
                index.close()
        except (sqlite3.Error, OSError):
            return False  # derived data: the next hook or search builds it
    return True


def mask_file(path: str, patterns: list[bytes]) -> int:
    """Overwrite each occurrence of any pattern (lower-case bytes, matched in any ASCII case)
    with as many `*`, in place, under the file's lock (the lock the hook takes to append);
    returns how many were masked."""
    if not patterns:
        return 0
    longest = max(len(p) for p in patterns)
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return 0
    count = 0
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        pos = 0
        while pos < size:
            # chunks overlap by one pattern's length, so one straddling a boundary is seen whole
            chunk = os.pread(fd, CHUNK + longest, pos).lower()  # ASCII only: offsets kept
            if not chunk:
                break
            hits: list[tuple[int, int]] = []
            for pattern in patterns:  # longest first: a longer form masks a shorter inside it
                start = chunk.find(pattern)
                while start != -1:
                    if not any(s <= start < e for s, e in hits):
                        hits.append((start, start + len(pattern)))
                    start = chunk.find(pattern, start + 1)
            for start, end in hits:
                if start < CHUNK or pos + CHUNK >= size:  # the next chunk sees the others
                    os.pwrite(fd, b"*" * (end - start), pos + start)
                    count += 1
            pos += CHUNK
        if count:
            os.fsync(fd)
    finally:
        os.close(fd)
    return count


def history_count(memory_dir: str, value: str) -> int:
    """Commits (on any branch, remote-tracking ones included) whose changes or message hold
    `value`."""
    found: set[str] = set()
    for form in text_forms(value):
        for args in (["-S", form, "-i"], ["--grep", form, "-F", "-i"]):
            try:
                proc = gitrun.run_text(memory_dir, "log", "--all", "--format=%H", *args)
            except OSError:
                continue
            found.update(proc.stdout.split())
    return len(found)


def history_advice(home: Home, result: ScrubResult) -> list[str]:
    """What to do about the commits that still hold the value, one line each."""
    if not result.history_commits:
        return ["memory/'s history does not hold it: nothing more to do here."]
    replacements = home.state(REPLACEMENTS_FILE)
    memory = home.memory_dir
    lines = [
        f"{result.history_commits} commit(s) of memory/'s history still hold the value: `git log "
        "-p` shows it and a push sends it. Treat it as leaked and rotate it first.",
        "To rewrite the history without it (every commit after the first that holds it gets a "
        "new id):",
        f"  1. put the value in {replacements} as one line `regex:(?i)VALUE==>{MARKER}` (VALUE "
        "with regex characters escaped: any letter case; add a second line for the form wikimem "
        "uses in paths, lower case with `-` between words) (0600; delete the file afterwards)",
        f"  2. git -C {memory} filter-repo --force --replace-text {replacements} "
        f"--replace-message {replacements}   (git-filter-repo: pip install git-filter-repo)",
        f"  3. git -C {memory} reflog expire --expire=now --all && git -C {memory} gc --prune=now",
    ]
    if result.remote:
        lines += [
            f"  4. the remote ({result.remote}) still has the old commits: push the new history "
            f"over them with `git -C {memory} push --force {result.remote} HEAD:main` (or your "
            "branch), and ask the host to drop cached copies (pull requests, forks, caches "
            "keep them); then `wikimem sync --join` here, since sync sees a rewritten remote "
            "and leaves it alone without it",
            "Every other machine that synced holds the value in its own memory/ history and would "
            "bring the old commits back with its next sync: on each, before it syncs again, run "
            "`wikimem scrub VALUE` and steps 1-3, then `wikimem sync --join` (its notes are merged "
            "onto the new history); or move its memory/ aside and start it again from the "
            "remote.",
        ]
    return lines
