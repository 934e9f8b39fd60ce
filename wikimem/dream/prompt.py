"""The bounded prompt a model backend is given (docs/dream-backends.md).

Contract: `build_prompt` returns a system prompt (the rules: claims, not transcripts; one current
claim per subject; scope; what may be changed and how) and a user message holding ONE chunk of
rendered events, the notes the model may change, and the catalogue of paths and titles (clipped
at `index_chars`). Notes are shown WHOLE, the chunk's project's own first, then the profile, then
search hits, while they fit in `notes_chars`; a note that does not fit is shown clipped and named
in `Prompt.clipped`, and the model is told to change it only with `claim`/`retract`, which never
lose what it was not shown (the runner refuses an `upsert` that would replace it). Its size
depends on the chunk and those caps, never on how many notes the wiki holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wikimem.capture.redact import redact
from wikimem.dream.base import Prompt, ReadNote, SessionEvents
from wikimem.dream.render import render_session

CLIPPED_NOTE = 1500  # what is shown of a note too long to show whole

SYSTEM_PROMPT = """\
You maintain a developer's memory wiki, distilled from what their coding agents (Claude Code,
Codex, Cursor, Gemini CLI) did in recent sessions. It is markdown in git; the developer reads and
edits it, and it is injected into future agent sessions, so every line must be worth reading
there, today.

Return your changes ONLY by calling the `apply_operations` tool once, with a list of operations.
An empty list is a good answer when nothing durable was learned.

Living notes hold CLAIMS, one per line. A claim is ONE standalone statement that will still make
sense in a month, read by someone who never saw the session:
- absolute dates only ("on 2026-11-30", never "yesterday", "on Monday", "last week"): resolve them
  from the event timestamps;
- no requests, questions, filler or narration ("please fix the dashboards", "I'm seeing an error",
  "the agent ran the tests" are not claims);
- name the thing fully ("The metrics collector runs on port 9300", not "It moved to 9300");
- worth keeping: preferences and corrections the user stated, project conventions, facts about the
  environment (hosts, ports, versions, owners, schedules, release and deploy procedures),
  commands that work, pitfalls with their fix (a failing command, then what made it pass, and
  why), decisions with their reasons, things the user asked to remember. Never secrets.

Operations:
- claim {path, subject, text, sources, title?}: add ONE claim to a living note (created if
  missing; give `title` then). wikimem adds who said it and when, and REPLACES the note's current
  claim on the same subject; prefer claim over upsert for every new or changed statement.
- retract {path, text}: remove the claim `text` names (the user said it is no longer true, or
  asked to forget it).
- upsert {path, title, kind, tags, body, sources}: write a note's WHOLE body. Only for a new note,
  or a note shown to you whole below; the body replaces everything, so carry over every claim
  still true. Never two current claims on one subject in a body.
- delete {path, reason}: remove a note that is stale, wrong or fully merged elsewhere.
- move {from, to}: rename a note whose path no longer fits what it holds.
- about {session, turn, about, when}: what ONE user turn (`user (turn N)` below) is about, so
  it is found again later: up to 8 people, places, things or projects it names or means, each
  in full ("the LGBTQ support group", not "the group"; a name, not "she"), and up to 4 absolute
  dates it speaks of, resolved from the session's date (YYYY-MM-DD, YYYY-MM or YYYY). `session`
  is the id in the session's header. wikimem writes it into that turn of the session's digest;
  give it for the turns worth finding again, not for chatter.

Where claims go (scope):
- profile/<topic>.md (kind profile): the PERSON: who they are, how they like to work with agents,
  habits they say hold in every project.
- projects/<project>/<topic>.md (kind project): anything about THIS project: its code, files,
  conventions, commands, hosts, services, people and procedures. In a project's session, a
  statement about the work belongs to the project even when it does not say "here". Use
  conventions.md (what to do), facts.md (what is), commands.md, pitfalls.md, decisions.md.
- general/<topic>.md, tools/<tool>/<topic>.md: knowledge that holds everywhere.
Write only in this chunk's project, profile/, general/ and tools/. Never under
projects/<project>/sessions/: session digests are written for you.

Rules:
1. One current claim per subject. A newer statement on a subject replaces the older one; a
   changed value may keep its history in the claim ("… port 9300 (was 9102 until 2026-11-30)").
2. Notes marked `conflict: true` hold two versions from two machines: reconcile them with one
   upsert that keeps one current claim per subject (the newer one wins) and drops the flag.
3. Paths are lower-case kebab-case, .md, at most 4 segments. Prefer an existing note (see the
   catalogue) over a near-duplicate. Link related notes with [[path/without-extension]].
4. sources lists the sessions supporting a change, as client:session-prefix (given in headers).
"""


REVISIT_NOTE = """
## These events were already consolidated without a model
On {day} the model was unavailable, so wikimem's offline rules consolidated the events below:
the notes shown hold what those rules found, and the session digests are written. Add only
what the rules missed (claims, pitfalls, decisions with their reasons), correct what they got
wrong, and do not restate a claim already in a note. These events are older than the notes: a
claim in a note dated after them is newer, so never replace it with what these events said.
"""


@dataclass(frozen=True)
class CatalogEntry:
    path: str
    title: str


Search = Callable[[str, str, int], list[str]]  # (query text, project, limit) -> note paths


def related_paths(
    project: str, catalog: Sequence[CatalogEntry], text: str, limit: int, search: Search | None
) -> list[str]:
    """The notes a chunk may change, most important first: notes flagged as conflicts, the
    project's own living notes, the profile, then search hits; at most `limit`."""
    chosen: list[str] = []

    def add(path: str) -> None:
        if path not in chosen and len(chosen) < limit and "/sessions/" not in path:
            chosen.append(path)

    prefix = f"projects/{project}/"
    for e in catalog:
        if e.path.startswith(prefix):
            add(e.path)
    for e in catalog:
        if e.path.startswith("profile/"):
            add(e.path)
    if search is not None and len(chosen) < limit:
        for path in search(text, project, limit):
            add(path)
    return chosen


def catalog_text(project: str, catalog: Sequence[CatalogEntry], max_chars: int) -> str:
    """`path — title` lines, this project's and shared notes first, clipped at max_chars."""
    prefix = f"projects/{project}/"
    visible = [
        e for e in catalog if not e.path.startswith("projects/") or e.path.startswith(prefix)
    ]
    ordered = sorted(
        visible, key=lambda e: (not e.path.startswith(prefix), "/sessions/" in e.path, e.path)
    )
    lines: list[str] = []
    used = 0
    for e in ordered:
        line = f"- {e.path} — {e.title}"
        if used + len(line) + 1 > max_chars:
            lines.append(f"- … and {len(ordered) - len(lines)} more notes not listed")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines) if lines else "(the wiki is empty)"


def render_chunk(sessions: Sequence[SessionEvents]) -> str:
    return "\n".join(line for s in sessions for line in render_session(s))


def build_prompt(
    project: str,
    sessions: Sequence[SessionEvents],
    today: str,
    read: ReadNote,
    catalog: Sequence[CatalogEntry],
    *,
    related_notes: int,
    index_chars: int,
    notes_chars: int = 24000,
    search: Search | None = None,
    rendered: str | None = None,
    conflicts: Sequence[str] = (),
    revisit: str = "",
) -> Prompt:
    events_text = rendered if rendered is not None else render_chunk(sessions)
    candidates = related_paths(project, catalog, events_text, related_notes, search)
    related = list(dict.fromkeys([*conflicts, *candidates]))
    parts = [f"Project: {project}\nToday: {today}\n"]
    if revisit:
        parts.append(REVISIT_NOTE.format(day=revisit))
    parts += [
        "## Catalogue of existing notes (path — title)\n",
        catalog_text(project, catalog, index_chars),
        "\n\n## Notes you may change (shown whole unless marked clipped)\n",
    ]
    shown: list[str] = []
    clipped: list[str] = []
    room = notes_chars
    for path in related:
        text = read(path)
        if text is None:
            continue
        # a note may have arrived without passing the gate (a teammate's commit): a model is
        # never shown a secret the gate would have kept out (`wikimem.wiki.vetting`)
        text = redact(text)[0]
        if len(text) <= room:
            parts.append(f"\n### {path}\n```markdown\n{text.rstrip()}\n```\n")
            room -= len(text)
        elif room >= CLIPPED_NOTE:
            head = text[:CLIPPED_NOTE].rsplit("\n", 1)[0]
            parts.append(
                f"\n### {path} (CLIPPED: {len(text) - len(head)} more characters not shown; "
                "change it only with claim/retract)\n```markdown\n"
                f"{head.rstrip()}\n[…]\n```\n"
            )
            room -= len(head)
            clipped.append(path)
        else:
            clipped.append(path)
            continue
        shown.append(path)
    if not shown:
        parts.append("(none yet)\n")
    parts.append("\n## New events since the last consolidation\n")
    parts.append(events_text or "(no meaningful events)")
    parts.append(
        "\n\nUpdate the wiki with what these events teach, following the rules. "
        "Call apply_operations exactly once."
    )
    return Prompt(
        system=SYSTEM_PROMPT,
        user="".join(parts),
        shown=frozenset(p for p in shown if p not in clipped),
        clipped=frozenset(clipped),
    )
