"""The offline dream backend: deterministic, no network, useful on its own (DESIGN §7).

What it distils from a chunk of one project's events:
  - statements in user prompts (`wikimem.dream.facts`): explicit "remember …"/"note that …" requests,
    preferences and corrections ("always …", "never …", "use X instead of Y", "I prefer …") and
    facts about the user, folded into `profile/preferences.md`, `profile/about.md`, or the
    project's `conventions.md` / `notes.md`; a later statement on the same subject replaces the
    earlier one;
  - shell commands that worked (test, build, lint, format, install, run), counted, in
    `projects/<slug>/commands.md`;
  - files edited most often, and session activity, in `projects/<slug>/overview.md`;
  - a failing command later followed by the same command passing, with what was edited in
    between and the agent's explanation, as a pitfall in `projects/<slug>/pitfalls.md`;
  - one bounded digest per session, `projects/<slug>/sessions/YYYY-MM-DD-<id8>.md`: what was
    asked, what was done, what came of it.
Generated tables and lists sit between `<!-- wikimem:… -->` markers; text a person writes outside
them is kept.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from wikimem.dream import facts
from wikimem.dream.base import DreamRequest, Proposal, ReadNote, SessionEvents
from wikimem.dream.ops import Upsert
from wikimem.dream.render import clip, error_excerpt, shell_command, shell_outcome, touched_files
from wikimem.wiki import notemeta

CLIENT_NAMES = {"claude": "Claude Code", "codex": "Codex", "cursor": "Cursor"}
MAX_SOURCES = 12
DIGEST_MAX = 12000
TURN_TEXT = 600
MAX_COMMAND_ROWS = 25
MAX_FILES = 15

COMMAND_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        (
            "test",
            r"\b(?:pytest|py\.test|jest|vitest|mocha|rspec|phpunit|ctest|tox|nox|unittest)\b|"
            r"\b(?:go|cargo|mix|dotnet|gradle|mvn|bun|deno|swift|zig) test\b|"
            r"\b(?:npm|pnpm|yarn)(?: run)? test\b|\bmake (?:test|check)\b|\btest\.sh\b",
        ),
        (
            "lint",
            r"\b(?:ruff check|ruff|eslint|flake8|pylint|mypy|pyright|golangci-lint|clippy|rubocop|"
            r"shellcheck|tsc --noEmit|stylelint)\b|\b(?:npm|pnpm|yarn)(?: run)? (?:lint|typecheck)\b|"
            r"\bmake lint\b|\bprettier --check\b|\bblack --check\b",
        ),
        (
            "format",
            r"\b(?:black|prettier|ruff format|gofmt|cargo fmt|rustfmt|isort|clang-format)\b|"
            r"\b(?:npm|pnpm|yarn)(?: run)? format\b",
        ),
        (
            "install",
            r"\b(?:npm|pnpm|yarn|bun) (?:install|i|ci|add)\b|^(?:yarn|pnpm i)$|"
            r"\bpip3? install\b|\b(?:poetry|pdm) install\b|\buv (?:sync|pip install)\b|"
            r"\bbundle install\b|\bgo mod (?:download|tidy)\b|\bcargo fetch\b|\bapt(?:-get)? install\b",
        ),
        (
            "build",
            r"\b(?:npm|pnpm|yarn|bun)(?: run)? build\b|\b(?:cargo|go|dotnet|swift|zig) build\b|"
            r"\bmake\b|\bcmake\b|\btsc\b|\bwebpack\b|\bvite build\b|\bmvn (?:package|install|compile)\b|"
            r"\bgradle(?:w)? (?:build|assemble)\b|\bpython3? -m build\b|\bdocker build\b",
        ),
        (
            "run",
            r"\b(?:npm|pnpm|yarn|bun)(?: run)? (?:start|dev|serve)\b|\b(?:cargo|go) run\b|"
            r"\b(?:flask|uvicorn|gunicorn|rails|django-admin|manage\.py)\b|\bdocker compose up\b|"
            r"\bpython3? -m \w+|\bnode \S+\.(?:js|mjs|ts)\b",
        ),
    )
)
_ROW = re.compile(
    r"^\| `(?P<cmd>.+)` \| (?P<kind>\w+) \| (?P<ok>\d+) \| (?P<failed>\d+) \| (?P<last>[\d-]+) \|$"
)
_FILE_ROW = re.compile(r"^- `(?P<path>.+)` \((?P<n>\d+) edits?\)$")
_ACTIVITY = re.compile(
    r"Sessions recorded: (?P<n>\d+) \((?P<clients>[^)]*)\); last active (?P<last>[\d-]+)\."
)


def command_kind(command: str) -> str | None:
    for kind, pattern in COMMAND_KINDS:
        if pattern.search(command):
            return kind
    return None


def _section(body: str, name: str) -> tuple[str, str, str] | None:
    """(before, inside, after) of a `<!-- wikimem:name -->` … `<!-- /wikimem:name -->` block."""
    start, end = f"<!-- wikimem:{name} -->", f"<!-- /wikimem:{name} -->"
    i = body.find(start)
    j = body.find(end, i + 1) if i != -1 else -1
    if i == -1 or j == -1:
        return None
    return body[: i + len(start)], body[i + len(start) : j], body[j:]


def _set_section(body: str, name: str, inside: str, default_body: str) -> str:
    found = _section(body, name)
    if found is None:
        body = (
            default_body
            if not body.strip()
            else body.rstrip("\n") + "\n\n" + default_body.split("\n\n", 1)[-1]
        )
        found = _section(body, name)
        assert found is not None
    before, _, after = found
    return f"{before}\n{inside.strip()}\n{after}"


@dataclass
class WorkingNote:
    path: str
    title: str
    kind: str
    body: str
    tags: list[str]
    sources: list[str]
    existed: bool
    changed: bool = False

    def add_source(self, source: str) -> None:
        if source not in self.sources:
            self.sources.append(source)
            self.sources = self.sources[-MAX_SOURCES:]


@dataclass
class NoteSet:
    read: ReadNote
    notes: dict[str, WorkingNote] = field(default_factory=dict)

    def get(self, path: str, title: str, kind: str, tags: list[str]) -> WorkingNote:
        note = self.notes.get(path)
        if note is None:
            text = self.read(path)
            if text is None:
                note = WorkingNote(path, title, kind, "", list(tags), [], existed=False)
            else:
                meta, body = notemeta.read_meta(text)
                note = WorkingNote(
                    path,
                    str(meta.get("title") or title),
                    str(meta.get("kind") or kind),
                    body,
                    notemeta.as_list(meta.get("tags")) or list(tags),
                    notemeta.as_list(meta.get("sources")),
                    existed=True,
                )
            self.notes[path] = note
        return note

    def operations(self) -> list[Upsert]:
        return [
            Upsert(
                n.path,
                n.title,
                n.kind,
                n.body if n.body.endswith("\n") else n.body + "\n",
                tuple(n.tags),
                tuple(n.sources),
            )
            for n in self.notes.values()
            if n.changed
        ]


@dataclass
class _Turn:
    asked: str = ""
    did: list[str] = field(default_factory=list)
    answered: str = ""


class OfflineBackend:
    name = "offline"
    needs_prompt = False

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        notes = NoteSet(read)
        project = request.project
        for s in request.sessions:
            self._statements(s, notes, project)
            self._commands(s, notes, project)
            self._overview(s, notes, project)
            self._pitfalls(s, notes, project)
            self._digest(s, notes, project)
        return Proposal(tuple(notes.operations()))

    # -- statements ----------------------------------------------------------------------------

    def _statements(self, s: SessionEvents, notes: NoteSet, project: str) -> None:
        for r in s.events:
            prompt = r.get("prompt")
            if r.get("event") != "UserPromptSubmit" or not isinstance(prompt, str):
                continue
            for statement in facts.extract(prompt):
                place = facts.placement(statement, project if project != "unknown" else None)
                note = notes.get(place.path, place.title, place.kind, [])
                provenance = f"{str(r.get('ts', ''))[:10]} in {s.source}"
                body = note.body if note.body.strip() else ""
                new_body, _ = facts.merge_statement(body, statement.text, provenance)
                if new_body != note.body:
                    note.body = new_body
                    note.changed = True
                    note.add_source(s.source)

    # -- commands that worked ------------------------------------------------------------------

    def _commands(self, s: SessionEvents, notes: NoteSet, project: str) -> None:
        stats: dict[str, list[Any]] = {}
        for r in s.events:
            if r.get("event") not in ("PostToolUse", "PostToolUseFailure"):
                continue
            command = shell_command(r)
            if not command or len(command) > 200:
                continue
            kind = command_kind(command)
            if kind is None:
                continue
            entry = stats.setdefault(command, [kind, 0, 0, ""])
            if shell_outcome(r) == "failed":
                entry[2] += 1
            else:
                entry[1] += 1
                entry[3] = max(entry[3], str(r.get("ts", ""))[:10])
        if not any(v[1] for v in stats.values()):
            return
        note = notes.get(
            f"projects/{project}/commands.md",
            f"Commands of {project}",
            "project",
            [project, "commands"],
        )
        rows: dict[str, list[Any]] = {}
        found = _section(note.body, "commands")
        for line in (found[1] if found else "").splitlines():
            m = _ROW.match(line.strip())
            if m:
                rows[m["cmd"]] = [m["kind"], int(m["ok"]), int(m["failed"]), m["last"]]
        for command, (kind, ok, failed, last) in stats.items():
            row = rows.setdefault(command, [kind, 0, 0, ""])
            row[1] += ok
            row[2] += failed
            row[3] = max(row[3], last)
        shown = sorted(
            ((c, v) for c, v in rows.items() if v[1] > 0), key=lambda cv: (-cv[1][1], cv[0])
        )[:MAX_COMMAND_ROWS]
        table = ["| command | kind | ok runs | failed runs | last ok |", "|---|---|---|---|---|"]
        table += [f"| `{_cell(c)}` | {v[0]} | {v[1]} | {v[2]} | {v[3] or '-'} |" for c, v in shown]
        default = (
            f"Commands that worked in {project}, most used first. Kept by `wikimem dream`; write "
            "freely outside the table.\n\n<!-- wikimem:commands -->\n<!-- /wikimem:commands -->\n"
        )
        note.body = _set_section(note.body, "commands", "\n".join(table), default)
        note.changed = True
        note.add_source(s.source)

    # -- overview: activity and files ----------------------------------------------------------

    def _overview(self, s: SessionEvents, notes: NoteSet, project: str) -> None:
        edits: Counter[str] = Counter()
        for r in s.events:
            if r.get("event") == "PostToolUse":
                edits.update(touched_files(r))
        note = notes.get(f"projects/{project}/overview.md", project, "project", [project])
        default = (
            f"Project **{project}**. Kept by `wikimem dream`; write freely outside the marked parts.\n\n"
            "<!-- wikimem:activity -->\n<!-- /wikimem:activity -->\n\n## Frequently touched files\n\n"
            "<!-- wikimem:files -->\n<!-- /wikimem:files -->\n"
        )
        if not note.body.strip():
            note.body = default
        activity = _section(note.body, "activity")
        count, clients, last = 0, Counter[str](), ""
        if activity:
            m = _ACTIVITY.search(activity[1])
            if m:
                count, last = int(m["n"]), m["last"]
                for part in m["clients"].split(","):
                    name, _, n = part.strip().rpartition(" ")
                    if name and n.isdigit():
                        clients[name] = int(n)
        if self._existing_digest(s, notes, project) is None:  # first time this session is seen
            count += 1
            clients[CLIENT_NAMES.get(s.client, s.client)] += 1
        last = max(last, max((str(r.get("ts", ""))[:10] for r in s.events), default=""))
        summary = ", ".join(f"{name} {n}" for name, n in sorted(clients.items()))
        note.body = _set_section(
            note.body,
            "activity",
            f"Sessions recorded: {count} ({summary}); last active {last}.",
            default,
        )
        if edits:
            files: Counter[str] = Counter()
            found = _section(note.body, "files")
            for line in (found[1] if found else "").splitlines():
                m = _FILE_ROW.match(line.strip())
                if m:
                    files[m["path"]] = int(m["n"])
            files.update(edits)
            top = sorted(files.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_FILES]
            listing = "\n".join(f"- `{p}` ({n} edit{'s' if n != 1 else ''})" for p, n in top)
            note.body = _set_section(note.body, "files", listing, default)
        note.changed = True
        note.add_source(s.source)

    # -- pitfalls: a failure, then the same command passing ------------------------------------

    def _pitfalls(self, s: SessionEvents, notes: NoteSet, project: str) -> None:
        failing: dict[str, tuple[str, list[str]]] = {}
        found: list[list[Any]] = []  # [command, excerpt, files, explanation]
        for r in s.events:
            event = r.get("event")
            if event in ("Stop", "AssistantMessage") and isinstance(r.get("message"), str):
                for entry in found:
                    if not entry[3]:
                        entry[3] = _first_sentences(r["message"], 2)  # the agent explains its fix
                continue
            if event not in ("PostToolUse", "PostToolUseFailure"):
                continue
            command = shell_command(r)
            if command:
                outcome = shell_outcome(r)
                if outcome == "failed":
                    failing.setdefault(command, (error_excerpt(r), []))
                elif command in failing:
                    excerpt, files = failing.pop(command)
                    found.append([command, excerpt, files, ""])
                continue
            for pending in failing.values():
                pending[1].extend(f for f in touched_files(r) if f not in pending[1])
        if not found:
            return
        note = notes.get(
            f"projects/{project}/pitfalls.md",
            f"Pitfalls in {project}",
            "project",
            [project, "pitfalls"],
        )
        body = (
            note.body
            if note.body.strip()
            else (
                f"Failures seen in {project} and what fixed them. Kept by `wikimem dream`; a newer entry on "
                "the same failure replaces the older one.\n\n"
            )
        )
        when = f"{str(s.events[-1].get('ts', ''))[:10]} in {s.source}"
        for command, excerpt, files, explanation in found:
            text = f"`{command}` failed"
            if excerpt:
                text += f" ({clip(excerpt, 200)})"
            if files:
                text += f"; fixed by editing {', '.join(f'`{f}`' for f in files[:4])}"
            text += "."
            if explanation:
                text += f" {explanation}"
            body, _ = facts.merge_statement(body, clip(text, 500), when, verb="seen")
        note.body = body
        note.changed = True
        note.add_source(s.source)

    # -- the session digest --------------------------------------------------------------------

    def _digest_path(
        self, s: SessionEvents, notes: NoteSet, project: str, date: str
    ) -> tuple[str, bool]:
        """(path, whether it is this session's) for a digest named by date and the session id's
        first 8 characters (DESIGN §7). Codex ids are time-ordered (UUIDv7), so two sessions
        started within a minute share those 8: the second gets 4 more characters."""
        base = f"projects/{project}/sessions/{date}-{_id8(s.session)}"
        for path in (f"{base}.md", f"{base}-{_id8(s.session[8:])[:4]}.md"):
            note = notes.notes.get(path)
            text = None if note is not None else notes.read(path)
            if note is None and text is None:
                return path, False
            owner = _digest_owner(note.body if note is not None else text or "")
            if owner in (None, s.session):
                return path, True
        return f"{base}-{_id8(s.session[8:])}.md", False

    def _existing_digest(self, s: SessionEvents, notes: NoteSet, project: str) -> str | None:
        dates = sorted({str(r.get("ts", ""))[:10] for r in s.events if r.get("ts")})
        for date in dates:
            path, ours = self._digest_path(s, notes, project, date)
            if ours:
                return path
        return None

    def _digest(self, s: SessionEvents, notes: NoteSet, project: str) -> None:
        turns = _turns(s.events)
        if not turns:
            return
        existing = self._existing_digest(s, notes, project)
        first_ts = str(s.events[0].get("ts", ""))
        path = existing or self._digest_path(s, notes, project, first_ts[:10])[0]
        # The title stays short: it is searched with every passage of the digest, and a session's
        # first prompt would make all of them match its words.
        title = (
            f"Session {first_ts[:10]} · {CLIENT_NAMES.get(s.client, s.client)} {_id8(s.session)}"
        )
        note = notes.get(path, title, "session", ["session", s.client, project])
        blocks = _turn_blocks(note.body) if note.existed or note.body else []
        blocks += [_render_turn(t) for t in turns]
        outcome = next((t.answered for t in reversed(turns) if t.answered), "")
        started = _turns_started(note.body) or first_ts[11:16]
        ended = str(s.events[-1].get("ts", ""))[11:16]
        header = (
            f"{CLIENT_NAMES.get(s.client, s.client)} session in {project}, {first_ts[:10]}, "
            f"{started}–{ended} UTC. Session id: `{s.session}`."
        )
        note.body = _digest_body(header, blocks, outcome or _outcome_of(note.body))
        note.changed = True
        note.add_source(s.source)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _id8(session: str) -> str:
    cleaned = re.sub(r"[^a-z0-9]", "", session.lower())
    return (cleaned[:8] or "session").ljust(4, "0")


def _first_sentences(text: str, n: int) -> str:
    parts = re.split(r"(?<=[.!?])\s+", " ".join(text.split()))
    return clip(" ".join(parts[:n]), 300) if text.strip() else ""


def _turns(records: tuple[dict[str, Any], ...]) -> list[_Turn]:
    turns: list[_Turn] = []
    current: _Turn | None = None
    for r in records:
        event = r.get("event")
        if event == "UserPromptSubmit" and isinstance(r.get("prompt"), str):
            current = _Turn(asked=r["prompt"])
            turns.append(current)
            continue
        if current is None:
            current = _Turn()
            turns.append(current)
        if event in ("Stop", "AssistantMessage") and isinstance(r.get("message"), str):
            current.answered = r["message"]
        elif event in ("PostToolUse", "PostToolUseFailure"):
            command = shell_command(r)
            outcome = shell_outcome(r)
            if command:
                detail = f"ran `{clip(command, 120)}` ({outcome if outcome != 'unknown' else 'ran'}"
                if outcome == "failed":
                    excerpt = error_excerpt(r, 120)
                    detail += f": {excerpt}" if excerpt else ""
                current.did.append(detail + ")")
            else:
                files = touched_files(r)
                if files:
                    current.did.append(f"edited {', '.join(f'`{f}`' for f in files[:3])}")
        elif event == "PostCompact" and isinstance(r.get("summary"), str):
            current.did.append(f"compacted the context ({clip(r['summary'], 200)})")
    return [t for t in turns if t.asked or t.did or t.answered]


def _render_turn(t: _Turn) -> str:
    lines = []
    if t.asked:
        lines.append(f"**Asked:** {clip(t.asked, TURN_TEXT)}")
    if t.did:
        did = "; ".join(_dedupe(t.did))
        lines.append(f"**Did:** {clip(did, TURN_TEXT)}")
    if t.answered:
        lines.append(f"**Answered:** {clip(t.answered, TURN_TEXT)}")
    return "- " + "\n  ".join(lines)


def _dedupe(items: list[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        if not out or out[-1] != item:
            out.append(item)
    return out


def _turn_blocks(body: str) -> list[str]:
    found = _section(body, "turns")
    if not found:
        return []
    blocks: list[str] = []
    for line in found[1].strip("\n").split("\n"):
        if line.startswith("- "):
            blocks.append(line)
        elif blocks and line.strip():
            blocks[-1] += "\n" + line
    return [b for b in blocks if not b.startswith("- … ")]


def _digest_owner(body: str) -> str | None:
    m = re.search(r"Session id: `([^`]+)`", body)
    return m.group(1) if m else None


def _turns_started(body: str) -> str | None:
    m = re.search(r", (\d\d:\d\d)–\d\d:\d\d UTC\.", body)
    return m.group(1) if m else None


def _outcome_of(body: str) -> str:
    m = re.search(r"## Outcome\n\n(.+?)\s*$", body, re.DOTALL)
    return m.group(1).strip() if m else ""


def _digest_body(header: str, blocks: list[str], outcome: str) -> str:
    kept = list(blocks)
    omitted = 0
    while sum(len(b) + 1 for b in kept) > DIGEST_MAX - 1500 and len(kept) > 4:
        kept.pop(2)  # keep how it started and how it went on; drop the middle
        omitted += 1
    if omitted:
        kept.insert(2, f"- … {omitted} turn{'s' if omitted != 1 else ''} omitted …")
    parts = [header, "", "## Turns", "", "<!-- wikimem:turns -->", *kept, "<!-- /wikimem:turns -->"]
    if outcome:
        parts += ["", "## Outcome", "", clip(outcome, 1000)]
    return "\n".join(parts) + "\n"
