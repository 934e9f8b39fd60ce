"""File changes planned in full, then made all or nothing (`wikimem install` / `uninstall`).

Contract: nothing touches the disk while planning. Planning reads through the set — a file
already planned reads as its planned text — so the editors of one file compose (hooks and MCP
server in one settings.json; trust and MCP server in one config.toml), and a refusal found at any
point of the plan leaves every file as it was. `commit()`, under the memory home's install lock,
re-checks that every file read still holds what planning read (harnesses rewrite their own
files at any time), then creates missing folders, backs up the person's files, writes each file
atomically, removes what is to go (and the folders wikimem created that are empty then), and
writes the home's record (`madefiles`) last. When any step fails, every step already made is
undone in reverse — files get their bytes and permission bits back, folders and backups made are
removed — before the error is raised: the disk is as it was before the command.

A file whose bytes are the person's down to the line endings (an instruction file that holds
wikimem's managed block, `wikimem.export`) is planned as bytes (`read_bytes`, `put_bytes`): read
and written exactly, re-checked like the others, never backed up (only the block's lines change).
Reading: every file through `wikimem.boundedfile` (a regular file of bounded size, never a FIFO or a
device), as its exact bytes (CRLF stays CRLF: a backup, and a file given back, is byte for byte
what it was). A file under a folder given to `confine` (the project of a `--scope project`
command: a cloned repository) is read only when it resolves inside that folder: a link from a
repository's `.claude/settings.json` to a file elsewhere is refused, never read or written
through.

Backups: only of a person's file (never of one wikimem created), once per commit, as
`<file>.wikimem-backup-<UTC time>` with the file's own permission bits. When what an uninstall
leaves in a person's file is the same data as before wikimem's first change, the bytes of that
first backup are put back (their formatting, comments and key order) and the backup, identical
to the file now, is removed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
import tomllib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from wikimem import boundedfile
from wikimem.fsutil import atomic_write, atomic_write_bytes
from wikimem.home import Home
from wikimem.lock import file_lock
from wikimem.setup import geminitrust, madefiles
from wikimem.setup.wiring import InstallError

REMOVE = None  # a planned text of None: the file goes


def _abs(path: str) -> str:
    return os.path.abspath(path)


class Changes:
    """The changes of one command against one memory home's record."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._seen: dict[str, tuple[str | None, int | None]] = {}  # text (None: absent), mode
        self._confined: list[str] = []
        # read like any file: a concurrent install that changed the record is seen at commit
        self.manifest = madefiles.parse(self._stat(_abs(madefiles.path_of(home)))[0] or "")
        self._plan: dict[str, str | None] = {}
        self._seen_bytes: dict[str, bytes | None] = {}
        self._plan_bytes: dict[str, bytes | None] = {}
        self._backup: dict[str, bool] = {}
        self._new_modes: dict[str, int] = {}
        self._trust_add: list[madefiles.TrustRule] = []
        self._trust_drop: list[madefiles.TrustRule] = []
        self.backups: dict[str, str] = {}  # after commit: file -> the backup made of it
        self.restored: dict[str, str] = {}  # after commit: file -> the first backup put back
        self.removed: list[str] = []  # after commit: the files removed

    def confine(self, folder: str | None) -> None:
        """Read files under `folder` only when they resolve inside it (see the module's contract)."""
        if folder is not None and _abs(folder) not in self._confined:
            self._confined.append(_abs(folder))

    def _within(self, path: str) -> str | None:
        for folder in self._confined:
            if path == folder or path.startswith(folder.rstrip(os.sep) + os.sep):
                return folder
        return None

    # -- planning --------------------------------------------------------------------------------

    def disk(self, path: str) -> str | None:
        """What `path` held when planning first read it (None: it did not exist)."""
        return self._stat(_abs(path))[0]

    def _stat(self, path: str) -> tuple[str | None, int | None]:
        if path not in self._seen:
            try:
                text = boundedfile.read_text(path, within=self._within(path))
                mode = stat.S_IMODE(os.stat(path).st_mode)
            except FileNotFoundError:
                text, mode = None, None
            except boundedfile.Refused as exc:
                raise InstallError(f"{exc}; nothing was changed") from None
            except (OSError, UnicodeDecodeError) as exc:
                raise InstallError(f"cannot read {path}: {exc}; nothing was changed") from None
            self._seen[path] = (text, mode)
        return self._seen[path]

    def read(self, path: str) -> str:
        """The text `path` will hold as planned so far ("" for no file)."""
        path = _abs(path)
        if path in self._plan:
            return self._plan[path] or ""
        return self._stat(path)[0] or ""

    def exists(self, path: str) -> bool:
        path = _abs(path)
        if path in self._plan:
            return self._plan[path] is not REMOVE
        return self._stat(path)[0] is not None

    def made_by_wikimem(self, path: str) -> bool:
        """Whether wikimem created `path` (in an earlier command, or in this one)."""
        path = _abs(path)
        return path in self.manifest.created or self._stat(path)[0] is None

    def put(
        self,
        path: str,
        text: str,
        *,
        empty: bool = False,
        mode: int | None = None,
        backup: bool | None = None,
    ) -> bool:
        """Plan `path` to hold `text`. `empty`: it would then hold nothing of anyone's, so a file
        wikimem created goes instead (and a missing one is not made). `mode`: a new file's
        permission bits. `backup`: whether to keep a copy of what it held (default: when it is a
        person's file). Returns whether the file is to be removed."""
        path = _abs(path)
        if empty and self.made_by_wikimem(path):
            if self._stat(path)[0] is None:
                self._plan.pop(path, None)
                return False
            self.remove(path, backup=bool(backup))
            return True
        old = self._stat(path)[0]
        if text == old or (old is not None and text == old.replace("\r\n", "\n")):
            self._plan.pop(path, None)  # the same, or the same but for its line endings: kept
            return False
        self._plan[path] = text
        if mode is not None and self._stat(path)[0] is None:
            self._new_modes[path] = mode
        if backup is not None:
            self._backup[path] = backup
        return False

    def remove(self, path: str, *, backup: bool = False) -> None:
        path = _abs(path)
        if self._stat(path)[0] is None:
            self._plan.pop(path, None)
            return
        self._plan[path] = REMOVE
        self._backup[path] = backup

    def _disk_bytes(self, path: str) -> bytes | None:
        if path not in self._seen_bytes:
            try:
                with open(path, "rb") as fh:
                    self._seen_bytes[path] = fh.read()
            except FileNotFoundError:
                self._seen_bytes[path] = None
            except OSError as exc:
                raise InstallError(f"cannot read {path}: {exc}; nothing was changed") from None
        return self._seen_bytes[path]

    def read_bytes(self, path: str) -> bytes | None:
        """The bytes `path` will hold as planned so far (None: no file)."""
        path = _abs(path)
        if path in self._plan_bytes:
            return self._plan_bytes[path]
        return self._disk_bytes(path)

    def put_bytes(self, path: str, data: bytes | None) -> None:
        """Plan `path` to hold exactly `data` (None: the file goes)."""
        path = _abs(path)
        if data == self._disk_bytes(path):
            self._plan_bytes.pop(path, None)
        else:
            self._plan_bytes[path] = data

    def add_trust(self, rule: madefiles.TrustRule) -> None:
        self._trust_add.append(rule)

    def drop_trust(self, rule: madefiles.TrustRule) -> None:
        self._trust_drop.append(rule)

    def planned(self) -> dict[str, str | None]:
        return dict(self._plan)

    # -- committing ------------------------------------------------------------------------------

    def commit(self) -> None:
        if not (self._plan or self._plan_bytes or self._trust_add or self._trust_drop):
            return
        # A home that does not exist (a hook naming a deleted one) records nothing: not made here.
        lock = (
            file_lock(self.home.state("install.lock"), timeout=10, what="harness configs")
            if os.path.isdir(self.home.root)
            else contextlib.nullcontext()
        )
        with lock:
            self._recheck()
            plan, restores = self._final_plan()
            undo: list[tuple[str, Callable[[], None]]] = []
            try:
                self._apply(plan, restores, undo)
            except BaseException as exc:
                failed = _undo(undo)
                what = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
                if failed:
                    raise InstallError(
                        f"could not finish: {what}{where}; could not put back " + ", ".join(failed)
                    ) from exc
                if not isinstance(exc, Exception):
                    raise
                raise InstallError(
                    f"could not finish: {what}{where}; nothing was changed "
                    "(every file is as it was)"
                ) from exc

    def _recheck(self) -> None:
        for path, (text, _) in self._seen.items():
            try:
                now: str | None = boundedfile.read_text(path, within=self._within(path))
            except FileNotFoundError:
                now = None
            except (OSError, UnicodeDecodeError):
                now = "\0unreadable"
            if now != text:
                raise InstallError(
                    f"{path} changed while wikimem was editing it; nothing was changed: try again"
                )
        for path, data in self._seen_bytes.items():
            try:
                with open(path, "rb") as fh:
                    now_bytes: bytes | None = fh.read()
            except FileNotFoundError:
                now_bytes = None
            except OSError:
                now_bytes = b"\0unreadable"
            if now_bytes != data:
                raise InstallError(
                    f"{path} changed while wikimem was editing it; nothing was changed: try again"
                )

    def _final_plan(self) -> tuple[dict[str, str | None], dict[str, str]]:
        """The plan, with a person's file given back its own bytes where the data matches."""
        plan = dict(self._plan)
        restores: dict[str, str] = {}
        for path, text in self._plan.items():
            original = self.manifest.original(path)
            if text is REMOVE or original is None or path in self.manifest.created:
                continue
            try:
                before = boundedfile.read_text(original)
            except (OSError, UnicodeDecodeError):
                continue
            if same_data(path, text, before) and _comments(text) == _comments(before):
                plan[path] = before
                restores[path] = original
                if before == self._stat(path)[0]:
                    del plan[path]
        return plan, restores

    def _apply(
        self,
        plan: dict[str, str | None],
        restores: dict[str, str],
        undo: list[tuple[str, Callable[[], None]]],
    ) -> None:
        manifest = self.manifest
        created = set(manifest.created)
        removed: list[str] = []
        for path, text in plan.items():
            old_text, old_mode = self._stat(path)
            if old_text is not None and self._wants_backup(path) and path not in restores:
                backup = _backup_name(path)
                atomic_write(backup, old_text, mode=old_mode)
                undo.append((backup, _unlinker(backup)))
                self.backups[path] = backup
                if manifest.original(path) is None and path not in created:
                    manifest = manifest.with_original(path, backup)
            if text is REMOVE:
                os.unlink(path)
                undo.append((path, _writer(path, old_text or "", old_mode)))
                removed.append(path)
                created.discard(path)
                manifest = manifest.with_original(path, None)
                continue
            for folder in _missing_folders(path):
                os.mkdir(folder)
                undo.append((folder, _rmdirer(folder)))
                created.add(folder)
            mode = self._new_modes.get(path) if old_text is None else None
            atomic_write(_through_link(path), text, mode=mode)
            if old_text is None:
                undo.append((path, _unlinker(path)))
                created.add(path)
            else:
                undo.append((path, _writer(path, old_text, old_mode)))
        for path, data in self._plan_bytes.items():
            old_data = self._seen_bytes.get(path)
            old_mode = stat.S_IMODE(os.stat(path).st_mode) if old_data is not None else None
            if data is None:
                if old_data is None:
                    continue
                os.unlink(path)
                undo.append((path, _bytes_writer(path, old_data, old_mode)))
                removed.append(path)
                created.discard(path)
                continue
            for folder in _missing_folders(path):
                os.mkdir(folder)
                undo.append((folder, _rmdirer(folder)))
                created.add(folder)
            atomic_write_bytes(_through_link(path), data)
            if old_data is None:
                undo.append((path, _unlinker(path)))
                created.add(path)
            else:
                undo.append((path, _bytes_writer(path, old_data, old_mode)))
        for path, original in restores.items():
            backup_text, backup_mode = _read_with_mode(original)
            os.unlink(original)
            undo.append((original, _writer(original, backup_text, backup_mode)))
            manifest = manifest.with_original(path, None)
            self.restored[path] = original
        for path in removed:  # the folders wikimem made for what is gone, once they are empty
            folder = os.path.dirname(path)
            while folder in created and os.path.isdir(folder) and not os.listdir(folder):
                mode = stat.S_IMODE(os.stat(folder).st_mode)
                os.rmdir(folder)
                undo.append((folder, _mkdirer(folder, mode)))
                created.discard(folder)
                folder = os.path.dirname(folder)
        trust = [r for r in manifest.trust if r not in self._trust_drop]
        trust += [r for r in self._trust_add if r not in trust]
        manifest = replace(manifest, created=frozenset(created), trust=tuple(trust))
        if manifest != self.manifest:
            self._write_manifest(manifest, undo)
        self.manifest = manifest
        self.removed = removed

    def _wants_backup(self, path: str) -> bool:
        if path in self._backup:
            return self._backup[path]
        return path not in self.manifest.created  # a person's file

    def _write_manifest(
        self, manifest: madefiles.Manifest, undo: list[tuple[str, Callable[[], None]]]
    ) -> None:
        record = madefiles.path_of(self.home)
        try:
            old, old_mode = _read_with_mode(record)
        except FileNotFoundError:
            old, old_mode = None, None
        if manifest.is_empty():
            if old is not None:
                os.unlink(record)
                undo.append((record, _writer(record, old, old_mode)))
            return
        os.makedirs(self.home.state_dir, mode=0o700, exist_ok=True)
        atomic_write(record, manifest.dump(), 0o600)
        undo.append((record, _unlinker(record) if old is None else _writer(record, old, old_mode)))


def same_data(path: str, a: str, b: str) -> bool:
    """Whether two texts of a config file hold the same settings: the same JSON or TOML data,
    an empty object or list counting as absent (wikimem's entries leave `"hooks": {}` behind, or
    remove it)."""
    if a == b:
        return True
    try:
        if path.endswith(".toml"):
            return bool(_pruned(tomllib.loads(a)) == _pruned(tomllib.loads(b)))
        return bool(_pruned(_json(a)) == _pruned(_json(b)))
    except (ValueError, tomllib.TOMLDecodeError):
        return False


_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'')
_COMMENT = re.compile(r"(?:#|//)[^\n]*|/\*.*?\*/", re.DOTALL)


def _comments(text: str) -> list[str]:
    """The comments of a TOML or JSONC text, in order: settings equal, a file whose comments
    the person changed after install is not given back its old bytes (their comment would go)."""
    return [c.strip() for c in _COMMENT.findall(_STRING.sub('""', text))]


def _json(text: str) -> Any:
    return json.loads(geminitrust.strip_comments(text)) if text.strip() else {}


def _pruned(value: Any) -> Any:
    if isinstance(value, dict):
        out = {k: _pruned(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in ({}, [])}
    if isinstance(value, list):
        return [_pruned(v) for v in value]
    return value


def _backup_name(path: str) -> str:
    stem = f"{path}.wikimem-backup-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}"
    backup, n = stem, 1
    while os.path.lexists(backup):  # two changes within a second keep both originals
        backup, n = f"{stem}-{n}", n + 1
    return backup


def _missing_folders(path: str) -> list[str]:
    missing = []
    folder = os.path.dirname(path)
    while not os.path.isdir(folder):
        missing.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return list(reversed(missing))


def _read_with_mode(path: str) -> tuple[str, int]:
    return boundedfile.read_text(path), stat.S_IMODE(os.stat(path).st_mode)


def _unlinker(path: str) -> Callable[[], None]:
    return lambda: os.unlink(path)


def _writer(path: str, text: str, mode: int | None) -> Callable[[], None]:
    return lambda: atomic_write(_through_link(path), text, mode=mode)


def _bytes_writer(path: str, data: bytes, mode: int | None) -> Callable[[], None]:
    return lambda: atomic_write_bytes(_through_link(path), data, mode=mode)


def _through_link(path: str) -> str:
    """Where a harness config that is a link (a dotfiles repository's) is written: its target,
    so the link stays a link and the person's repository sees the change."""
    return os.path.realpath(path) if os.path.islink(path) else path


def _rmdirer(path: str) -> Callable[[], None]:
    return lambda: os.rmdir(path)


def _mkdirer(path: str, mode: int) -> Callable[[], None]:
    def make() -> None:
        os.mkdir(path)
        os.chmod(path, mode)

    return make


def _undo(steps: list[tuple[str, Callable[[], None]]]) -> list[str]:
    """Undo `steps` newest first; the paths that could not be put back."""
    failed = []
    for path, step in reversed(steps):
        try:
            step()
        except OSError:
            failed.append(path)
    return failed
