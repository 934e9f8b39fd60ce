"""Reading a note's front matter with the standard library alone.

The hook path (injection) and the search index read notes on every session start, where PyYAML
may not be imported. wikimem writes front matter in a small, regular subset of YAML (plain or
JSON-quoted scalars, flow lists), and this reader understands that subset plus the common forms a
person types by hand (single quotes, block lists, comments). Anything else is skipped, never
fatal; `wikimem.wiki.notes` is the strict reader used when writing.
"""

from __future__ import annotations

from wikimem.capture import fastjson

# The block a dream writes for Obsidian's graph (wikilinks to other notes): navigation, which
# neither the index nor injection treats as text.
LINKS_OPEN, LINKS_CLOSE = "<!-- wikimem:links -->", "<!-- /wikimem:links -->"
# The folders notes live in (`wikimem.wiki.notes` validates paths against them): here, so the
# hook path's readers know them without importing PyYAML.
TOP_FOLDERS = ("profile", "projects", "tools", "general")
# The line beneath a claim that keeps the earlier value it may or may not replace
# (`wikimem.dream.claims.fold`): here, so recall and `status` find it without the claim rules.
CONTESTED = "  - contested, earlier: "
# The line a model dream adds to a turn of a session digest: what the turn is about, and the
# dates it speaks of (`wikimem.dream.ops.About`). The search index reads it as a field of its
# own, to find the turn by; injection leaves it out (the turn's own words are what is given).
ABOUT_LINE = "  **About:** "
# The front-matter key sync sets on a note it merged with conflict markers (`wikimem.sync.merge`).
CONFLICT_KEY = "conflict"


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def split(text: str) -> tuple[str | None, str]:
    """(front matter block or None, body). The body keeps its bytes exactly."""
    if not text.startswith("---"):
        return None, text
    first_nl = text.find("\n")
    if first_nl == -1 or text[:first_nl].strip() != "---":
        return None, text
    pos = first_nl + 1
    while True:
        nl = text.find("\n", pos)
        line = text[pos:] if nl == -1 else text[pos:nl]
        if line.rstrip() in ("---", "..."):
            body = "" if nl == -1 else text[nl + 1 :]
            return text[first_nl + 1 : pos], body
        if nl == -1:
            return None, text
        pos = nl + 1


def scalar(raw: str) -> Any:
    raw = raw.strip()
    if not raw:
        return None
    if raw.startswith('"'):
        end = _closing_quote(raw)
        try:
            return fastjson.loads(raw[: end + 1])
        except ValueError:
            return raw.strip('"')
    if raw.startswith("'"):
        end = 1
        out = []
        while end < len(raw):
            ch = raw[end]
            if ch == "'":
                if raw[end + 1 : end + 2] == "'":
                    out.append("'")
                    end += 2
                    continue
                break
            out.append(ch)
            end += 1
        return "".join(out)
    if raw.startswith("["):
        return flow_list(raw)
    if " #" in raw:
        raw = raw.split(" #", 1)[0].rstrip()
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "~"):
        return None
    if raw.isascii() and raw.lstrip("-").isdigit():  # "²".isdigit() is true, int("²") fails
        return int(raw)
    return raw


def _closing_quote(raw: str) -> int:
    i = 1
    while i < len(raw):
        if raw[i] == "\\":
            i += 2
            continue
        if raw[i] == '"':
            return i
        i += 1
    return len(raw) - 1


def flow_list(raw: str) -> list[Any]:
    inner = raw.strip()
    if inner.startswith("["):
        inner = inner[1:]
    close = inner.rfind("]")
    if close != -1:
        inner = inner[:close]
    items: list[Any] = []
    buf: list[str] = []
    quote: str | None = None
    i = 0
    while i < len(inner):
        ch = inner[i]
        if quote:
            buf.append(ch)
            if ch == "\\" and quote == '"' and i + 1 < len(inner):
                buf.append(inner[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            buf.append(ch)
        elif ch == ",":
            items.append(scalar("".join(buf)))
            buf = []
        else:
            buf.append(ch)
        i += 1
    if "".join(buf).strip():
        items.append(scalar("".join(buf)))
    return [x for x in items if x is not None]


def parse_block(block: str) -> dict[str, Any]:
    """Top-level `key: value` pairs; block lists (`- item`) under a key become lists."""
    meta: dict[str, Any] = {}
    current: str | None = None
    for line in block.split("\n"):
        line = line.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[0] in " \t" or stripped.startswith("- "):
            if current is not None and stripped.startswith("- "):
                existing = meta.get(current)
                if not isinstance(existing, list):
                    existing = meta[current] = []
                existing.append(scalar(stripped[2:]))
            continue
        key, sep, value = line.partition(":")
        if not sep:
            current = None
            continue
        current = key.strip().strip("\"'")
        meta[current] = scalar(value) if value.strip() else None
    return meta


def read_meta(text: str) -> tuple[dict[str, Any], str]:
    """(front matter as a dict, body) of a note's text; ({}, text) without front matter."""
    block, body = split(text)
    if block is None:
        return {}, text
    return parse_block(block), body


def as_list(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value if v is not None]
    return [s.strip() for s in str(value).split(",") if s.strip()]
