"""`wikimem remember`, `forget` and `edit`: a person's own writes, through the gate, committed.

Contract: `remember` folds the text into the living note it belongs in (or `--path`), replacing
an earlier statement on the same subject, as the offline dream does; a text too long to be kept
as remembered statements is refused whole (never silently cut). `forget` deletes a note;
`edit_note` validates an edited copy, stamps `updated:` unless the person set it, and writes it
only if the note did not change meanwhile. Each is one gated batch and one commit. Paths a
person types are resolved and checked here, before anything runs: `general/My Note` finds
`general/My Note.md`, `../x` is refused.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date

from wikimem.capture.project import find_repo_root, project_slug, slugify
from wikimem.capture.redact import redact
from wikimem.dream import claims, dates, durable, statements, subjects
from wikimem.dream.placement import placement, project_claim_notes, scope_paths
from wikimem.errors import WikimemError
from wikimem.wiki.batch import BatchResult, Wiki
from wikimem.wiki.gate import MemoryWrite, content_hash
from wikimem.wiki.links import title_for
from wikimem.wiki.notes import (
    Note,
    NoteError,
    new_note,
    now_utc,
    parse_note,
    render_note,
    resolve_wikilink,
    today,
    validate_path,
)

# A remembered statement is one line of a living note (a claim), cut beyond MAX_STATEMENT
# where it is stored, and `remember` takes a few of them at a time: a text that would be cut is
# refused instead, and the person told where long text goes.
MAX_REMEMBER_CHARS = 4 * statements.MAX_STATEMENT
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class TooLong(WikimemError):
    """The text is longer than a remembered statement may be."""


def current_project(cwd: str | None = None) -> str | None:
    """The project of cwd, only when cwd is inside a repository (not just any folder)."""
    cwd = cwd or os.getcwd()
    return project_slug(cwd) if find_repo_root(cwd) else None


def project_option(given: str | None) -> str | None:
    """A project slug from what a person typed: `My Project!!` is `my-project`."""
    if given is None:
        return None
    slug = slugify(given)  # the rule the hooks use, so the notes meet that project's sessions
    if not slug:
        raise WikimemError(f"--project {given!r} has no letters or digits to make a slug of")
    return slug


def resolve_path(wiki: Wiki, given: str) -> str:
    """A note path from what a person typed: exact, without `.md`, a [[wikilink]], or a name
    that differs only in case (as Obsidian's links do). Refused when it could never be a note
    (absolute, `..`, outside the note folders)."""
    text = given.strip().removeprefix("[[").removesuffix("]]").strip()
    text = text.split("|", 1)[0].strip().strip("/")
    existing = set(wiki.paths())
    found = resolve_wikilink(text, existing)
    if found is None:
        wanted = (text if text.endswith(".md") else f"{text}.md").lower()
        folded = [p for p in existing if p.lower() == wanted]
        found = folded[0] if len(folded) == 1 else None
    rel = found or (text if text.endswith(".md") else f"{text}.md")
    validate_path(rel, hand_named=True)
    return rel


# What `remember` refuses even when asked: it would be told to agents as a standing fact.
_NEVER_A_CLAIM = ("question", "guess", "for now", "a request for now", "redacted")


class NotAClaim(WikimemError):
    """Nothing of the text can be remembered as a statement (a question, a guess, …)."""


def _statements(text: str, project: str | None) -> list[statements.Statement]:
    """The statements of each sentence. A person asked for exactly this to be remembered: a
    sentence that reads like nothing the dream would pick up is kept as it is, unless it is a
    question, a guess, a task for now or redacted away (agents would be told it as a fact at
    every session start). Refused whole, with the reason, when nothing is left."""
    said_on = date.fromisoformat(today())
    scope = "project" if project else "general"
    out: list[statements.Statement] = []
    refused: list[str] = []
    for sentence in statements.sentences(text) or [text]:
        found = statements.extract(sentence, said_on, in_project=project is not None, asked=True)
        if found:
            out.extend(st for st in found if st.kind != "retraction")
            continue
        judged = durable.judge(dates.resolve(sentence, said_on), asked=True)
        if isinstance(judged, durable.Silent) and judged.reason in _NEVER_A_CLAIM:
            refused.append(f"{sentence.strip()!r} reads as {_AS.get(judged.reason, judged.reason)}")
            continue
        cleaned = statements.clean(sentence, said_on)
        out.append(statements.Statement("fact", cleaned, scope, explicit=True))
    if not out and refused:
        raise NotAClaim(
            "nothing remembered: " + "; ".join(refused) + ". Agents are told remembered lines "
            'as standing facts; say it as a statement ("The orders service listens on 8081")'
        )
    return out


_AS = {
    "question": "a question",
    "guess": "a guess",
    "for now": "something for now only",
    "a request for now": "a request for now",
    "redacted": "a secret and nothing else",
}


def plan(
    wiki: Wiki, text: str, *, path: str | None, project: str | None, source: str = "remember"
) -> tuple[list[MemoryWrite], list[str], list[str], str]:
    """The writes that fold `text` into the wiki: the note each statement belongs in (or
    `path`), and the claims it supersedes elsewhere in the same scope removed. Returns (writes,
    replaced statements, statements kept beside it as contested, the main note's path). The text is redacted before anything is made of
    it (or refused, with `gate.secrets = block`, without echoing it): a claim's subject and
    wording are rewritten from its words, which could hide a secret from the gate."""
    text = _without_secrets(wiki, text)
    if source != "remember":
        # An agent's text: "(remember 2026-12-01)" in it would only mislead a reader of the
        # note (who said a line is this machine's record, never the line's words).
        from wikimem.wiki.origins import strip_imitations

        text = strip_imitations(text)
    stamp = now_utc()
    day = stamp[:10]
    bodies: dict[str, Note] = {}
    bases: dict[str, str] = {}
    created: set[str] = set()
    replaced: list[str] = []
    contested: list[str] = []
    main = ""

    def load(rel: str, title: str, kind: str | None) -> Note:
        if rel not in bodies:
            current = wiki.read(rel)
            bases[rel] = content_hash(current)
            if current is None:
                bodies[rel] = new_note(rel, title, "", kind=kind, sources=())
                created.add(rel)
            else:
                bodies[rel] = parse_note(rel, current)
        return bodies[rel]

    existing = list(wiki.paths())
    # A person typing `wikimem remember` says it themselves; a write through MCP is an agent's.
    by = "" if source == "remember" else "agent"
    for st in _statements(text, project):
        if path is None:
            place = placement(st, project)
            if by and place.kind == "profile":
                # What an agent says about the person is held to the project it was said in
                # (or to general/, never given at session start), until the person says it.
                kind_held = "convention" if st.kind in ("preference", "convention") else "fact"
                held = replace(st, kind=kind_held, scope="project" if project else "general")
                place = placement(held, project)
            rel, title, kind = place.path, place.title, place.kind
        else:
            rel, title, kind = path, title_for(path), None
        main = main or rel
        said = claims.held_text(st.text) if by and claims.needs_confirming(st.text) else st.text
        claim = claims.Claim(
            said, subjects.subject_label(st.text), claims.Provenance(source, day, by=by)
        )
        if path is None:
            for other in scope_paths(_lister(existing), place, project):
                if other == rel:
                    continue
                note = load(other, other, None)
                body, removed = claims.remove_superseded(note.body, claim, st.change, plain=True)
                if removed:
                    bodies[other] = note.with_changes(body=body, updated=stamp)
                    replaced.extend(removed)
        note = load(rel, title, kind)
        folded = claims.fold(note.body, claim, today=day, change=st.change, plain=True)
        if folded.replaced:
            replaced.append(folded.replaced)
        if folded.contested:
            contested.append(folded.contested)
        if folded.changed:
            bodies[rel] = note.with_changes(body=folded.body, updated=stamp)
    writes = []
    for rel, note in bodies.items():
        content = render_note(note)
        if rel not in created and content == wiki.read(rel):
            continue
        if rel in created and not note.body.strip():
            continue
        operation = "create" if rel in created else "update"
        writes.append(MemoryWrite(rel, operation, content, source, (), bases[rel]))
    return writes, replaced, contested, main


def _lister(paths: list[str]) -> Callable[[str], list[str]]:
    return lambda prefix: [p for p in paths if p.startswith(prefix)]


def remember(
    wiki: Wiki, text: str, path: str | None = None, project: str | None = None
) -> BatchResult:
    flat = " ".join(text.split())
    if not flat:
        raise WikimemError("nothing to remember: the text is empty")
    longest = max(len(s) for s in _SENTENCE_END.split(flat))
    if len(flat) > MAX_REMEMBER_CHARS or longest > statements.MAX_STATEMENT:
        what = (
            f"the text has {len(flat):,} characters"
            if len(flat) > MAX_REMEMBER_CHARS
            else f"a sentence of it has {longest:,} characters"
        )
        raise TooLong(
            f"{what}; remember keeps a few statements of at most {statements.MAX_STATEMENT} "
            f"characters each, {MAX_REMEMBER_CHARS:,} in all (nothing was written). Say it in a "
            "sentence or two, or put longer text in a note of its own: "
            "`wikimem edit general/<name>.md`"
        )
    rel = resolve_path(wiki, path) if path else None
    writes, replaced, contested, main = plan(wiki, text, path=rel, project=project)
    _confirm_own(wiki, writes)
    body = "\n".join(
        [f'Replaces: "{r}"' for r in replaced]
        + [
            f'Contested: "{c}" (kept beneath the new claim; cannot tell if it replaces it)'
            for c in contested
        ]
    )
    return wiki.commit_writes(writes, f"remember: {main}", body=body)


def _confirm_own(wiki: Wiki, writes: list[MemoryWrite]) -> None:
    """A rule the person types with `wikimem remember` is theirs: a line this write adds that
    runs fetched code is confirmed on this machine as written (the lines it adds, never one
    that was in the note already)."""
    from wikimem.lock import file_lock
    from wikimem.wiki import confirmations

    mine = []
    for w in writes:
        before = set((wiki.read(w.path) or "").split("\n"))
        mine += [
            ln
            for ln in (w.proposed_content or "").split("\n")
            if ln.startswith("- ") and ln not in before and confirmations.needs_confirming(ln)
        ]
    if mine:
        with file_lock(wiki.home.state("memory.lock")):
            confirmations.record(wiki.home.state_dir, mine)


def _without_secrets(wiki: Wiki, text: str) -> str:
    redacted, kinds = redact(text)
    if kinds and wiki.config.gate.secrets == "block":
        raise WikimemError(
            f"not remembered: the text holds a secret ({', '.join(sorted(set(kinds)))}) "
            "and gate.secrets = block"
        )
    return redacted


def forget(wiki: Wiki, path: str, project: str | None = None) -> BatchResult:
    """Delete the note at `path`; or, when no note is there and `path` is words ("the yarn
    rule", "pnpm i18n:extract before committing"), retract the claims those words name in the
    project's living notes and the profile, as a retraction said in a session does: each is
    moved to its note's hidden history, the rest of the note kept."""
    rel: str | None
    try:
        rel = resolve_path(wiki, path)
    except NoteError:
        rel = None  # no note could be named so: words, when there are some
    current = wiki.read(rel) if rel is not None else None
    if rel is not None and current is not None:
        write = MemoryWrite(rel, "delete", None, "forget", (), content_hash(current))
        return wiki.commit_writes([write], f"forget: {rel}")
    if len(path.split()) < 2:
        raise WikimemError(f"no note at {rel or path}")
    return _forget_said(wiki, " ".join(path.split()), project)


def _forget_said(wiki: Wiki, words: str, project: str | None) -> BatchResult:
    stamp = now_utc()
    day = stamp[:10]
    # the notes a claim may be replaced in (`scope_paths`): a retraction never empties a
    # pitfall, the commands table or the overview
    under = _lister(list(wiki.paths()))
    writes: list[MemoryWrite] = []
    retracted: list[str] = []
    for rel in sorted(under("profile/") + project_claim_notes(under, project)):
        current = wiki.read(rel)
        if current is None:
            continue
        note = parse_note(rel, current)
        body, removed = claims.retract(note.body, words, day)
        if not removed:
            continue
        retracted.extend(removed)
        content = render_note(note.with_changes(body=body, updated=stamp))
        writes.append(MemoryWrite(rel, "update", content, "forget", (), content_hash(current)))
    if not writes:
        where = f"projects/{project}/ or profile/" if project else "profile/"
        raise WikimemError(f"no note at that path, and no claim in {where} names {words!r}")
    body = "\n".join(f'Retracts: "{r}"' for r in retracted)
    return wiki.commit_writes(writes, f"forget: {words[:60]}", body=body)


_PINNED_LINE = re.compile(r"^pinned:[^\n]*$", re.MULTILINE)


def pin(wiki: Wiki, path: str, on: bool = True) -> BatchResult:
    """Pin (or unpin) a note as the person: its `pinned:` line is set, the rest kept as it is,
    and this machine honours the pin from now on (`wikimem.wiki.pins`), also when the note was
    already pinned by a change that came from elsewhere."""
    from wikimem.lock import file_lock
    from wikimem.wiki import pins
    from wikimem.wiki.notemeta import split

    rel = resolve_path(wiki, path)
    current = wiki.read(rel)
    if current is None:
        raise WikimemError(f"no note at {rel}")
    block, _ = split(current)
    if block is None:
        raise WikimemError(f"{rel} has no front matter to pin it in; `wikimem edit {rel}`")
    line = f"pinned: {'true' if on else 'false'}"
    new_block = (
        _PINNED_LINE.sub(line, block, count=1)
        if _PINNED_LINE.search(block)
        else block + line + "\n"
    )
    start = current.find("\n") + 1
    text = current[:start] + new_block + current[start + len(block) :]
    write = MemoryWrite(rel, "update", text, "pin", (), content_hash(current))
    result = wiki.commit_writes([write], f"{'pin' if on else 'unpin'}: {rel}")
    if not result.blocked and not result.written:  # already so on disk: honour it here
        with file_lock(wiki.home.state("memory.lock")):
            pins.record(
                wiki.home.state_dir,
                {rel} if on else set(),
                set() if on else {rel},
                lines={rel: pins.keys_of(wiki.read(rel))} if on else None,
            )
        wiki.reindex([rel])
    return result


@dataclass(frozen=True)
class HeldLine:
    """A line of a note held from agents (`wikimem.wiki.holds`), as the person is shown it."""

    id: str  # what `wikimem confirm PATH --line ID` takes: of the line's text
    text: str  # the line without its held mark
    why: str
    source: str  # who brought it (`wikimem.wiki.origins.label`), or "you"


def held_lines(wiki: Wiki, path: str) -> tuple[str, list[HeldLine]]:
    """(the note's path, the lines of it held from agents now, in order)."""
    from wikimem.wiki import confirmations, holds, notemeta, origins

    rel = resolve_path(wiki, path)
    current = wiki.read(rel)
    if current is None:
        raise WikimemError(f"no note at {rel}")
    confirmed = confirmations.confirmed(wiki.home.state_dir)
    book = origins.Book(wiki.home.state_dir)
    out: list[HeldLine] = []
    for line in notemeta.split(current)[1].split("\n"):
        origin = book.origin(rel, line)
        if not line.strip() or not holds.held(line, origin, confirmed):
            continue
        source = "you" if origins.is_person(origin) else origins.label(origin)
        out.append(HeldLine(holds.line_id(line), _unmarked(line), holds.why(line, origin), source))
    return rel, out


def _unmarked(line: str) -> str:
    """A held line without the held mark a writer put on it."""
    from wikimem.wiki import confirmations

    at = line.find(confirmations.HELD_MARK)
    if at == -1:
        return line
    colon = line.find("): ", at)
    end = colon + 3 if colon != -1 else at + len(confirmations.HELD_MARK)
    return line[:at] + line[end:].lstrip()


def confirm(wiki: Wiki, path: str, ids: list[str]) -> tuple[BatchResult | None, list[str]]:
    """Confirm, as the person, the held lines of a note named by `ids` (each the id the person
    was shown beside the line's text by `held_lines`, `wikimem confirm PATH` or `doctor`):
    their held mark comes off (committed) and this machine gives those texts to agents from
    now on (`wikimem.wiki.confirmations`). A line added or changed since it was shown has
    another id and stays held. Returns the commit's result (None when no mark was there) and
    the lines confirmed."""
    from wikimem.lock import file_lock
    from wikimem.wiki import confirmations

    rel, waiting = held_lines(wiki, path)
    if not ids:
        raise WikimemError(f"name the lines to confirm: `wikimem confirm {rel} --line ID`")
    by_id = {h.id: h for h in waiting}
    unknown = [i for i in ids if i not in by_id]
    if unknown:
        listed = ", ".join(by_id) or "none"
        raise WikimemError(
            f"{rel} holds no line {unknown[0]} now (held lines: {listed}); "
            f"`wikimem confirm {rel}` lists them again"
        )
    chosen = [by_id[i] for i in dict.fromkeys(ids)]
    current = wiki.read(rel) or ""
    lines = current.split("\n")
    texts = {h.text.strip() for h in chosen}
    changed = False
    for i, line in enumerate(lines):
        if confirmations.HELD_MARK in line and _unmarked(line).strip() in texts:
            lines[i] = _unmarked(line)
            changed = True
    result = None
    if changed:
        write = MemoryWrite(rel, "update", "\n".join(lines), "confirm", (), content_hash(current))
        result = wiki.commit_writes([write], f"confirm: {rel}")
        if result.blocked:
            return result, []
    confirmed = [h.text for h in chosen]
    with file_lock(wiki.home.state("memory.lock")):
        confirmations.record(wiki.home.state_dir, confirmed)
    wiki.reindex([rel])
    return result, confirmed


def template_for(path: str) -> str:
    return render_note(new_note(path, title_for(path), "Write the note here.\n"))


def check_editable(wiki: Wiki, path: str) -> None:
    """Refuse, before any editor opens, a path no edit could ever be written to."""
    problem = wiki.gate.path_problem(path, hand_named=True)
    if problem:
        raise WikimemError(problem)


def edit_note(wiki: Wiki, path: str, new_text: str, base_hash: str) -> BatchResult:
    """Write an edited note if it is valid and the file still matches `base_hash`."""
    operation = "update" if base_hash else "create"
    write = MemoryWrite(path, operation, new_text, "edit", (), base_hash)
    return wiki.commit_writes([write], f"edit: {path}")


def check_edit(wiki: Wiki, path: str, new_text: str) -> str | None:
    """Why an edited text cannot be written (None when it can)."""
    current = wiki.read(path)
    write = MemoryWrite(path, "update" if current is not None else "create", new_text, "edit")
    result = wiki.gate.check(write)
    return None if result.status in ("ok", "unchanged") else result.reason
