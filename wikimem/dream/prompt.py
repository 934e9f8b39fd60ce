"""The bounded prompt a model backend is given (DESIGN §7).

Contract: `build_prompt` returns a system prompt (the rules: merge, don't append; rewrite what new
evidence contradicts; semantic paths; front matter; return operations through the tool) and a user
message holding ONE chunk of rendered events, the notes relevant to them (profile, the project's
notes, search hits: at most `related_notes`, each clipped) and the catalogue of paths and titles
(clipped at `index_chars`). Its size depends on the chunk and those caps, never on how many notes
the wiki holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wikimem.dream.base import Prompt, ReadNote, SessionEvents
from wikimem.dream.render import render_session

NOTE_CLIP = 3000

SYSTEM_PROMPT = """\
You maintain a personal knowledge wiki for a software developer, distilled from what their coding
agents (Claude Code, Codex, Cursor) did in recent sessions. The wiki is markdown in git; the
developer reads and edits it, and it is injected into future agent sessions.

Return your changes ONLY by calling the `apply_operations` tool once, with a list of operations:
- upsert {path, title, kind, tags, body, sources}: create a note or REPLACE an existing note's body.
- delete {path, reason}: remove a note that is stale, wrong or fully merged elsewhere.
- move {from, to}: rename a note whose path no longer fits what it holds.

Rules:
1. Merge, don't append. A path is a living document. When you upsert an existing note, the body
   you send replaces the old one: carry over everything still true, fold the new evidence in.
2. New evidence that contradicts a note is a correction: rewrite the statement (e.g. "Use pnpm,
   never npm (stated 2026-11-29, replacing an earlier preference for npm)"); never keep both.
3. Keep only what will matter in a future session: preferences and corrections the user stated,
   project conventions, commands that work (and how), decisions and their reasons, pitfalls with
   their fixes, facts the user asked to remember. Not play-by-play, not guesses, no secrets
   (tokens, keys, passwords: leave them out entirely).
4. Paths are semantic, lower-case kebab-case, .md, at most 4 segments:
   profile/<topic>.md (who the user is, how they work: kind profile),
   projects/<project>/<topic>.md (overview, conventions, commands, decisions, pitfalls: kind project),
   projects/<project>/sessions/YYYY-MM-DD-<first 8 chars of session id>.md (one digest per session: kind session),
   tools/<tool>/<topic>.md (kind tool), general/<topic>.md (kind general).
   Prefer updating an existing note over creating a near-duplicate; consult the catalogue.
5. body is markdown without front matter. Link notes with [[path/without-extension]].
6. sources lists the sessions supporting the change, as client:session-prefix (given in headers).
7. If nothing durable was learned, call the tool with an empty list.
"""


@dataclass(frozen=True)
class CatalogEntry:
    path: str
    title: str


Search = Callable[[str, str, int], list[str]]  # (query text, project, limit) -> note paths


def _clip_note(text: str) -> str:
    if len(text) <= NOTE_CLIP:
        return text
    return text[: NOTE_CLIP - 40].rstrip() + "\n[… note clipped for this prompt …]\n"


def related_paths(
    project: str, catalog: Sequence[CatalogEntry], text: str, limit: int, search: Search | None
) -> list[str]:
    """Profile notes, the project's standing notes, then search hits; at most `limit`."""
    chosen: list[str] = []

    def add(path: str) -> None:
        if path not in chosen and len(chosen) < limit:
            chosen.append(path)

    for e in catalog:
        if e.path.startswith("profile/"):
            add(e.path)
    prefix = f"projects/{project}/"
    for e in catalog:
        if e.path.startswith(prefix) and "/sessions/" not in e.path:
            add(e.path)
    if search is not None and len(chosen) < limit:
        for path in search(text, project, limit):
            add(path)
    return chosen


def catalog_text(project: str, catalog: Sequence[CatalogEntry], max_chars: int) -> str:
    """`path — title` lines, this project's and general notes first, clipped at max_chars."""
    prefix = f"projects/{project}/"
    ordered = sorted(
        catalog, key=lambda e: (not e.path.startswith(prefix), "/sessions/" in e.path, e.path)
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
    search: Search | None = None,
    rendered: str | None = None,
) -> Prompt:
    events_text = rendered if rendered is not None else render_chunk(sessions)
    related = related_paths(project, catalog, events_text, related_notes, search)
    parts = [
        f"Project: {project}\nToday: {today}\n",
        "## Catalogue of existing notes (path — title)\n",
        catalog_text(project, catalog, index_chars),
        "\n\n## Notes relevant to these events\n",
    ]
    shown = 0
    for path in related:
        text = read(path)
        if text is None:
            continue
        parts.append(f"\n### {path}\n```markdown\n{_clip_note(text).rstrip()}\n```\n")
        shown += 1
    if not shown:
        parts.append("(none yet)\n")
    parts.append("\n## New events since the last consolidation\n")
    parts.append(events_text or "(no meaningful events)")
    parts.append(
        "\n\nUpdate the wiki with what these events teach, following the rules. "
        "Call apply_operations exactly once."
    )
    return Prompt(system=SYSTEM_PROMPT, user="".join(parts))
