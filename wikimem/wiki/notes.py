"""Notes (docs/architecture.md): markdown with YAML front matter, at validated paths inside memory/.

Contract:
  - `validate_path(p)` accepts lower-case kebab-case segments ending in `.md`, at most 4 deep,
    under `profile/`, `projects/<slug>/`, `tools/<tool>/` or `general/`; it refuses anything
    else (absolute paths, `..`, `.git`, `index.md`, a segment Windows cannot hold: `con.md`,
    `projects/aux/`, see `wikimem.wiki.portable`) with a reason. `hand_named=True` also accepts
    the names a person gives notes in Obsidian or an editor (`general/My Note.md`: spaces,
    capitals, other scripts), still inside the same folders; wikimem itself only ever creates
    kebab-case names.
  - `parse_note(path, text)` reads a note strictly (PyYAML's safe loader, libyaml's when built);
    `render_note(note)` writes it back. Keys a person added to the front matter are kept, in
    their order; the body is kept byte for byte. Our own keys are written in a fixed, regular
    form that `wikimem.wiki.notemeta` can read without PyYAML.
  - `[[wikilinks]]` are left as written; `resolve_wikilink` maps one to a note path.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from wikimem.errors import WikimemError
from wikimem.wiki import notemeta, portable
from wikimem.wiki.notemeta import TOP_FOLDERS

# libyaml's loader when PyYAML was built with it (several times faster), else the pure one:
# both refuse every tag but the standard ones.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

KINDS = ("profile", "project", "tool", "general", "session")
KIND_OF_FOLDER = {
    "profile": "profile",
    "projects": "project",
    "tools": "tool",
    "general": "general",
}
SCHEMA_KEYS = ("title", "kind", "tags", "created", "updated", "sources", "pinned")
MAX_DEPTH = 4
# File systems refuse names over 255 bytes; a segment this long is a mistake or an attack anyway.
MAX_SEGMENT_CHARS = 100
_SEGMENT = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_PLAIN_BLOCK = re.compile(r"[A-Za-z][A-Za-z0-9 _./()+,-]*[A-Za-z0-9_.)+]|[A-Za-z]")
_PLAIN_FLOW = re.compile(r"[A-Za-z_][A-Za-z0-9_.+/:-]*[A-Za-z0-9_+]|[A-Za-z]")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "nan", "inf"}
_WIKILINK = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]")


class NoteError(WikimemError, ValueError):
    """A note or a note path breaks the schema; the message says how."""


@dataclass(frozen=True)
class Note:
    path: str
    title: str
    kind: str
    body: str
    tags: tuple[str, ...] = ()
    created: str = ""
    updated: str = ""
    sources: tuple[str, ...] = ()
    pinned: bool = False
    # Front-matter keys outside the schema, as (key, their YAML text exactly as written), so a
    # person's keys, comments and formatting survive every rewrite of the note.
    extra: tuple[tuple[str, str], ...] = field(default=())

    def with_changes(self, **changes: Any) -> Note:
        return replace(self, **changes)

    def extra_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for _, raw in self.extra:
            loaded = yaml.safe_load(raw)
            if isinstance(loaded, dict):
                values.update({str(k): v for k, v in loaded.items()})
        return values


# Characters a hand-made note name may not hold: path separators, control characters, and what
# Obsidian refuses in file names or reads as link syntax.
_NOT_IN_NAMES = frozenset('\\/:*?"<>|[]#^') | {chr(c) for c in range(32)} | {"\x7f"}


def _hand_named_problem(path: str, seg: str) -> str | None:
    if seg != seg.strip():
        return f"{path!r}: segment {seg!r} starts or ends with a space"
    bad = sorted({c for c in seg if c in _NOT_IN_NAMES})
    if bad:
        return f"{path!r}: segment {seg!r} holds {''.join(bad)!r}, which note names may not"
    return None


def validate_path(path: str, *, hand_named: bool = False) -> str:
    """The canonical relative path, or NoteError saying what is wrong with it."""
    if not isinstance(path, str) or not path.strip():
        raise NoteError("empty note path")
    if "\\" in path or "\0" in path:
        raise NoteError(f"{path!r}: backslashes and NUL are not allowed in note paths")
    if path.startswith("/") or path.startswith("~"):
        raise NoteError(f"{path!r}: note paths are relative to memory/, not absolute")
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise NoteError(f"{path!r}: empty, '.' or '..' segments are not allowed")
    if any(p.startswith(".") for p in parts):
        raise NoteError(f"{path!r}: hidden files and folders (.git, .obsidian) are off limits")
    if path == "index.md":
        raise NoteError("index.md is generated; it cannot be written directly")
    if not parts[-1].endswith(".md"):
        raise NoteError(f"{path!r}: a note's file name must end in .md")
    if len(parts) > MAX_DEPTH:
        raise NoteError(f"{path!r}: notes are at most {MAX_DEPTH} path segments deep")
    for part in parts:
        problem = portable.problem(part)
        if problem:
            raise NoteError(f"{path!r}: {problem}")
    stems = [*parts[:-1], parts[-1][:-3]]
    for seg in stems:
        if len(seg) > MAX_SEGMENT_CHARS:
            raise NoteError(
                f"{path[:120]!r}…: a segment of {len(seg)} characters is over the limit of "
                f"{MAX_SEGMENT_CHARS}"
            )
        if _SEGMENT.fullmatch(seg):
            continue
        if not hand_named or not seg:
            raise NoteError(f"{path!r}: segment {seg!r} is not lower-case kebab-case")
        problem = _hand_named_problem(path, seg)
        if problem:
            raise NoteError(problem)
    top = parts[0]
    if top not in TOP_FOLDERS or len(parts) < 2:
        raise NoteError(f"{path!r}: notes live under {', '.join(t + '/' for t in TOP_FOLDERS)}")
    if top in ("projects", "tools") and len(parts) < 3:
        raise NoteError(
            f"{path!r}: {top}/ notes go in a folder per {top[:-1]}: {top}/<name>/<note>.md"
        )
    return path


def kebab(text: str, max_len: int = 60) -> str:
    """A path segment from free text."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if len(slug) > max_len:
        slug = slug[:max_len].rsplit("-", 1)[0] or slug[:max_len]
    return portable.avoid(slug.strip("-") or "note", "note")


def project_of(path: str) -> str | None:
    parts = path.split("/")
    return parts[1] if parts[0] == "projects" and len(parts) >= 3 else None


def default_kind(path: str) -> str:
    parts = path.split("/")
    if parts[0] == "projects" and len(parts) >= 4 and parts[2] == "sessions":
        return "session"
    return KIND_OF_FOLDER.get(parts[0], "general")


def _date_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
        return str(value.strftime("%Y-%m-%dT%H:%M:%SZ"))
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def parse_note(path: str, text: str) -> Note:
    """A note from its file text; NoteError when the front matter is missing or malformed."""
    block, body = notemeta.split(text)
    if block is None:
        raise NoteError(f"{path}: no front matter (a note starts with a --- block)")
    try:
        meta: object = yaml.load(block, Loader=_SAFE_LOADER) if block.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        raise NoteError(f"{path}: front matter is not valid YAML{where}") from None
    if not isinstance(meta, dict):
        raise NoteError(f"{path}: front matter must be a mapping of keys to values")
    title = meta.get("title")
    if not isinstance(title, str) or not title.strip():
        raise NoteError(f"{path}: front matter needs a non-empty `title`")
    kind = meta.get("kind", default_kind(path))
    if kind not in KINDS:
        raise NoteError(f"{path}: kind {kind!r} is not one of {', '.join(KINDS)}")
    pinned = meta.get("pinned", False)
    if not isinstance(pinned, bool):
        raise NoteError(f"{path}: `pinned` must be true or false")
    extra = tuple((k, raw) for k, raw in _top_level_segments(block) if k not in SCHEMA_KEYS)
    return Note(
        path=path,
        title=title.strip(),
        kind=str(kind),
        body=body,
        tags=tuple(notemeta.as_list(meta.get("tags"))),
        created=_date_text(meta.get("created")),
        updated=_date_text(meta.get("updated")),
        sources=tuple(notemeta.as_list(meta.get("sources"))),
        pinned=pinned,
        extra=extra,
    )


def _top_level_segments(block: str) -> list[tuple[str, str]]:
    """(key, text) per top-level key of a YAML block; comments go with the key that follows."""
    segments: list[tuple[str, str]] = []
    pending: list[str] = []
    for line in block.splitlines():
        top = line[:1] not in (" ", "\t", "") and not line.startswith(("#", "- "))
        if top and ":" in line:
            key = line.split(":", 1)[0].strip().strip("\"'")
            segments.append((key, "\n".join([*pending, line])))
            pending = []
        elif segments and not pending and (line[:1] in (" ", "\t") or line.startswith("- ")):
            key, text = segments[-1]
            segments[-1] = (key, f"{text}\n{line}")
        elif line.strip():
            pending.append(line)
    return segments


# Outside YAML's printable set, or a line break to YAML (NEL, LS, PS): escaped, never raw.
_NOT_YAML_PRINTABLE = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def _quoted(value: str) -> str:
    """A YAML double-quoted scalar: JSON's escapes, plus \\uXXXX for what YAML may not hold raw."""
    dumped = json.dumps(value, ensure_ascii=False)
    return _NOT_YAML_PRINTABLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", dumped)


def _block_scalar(value: str) -> str:
    if _PLAIN_BLOCK.fullmatch(value) and value.lower() not in _YAML_WORDS and ": " not in value:
        return value
    return _quoted(value)


def _flow_item(value: str) -> str:
    if _PLAIN_FLOW.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return value
    return _quoted(value)


def _flow_list(values: tuple[str, ...]) -> str:
    return "[" + ", ".join(_flow_item(v) for v in values) + "]"


def render_note(note: Note) -> str:
    lines = [
        "---",
        f"title: {_block_scalar(note.title.strip())}",
        f"kind: {note.kind}",
        f"tags: {_flow_list(note.tags)}",
    ]
    if note.created:
        lines.append(
            f"created: {_block_scalar(note.created) if not _is_date(note.created) else note.created}"
        )
    if note.updated:
        lines.append(
            f"updated: {_block_scalar(note.updated) if not _is_date(note.updated) else note.updated}"
        )
    lines.append(f"sources: {_flow_list(note.sources)}")
    lines.append(f"pinned: {'true' if note.pinned else 'false'}")
    lines.extend(raw for _, raw in note.extra)
    lines.append("---")
    body = note.body
    if body and not body.endswith("\n"):
        body += "\n"
    return "\n".join(lines) + "\n" + body


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)?")


def _is_date(value: str) -> bool:
    return _DATE.fullmatch(value) is not None


def now_utc() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def today() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")


def first_sentence(body: str, max_chars: int = 160) -> str:
    """The body's first sentence of prose (headings, front matter and list markers skipped)."""
    for raw in body.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "---", "|", "```", "<!--")):
            continue
        line = re.sub(r"^([-*+]|\d+\.)\s+", "", line)
        line = re.sub(r"\[\[([^\]|]+)\|([^\]]+)\]\]", r"\2", line)
        line = re.sub(r"\[\[([^\]]+)\]\]", r"\1", line)
        line = re.sub(r"[*_`]", "", line).strip()
        if not line:
            continue
        m = re.match(r"(.+?[.!?])(\s|$)", line)
        sentence = m.group(1) if m else line
        if len(sentence) > max_chars:
            sentence = sentence[: max_chars - 1].rsplit(" ", 1)[0] + "…"
        return sentence
    return ""


def wikilinks(body: str) -> list[str]:
    return [m.group(1).strip() for m in _WIKILINK.finditer(body)]


def resolve_wikilink(link: str, existing: set[str]) -> str | None:
    """The note path a `[[link]]` names: exact path, path + .md, or a unique file name."""
    target = link.strip().strip("/")
    for candidate in (target, f"{target}.md"):
        if candidate in existing:
            return candidate
    name = target.rsplit("/", 1)[-1]
    name = name if name.endswith(".md") else f"{name}.md"
    matches = [p for p in existing if p.rsplit("/", 1)[-1] == name]
    return matches[0] if len(matches) == 1 else None


def new_note(
    path: str,
    title: str,
    body: str,
    *,
    kind: str | None = None,
    tags: tuple[str, ...] = (),
    sources: tuple[str, ...] = (),
    pinned: bool = False,
) -> Note:
    stamp = now_utc()
    return Note(
        path=path,
        title=title,
        kind=kind or default_kind(path),
        body=body,
        tags=tags,
        created=stamp[:10],
        updated=stamp,
        sources=sources,
        pinned=pinned,
    )
