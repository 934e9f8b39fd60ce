"""The offline dream backend: deterministic, no network, useful on its own.

What it distils from a chunk of one project's events, session by session:
  - statements in prompts (`wikimem.dream.statements`) become claims (`wikimem.dream.claims`):
    one standalone line each, with its provenance (client, day, a link to the session digest),
    in the note of its scope and kind: the person's `profile/about.md` and
    `profile/preferences.md`, the project's `conventions.md` and `facts.md`, or
    `general/notes.md`. A newer claim on the same subject replaces the older one wherever it sits
    in that scope (a changed value keeps "was OLD until DATE"); a retraction removes it;
  - shell commands that worked, counted, one-off variants folded (`wikimem.dream.commands`), in
    `projects/<slug>/commands.md`;
  - a failing command, then the change that made it pass, with the agent's reason
    (`wikimem.dream.pitfalls`), in `projects/<slug>/pitfalls.md`;
  - files edited most often, session activity and links to the project's notes, in
    `projects/<slug>/overview.md`;
  - one bounded digest per session (`wikimem.dream.digest`), linked to the notes it changed.
Generated tables and lists sit between `<!-- wikimem:… -->` markers; text a person writes outside
them is kept.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from wikimem.dream import (
    claims,
    commands,
    dates,
    digest,
    findings,
    pitfalls,
    statements,
    subjects,
    supersession,
)
from wikimem.dream.base import DreamRequest, Proposal, ReadNote, SessionEvents
from wikimem.dream.ops import About, Upsert
from wikimem.dream.placement import placement, scope_paths
from wikimem.dream.render import shell_command, shell_outcome, touched_files
from wikimem.wiki import notemeta, origins

MAX_SOURCES = 12
MAX_FILES = 15
MAX_HUB_SESSIONS = 5
# How a generated note tells the person editing it what wikimem keeps. A comment: it is for
# whoever edits the file, and comments are neither indexed nor injected (a prompt about running
# dogs "freely" must not be given "write freely outside the marked parts").
KEPT_BY = "<!-- Kept by `wikimem dream`;"
_OLD_KEPT_BY = " Kept by `wikimem dream`;"  # how older versions wrote it: as text
_MARKED_PARTS = "write freely outside the marked parts"
_TABLE = "write freely outside the table"
_NEWER_ENTRY = "a newer entry on the same command replaces the older one"


def _notice(what: str) -> str:
    return f"{KEPT_BY} {what}. -->"


def _unnoticed(body: str) -> str:
    """A note written before the notice became a comment, with its notice made one (and
    whatever the person wrote after it on the same line kept as text)."""
    for what in (_MARKED_PARTS, _TABLE, _NEWER_ENTRY):
        old = f"{_OLD_KEPT_BY} {what}."
        i = body.find(old)
        if i <= 0 or body[i - 1] not in ".*":  # it followed the note's first sentence
            continue
        end = i + len(old)
        eol = body.find("\n", end)
        eol = len(body) if eol == -1 else eol
        rest = body[end:eol].strip()
        nl = "\r\n" if body[end:eol].endswith("\r") else "\n"  # a note saved with CRLF keeps it
        return body[:i] + nl + _notice(what) + (nl + rest if rest else "") + nl[:-1] + body[eol:]
    return body


Listing = Callable[[str], list[str]]
# Notes whose lines a dream keeps from what happened, not claims a person can retract.
_NOT_CLAIM_NOTES = ("/pitfalls.md", "/commands.md", "/overview.md")


def _set_section(body: str, name: str, inside: str, default_body: str) -> str:
    found = digest.section(body, name)
    if found is None:
        body = (
            default_body
            if not body.strip()
            else body.rstrip("\n") + "\n\n" + default_body.split("\n\n", 1)[-1]
        )
        found = digest.section(body, name)
        if found is None:  # the default lacks the section: append it
            body = f"{body.rstrip()}\n\n<!-- wikimem:{name} -->\n<!-- /wikimem:{name} -->\n"
            found = digest.section(body, name)
            assert found is not None
    before, _, after = found
    return f"{before}\n{inside.strip()}\n{after}"


# How many of a project's newest digests a new convention is checked against
DIGESTS_CHECKED = 200


def _earlier_values(notes: NoteSet, project: str, text: str, body: str) -> list[str]:
    """The other values earlier sessions of `project` gave the convention slot `text` now
    fills ("start method names with 'x_'" said, or answered, before "… with 'y_'"), that
    `body` has not recorded as past: said only in digests, they were never a claim to replace,
    and without this a prompt about method names would be given them from an old digest."""
    slot = supersession.convention_slot(text)
    if slot is None or not slot[1]:
        return []
    name, value = slot[0], slot[1].lower()
    recorded = {
        q
        for ln in body.split("\n")
        if ln.startswith("<!-- wikimem:was ")
        for q in supersession.QUOTED_VALUE.findall(ln.lower())
    }
    found: dict[str, None] = {}
    for path in notes.under(f"projects/{project}/sessions/")[-DIGESTS_CHECKED:]:
        digest = notes.existing(path)
        if digest is None:
            continue
        for line in digest.body.split("\n"):
            if "'" not in line and '"' not in line and "`" not in line:
                continue
            for sentence in re.split(r"(?<=[.!?])\s+", line):
                other = supersession.convention_slot(sentence)
                if other is None or other[0] != name or not other[1]:
                    continue
                old = other[1].lower()
                if old != value and old not in recorded:
                    found[old] = None
    return [f"'{old}'" for old in found]


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
    said: dict[str, str] = field(default_factory=dict)  # line key -> who brought it

    def add_source(self, source: str) -> None:
        if source not in self.sources:
            self.sources.append(source)
            self.sources = self.sources[-MAX_SOURCES:]


@dataclass
class NoteSet:
    read: ReadNote
    listing: Listing | None = None
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

    def existing(self, path: str) -> WorkingNote | None:
        """A note that exists (on disk or made in this pass), without creating it."""
        if path in self.notes:
            return self.notes[path]
        if self.read(path) is None:
            return None
        return self.get(path, path, "", [])

    def under(self, prefix: str) -> list[str]:
        found = set(self.listing(prefix)) if self.listing else set()
        found.update(p for p in self.notes if p.startswith(prefix))
        return sorted(found)

    def operations(self) -> list[Upsert]:
        return [
            Upsert(
                n.path,
                n.title,
                n.kind,
                n.body if n.body.endswith("\n") else n.body + "\n",
                tuple(n.tags),
                tuple(n.sources),
                origins=tuple(n.said.items()),
            )
            for n in self.notes.values()
            if n.changed
        ]


@dataclass
class SessionWork:
    """What one session's pass has done so far: for retractions and the digest's links."""

    s: SessionEvents
    project: str
    link: str | None
    claims: list[tuple[str, str]] = field(default_factory=list)  # (path, claim text)
    once: dict[str, tuple[str, str]] | None = None  # commands one session ran, to remember
    changed: list[str] = field(default_factory=list)

    def touched(self, path: str) -> None:
        if path not in self.changed:
            self.changed.append(path)


def _day(record: dict[str, Any]) -> str:
    return str(record.get("ts", ""))[:10]


def _date(day: str) -> date | None:
    try:
        return date.fromisoformat(day)
    except ValueError:
        return None


class OfflineBackend:
    name = "offline"
    needs_prompt = False

    def propose(self, request: DreamRequest, read: ReadNote) -> Proposal:
        notes = NoteSet(read, request.listing)
        project = request.project
        for s in request.sessions:
            turns = digest.turns_of(s.events)
            path = self._digest_path(s, notes, project) if turns else None
            work = SessionWork(s, project, path[:-3] if path else None)
            self._statements(work, notes)
            self._commands(work, notes)
            self._pitfalls(work, notes)
            self._overview(work, notes)
            if path is not None:
                self._digest(work, notes, path, turns)
        return Proposal(tuple(notes.operations()))

    # -- statements ----------------------------------------------------------------------------

    def _statements(self, work: SessionWork, notes: NoteSet) -> None:
        """Claims from the whole session, in the order they were said: the person's prompts,
        the agent's final messages (its findings) and what tools printed (pinned versions)."""
        s = work.s
        project = work.project if work.project != "unknown" else None
        settings: list[tuple[str, str, str]] = []  # read from config files this turn
        for r in s.events:
            day = _day(r)
            event = r.get("event")
            prompt, message = r.get("prompt"), r.get("message")
            if event == "UserPromptSubmit" and isinstance(prompt, str):
                for st in statements.extract(prompt, _date(day), in_project=project is not None):
                    if st.kind == "retraction":
                        self._retract(work, notes, st, project, day)
                    else:
                        self._file(work, notes, st, project, day, "")
            elif project is None:
                continue  # an agent's or a tool's finding is about a project, or nothing
            elif event in ("Stop", "AssistantMessage") and isinstance(message, str):
                for st in findings.from_agent(message, _date(day)):
                    self._file(work, notes, st, project, day, "agent")
                for st in findings.confirmed(settings, message):
                    self._file(work, notes, st, project, day, "tool")
                settings = []
            elif event == "PostToolUse":
                command, output = shell_command(r), r.get("output")
                if command and isinstance(output, str):
                    for st in findings.from_tool(command, output):
                        self._file(work, notes, st, project, day, "tool")
                    settings += findings.settings_read(command, output)
            elif event == "UserPromptSubmit":
                settings = []

    def _file(
        self,
        work: SessionWork,
        notes: NoteSet,
        st: statements.Statement,
        project: str | None,
        day: str,
        by: str,
    ) -> None:
        """Put one claim in the note of its scope and kind, replacing what it supersedes there
        and elsewhere in the scope."""
        place = placement(st, project)
        provenance = claims.Provenance(work.s.client, day, work.link, by)
        claim = claims.Claim(st.text, subjects.subject_label(st.text), provenance)
        for other in scope_paths(notes.under, place, project):
            if other == place.path:
                continue
            note = notes.existing(other)
            if note is None:
                continue
            body, removed = claims.remove_superseded(note.body, claim, st.change, said=st.said)
            if removed:
                self._changed(work, note, body)
        if place.kind != "profile" and project:
            self._supersede_in_profile(work, notes, claim, project)
        note = notes.get(place.path, place.title, place.kind, [])
        folded = claims.fold(note.body, claim, today=day, change=st.change, said=st.said)
        if folded.changed and project:
            earlier = _earlier_values(notes, project, st.text, folded.body)
            if earlier:
                folded = replace(folded, body=claims.record_past(folded.body, earlier, day))
        if folded.changed:
            # who said it, from the event it came from: the person's prompt, the agent's
            # message, a tool's output (what the line's provenance text says is not read)
            who = {"": origins.PERSON, "agent": origins.AGENT}.get(by, origins.TOOL)
            note.said.update(
                origins.added(note.body, folded.body, origins.code(who, work.s.client, day))
            )
            self._changed(work, note, folded.body)
        work.claims.append((place.path, st.text))

    def _supersede_in_profile(
        self, work: SessionWork, notes: NoteSet, claim: claims.Claim, project: str
    ) -> None:
        """A project claim replaces a profile claim that was said in this same project (it was
        about the project all along); the person's habits from elsewhere stay."""
        for path in notes.under("profile/"):
            note = notes.existing(path)
            if note is None:
                continue
            gone = [
                (i, c)
                for i, c in claims.claims_in(note.body)
                if c.provenance is not None
                and (c.provenance.link or "").startswith(f"projects/{project}/")
                and supersession.supersedes(claim.text, c.text)
            ]
            if gone:
                day = claim.provenance.date if claim.provenance else ""
                body = claims.drop_lines(note.body, (i for i, _ in gone))
                past = [c.text for _, c in gone]
                self._changed(work, note, claims.record_past(body, past, day))

    def _retract(
        self,
        work: SessionWork,
        notes: NoteSet,
        st: statements.Statement,
        project: str | None,
        day: str,
    ) -> None:
        if not st.target:
            if not work.claims:
                return  # "forget that" with nothing said before it in this session
            path, text = work.claims.pop()
            note = notes.existing(path)
            if note is None:
                return
            for i, c in reversed(claims.claims_in(note.body)):
                if subjects.strip_history(c.text) == subjects.strip_history(text) or c.text == text:
                    body = claims.record_past(claims.drop_lines(note.body, [i]), [c.text], day)
                    self._changed(work, note, body)
                    return
            return
        target = dates.resolve(st.target, _date(day))
        prefixes = ["profile/"] + ([f"projects/{project}/"] if project else ["general/"])
        found = False
        for prefix in prefixes:
            for path in notes.under(prefix):
                if "/sessions/" in path or path.endswith(_NOT_CLAIM_NOTES):
                    continue  # a pitfall or a command row is not what a person retracts
                note = notes.existing(path)
                if note is None:
                    continue
                body, removed = claims.retract(note.body, target, day)
                if removed:
                    found = True
                    self._changed(work, note, body)
        if project:
            self._retract_commands(work, notes, target, project)
            if not found:
                # Nothing living said it (it stayed in a digest): the retraction is recorded
                # all the same, so recall stops giving the older digests that say it.
                note = notes.get(
                    f"projects/{project}/overview.md", f"{project} overview", "project", [project]
                )
                body = claims.record_retracted(note.body, target, day)
                if body != note.body:
                    self._changed(work, note, body)

    def _retract_commands(
        self, work: SessionWork, notes: NoteSet, target: str, project: str
    ) -> None:
        """ "we've moved off uv": the command rows that run uv are no longer how it is done."""
        overview = notes.existing(f"projects/{project}/overview.md")
        once = commands.once_lines(overview.body) if overview is not None else {}
        terms = subjects.content_terms(target) - claims.GENERIC_TARGET
        kept = {
            c: v
            for c, v in once.items()
            if not (terms and terms <= set(re.findall(r"[a-z0-9]+", c.lower())))
        }
        if overview is not None and kept != once:
            # "ignore what I said about the proxy": a command waiting to recur that ran through
            # it is not remembered either
            self._changed(work, overview, commands.with_once(overview.body, kept))
        tool = target.strip().strip("`").lower()
        if not re.fullmatch(r"[a-z][\w.+-]{1,30}", tool):
            return
        note = notes.existing(f"projects/{project}/commands.md")
        found = digest.section(note.body, "commands") if note else None
        if note is None or found is None:
            return
        table = commands.drop_tool(found[1], tool)
        if table is not None and table != found[1].strip():
            self._changed(work, note, _set_section(note.body, "commands", table, note.body))

    def _changed(self, work: SessionWork, note: WorkingNote, body: str) -> None:
        if body == note.body:
            return
        note.body = body
        note.changed = True
        note.add_source(work.s.source)
        work.touched(note.path)

    # -- commands that worked ------------------------------------------------------------------

    def _commands(self, work: SessionWork, notes: NoteSet) -> None:
        s, project = work.s, work.project
        runs: dict[str, commands.Row] = {}
        for r in s.events:
            if r.get("event") not in ("PostToolUse", "PostToolUseFailure"):
                continue
            command = shell_command(r)
            if not command or len(command) > 200:
                continue
            kind = commands.command_kind(command)
            if kind is None:
                continue
            row = runs.setdefault(command, commands.Row(command, kind, 0, 0, ""))
            if shell_outcome(r) == "failed":
                row.failed += 1
            else:
                row.ok += 1
                row.last = max(row.last, _day(r))
        if not any(row.ok for row in runs.values()):
            return
        path = f"projects/{project}/commands.md"
        existing = notes.existing(path)
        found = digest.section(existing.body, "commands") if existing else None
        runs = self._worth_a_row(work, notes, runs, found[1] if found else "")
        if not runs:
            return
        table = commands.merge_table(found[1] if found else "", runs)
        if table is None:
            return
        note = notes.get(path, f"{project} commands", "project", [project, "commands"])
        default = (
            f"Commands that worked in {project}, most used first.\n{_notice(_TABLE)}"
            "\n\n<!-- wikimem:commands -->\n<!-- /wikimem:commands -->\n"
        )
        self._changed(work, note, _set_section(_unnoticed(note.body), "commands", table, default))

    def _worth_a_row(
        self, work: SessionWork, notes: NoteSet, runs: dict[str, commands.Row], table: str
    ) -> dict[str, commands.Row]:
        """Of one session's commands, those worth a row: declared by the project, in the table
        already, or run in another session before (`commands` module contract). The others
        that worked are remembered, hidden in the overview, for a later session to confirm."""
        project = work.project
        known = {commands.shape(c) for c in commands.parse_table(table)}
        overview = notes.existing(f"projects/{project}/overview.md")
        once = commands.once_lines(overview.body) if overview is not None else {}
        kept: dict[str, commands.Row] = {}
        pending = dict(once)
        for command, row in runs.items():
            key = commands.shape(command)
            seen = once.get(key)
            if commands.declared(command) or key in known:
                kept[command] = row
            elif seen is not None and seen[0] != work.s.source and row.ok:
                kept[command] = row  # worked in a second session: how the project is worked on
                pending.pop(key, None)
            elif row.ok and not commands.one_off(command, row.kind) and seen is None:
                pending[key] = (work.s.source, row.last)
        if pending != once:
            work.once = pending  # written with the overview (`_overview`)
        return kept

    # -- pitfalls: a failure, then what made it pass --------------------------------------------

    def _pitfalls(self, work: SessionWork, notes: NoteSet) -> None:
        s, project = work.s, work.project
        found = pitfalls.find_pitfalls(s.events)
        if not found:
            return
        note = notes.get(
            f"projects/{project}/pitfalls.md",
            f"{project} pitfalls",
            "project",
            [project, "pitfalls"],
        )
        body = _unnoticed(note.body) or (
            f"Failures seen in {project} and what fixed them.\n{_notice(_NEWER_ENTRY)}\n"
        )
        day = _day(s.events[-1])
        for p in found:
            claim = claims.Claim(
                pitfalls.pitfall_text(p), "", claims.Provenance(s.client, day, work.link)
            )
            body = claims.fold(body, claim, today=day, same=pitfalls.same_pitfall).body
        self._changed(work, note, body)

    # -- overview: activity, files, the project's notes ----------------------------------------

    def _overview(self, work: SessionWork, notes: NoteSet) -> None:
        s, project = work.s, work.project
        edits: Counter[str] = Counter()
        for r in s.events:
            if r.get("event") == "PostToolUse":
                edits.update(touched_files(r))
        path = f"projects/{project}/overview.md"
        note = notes.get(path, f"{project} overview", "project", [project])
        default = (
            f"Project **{project}**.\n{_notice(_MARKED_PARTS)}"
            "\n\n<!-- wikimem:activity -->\n<!-- /wikimem:activity -->\n\n## Frequently touched files"
            "\n\n<!-- wikimem:files -->\n<!-- /wikimem:files -->\n\n## Notes\n\n"
            "<!-- wikimem:links -->\n<!-- /wikimem:links -->\n"
        )
        body = _unnoticed(note.body) if note.body.strip() else default
        activity = digest.section(body, "activity")
        count, clients, last = 0, Counter[str](), ""
        if activity:
            m = _ACTIVITY.search(activity[1])
            if m:
                count, last = int(m["n"]), m["last"]
                for part in m["clients"].split(","):
                    name, _, n = part.strip().rpartition(" ")
                    if name and n.isdigit():
                        clients[name] = int(n)
        if work.link is None or notes.read(work.link + ".md") is None:
            count += 1  # first time this session is seen
            clients[digest.client_name(s.client)] += 1
        last = max(last, max((_day(r) for r in s.events), default=""))
        summary = ", ".join(f"{name} {n}" for name, n in sorted(clients.items()))
        body = _set_section(
            body,
            "activity",
            f"Sessions recorded: {count} ({summary}); last active {last}.",
            default,
        )
        if edits:
            files: Counter[str] = Counter()
            found = digest.section(body, "files")
            for line in (found[1] if found else "").splitlines():
                fm = _FILE_ROW.match(line.strip())
                if fm:
                    files[fm["path"]] = int(fm["n"])
            files.update(edits)
            top = sorted(files.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_FILES]
            listing = "\n".join(f"- `{p}` ({n} edit{'s' if n != 1 else ''})" for p, n in top)
            body = _set_section(body, "files", listing, default)
        body = _set_section(body, "links", self._hub(notes, project, work), default)
        if work.once is not None:
            body = commands.with_once(body, work.once)
        self._changed(work, note, body)

    def _hub(self, notes: NoteSet, project: str, work: SessionWork) -> str:
        prefix = f"projects/{project}/"
        living = [
            p
            for p in notes.under(prefix)
            if "/sessions/" not in p and not p.endswith("/overview.md")
        ]
        for p in work.changed:
            if p.startswith(prefix) and "/sessions/" not in p and p not in living:
                living.append(p)
        sessions = [p for p in notes.under(f"{prefix}sessions/")]
        if work.link and f"{work.link}.md" not in sessions:
            sessions.append(f"{work.link}.md")
        recent = sorted(sessions)[-MAX_HUB_SESSIONS:]
        parts = [f"[[{p[:-3]}]]" for p in sorted(living)]
        if recent:
            parts.append("recent sessions: " + ", ".join(f"[[{p[:-3]}]]" for p in reversed(recent)))
        return " · ".join(parts) if parts else "(none yet)"

    # -- the session digest --------------------------------------------------------------------

    def _digest_path(self, s: SessionEvents, notes: NoteSet, project: str) -> str:
        found = digest.find_digest(notes.under(f"projects/{project}/sessions/"), project, s.session)
        if found is not None:
            return found
        return digest.digest_path(project, _day(s.events[0]) or "0000-00-00", s.session)

    def _digest(
        self,
        work: SessionWork,
        notes: NoteSet,
        path: str,
        turns: list[digest.Turn],
        about: Mapping[int, About] | None = None,
    ) -> None:
        s, project = work.s, work.project
        first_ts = str(s.events[0].get("ts", ""))
        title = f"{project} session {first_ts[:10]} · {digest.client_name(s.client)} {digest.short_id(s.session)}"
        note = notes.get(path, title, "session", ["session", s.client, project])
        blocks = digest.turn_blocks(note.body) if note.body else []
        said_on = _date(first_ts[:10])

        def anchored(text: str) -> str:
            # A turn that quotes a dated conversation ("[8 May, 2023] …") is anchored there.
            quoted = dates.parse_day(text[: text.find("]") + 1]) if text.startswith("[") else None
            return dates.annotate(text, quoted or said_on)

        blocks += [digest.render_turn(t, anchored, (about or {}).get(t.number)) for t in turns]
        outcome = next((t.answered for t in reversed(turns) if t.answered), "")
        started = digest.started_at(note.body) or first_ts[11:16]
        ended = str(s.events[-1].get("ts", ""))[11:16]
        header = (
            f"{digest.client_name(s.client)} session in {project}, {first_ts[:10]}, "
            f"{started}–{ended} UTC. Session id: `{s.session}`."
        )
        changed = list(
            dict.fromkeys([*digest.links_of(note.body), *(p[:-3] for p in work.changed)])
        )
        body = digest.render_digest(
            header,
            blocks,
            outcome or digest.outcome_of(note.body),
            project,
            [f"{p}.md" for p in changed if not p.endswith("/overview")],
        )
        note.body = body
        note.changed = True
        note.add_source(s.source)


def digest_operations(
    request: DreamRequest,
    read: ReadNote,
    changed: Sequence[str],
    about: Mapping[str, Mapping[int, About]] | None = None,
) -> list[Upsert]:
    """The digests of the sessions of `request`, linked to the notes in `changed`: what a model
    backend's dream writes besides the model's own operations. `about` (session id → turn number →
    `About`) is what the model said turns are about, written into those turns."""
    notes = NoteSet(read, request.listing)
    backend = OfflineBackend()
    for s in request.sessions:
        turns = digest.turns_of(s.events)
        if not turns:
            continue
        path = backend._digest_path(s, notes, request.project)
        work = SessionWork(s, request.project, path[:-3], changed=list(changed))
        backend._digest(work, notes, path, turns, (about or {}).get(s.session))
    return notes.operations()


_ACTIVITY = re.compile(
    r"Sessions recorded: (?P<n>\d+) \((?P<clients>[^)]*)\); last active (?P<last>[\d-]+)\."
)
_FILE_ROW = re.compile(r"^- `(?P<path>.+)` \((?P<n>\d+) edits?\)$")
