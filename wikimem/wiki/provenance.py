"""Who wrote a note: a person, or only automated writers (docs/gate.md, "Notes a person wrote").

Contract: `person_written(memory_dir, identity)` returns the note paths a person has written:
touched by a commit whose `Wikimem-Source` is a person's verb (`remember`, `edit`, `forget`,
`watch`), or by a commit without that trailer (committed by hand with git), or changed in the
working tree and not committed (an edit in Obsidian or an editor). Merge commits say nothing
about authorship and are skipped. One `git log` and one `git status` per call; history older than
`MAX_COMMITS` commits is not read.
"""

from __future__ import annotations

from wikimem import gitrun

PERSON_SOURCES = frozenset({"remember", "edit", "forget", "watch"})
MAX_COMMITS = 20000
_COMMIT = "\x1e"  # record separator between commits in the log output


def person_written(memory_dir: str) -> set[str]:
    # (gitrun's core.quotepath off: names come back as they are)
    out: set[str] = set()
    try:
        log = gitrun.run(
            memory_dir, "log", "--no-merges", "--no-renames", "-z",
            f"--max-count={MAX_COMMITS}", "--name-only", f"--format={_COMMIT}%B%x00",
        )  # fmt: skip
        status = gitrun.run(memory_dir, "status", "--porcelain", "-z", "--untracked-files=all")
    except OSError:
        return out
    for entry in log.stdout.decode("utf-8", "replace").split(_COMMIT):
        message, _, files = entry.partition("\0")
        if not files.strip("\0\n"):
            continue
        if _source(message) in PERSON_SOURCES or _source(message) is None:
            out.update(f.strip("\n") for f in files.split("\0") if f.strip("\n"))
    fields = status.stdout.decode("utf-8", "replace").split("\0")
    i = 0
    while i < len(fields):
        entry = fields[i]
        i += 1
        if len(entry) < 4:
            continue
        if entry[0] in "RC":
            i += 1
        out.add(entry[3:])
    return out


def _source(message: str) -> str | None:
    for line in reversed(message.splitlines()):
        if line.startswith("Wikimem-Source:"):
            return line.split(":", 1)[1].strip().split(",")[0].strip()
    return None
