"""The write gate (docs/gate.md): every change to memory/ passes here, in order.

1. Built-in rules: the path stays inside memory/ after resolving symlinks and `..`, has the note
   shape (kebab-case for notes an automated writer creates; a person's own names, such as
   `general/My Note.md` made in Obsidian, for a person's writes and for changes to an existing
   note), is not `.git/` or `index.md`; the content parses with a `title` and a known `kind`; it
   is at most `gate.max_note_bytes`; secrets are redacted or the write blocked (`gate.secrets`);
   `gate.protected` paths are refused to automated writers (dream, MCP, import). Automated
   writers never pin or unpin a note, and (with `gate.person_notes = "protect"`, the default)
   never delete a note a person wrote nor remove more than `max(2, 10%)` of its lines in one
   write: such a write waits for the person's consent (`retry`: a dream parks it).
2. The user's `pre_write` commands whose `match` glob fits the path, in config order: JSON on
   stdin (`hook_event_name: PreMemoryWrite`, `memory_file`, `memory_path`, `path`, `operation`,
   `proposed_content`, `source`, `sessions`); exit 0 proceeds, and stdout may carry
   `{"hookSpecificOutput": {"updatedContent": "…"}}`, which is checked by the built-in rules
   again; exit 2 blocks with stderr as the reason; any other exit, a missing command or a timeout
   is a logged, non-blocking error.
3. The atomic write (temp file + `os.replace`), refused if the file changed since the writer read
   it.
4. After the batch is committed, the `post_write` commands: the same payload plus
   `written_content` and `commit`; `async = true` runs one detached.

`check` and `write` return `GateResult` values; nothing here raises for a refused write: blocked
writes are reported, never silently dropped.
"""

from __future__ import annotations

import errno
import fnmatch
import hashlib
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field, replace

from wikimem.capture.redact import redact, redact_note, scrub, token_shaped
from wikimem.config import Config, GateCommand
from wikimem.fsutil import atomic_write
from wikimem.wiki import plainfile
from wikimem.wiki.notes import NoteError, parse_note, render_note, validate_path
from wikimem.wiki.pathecho import echo_path, echo_reason

OPERATIONS = ("create", "update", "delete")
AUTOMATED_SOURCES = ("dream", "mcp", "import")
# A person's own writes: they may name notes as they like (`general/My Note.md`, made in
# Obsidian); automated writers only create kebab-case names, but may change a note a person named.
PERSON_SOURCES = ("remember", "forget", "edit", "watch")


def hand_names_allowed(write: MemoryWrite) -> bool:
    return write.source in PERSON_SOURCES or write.operation != "create"


# An automated write may drop at most this many of a person's lines (or this share of them).
PERSON_LINES_KEPT_MIN_DROP = 2
PERSON_LINES_DROP_SHARE = 0.10


@dataclass(frozen=True)
class MemoryWrite:
    path: str
    operation: str
    proposed_content: str | None
    source: str
    sessions: tuple[str, ...] = ()
    # sha256 of the content the writer based this on ("" = the file did not exist); None = take
    # whatever is on disk when the gate runs.
    base_hash: str | None = None
    # Another path of the same batch that must be written for this write to happen: a move's
    # delete requires its create, so a blocked destination never loses the note.
    requires: str | None = None
    # The change is already on disk (a person's hand edit, found by `wikimem watch`): it is
    # checked in full and committed as it is; the file is rewritten only when the gate changes
    # its content (a redacted secret, a pre_write command's updatedContent).
    on_disk: bool = False
    # Who brought each new line, where the writer knows it better than its source says
    # (`wikimem.wiki.origins`): (line key, origin) pairs. A dream declares its claims' origins
    # (the person's prompt, the agent's message, a tool's output, a model); lines it does not
    # declare get the source's default (`wikimem.wiki.batch`).
    origins: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class GateResult:
    write: MemoryWrite
    status: str  # "ok" (passed / written), "blocked", "unchanged"
    reason: str = ""
    content: str | None = None  # what was (or would be) written
    redacted: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default=())
    # Blocked for a reason that may pass later (a pre_write command, a concurrent change), not
    # by a built-in rule: a dream parks such a write and tries it again (docs/reliability.md).
    retry: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def redacted_note(path: str, original: str, redacted: str) -> str:
    """The redacted text of a note, still a valid note: a marker can land where YAML reads it
    as syntax (`title: [REDACTED:…] rotated` is a list), so such a note is rendered again from
    its fields, each redacted on its own."""
    try:
        parse_note(path, redacted)
        return redacted
    except NoteError:
        pass
    try:
        note = parse_note(path, original)
    except NoteError:
        return redacted  # not a note to begin with: the parse check reports it
    import yaml

    extra = []
    for key, raw in note.extra:
        if redact(raw)[1]:
            value = redact_value_of(note.extra_values().get(key))
            raw = yaml.safe_dump({key: value}, allow_unicode=True, sort_keys=False).rstrip()
        extra.append((key, raw))
    return render_note(
        note.with_changes(
            title=redact(note.title)[0],
            tags=tuple(redact(t)[0] for t in note.tags),
            sources=tuple(redact(t)[0] for t in note.sources),
            body=redact(note.body)[0],
            extra=tuple(extra),
        )
    )


MARKER = "[REDACTED:"


def added_markers(before: str | None, after: str) -> tuple[str, ...]:
    """The kinds of `[REDACTED:<kind>]` markers `after` has more of than `before`."""

    def count(text: str | None) -> dict[str, int]:
        out: dict[str, int] = {}
        if not text:
            return out
        for part in text.split(MARKER)[1:]:
            kind = part.split("]", 1)[0]
            if kind and len(kind) < 40 and "]" in part:
                out[kind] = out.get(kind, 0) + 1
        return out

    old, new = count(before), count(after)
    return tuple(k for k, n in new.items() for _ in range(n - old.get(k, 0)))


def redact_value_of(value: object) -> object:
    from wikimem.capture.redact import redact_value

    return redact_value(value)[0]


def content_hash(text: str | None) -> str:
    return "" if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_current(memory_dir: str, rel: str, limit: int | None = None) -> str | None:
    """The file's text, or None when there is none (a name no file system can hold included:
    too long, a NUL, a link: one poisoned path must not stop the others) or, given a `limit`,
    when it is larger than that."""
    data = plainfile.read_existing(memory_dir, rel, limit)  # never through a link
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _person_refusal(write: MemoryWrite, removes: tuple[int, int, int] | None) -> str:
    """Why an automated write may not delete (`removes` None) or cut down a person's note, and
    what the reader can do. Only a dream parks such a write for the person's consent; an agent
    over MCP is told how to change the note without the refusal, an import leaves it as it is."""
    path = write.path
    allow = 'gate.person_notes = "allow" in config.toml lets automated writers do it'
    if write.source == "mcp":  # read by an agent, not by the person
        if removes is None:
            return (
                f"{path} holds what the person wrote; an MCP write does not delete it: ask them "
                f"to (`wikimem forget {path}`; {allow})"
            )
        dropped, total, allowed = removes
        return (
            f"{path} holds what the person wrote; this MCP write would remove {dropped} of its "
            f"{total} lines (at most {allowed}): keep their lines and change only what is new, "
            f"or ask them to edit it (`wikimem edit {path}`; {allow})"
        )
    if write.source == "dream":
        consent = (
            'set gate.person_notes = "allow" in config.toml to let automated writers do it, '
            "or `wikimem dream --drop-parked` to decline"
        )
    else:
        consent = f"{allow}; until then the {write.source} leaves it as it is"
    if removes is None:
        return (
            f"{path} holds what you wrote; a {write.source} write does not delete it "
            f"(`wikimem forget {path}` does; {consent})"
        )
    dropped, total, allowed = removes
    return (
        f"{path} holds what you wrote; this {write.source} write would remove {dropped} of its "
        f"{total} lines (at most {allowed} without your consent: {consent})"
    )


class Gate:
    def __init__(self, memory_dir: str, config: Config) -> None:
        self.memory_dir = memory_dir
        self.real_root = os.path.realpath(memory_dir)
        self.config = config
        self._person_paths: set[str] | None = None  # read once per batch (`new_batch`)

    def new_batch(self) -> None:
        """Forget who wrote what: a long-lived writer (the MCP server) gates many batches, and
        the person may write or edit a note between two of them."""
        self._person_paths = None

    def _person_written(self, rel: str) -> bool:
        if self._person_paths is None:
            from wikimem.wiki.provenance import person_written

            self._person_paths = person_written(self.memory_dir)
        return rel in self._person_paths

    def _automated_problem(
        self, write: MemoryWrite, current: str | None, content: str | None
    ) -> tuple[str, bool] | None:
        """(reason, waits for consent) when an automated writer oversteps; None when it does not."""
        if write.source not in AUTOMATED_SOURCES:
            return None
        was = is_pinned(current)
        if content is not None and is_pinned(content) != was:
            verb = "unpin" if was else "pin"
            return (
                f"{write.path}: a {write.source} write may not {verb} a note (only a person does)",
                False,
            )
        if current is None or self.config.gate.person_notes != "protect":
            return None
        if not self._person_written(write.path):
            return None
        if write.operation == "delete":
            return _person_refusal(write, None), True
        if content is not None and _settles_a_conflict(write.path, current, content):
            return None  # both sides were the person's words: the rule keeps the other as "was"
        dropped, total = _dropped_lines(current, content or "")
        allowed = max(PERSON_LINES_KEPT_MIN_DROP, int(total * PERSON_LINES_DROP_SHARE))
        if dropped > allowed:
            return _person_refusal(write, (dropped, total, allowed)), True
        return None

    # -- 1. built-in rules ---------------------------------------------------------------------

    def path_problem(self, rel: str, hand_named: bool = False) -> str | None:
        """Why nothing could ever be written at `rel` (None when something could)."""
        return self._path_problem(rel, hand_named)

    def _name_problem(self, rel: str) -> str | None:
        """A path becomes a file name, an index entry, a commit message and a search hit: it
        cannot be redacted in place, so one holding a secret (or shaped like a key) is refused
        in either secrets mode. Deleting such a note is allowed: that removes it."""
        _, kinds = redact(rel)
        if kinds:
            return (
                f"{echo_path(rel)}: the path holds a secret ({', '.join(sorted(set(kinds)))}); "
                "notes are never named after one"
            )
        if token_shaped(rel):
            return f"{echo_path(rel)}: a path segment looks like a key or a token; refused"
        return None

    def _path_problem(self, rel: str, hand_named: bool = False) -> str | None:
        try:
            validate_path(rel, hand_named=hand_named)
        except NoteError as exc:
            return echo_reason(str(exc), rel)
        target = os.path.join(self.memory_dir, rel)
        try:
            real = os.path.realpath(target)
        except (OSError, ValueError) as exc:
            return f"{rel!r} cannot be resolved ({exc})"
        if os.path.commonpath([real, self.real_root]) != self.real_root:
            return f"{rel!r} resolves outside memory/ (to {real})"
        probe = target
        while probe != self.memory_dir and probe.startswith(self.memory_dir):
            if os.path.islink(probe):
                return f"{rel!r}: {os.path.relpath(probe, self.memory_dir)} is a symbolic link; the gate does not write through links"
            probe = os.path.dirname(probe)
        return None

    def _content_problem(
        self, write: MemoryWrite, content: str
    ) -> tuple[str | None, str, tuple[str, ...]]:
        """(reason to block or None, content after redaction, kinds redacted)."""
        size = len(content.encode("utf-8"))
        limit = self.config.gate.max_note_bytes
        if size > limit:
            return f"{write.path}: {size} bytes is over gate.max_note_bytes ({limit})", content, ()
        redacted, kinds = redact_note(content)
        if kinds:
            if self.config.gate.secrets == "block":
                return (
                    f"{write.path}: contains a secret ({', '.join(sorted(set(kinds)))}); gate.secrets = block",
                    content,
                    tuple(kinds),
                )
            content = redacted_note(write.path, content, redacted)
        try:
            parse_note(write.path, content)
        except NoteError as exc:
            return scrub(str(exc)), content, tuple(kinds)
        return None, content, tuple(kinds)

    def _protected(self, write: MemoryWrite) -> bool:
        if write.source not in AUTOMATED_SOURCES:
            return False
        return any(
            fnmatch.fnmatchcase(write.path, pattern) for pattern in self.config.gate.protected
        )

    def check(self, write: MemoryWrite, *, applied: bool = False) -> GateResult:
        """Steps 1 and 2: whether the write may happen, and with which content.

        `applied`: the change is already on disk (a person's hand edit, about to be committed),
        so it is judged as it stands rather than against what is on disk."""
        if write.operation not in OPERATIONS:
            return GateResult(write, "blocked", f"unknown operation {write.operation!r}")
        problem = self._path_problem(write.path, hand_names_allowed(write))
        if problem is None and write.operation != "delete":
            problem = self._name_problem(write.path)
        if problem:
            return GateResult(write, "blocked", problem)
        current = read_current(self.memory_dir, write.path)
        exists = current is not None or os.path.lexists(os.path.join(self.memory_dir, write.path))
        on_disk = applied or write.on_disk  # a hand edit: judged as it stands on disk
        if write.operation == "create" and exists and not on_disk:
            return GateResult(write, "blocked", f"{write.path} already exists (create)")
        if write.operation in ("update", "delete") and not exists and not on_disk:
            return GateResult(write, "blocked", f"{write.path} does not exist ({write.operation})")
        if self._protected(write):
            return GateResult(
                write,
                "blocked",
                f"{write.path} is protected (gate.protected) from {write.source} writes",
            )
        content: str | None = None
        kinds: tuple[str, ...] = ()
        if write.operation != "delete":
            if write.proposed_content is None:
                return GateResult(
                    write, "blocked", f"{write.path}: {write.operation} without content"
                )
            reason, content, kinds = self._content_problem(write, write.proposed_content)
            if reason:
                return GateResult(write, "blocked", reason, redacted=kinds)
            if write.source in AUTOMATED_SOURCES:
                content = without_imitations(write.source, current, content)
            # a writer that redacted before writing (remember, MCP) still reports what it hid
            kinds += added_markers(current, content)
            if content == current and not on_disk:
                return GateResult(write, "unchanged", "content is identical", content=content)
        overstep = self._automated_problem(write, current, content)
        if overstep is not None:
            return GateResult(
                write, "blocked", overstep[0], content=content, redacted=kinds, retry=overstep[1]
            )
        warnings: list[str] = []
        for command in self.config.gate.pre_write:
            if not fnmatch.fnmatchcase(write.path, command.match):
                continue
            outcome = self._run_pre(command, write, content)
            if outcome.blocked is not None:
                return GateResult(
                    write,
                    "blocked",
                    outcome.blocked,
                    content=content,
                    redacted=kinds,
                    warnings=tuple(warnings),
                    retry=True,
                )
            if outcome.warning:
                warnings.append(outcome.warning)
            if outcome.updated is not None and write.operation != "delete":
                reason, content, more = self._content_problem(write, outcome.updated)
                kinds += more
                if reason:
                    return GateResult(
                        write,
                        "blocked",
                        f"after pre_write `{command.command}`: {reason}",
                        warnings=tuple(warnings),
                    )
        return GateResult(write, "ok", content=content, redacted=kinds, warnings=tuple(warnings))

    # -- 2. user pre_write / post_write commands -----------------------------------------------

    def payload(self, write: MemoryWrite, content: str | None) -> dict[str, object]:
        return {
            "hook_event_name": "PreMemoryWrite",
            "memory_file": os.path.basename(write.path),
            "memory_path": os.path.join(self.memory_dir, write.path),
            "path": write.path,
            "operation": write.operation,
            "proposed_content": content,
            "source": write.source,
            "sessions": list(write.sessions),
        }

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["WIKIMEM_MEMORY_DIR"] = self.memory_dir
        return env

    def _run_pre(
        self, command: GateCommand, write: MemoryWrite, content: str | None
    ) -> _PreOutcome:
        data = json.dumps(self.payload(write, content), ensure_ascii=False).encode("utf-8")
        proc = self._run(command, data)
        if isinstance(proc, str):
            return _PreOutcome(warning=f"pre_write `{command.command}` {proc} (ignored)")
        stderr = proc.stderr.decode("utf-8", "replace").strip()
        if proc.returncode == 2:
            return _PreOutcome(
                blocked=f"blocked by pre_write `{command.command}`: {stderr or 'no reason given'}"
            )
        if proc.returncode != 0:
            detail = stderr.splitlines()[-1] if stderr else "no output"
            return _PreOutcome(
                warning=f"pre_write `{command.command}` exited {proc.returncode}: {detail} (ignored)"
            )
        out = proc.stdout.decode("utf-8", "replace").strip()
        if not out.startswith("{"):
            return _PreOutcome()
        try:
            parsed = json.loads(out)
        except ValueError:
            return _PreOutcome(
                warning=f"pre_write `{command.command}` printed invalid JSON (ignored)"
            )
        specific = parsed.get("hookSpecificOutput") if isinstance(parsed, dict) else None
        updated = specific.get("updatedContent") if isinstance(specific, dict) else None
        if updated is not None and not isinstance(updated, str):
            return _PreOutcome(
                warning=f"pre_write `{command.command}`: updatedContent is not a string (ignored)"
            )
        return _PreOutcome(updated=updated)

    def run_post(self, result: GateResult, commit: str | None) -> list[str]:
        """Run the matching post_write commands for a written change; returns warnings."""
        warnings = []
        payload = self.payload(result.write, result.content)
        payload["hook_event_name"] = "PostMemoryWrite"
        payload["written_content"] = result.content
        payload["commit"] = commit
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        for command in self.config.gate.post_write:
            if not fnmatch.fnmatchcase(result.write.path, command.match):
                continue
            if command.run_async:
                warning = self._spawn_detached(command, data)
            else:
                warning = self._run_post_sync(command, data)
            if warning:
                warnings.append(warning)
        return warnings

    def _run(self, command: GateCommand, data: bytes) -> subprocess.CompletedProcess[bytes] | str:
        """Run a user's gate command with the payload on stdin; what went wrong, as text, when it
        could not run or did not finish in time."""
        try:
            return subprocess.run(
                command.command,
                shell=True,
                input=data,
                capture_output=True,
                timeout=command.timeout,
                cwd=self.memory_dir,
                env=self._env(),
                check=False,
            )
        except subprocess.TimeoutExpired:
            return f"timed out after {command.timeout:g}s"
        except OSError as exc:
            return f"could not run: {exc}"

    def _run_post_sync(self, command: GateCommand, data: bytes) -> str | None:
        proc = self._run(command, data)
        if isinstance(proc, str):
            return f"post_write `{command.command}` {proc}"
        if proc.returncode != 0:
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            return f"post_write `{command.command}` exited {proc.returncode}: {err[-1] if err else 'no output'}"
        return None

    def _spawn_detached(self, command: GateCommand, data: bytes) -> str | None:
        # The payload goes through an unlinked temp file: the child owns the descriptor, so a
        # slow reader can never block us and nothing is left behind.
        try:
            with tempfile.TemporaryFile() as fh:
                fh.write(data)
                fh.seek(0)
                subprocess.Popen(
                    command.command,
                    shell=True,
                    stdin=fh,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    cwd=self.memory_dir,
                    env=self._env(),
                    start_new_session=True,
                    close_fds=True,
                )
        except OSError as exc:
            return f"post_write `{command.command}` could not start: {exc}"
        return None

    # -- 3. the atomic write -------------------------------------------------------------------

    def write(self, result: GateResult) -> GateResult:
        """Apply a checked write, unless the file changed since the writer read it."""
        if not result.ok:
            return result
        write = result.write
        target = os.path.join(self.memory_dir, write.path)
        current = read_current(self.memory_dir, write.path)
        if write.base_hash is not None and content_hash(current) != write.base_hash:
            return replace(
                result,
                status="blocked",
                reason=f"{write.path} changed since it was read; not overwritten",
                retry=True,
            )
        # re-check: a link may have appeared meanwhile
        problem = self._path_problem(write.path, hand_names_allowed(write))
        if problem:
            return replace(result, status="blocked", reason=problem)
        try:
            if write.operation == "delete":
                try:
                    os.unlink(target)
                except FileNotFoundError:
                    if write.on_disk:
                        return result  # the person deleted it; the commit records that
                    return replace(result, status="unchanged", reason="already gone")
                self._prune_empty_dirs(os.path.dirname(target))
                return result
            assert result.content is not None
            if write.on_disk and result.content == current:
                return result  # a hand edit the gate let through as it is: nothing to rewrite
            os.makedirs(os.path.dirname(target), exist_ok=True)
            atomic_write(target, result.content)
        except OSError as exc:
            # A full disk or a read-only folder stops this write, not the batch; a name the file
            # system refuses is final, anything else may pass next time.
            final = exc.errno in (errno.ENAMETOOLONG, errno.EINVAL)
            reason = f"{write.path}: could not be written ({exc.strerror or exc})"
            return replace(result, status="blocked", reason=reason, retry=not final)
        return result

    def _prune_empty_dirs(self, directory: str) -> None:
        while directory != self.memory_dir and directory.startswith(self.memory_dir):
            try:
                os.rmdir(directory)
            except OSError:
                return
            directory = os.path.dirname(directory)


def without_imitations(source: str, current: str | None, content: str) -> str:
    """`content` whose new lines carry no provenance they did not get from wikimem: who brought
    a line is recorded on this machine (`wikimem.wiki.origins`), never read from its words, so
    "(remember 2026-12-01)" typed into a line sets nothing; it is removed here all the same,
    so that a person reading the note is not misled either. A dream's line keeps the one
    provenance wikimem put last on it (any stacked before it came with the text); an agent's
    MCP write or an import keeps none that says the person said it."""
    from wikimem.wiki import notemeta, origins

    _, body = notemeta.split(content)
    front = content[: len(content) - len(body)]
    old = set(notemeta.split(current)[1].split("\n")) if current else set()
    out = []
    for line in body.split("\n"):
        if line in old or not line.strip():
            out.append(line)
        elif source == "dream":
            out.append(origins.strip_stacked(line))
        else:
            out.append(origins.strip_person_tails(line))
    return front + "\n".join(out)


def is_pinned(text: str | None) -> bool:
    if text is None:
        return False
    from wikimem.wiki import notemeta

    meta, _ = notemeta.read_meta(text)
    return meta.get("pinned") is True


def _settles_a_conflict(path: str, before: str, after: str) -> bool:
    """Whether `after` settles a sync conflict `before` holds (flagged `conflict: true`), losing
    nothing outside its conflicted parts: those parts are two versions of the person's own
    words, of which the rule keeps the newer and writes the other into it as "was … until …"
    (and git keeps both). Any other removal of a person's lines still waits for consent."""
    from wikimem.sync.merge import flagged, has_markers
    from wikimem.sync.reconcile import kept_outside

    try:
        old, new = parse_note(path, before), parse_note(path, after)
    except NoteError:
        return False
    return (
        flagged(old)
        and not flagged(new)
        and not has_markers(new.body)
        and kept_outside(old.body, new.body)
    )


def _dropped_lines(before: str, after: str) -> tuple[int, int]:
    """(lines of `before`'s body missing from `after`'s body, lines of `before`'s body)."""
    from wikimem.wiki import notemeta

    old = [ln.strip() for ln in notemeta.split(before)[1].splitlines() if ln.strip()]
    new = {ln.strip() for ln in notemeta.split(after)[1].splitlines() if ln.strip()}
    return sum(1 for ln in old if ln not in new), len(old)


@dataclass(frozen=True)
class _PreOutcome:
    blocked: str | None = None
    warning: str | None = None
    updated: str | None = None
