"""Who brought each line of a note: this machine's own record, never the line's words.

"(remember 2026-12-01)" at the end of a line is text: anyone who can write to memory/ can type
it (a teammate's remote, a model's dream, an agent through MCP, a pasted page). So who said a
line is recorded here, on this machine, when the line enters memory/ through wikimem, from where
it entered:

  person   the person: a statement in their own prompt (the dream), `wikimem remember`, their
           own edit on this machine (`wikimem edit`, a hand edit `watch` or `sync` committed)
  agent    an agent's finding in its final message of a turn
  tool     what a tool printed
  session  wikimem's own record of sessions (digests, commands, pitfalls, overviews)
  model    a model's dream wrote it
  import   `wikimem import` brought it in
  mcp      an agent wrote it through the MCP server
  remote   a commit that arrived by `wikimem sync` (or a plain `git pull`), with its author

A line with no record (put there around wikimem and not committed by it since) is not the
person's. Like pins and confirmations the record lives in state/, is never committed and never
synced: nothing that arrives from elsewhere can make a line the person's, and lines from the
person's own other machine arrive as `remote` too.

Contract:
  - `key(line)`: a line's identity: its text without list marker, held mark, "contested,
    earlier:" prefix or trailing provenance, whitespace collapsed, hashed (None for a blank
    line). Re-rendering a line's provenance, or confirming it, keeps its key; changing a word
    of it makes a new line.
  - `Book(state_dir)`: the record as the hook path reads it, one bounded read of one small file
    per scope (the profile, general/, tools/, one project), only when a note of that scope is
    asked about: `origin(rel, line)` is a code (`"person|codex|2026-12-01"`, "" when none).
  - `who`, `said` (a person line's "client, date") and `label` (the source of anything else).
  - `new_map(...)` and `save(state_dir, {rel: map or None})`: the writing side (under the memory
    lock), used by the write batch, sync and the post-merge hook; `seed` makes the record once
    for a home from before it existed (docs/security.md says how it is judged).
  - `strip_imitations(text)`: text that arrives from outside (an MCP write, a model's claim)
    without provenance-shaped endings; such an ending sets nothing anyway.

Hook-path module: standard library only (no regular expressions on the reading side).
"""

from __future__ import annotations

import hashlib
import os

from wikimem.capture import fastjson
from wikimem.wiki import notemeta

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

PERSON = "person"
AGENT = "agent"
TOOL = "tool"
SESSION = "session"
MODEL = "model"
IMPORT = "import"
MCP = "mcp"
REMOTE = "remote"
KINDS = (PERSON, AGENT, TOOL, SESSION, MODEL, IMPORT, MCP, REMOTE)
DIR = "origins"
# One scope's record is read whole on a hook's path: past this it is not read at all (nothing in
# that scope is then the person's) and `doctor` says so.
MAX_BYTES = 4 << 20
HELD_PREFIX = "⚠ held until you confirm it"  # confirmations.HELD_MARK (not imported: a cycle)
_LIST = ("- ", "* ", "+ ")


def code(who: str, via: str = "", date: str = "") -> str:
    """An origin as stored: `who|via|date`, `via` made one short line without `|`."""
    via = " ".join(via.replace("|", "/").split())[:80]
    return f"{who}|{via}|{date[:10]}"


def who(origin: str) -> str:
    return origin.split("|", 1)[0] if origin else ""


def is_person(origin: str) -> bool:
    return origin.startswith(PERSON + "|")


def _parts(origin: str) -> tuple[str, str, str]:
    parts = [*origin.split("|"), "", "", ""][:3]
    return parts[0], parts[1], parts[2]


def said(origin: str) -> str:
    """How a person's line is given: `(client, date)`."""
    _, via, date = _parts(origin)
    return "(" + ", ".join(p for p in (via or "you", date) if p) + ")"


_LABELS = {
    AGENT: "agent in {via}",
    TOOL: "tool output in {via}",
    SESSION: "wikimem's record of sessions",
    MODEL: "a model's dream ({via})",
    IMPORT: "imported ({via})",
    MCP: "an agent through MCP",
    REMOTE: "remote commit by {via}",
}
UNRECORDED = "source not recorded"


_LABELED: dict[str, str] = {}


def label(origin: str) -> str:
    """The source of a line that is not the person's, as an agent is told it."""
    found = _LABELED.get(origin)
    if found is None:
        if len(_LABELED) > 256:
            _LABELED.clear()
        found = _LABELED[origin] = _label(origin)
    return found


def _label(origin: str) -> str:
    kind, via, date = _parts(origin)
    form = _LABELS.get(kind)
    if form is None:
        return UNRECORDED
    text = form.format(via=via or "?").replace(" (?)", "").replace(" in ?", "")
    return f"{text}, {date}" if date else text


# -- a line's identity ---------------------------------------------------------------------------


def _is_date(text: str) -> bool:
    return (
        len(text) == 10
        and text[4] == "-"
        and text[7] == "-"
        and (text[:4] + text[5:7] + text[8:]).isdigit()
    )


def _provenance_like(inner: str) -> bool:
    """`codex 2026-12-01`, `remember, 2026-12-01`, `agent in mcp 2026-12-01`: words and a day."""
    head, _, day = inner.strip().rpartition(" ")
    head = head.strip().rstrip(",").strip()
    if " until" in head or head.startswith(("was ", "previously ", "formerly ", "since ")):
        return False  # a claim's own history ("was 9102 until 2026-11-30") is its text
    return _is_date(day) and 0 < len(head) <= 60 and "(" not in head and ")" not in head


def strip_tail(text: str) -> str:
    """`text` without the provenance-shaped parentheses at its end (a wikilink `([[…]])`, or
    words and a day), however many are stacked."""
    while True:
        text = text.rstrip()
        if not text.endswith(")"):
            return text
        if text.endswith("]])"):
            start = text.rfind("([[")
            if start == -1:
                return text
            text = text[:start]
            continue
        start = text.rfind("(")
        if start == -1 or not _provenance_like(text[start + 1 : -1]):
            return text
        text = text[:start]


def _statement(line: str) -> str:
    text = line.strip()
    if text.startswith("- contested, earlier: "):
        text = text[len("- contested, earlier: ") :]
    elif text.startswith(_LIST):
        text = text[2:]
    if text.startswith(HELD_PREFIX):
        colon = text.find("): ")
        text = text[colon + 3 :] if colon != -1 else text[len(HELD_PREFIX) :]
    return " ".join(strip_tail(text).split())


# line -> its key: a dream works out the keys of a note's lines at each write to it
_KEYS: dict[str, str | None] = {}
_KEYS_MAX = 65536


def key(line: str) -> str | None:
    if line in _KEYS:
        return _KEYS[line]
    text = _statement(line)
    found = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16] if text else None
    if len(_KEYS) >= _KEYS_MAX:
        _KEYS.clear()
    _KEYS[line] = found
    return found


def body_keys(text: str | None) -> list[str]:
    """The keys of a note's body lines, in order (front matter is the note's, not a line's)."""
    return line_keys(notemeta.split(text)[1]) if text else []


def line_keys(body: str) -> list[str]:
    """The keys of the lines of a body (no front matter), in order."""
    out = []
    for line in body.split("\n"):
        k = key(line)
        if k is not None:
            out.append(k)
    return out


def added(before: str, after: str, origin: str) -> dict[str, str]:
    """key -> `origin` for each line of body `after` that body `before` does not have."""
    had = set(line_keys(before))
    return {k: origin for k in line_keys(after) if k not in had}


# -- where the record lives ---------------------------------------------------------------------


def scope_of(rel: str) -> str:
    parts = rel.split("/")
    return "/".join(parts[:2]) if parts[0] == "projects" and len(parts) > 2 else parts[0]


def _file(state_dir: str, scope: str) -> str:
    name = hashlib.sha256(scope.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return os.path.join(state_dir, DIR, f"{name}.json")


def _load(state_dir: str, scope: str) -> dict[str, dict[str, str]]:
    """{note: {key: origin}} of one scope. Read on a hook's path: one bounded read, one parse,
    entries checked only when asked for (`Book`)."""
    try:
        with open(_file(state_dir, scope), "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError:
        return {}
    if len(raw) > MAX_BYTES:
        return {}
    try:
        data = fastjson.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return {}  # damaged: nothing is the person's until they write again
    notes = data.get("notes") if isinstance(data, dict) else None
    return notes if isinstance(notes, dict) else {}


def oversized(state_dir: str) -> list[str]:
    """Scopes whose record is too large to be read (for `doctor`)."""
    out: list[str] = []
    try:
        names = os.listdir(os.path.join(state_dir, DIR))
    except OSError:
        return out
    for name in names:
        try:
            if os.path.getsize(os.path.join(state_dir, DIR, name)) > MAX_BYTES:
                out.append(name)
        except OSError:
            continue
    return out


# A session digest is wikimem's own record of a session: its lines are recorded only when
# something else brought them (a remote's commit), which keeps the record small.
DIGEST = "/sessions/"
DIGEST_ORIGIN = f"{SESSION}|dream|"


class Book:
    """The record as read on a hook's path: each scope's file once, when first asked about."""

    def __init__(self, state_dir: str) -> None:
        self.state_dir = state_dir
        self._scopes: dict[str, dict[str, dict[str, str]]] = {}
        self.rendered: dict[tuple[str, str], object] = {}  # a reader's own cache (injection)

    def note(self, rel: str) -> dict[str, str]:
        scope = scope_of(rel)
        if scope not in self._scopes:
            self._scopes[scope] = _load(self.state_dir, scope)
        lines = self._scopes[scope].get(rel)
        return lines if isinstance(lines, dict) else {}

    def of(self, rel: str) -> Callable[[str], str]:
        """`origin` for the lines of one note (its record looked up once)."""
        lines = self.note(rel)
        default = DIGEST_ORIGIN if DIGEST in rel else ""
        if not lines:
            return lambda line: default

        def origin(line: str) -> str:
            k = key(line)
            found = lines.get(k) if k is not None else None
            return found if isinstance(found, str) else default

        return origin

    def origin(self, rel: str, line: str) -> str:
        lines = self.note(rel)
        if not lines:  # nothing recorded: no line of it needs hashing to know
            return DIGEST_ORIGIN if DIGEST in rel else ""
        k = key(line)
        found = lines.get(k) if k is not None else None
        if isinstance(found, str):
            return found
        return DIGEST_ORIGIN if DIGEST in rel else ""


# -- the writing side (never on a hook's path) ---------------------------------------------------


def new_map(
    old: Mapping[str, str],
    before: str | None,
    after: str | None,
    declared: Mapping[str, str] | None = None,
    default: str | None = None,
) -> dict[str, str] | None:
    """The record of a note after a change from `before` to `after`: a line that was there keeps
    what was recorded for it; a new line gets what the writer declared for it, else `default`
    (None: no record). None when the note is gone."""
    if after is None:
        return None
    had = set(body_keys(before))
    declared = declared or {}
    out: dict[str, str] = {}
    for k in body_keys(after):
        if k in had:
            found = old.get(k)
        else:
            found = declared.get(k) or default
        if found:
            out[k] = found
    return out


def load_note(state_dir: str, rel: str) -> dict[str, str]:
    lines = _load(state_dir, scope_of(rel)).get(rel)
    if not isinstance(lines, dict):
        return {}
    return {str(k): v for k, v in lines.items() if isinstance(v, str)}


def save(state_dir: str, notes: Mapping[str, Mapping[str, str] | None]) -> None:
    """Set (or, for None, drop) the record of each note, atomically per scope. Call under the
    memory lock."""
    from wikimem.fsutil import atomic_write

    by_scope: dict[str, dict[str, Mapping[str, str] | None]] = {}
    for rel, lines in notes.items():
        by_scope.setdefault(scope_of(rel), {})[rel] = lines
    os.makedirs(os.path.join(state_dir, DIR), mode=0o700, exist_ok=True)
    for scope, changes in by_scope.items():
        current = _load(state_dir, scope)
        for rel, lines in changes.items():
            if lines and DIGEST in rel:
                lines = {k: v for k, v in lines.items() if who(v) != SESSION}
            if lines:
                current[rel] = dict(lines)
            else:
                current.pop(rel, None)
        data = {"v": 1, "scope": scope, "notes": current}
        atomic_write(_file(state_dir, scope), fastjson.dumps(data), mode=0o600)


def exists(state_dir: str) -> bool:
    return os.path.isdir(os.path.join(state_dir, DIR))


def start_empty(state_dir: str) -> None:
    """A new home: nothing is recorded, and nothing is taken on trust later (see `seed`)."""
    os.makedirs(os.path.join(state_dir, DIR), mode=0o700, exist_ok=True)


# -- imitations ----------------------------------------------------------------------------------


def strip_imitations(text: str) -> str:
    """`text` without the provenance-shaped parentheses in it: "(remember 2026-12-01)",
    "(codex, 2026-12-01)", "([[…|claude 2026-12-01]])". Who wrote a line is recorded, never
    read from it; an imitation is removed where an agent's text comes in (MCP), so that it
    misleads no one who reads the note either."""
    import re

    return re.sub(_IMITATION_PATTERN, "", text) if "(" in text else text


_IMITATION_PATTERN = r"[ \t]*\((?:\[\[[^\]\n]*\]\]|[A-Za-z][\w .-]{0,59}?,?[ \t]\d{4}-\d\d-\d\d)\)"


def strip_stacked(line: str) -> str:
    """A line whose end holds more than one provenance-shaped parenthesis keeps only the last:
    wikimem writes one, so any before it came with the text."""
    tail_start = len(strip_tail(line))
    head = line[:tail_start]
    tail = line[tail_start:].strip()
    if not tail:
        return line
    last = _last_parenthesis(tail)
    if last == tail:
        return line
    return f"{head.rstrip()} {last}"


def _last_parenthesis(tail: str) -> str:
    if tail.endswith("]])"):
        start = tail.rfind("([[")
    else:
        start = tail.rfind("(")
    return tail[start:] if start != -1 else tail


# -- a home from before the record ---------------------------------------------------------------


def seed(state_dir: str, memory_dir: str, max_moves: int = 200) -> bool:
    """Make the record once for a home that has none (True when made now).

    Lines that the branch's reflog shows arriving with a sync or a pull (at most `max_moves`
    such moves back) are recorded as `remote` with the author of the commit that brought them.
    Every other line of the committed notes is judged as this machine judged it before the
    record existed, once (trust on first use, as for pins): by the provenance written after it
    (`(agent in …)`, `(tool output in …)`, `(teammate …)`), a session digest or a generated
    table is wikimem's record, the rest the person's."""
    if exists(state_dir):
        return False
    from wikimem import gitrun

    notes: dict[str, dict[str, str]] = {}
    try:
        listed = gitrun.run(memory_dir, "ls-tree", "-r", "-z", "--name-only", "HEAD")
    except OSError:
        start_empty(state_dir)
        return True
    paths = [
        p
        for p in listed.stdout.decode("utf-8", "replace").split("\0")
        if p.endswith(".md") and p.split("/", 1)[0] in notemeta.TOP_FOLDERS
    ]
    arrived = _arrived(memory_dir, max_moves)
    for rel in paths:
        try:
            blob = gitrun.run(memory_dir, "show", f"HEAD:{rel}").stdout
        except OSError:
            continue
        text = blob.decode("utf-8", "replace")
        lines: dict[str, str] = {}
        generated = False
        for line in notemeta.split(text)[1].split("\n"):
            stripped = line.strip()
            if stripped.startswith("<!-- wikimem:") or stripped.startswith("<!-- /wikimem:"):
                generated = stripped.startswith("<!-- wikimem:")
                continue
            k = key(line)
            if k is None:
                continue
            if (rel, k) in arrived:
                lines[k] = arrived[(rel, k)]
            elif "/sessions/" in rel or generated:
                lines[k] = code(SESSION, "dream")
            else:
                lines[k] = _judged_by_its_words(line)
        if lines:
            notes[rel] = lines
    save(state_dir, notes)
    return True


def _judged_by_its_words(line: str) -> str:
    """How a line was read before this record existed (used once, by `seed`)."""
    tail = line.rstrip()[len(strip_tail(line)) :].strip()
    inner = tail[1:-1].strip("[]") if tail.startswith("(") else ""
    label_text = inner.split("|", 1)[1] if "|" in inner else inner
    words, _, day = label_text.rpartition(" ")
    words = words.strip().rstrip(",")
    if not _is_date(day):
        words, day = "", ""
    for prefix, kind in (("agent", AGENT), ("tool output", TOOL), ("teammate", REMOTE)):
        if words == prefix or words.startswith(prefix + " in "):
            return code(kind, words[len(prefix) + 4 :] or "?", day)
    return code(PERSON, words or "hand edit", day)


def _arrived(memory_dir: str, max_moves: int) -> dict[tuple[str, str], str]:
    """(note, line key) -> origin for the lines that moves of the branch other than this
    machine's own commits (a sync's merge, a pull) brought, newest move last."""
    from wikimem import gitrun

    try:
        log = gitrun.run(memory_dir, "reflog", "show", "--format=%H%x00%gs", f"-n{max_moves * 4}")
    except OSError:
        return {}
    entries = [
        e.split("\0", 1) for e in log.stdout.decode("utf-8", "replace").splitlines() if "\0" in e
    ]
    out: dict[tuple[str, str], str] = {}
    moves = 0
    # newest first: entry i moved the branch from entry i+1's commit to its own
    for i in range(len(entries) - 2, -1, -1):
        new, subject = entries[i]
        old = entries[i + 1][0]
        if subject.startswith("commit") or subject.startswith("wikimem sync: index.md"):
            continue
        if not (subject.startswith(("wikimem sync", "pull", "merge"))):
            continue
        moves += 1
        if moves > max_moves:
            break
        for (rel, k), origin in changed_lines(memory_dir, old, new).items():
            out[(rel, k)] = origin
    return out


def _moved(memory_dir: str, old: str, new: str) -> dict[str, tuple[str | None, str | None, str]]:
    """rel -> (text at `old`, text at `new`, origin of what is new there) for each note that
    differs between the two commits; the origin names the author of the newest commit between
    them that touched the note."""
    from wikimem import gitrun

    try:
        names = gitrun.run(memory_dir, "diff", "--no-renames", "--name-only", "-z", old, new)
        log = gitrun.run(
            memory_dir, "log", "--no-merges", "-z", "--name-only",
            "--format=\x1e%an%x00%aI%x00%(trailers:key=Wikimem-Machine,valueonly,separator=%x2C)%x00",
            f"{old}..{new}",
        )  # fmt: skip
    except OSError:
        return {}
    if names.returncode != 0:
        return {}
    authors: dict[str, tuple[str, str]] = {}
    for entry in log.stdout.decode("utf-8", "replace").split("\x1e"):
        fields = entry.split("\0")
        if len(fields) < 4:
            continue
        name, machine = fields[0].strip(), fields[2].strip()
        # wikimem's own commits all say "wikimem": the machine they name tells them apart
        # (both are the remote's word, shown as a label, never trusted)
        if machine:
            name = machine if name in ("", "wikimem") else f"{name}, {machine}"
        for rel in fields[3:]:
            rel = rel.strip("\n")
            if rel:
                authors.setdefault(rel, (name, fields[1][:10]))  # newest first
    out: dict[str, tuple[str | None, str | None, str]] = {}
    for rel in names.stdout.decode("utf-8", "replace").split("\0"):
        if not rel.endswith(".md") or rel.split("/", 1)[0] not in notemeta.TOP_FOLDERS:
            continue
        author, when = authors.get(rel, ("someone else", ""))
        out[rel] = (
            _blob(memory_dir, old, rel),
            _blob(memory_dir, new, rel),
            code(REMOTE, author, when),
        )
    return out


def changed_lines(memory_dir: str, old: str, new: str) -> dict[tuple[str, str], str]:
    """(note, key) -> `remote` origin for every line of a note at `new` that is not in that
    note at `old`."""
    out: dict[tuple[str, str], str] = {}
    for rel, (before, after, origin) in _moved(memory_dir, old, new).items():
        had = set(body_keys(before))
        for k in body_keys(after):
            if k not in had:
                out[(rel, k)] = origin
    return out


def _blob(memory_dir: str, rev: str, rel: str) -> str | None:
    from wikimem import gitrun

    try:
        proc = gitrun.run(memory_dir, "show", f"{rev}:{rel}")
    except OSError:
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", "replace")


def remote_arrivals(state_dir: str, memory_dir: str, old: str, new: str) -> list[str]:
    """Record what moving memory/ from commit `old` to `new` (a sync's merge, a plain pull)
    brought: each new or changed line is `remote`, with its author; a note the move deleted
    loses its record. Returns the notes whose record changed. Call under the memory lock."""
    changes: dict[str, dict[str, str] | None] = {}
    for rel, (before, after, origin) in _moved(memory_dir, old, new).items():
        changes[rel] = new_map(load_note(state_dir, rel), before, after, default=origin)
    if changes:
        save(state_dir, changes)
    return sorted(changes)


_NOT_THE_PERSON = ("agent", "tool output", "teammate")


def strip_person_tails(line: str) -> str:
    """A line without any provenance-shaped ending that would say the person said it; an
    ending that names someone else (`(agent in mcp 2026-12-01)`) is kept, once."""
    head = strip_tail(line)
    if head == line.rstrip():
        return line
    last = _last_parenthesis(line.rstrip()[len(head) :].strip())
    inner = last[1:-1].strip("[]")
    words = (inner.split("|", 1)[1] if "|" in inner else inner).strip()
    if words.startswith(_NOT_THE_PERSON):
        return f"{head.rstrip()} {last}"
    return head.rstrip()


def inherited(old: Mapping[str, str], before: str | None, after: str | None) -> dict[str, str]:
    """key -> origin for the lines of `after` that replace a line of `before` in place (the
    held mark taken off, a value scrubbed out): each keeps whoever brought the line it was."""
    import difflib

    a, b = body_keys(before), body_keys(after)
    out: dict[str, str] = {}
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                if a[i] in old:
                    out[b[j]] = old[a[i]]
    return out
