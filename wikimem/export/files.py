"""Writing, checking and removing managed blocks in files.

Contract:
  - `export(home, paths, scope, owner)` enables export in each file and writes its block now;
    with no paths, every enabled file is brought up to date (`refresh`). A block that already
    says what it would say is not rewritten (no change on disk, not even its time).
  - `check(home, paths)` writes nothing: per file, whether its block is current or stale.
  - `remove(home, paths, owner)` takes `owner`'s consent back: once nobody has enabled a file any
    more, its block goes, and the file gets its own bytes back (a file wikimem created, holding
    nothing else, is deleted, with the folders wikimem made for it).
  - `refresh_after_dream(home)`: what a dream runs after its commit; it never raises, and returns
    one line per file it could not bring up to date.
Every write re-reads the file just before replacing it and gives up (that file only) when it
changed since it was read; the replacement is atomic and keeps the file's permission bits. A
link is written through to its target, whichever of them was named.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from wikimem.config import Config, load_config
from wikimem.errors import WikimemError
from wikimem.export import block, content, registry
from wikimem.export.registry import Entry
from wikimem.export.targets import Target, TargetError, target
from wikimem.fsutil import atomic_write_bytes
from wikimem.home import Home
from wikimem.setup.changeset import Changes

# A Cursor rule wikimem creates: given in every chat of the project.
MDC_HEAD = (
    "---\n"
    "description: What wikimem remembers of this project's conventions and commands\n"
    "alwaysApply: true\n"
    "---\n"
)


class ExportError(WikimemError):
    """A file could not be brought up to date; it was left as it was."""


@dataclass(frozen=True)
class Outcome:
    path: str
    scope: str
    project: str
    # written | unchanged | current | stale | removed | kept | absent | error
    state: str
    detail: str = ""

    def as_dict(self) -> dict[str, str]:
        return dict(self.__dict__)


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ExportError(f"cannot read {path}: {exc.strerror}") from None


def _replace(path: str, expected: bytes | None, data: bytes | None) -> None:
    """`path` to hold `data` (None: deleted), only while it still holds `expected`."""
    if _read(path) != expected:
        raise ExportError(f"{path} changed while wikimem was exporting; run it again")
    if data is None:
        os.unlink(path)
    else:
        atomic_write_bytes(path, data)


def _missing_dirs(path: str) -> list[str]:
    out = []
    folder = os.path.dirname(path)
    while folder and not os.path.exists(folder):
        out.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return list(reversed(out))


def _plan(
    home: Home, where: Target, config: Config, current: bytes | None, entry: Entry | None
) -> tuple[bytes, Entry]:
    """(the file's new bytes, its record) for the block as it should be now."""
    text = content.body(home, where, config)
    if current is None:
        head = MDC_HEAD if where.real.endswith(".mdc") else ""
        new, lead = block.put(head.encode(), text)
        made = Entry(
            where.path,
            where.scope,
            entry.owners if entry else (),
            lead=lead.decode(),
            created=True,
            head=head,
            dirs=tuple(_missing_dirs(where.real)),
        )
        return new, made
    new, lead = block.put(current, text)
    if entry is None:
        entry = Entry(where.path, where.scope, (), lead=lead.decode())
    elif lead:  # the block had gone from the file (taken out by hand): appended afresh
        entry = replace(entry, lead=lead.decode())
    return new, replace(entry, path=where.path, scope=where.scope)


def _write(home: Home, where: Target, config: Config, entry: Entry | None) -> tuple[Outcome, Entry]:
    current = _read(where.real)
    new, made = _plan(home, where, config, current, entry)
    if new == current:
        return Outcome(where.path, where.scope, where.project, "unchanged"), made
    if current is None:
        for folder in made.dirs:
            os.makedirs(folder, exist_ok=True)
    _replace(where.real, current, new)
    return Outcome(where.path, where.scope, where.project, "written"), made


def export(
    home: Home, paths: list[str], scope: str | None = None, owner: str = "export"
) -> list[Outcome]:
    if not paths:
        return refresh(home)
    config = load_config(home)
    wheres = [target(p, scope) for p in paths]  # every file is checked before any is written
    out = []
    with registry.update(home) as entries:
        for where in wheres:
            outcome, made = _write(home, where, config, entries.get(where.real))
            entries[where.real] = made.with_owner(owner)
            out.append(outcome)
    return out


def _enabled_target(real: str, entry: Entry) -> Target:
    where = target(entry.path, entry.scope)
    if where.real != real:  # a link now points elsewhere: the file enabled is the one written
        where = replace(where, real=real)
    return where


def refresh(home: Home) -> list[Outcome]:
    config = load_config(home)
    out = []
    with registry.update(home) as entries:
        for real, entry in sorted(entries.items()):
            try:
                where = _enabled_target(real, entry)
                if _read(real) is None and not entry.created:
                    out.append(
                        Outcome(
                            entry.path,
                            entry.scope,
                            where.project,
                            "absent",
                            "the file is gone: `wikimem export --to` it to have it again, "
                            "`wikimem uninstall export --to` it to stop",
                        )
                    )
                    continue
                outcome, made = _write(home, where, config, entry)
                entries[real] = replace(made, owners=entry.owners)
                out.append(outcome)
            except (WikimemError, OSError) as exc:
                out.append(Outcome(entry.path, entry.scope, "", "error", str(exc)))
    return out


def check(home: Home, paths: list[str], scope: str | None = None) -> list[Outcome]:
    config = load_config(home)
    entries = registry.load(home)
    if paths:
        wheres = [target(p, scope) for p in paths]
    else:
        wheres = [_enabled_target(real, e) for real, e in sorted(entries.items())]
    out = []
    for where in wheres:
        current = _read(where.real)
        new, _ = _plan(home, where, config, current, entries.get(where.real))
        state = "current" if new == current else "stale"
        detail = "" if current is not None else "the file does not exist"
        if current is not None and block.find(current) is None:
            detail = "the file has no wikimem block"
        out.append(Outcome(where.path, where.scope, where.project, state, detail))
    return out


def _give_back(real: str, entry: Entry | None) -> bool:
    """Take the block out of `real`; True when the file is deleted (wikimem made it, and
    nothing but its own head is left)."""
    current = _read(real)
    if current is None:
        return False
    after = block.take_out(current, (entry.lead if entry else "").encode())
    if after == current:
        return False
    gone = entry is not None and entry.created and after in (b"", entry.head.encode())
    _replace(real, current, None if gone else after)
    if gone and entry is not None:
        for folder in reversed(entry.dirs):
            try:
                os.rmdir(folder)
            except OSError:
                break  # something else is in it now
    return gone


def remove(home: Home, paths: list[str], owner: str = "export") -> list[Outcome]:
    out = []
    with registry.update(home) as entries:
        if paths:
            reals = []
            for p in paths:
                try:
                    reals.append(target(p).real)
                except TargetError:  # a file export would refuse now can still be cleaned
                    reals.append(os.path.realpath(os.path.abspath(os.path.expanduser(p))))
        else:
            reals = [r for r, e in sorted(entries.items()) if owner in e.owners]
        for real in reals:
            entry = entries.get(real)
            path = entry.path if entry else real
            scope = entry.scope if entry else ""
            if entry is not None and owner in entry.owners and len(entry.owners) > 1:
                others = tuple(o for o in entry.owners if o != owner)
                entries[real] = replace(entry, owners=others)
                out.append(Outcome(path, scope, "", "kept", f"also enabled by {', '.join(others)}"))
                continue
            gone = _give_back(real, entry)
            entries.pop(real, None)
            out.append(Outcome(path, scope, "", "removed", "file deleted" if gone else ""))
    return out


# -- inside a change set: `wikimem install` of a harness given memory only through a file --------


def _planned_registry(changes: Changes, home: Home) -> dict[str, Entry]:
    return registry.parse_text(changes.read(home.state(registry.NAME)))


def _plan_registry(changes: Changes, home: Home, entries: dict[str, Entry]) -> None:
    text = registry.dump(entries)
    changes.put(home.state(registry.NAME), text, mode=0o600, backup=False, empty=not entries)


def plan_export(changes: Changes, home: Home, path: str, scope: str, owner: str) -> Outcome:
    """`export` of one file planned into `changes` (written, all or nothing, with the rest of
    the change set); the folders and file it creates are the change set's to record."""
    where = target(path, scope)
    entries = _planned_registry(changes, home)
    current = changes.read_bytes(where.real)
    new, made = _plan(home, where, load_config(home), current, entries.get(where.real))
    changes.put_bytes(where.real, new)
    entries[where.real] = replace(made, dirs=()).with_owner(owner)
    _plan_registry(changes, home, entries)
    state = "unchanged" if new == current else "written"
    return Outcome(where.path, where.scope, where.project, state)


def plan_remove(changes: Changes, home: Home, path: str, owner: str) -> Outcome | None:
    """`remove` of `owner`'s consent for one file, planned into `changes`; None when `owner`
    never enabled it."""
    try:
        real = target(path).real
    except TargetError:
        return None
    entries = _planned_registry(changes, home)
    entry = entries.get(real)
    if entry is None or owner not in entry.owners:
        return None
    if len(entry.owners) > 1:
        others = tuple(o for o in entry.owners if o != owner)
        entries[real] = replace(entry, owners=others)
        _plan_registry(changes, home, entries)
        return Outcome(entry.path, entry.scope, "", "kept", f"also enabled by {', '.join(others)}")
    current = changes.read_bytes(real)
    del entries[real]
    _plan_registry(changes, home, entries)
    if current is None:
        return Outcome(entry.path, entry.scope, "", "removed", "the file was gone already")
    after = block.take_out(current, entry.lead.encode())
    gone = entry.created and after in (b"", entry.head.encode())
    changes.put_bytes(real, None if gone else after)
    return Outcome(entry.path, entry.scope, "", "removed", "file deleted" if gone else "")


def refresh_after_dream(home: Home) -> list[str]:
    try:
        if not registry.load(home):
            return []
        return [
            f"export: {o.path}: {o.detail}" for o in refresh(home) if o.state in ("error", "absent")
        ]
    except Exception as exc:  # a dream's outcome never depends on a file it does not own
        return [f"export: {exc.__class__.__name__}: {exc}"]
