"""Obsidian-style links and names for notes: `[[wikilinks]]` and titles unique to each note.

Contract:
  - `wikilink(path, label)` is the `[[target|label]]` Obsidian resolves to the note at `path`
    (relative to memory/, `.md` dropped from the target, the label cleaned of link syntax), so
    the vault's graph shows every link wikimem writes. `resolve_wikilink` in
    `wikimem.wiki.notes` reads them back.
  - `title_for(path)` is the title wikimem gives a note it creates from a path alone: many notes
    share a file name (`commands.md` in every project), so a project's or tool's note is
    qualified by it ("acme-api commands"), which keeps titles unique in Obsidian's search,
    graph and quick switcher.
"""

from __future__ import annotations

_LINK_SYNTAX = str.maketrans({"[": "(", "]": ")", "|": "/", "\n": " ", "#": "", "^": ""})


def link_target(path: str) -> str:
    return path[:-3] if path.endswith(".md") else path


def wikilink(path: str, label: str | None = None) -> str:
    target = link_target(path)
    if not label:
        return f"[[{target}]]"
    clean = " ".join(label.translate(_LINK_SYNTAX).split())
    if not clean or clean == target:
        return f"[[{target}]]"
    return f"[[{target}|{clean}]]"


def _humane(stem: str) -> str:
    # A kebab-case name reads as words; a name a person chose is kept as they wrote it.
    return stem.replace("-", " ") if stem == stem.lower() else stem


def title_for(path: str) -> str:
    parts = link_target(path).split("/")
    name = _humane(parts[-1])
    if parts[0] in ("projects", "tools") and len(parts) >= 3:
        return f"{parts[1]} {name}"
    return name[:1].upper() + name[1:] if name == name.lower() else name
