"""Cursor's rules, brought into the wiki (`wikimem import cursor-rules`).

The source: Cursor dropped its generated Memories for rules. A project's rules are
`.cursor/rules/**/*.mdc` files: front matter (`description`, `globs`, `alwaysApply`: Cursor's
own loose format, not strict YAML) over a markdown body; an older project may still have one
`.cursorrules` file at its root. The rules a person sets for every project (Settings → Rules)
live in Cursor's settings database, not in a file, and cannot be read; `.mdc` files in
`~/.cursor/rules/`, where some tools put rules for every project, are read as the person's.

Mapping: each project rule becomes `projects/<slug>/cursor-<rule>.md` (the slug wikimem's hooks
give sessions in that repository), `.cursorrules` `projects/<slug>/cursor-rules.md`, a rule of
`~/.cursor/rules/` `profile/cursor-<rule>.md`. When it says them, the rule's description and the
files it applies to lead the note. The rule wikimem itself keeps (`wikimem export --to
.cursor/rules/wikimem.mdc`) is not imported: it is the wiki already. Lines that would have an
agent run code fetched from the network are marked held until the person confirms them.
"""

from __future__ import annotations

import os

from wikimem.capture.project import project_slug
from wikimem.dream.claims import hold_new
from wikimem.export import block
from wikimem.importers.added_memories import read_file
from wikimem.importers.mirror import ImportedNote, Scan
from wikimem.wiki.notes import kebab

NAME = "cursor-rules"
LEGACY = ".cursorrules"
MAX_RULES = 500  # a folder holding more is not a folder of rules


def user_rules_dir() -> str:
    return os.path.join(os.path.expanduser("~"), ".cursor", "rules")


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """(the front matter's `key: value` pairs, the body) of an .mdc file."""
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text
    for i, line in enumerate(lines[1:], 1):
        if line.strip() == "---":
            meta: dict[str, str] = {}
            for entry in lines[1:i]:
                key, sep, value = entry.partition(":")
                if sep and key.strip() and not key.startswith((" ", "\t", "#")):
                    meta[key.strip()] = value.strip().strip("\"'")
            return meta, "\n".join(lines[i + 1 :])
    return {}, text


def _body(meta: dict[str, str], text: str) -> str:
    try:
        text = block.take_out(text.encode("utf-8", "surrogatepass")).decode(
            "utf-8", "surrogatepass"
        )
    except block.BlockError:
        pass
    text = text.strip()
    if not text:
        return ""
    lead = []
    if meta.get("description"):
        lead.append(meta["description"].rstrip(".") + ".")
    if meta.get("globs"):
        lead.append(f"Applies to files matching `{meta['globs']}`.")
    elif meta.get("alwaysApply", "").lower() == "true":
        lead.append("Cursor applies it in every chat.")
    head = " ".join(lead)
    return hold_new((f"{head}\n\n" if head else "") + text + "\n", "")


def _rule_files(folder: str) -> list[str]:
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):  # links are not followed
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        out += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".mdc")]
        if len(out) > MAX_RULES:
            break
    return out[:MAX_RULES]


def _note(
    path: str, rule: str, scope: str, folder: str, kind: str, title: str, warnings: list[str]
) -> ImportedNote | None:
    found = read_file(path)
    if isinstance(found, str):
        warnings.append(found)
        return None
    text, mtime = found
    meta, rest = split_front_matter(text) if path.endswith(".mdc") else ({}, text)
    body = _body(meta, rest)
    if not body:
        return None
    return ImportedNote(
        source_id=f"{NAME}:{path}",
        scope=scope,
        path=f"{folder}/cursor-{kebab(rule, 50)}.md",
        title=title,
        kind=kind,
        body=body,
        tags=(NAME,),
        mtime=mtime,
    )


def scan(project_dir: str | None = None, user: bool = True) -> Scan:
    root = os.path.abspath(os.path.expanduser(project_dir or os.getcwd()))
    notes: list[ImportedNote] = []
    scopes: list[str] = []
    warnings: list[str] = []
    project = project_slug(root)
    rules = os.path.join(root, ".cursor", "rules")
    legacy = os.path.join(root, LEGACY)
    if os.path.isdir(rules) or os.path.isfile(legacy):
        scope = f"{NAME}:{root}"
        scopes.append(scope)
        for path in _rule_files(rules):
            rule = os.path.relpath(path, rules)[: -len(".mdc")].replace(os.sep, "-")
            note = _note(
                path,
                rule,
                scope,
                f"projects/{project}",
                "project",
                f"Cursor rule: {rule} ({project})",
                warnings,
            )
            if note is not None:
                notes.append(note)
        if os.path.lexists(legacy):
            note = _note(
                legacy,
                "rules",
                scope,
                f"projects/{project}",
                "project",
                f"Cursor rules ({project})",
                warnings,
            )
            if note is not None:
                notes.append(note)
    else:
        warnings.append(f"{root} has no .cursor/rules/ and no .cursorrules")
    home_rules = user_rules_dir()
    if user and os.path.isdir(home_rules):
        scope = f"{NAME}:{home_rules}"
        scopes.append(scope)
        for path in _rule_files(home_rules):
            rule = os.path.relpath(path, home_rules)[: -len(".mdc")].replace(os.sep, "-")
            note = _note(path, rule, scope, "profile", "profile", f"Cursor rule: {rule}", warnings)
            if note is not None:
                notes.append(note)
    return Scan(tuple(notes), tuple(scopes), tuple(warnings))
