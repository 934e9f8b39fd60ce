"""Claude Code's auto memory, brought into the wiki (`wikimem import claude-auto-memory`).

The source (Claude Code 2.1): per project, `<config dir>/projects/<encoded cwd>/memory/` holds
`MEMORY.md`, an index loaded at every session start (one line per memory, pointing to a topic
file), and topic files, one memory each, with front matter `name`, `description` and
`type: user | feedback | project | reference`. The config dir is `$CLAUDE_CONFIG_DIR`, else
`~/.claude`. The project folder's name is the session's working directory with every character
outside `[A-Za-z0-9]` replaced by `-` (cut at 200 characters, plus a hash, when longer): it
cannot be decoded by itself, so the working directory is read from the project's session
transcripts (`*.jsonl`, each record carries `cwd`), else found by walking the file system.

Mapping: the project is the one wikimem's hooks give sessions in that directory (the git
remote's slug); `user` memories (who the person is) go to `profile/claude-<topic>.md`, every
other type to `projects/<slug>/claude-<topic>.md` (Claude kept them per project, so they stay
per project); the description leads the body unless the body already says it (most of its words
are there: it would be given to agents twice), links between topic files become `[[wikilinks]]`.
`MEMORY.md` is an index and is not copied; lines of it that point to no topic file, and links
in it to a topic file that does not exist, are reported.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator

from wikimem.capture.project import project_slug, slugify
from wikimem.importers.mirror import ImportedNote, Scan
from wikimem.wiki import notemeta, plainfile
from wikimem.wiki.links import wikilink
from wikimem.wiki.notes import kebab

NAME = "claude-auto-memory"
INDEX = "memory.md"  # MEMORY.md, compared case-insensitively
MAX_ENCODED = 200
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")
_MD_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+\.md)\)")
_WIKILINK = re.compile(r"\[\[([^\]|#]+)")
TYPES = ("user", "feedback", "project", "reference")


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}


def _says(body: str, description: str) -> bool:
    """Whether `body` already says what `description` sums up: most of its words are there. A
    description is Claude's one-line summary of the memory (for MEMORY.md): put above a body
    that says the same, it is given to every agent twice."""
    wanted = _words(description)
    if not wanted:
        return True
    return len(wanted & _words(body)) >= 0.6 * len(wanted)


def config_dir() -> str:
    return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")


def encode(path: str) -> str:
    """Claude Code's name for the folder of a working directory."""
    return _NOT_ALNUM.sub("-", path)


def _same_folder(encoded: str, name: str) -> bool:
    if len(encoded) <= MAX_ENCODED:
        return encoded == name
    return name.startswith(encoded[:MAX_ENCODED] + "-")  # the hash suffix is Claude's own


def memory_dirs(given: str | None = None) -> list[str]:
    """The memory folders under `given`: a memory folder itself, one project's folder, a
    `projects/` folder, or a Claude config dir (default: the user's)."""
    root = os.path.abspath(os.path.expanduser(given or config_dir()))
    if not os.path.isdir(root):
        return []
    if os.path.basename(root) == "memory" or (
        given and any(n.lower().endswith(".md") for n in os.listdir(root))
    ):
        return [root]
    if _real_dir(os.path.join(root, "memory")):
        return [os.path.join(root, "memory")]
    base = os.path.join(root, "projects") if _real_dir(os.path.join(root, "projects")) else root
    out = []
    for name in sorted(os.listdir(base)):
        # A linked project or memory folder is not followed: it would import (and commit, and
        # push) whatever folder it points to.
        if _real_dir(os.path.join(base, name)) and _real_dir(os.path.join(base, name, "memory")):
            out.append(os.path.join(base, name, "memory"))
    return out


def _real_dir(path: str) -> bool:
    return os.path.isdir(path) and not os.path.islink(path)


def _cwd_from_transcripts(project_dir: str, name: str) -> str | None:
    try:
        transcripts = sorted(
            (e for e in os.scandir(project_dir) if e.name.endswith(".jsonl") and e.is_file()),
            key=lambda e: -e.stat().st_mtime,
        )
    except OSError:
        return None
    for entry in transcripts[:20]:
        try:
            with open(entry.path, encoding="utf-8", errors="replace") as fh:
                for _, line in zip(range(200), fh, strict=False):
                    try:
                        cwd = json.loads(line).get("cwd")
                    except (ValueError, AttributeError):
                        continue
                    if isinstance(cwd, str) and _same_folder(encode(cwd), name):
                        return cwd
        except OSError:
            continue
    return None


def _cwd_by_walking(name: str, max_depth: int = 32) -> str | None:
    """The existing directory whose encoding is `name`, found level by level from `/`."""

    def walk(path: str, rest: str, depth: int) -> str | None:
        if not rest:
            return path
        if depth > max_depth:
            return None
        try:
            entries = sorted(e.name for e in os.scandir(path) if e.is_dir(follow_symlinks=False))
        except OSError:
            return None
        for entry in entries[:5000]:
            piece = "-" + encode(entry)
            if rest.startswith(piece):
                found = walk(os.path.join(path, entry), rest[len(piece) :], depth + 1)
                if found:
                    return found
        return None

    return walk("/", name, 0) if name.startswith("-") and len(name) <= MAX_ENCODED else None


def project_of(project_dir: str) -> tuple[str, str | None]:
    """(project slug, working directory or None) of a Claude project folder."""
    name = os.path.basename(project_dir)
    cwd = _cwd_from_transcripts(project_dir, name) or _cwd_by_walking(name)
    if cwd:
        return project_slug(cwd), cwd
    home = encode(os.path.expanduser("~"))
    rest = name[len(home) :] if name.startswith(home) else name
    return slugify(rest) or "unknown", None


def _pointers(index_text: str) -> tuple[set[str], list[str]]:
    """(topic files MEMORY.md points to, its other non-blank lines that are not headings)."""
    targets: set[str] = set()
    loose: list[str] = []
    for line in index_text.splitlines():
        links = [m.group(2) for m in _MD_LINK.finditer(line)]
        links += [f"{m.group(1).strip()}.md" for m in _WIKILINK.finditer(line)]
        if links:
            targets.update(os.path.basename(t) for t in links)
        elif line.strip() and not line.lstrip().startswith(("#", "<!--", "---")):
            loose.append(line.strip())
    return targets, loose


def _topic_files(memory_dir: str) -> Iterator[str]:
    try:
        names = sorted(os.listdir(memory_dir))
    except OSError:
        return
    for name in names:
        topic = name.lower().endswith(".md") and name.lower() != INDEX
        if topic and not name.startswith(".") and plainfile.is_plain(memory_dir, name):
            yield name  # a linked topic file is not a memory: its target could be anything


def _note_path(kind_type: str, slug: str, stem: str) -> str:
    topic = kebab(stem, max_len=50)
    if kind_type == "user":
        return f"profile/claude-{topic}.md"
    return f"projects/{slug}/claude-{topic}.md"


def scan(given: str | None = None) -> Scan:
    notes: list[ImportedNote] = []
    scopes: list[str] = []
    warnings: list[str] = []
    for memory_dir in memory_dirs(given):
        project_dir = os.path.dirname(memory_dir)
        scope = os.path.basename(project_dir)
        scopes.append(scope)
        slug, cwd = project_of(project_dir)
        if cwd is None:
            warnings.append(
                f"{project_dir}: no session transcript or folder tells its working directory; "
                f"its memories are filed under projects/{slug}/"
            )
        index_path = os.path.join(memory_dir, "MEMORY.md")
        index_text = plainfile.read_text(memory_dir, "MEMORY.md")
        if index_text is not None:
            targets, loose = _pointers(index_text)
            if loose:
                warnings.append(
                    f"{index_path}: {len(loose)} line(s) point to no topic file and were not "
                    "imported (MEMORY.md is an index)"
                )
            missing = sorted(t for t in targets if not os.path.lexists(os.path.join(memory_dir, t)))
            if missing:
                shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
                warnings.append(
                    f"{index_path}: links to {len(missing)} topic file(s) that do not exist "
                    f"({shown}); what those lines say was not imported"
                )
        topics = list(_topic_files(memory_dir))
        parsed = []
        for name in topics:
            full = os.path.join(memory_dir, name)
            try:
                data = plainfile.read_existing(memory_dir, name)
                if data is None:
                    raise FileNotFoundError(full)
                text = data.decode("utf-8")
                mtime = os.lstat(full).st_mtime
            except (OSError, UnicodeDecodeError) as exc:
                warnings.append(f"{full}: not imported ({exc.__class__.__name__})")
                continue
            meta, body = notemeta.read_meta(text)
            kind_type = str(meta.get("type") or "").strip().lower()
            parsed.append((name, meta, body, kind_type, mtime))
        paths = {name: _note_path(t, slug, name[:-3]) for name, _, _, t, _ in parsed}
        for name, meta, body, kind_type, mtime in parsed:
            notes.append(_note(scope, slug, name, meta, body, kind_type, mtime, paths))
    return Scan(tuple(notes), tuple(scopes), tuple(warnings))


def _note(
    scope: str,
    slug: str,
    name: str,
    meta: dict[str, object],
    body: str,
    kind_type: str,
    mtime: float,
    paths: dict[str, str],
) -> ImportedNote:
    path = paths[name]
    title = str(meta.get("name") or name[:-3].replace("_", " ").replace("-", " ")).strip()
    if not path.startswith("profile/"):
        title = f"{title} ({slug})"

    def relink(m: re.Match[str]) -> str:
        target = paths.get(os.path.basename(m.group(2)))
        return wikilink(target, m.group(1)) if target else m.group(0)

    text = _MD_LINK.sub(relink, body).strip()
    description = str(meta.get("description") or "").strip()
    if description and not _says(text, description):
        text = f"{description}\n\n{text}" if text else description
    tags = ("claude-auto-memory", kind_type) if kind_type in TYPES else ("claude-auto-memory",)
    return ImportedNote(
        source_id=f"{NAME}:{scope}/{name}",
        scope=scope,
        path=path,
        title=title,
        kind="profile" if path.startswith("profile/") else "project",
        body=text + "\n",
        tags=tags,
        mtime=mtime,
    )
