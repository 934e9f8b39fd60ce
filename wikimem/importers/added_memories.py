"""The "Added Memories" section Gemini CLI's and Qwen Code's `save_memory` keep in their context
file, read for `wikimem import gemini-memories` and `qwen-memories`.

The source (Gemini CLI up to 0.6x, `packages/core/src/tools/memoryTool.ts`; Qwen Code, which
forked it): `save_memory(fact)` appends `- <fact>` under a heading, `## Gemini Added Memories`
(or `## Qwen Added Memories`), in the user's context file (`~/.gemini/GEMINI.md`,
`~/.qwen/QWEN.md`), adding the heading at the end of the file when it is not there. The section
runs to the next `## ` heading or the end of the file; a fact is one line, though a person (or
an older build) may have written an item over several lines. wikimem's own managed block
(`wikimem export`), which can sit in the same file, is never read as part of it.

Mapping: the section of a user-level file (the one each agent reads for every project) becomes
`profile/<name>.md`, the person's; a section found in a repository's context file (named with
`--dir`) becomes `projects/<slug>/<name>.md`. Lines that would have an agent run code fetched
from the network are marked held, as a dream marks them, until the person confirms them.
"""

from __future__ import annotations

import os

from wikimem.capture.project import project_slug
from wikimem.dream.claims import hold_new
from wikimem.export import block
from wikimem.export.targets import is_user_file, project_root
from wikimem.importers.mirror import ImportedNote, Scan
from wikimem.wiki import plainfile


def read_file(path: str) -> tuple[str, float] | str:
    """(text, mtime) of a plain file, or why it was not read (missing, a link, not UTF-8)."""
    try:
        data = plainfile.read_existing(os.path.dirname(path), os.path.basename(path))
        if data is None:
            if os.path.islink(path):
                return f"{path} is a symbolic link: not read (its target could be any file)"
            return f"{path} does not exist"
        return data.decode("utf-8"), os.lstat(path).st_mtime
    except UnicodeDecodeError:
        return f"{path} is not UTF-8 text: not read"
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror}"


def section(text: str, heading: str) -> str | None:
    """The body of the `heading` section (`## …`), without wikimem's managed block; None when
    the file has no such heading."""
    try:
        text = block.take_out(text.encode("utf-8", "surrogatepass")).decode(
            "utf-8", "surrogatepass"
        )
    except block.BlockError:
        pass  # half a block: read the section as it is
    lines = text.replace("\r\n", "\n").split("\n")
    for i, line in enumerate(lines):
        if line.strip() == heading:
            body = []
            for rest in lines[i + 1 :]:
                if rest.startswith("## "):
                    break
                body.append(rest)
            return "\n".join(body).strip("\n")
    return None


def scan(name: str, heading: str, files: list[str], tag: str, title: str) -> Scan:
    """One note per file whose `heading` section says something."""
    notes: list[ImportedNote] = []
    scopes: list[str] = []
    warnings: list[str] = []
    for given in files:
        path = os.path.abspath(os.path.expanduser(given))
        found = read_file(path)
        if isinstance(found, str):
            warnings.append(found)
            continue
        text, mtime = found
        scope = f"{name}:{path}"
        scopes.append(scope)  # read whole: a section gone from it takes its note along
        body = section(text, heading)
        if body is None or not body.strip():
            continue
        if is_user_file(path):
            rel, kind, where = f"profile/{name}.md", "profile", title
        else:
            project = project_slug(project_root(os.path.realpath(path)))
            rel, kind, where = f"projects/{project}/{name}.md", "project", f"{title} ({project})"
        notes.append(
            ImportedNote(
                source_id=f"{name}:{path}",
                scope=scope,
                path=rel,
                title=where,
                kind=kind,
                body=hold_new(body.strip() + "\n", ""),
                tags=(tag,),
                mtime=mtime,
            )
        )
    return Scan(tuple(notes), tuple(scopes), tuple(warnings))


def files_in(given: str | None, default: str, file_name: str) -> list[str]:
    """The context file to read: `default`, or `given` (a file, or a folder holding
    `file_name`)."""
    if not given:
        return [default]
    path = os.path.abspath(os.path.expanduser(given))
    return [os.path.join(path, file_name)] if os.path.isdir(path) else [path]
