"""Pitfalls: a command that failed, then the change that made it pass, with the agent's reason.

Contract: `find_pitfalls(records)` pairs a failing shell command with a later passing run of the
same command (or of the same tool on the same target: `npm test` then `npm test -- --runInBand`),
and keeps what happened in between: the files edited, the error, and from the agent's messages
the sentences that explain the cause or the fix (wherever they are in the message, not only its
first two sentences). `pitfall_text` renders one as a standalone claim starting with the
command in backticks, so a newer pitfall on the same command replaces the older (`same_pitfall`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wikimem.dream.commands import command_kind, read_only
from wikimem.dream.render import clip, error_excerpt, shell_command, shell_outcome, touched_files

MAX_EXPLANATION = 420
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_CAUSE = re.compile(
    r"\b(?:because|caused by|the (?:root )?cause|the (?:problem|issue|bug|error) (?:was|is)|"
    r"turned out|was missing|were missing|wasn'?t|was not|weren'?t|were not|already existed|"
    r"already exists|needed|needs|need to|required|requires|so (?:alembic|it|the|we)|had each|"
    r"instead of|so that|which (?:made|makes)|conflict|clash|collid)\b",
    re.IGNORECASE,
)
_FIX = re.compile(
    r"\b(?:I (?:installed|made|changed|added|removed|set|pinned|bumped|downgraded|upgraded|"
    r"renamed|moved|updated|replaced|switched|ran|used|created|merged|deleted|reverted|"
    r"increased|lowered|raised)|running `|by running|with `|use `|the fix|fixed (?:it|this|by)|"
    r"after (?:adding|setting|changing|removing|running|installing))\b",
    re.IGNORECASE,
)
_OUTCOME = re.compile(
    r"\b(?:pass(?:es)? now|now pass|are applied|is applied|runs? cleanly|works now|all \d+ .{0,30}pass|"
    r"is fixed|are fixed|succeeds now|is green|are green|done)\b",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"^(?:great|done|perfect|all set|ok(?:ay)?|sure|good news|let me know|i'?ll|i will|"
    r"here'?s|here is|summary)\b",
    re.IGNORECASE,
)


@dataclass
class Pitfall:
    command: str
    error: str
    fixed_by: str  # the command that passed
    files: list[str] = field(default_factory=list)
    explanation: str = ""
    ran: list[str] = field(default_factory=list)  # commands that worked in between
    acted: int = 0  # commands that changed something in between, whatever they touched


# What a fix may edit and still be about the environment, not the code under work: build and
# tool configuration, dependencies, CI, containers, environment files.
_SETUP_FILE = re.compile(
    r"(?:^|/)(?:Makefile|GNUmakefile|justfile|Justfile|Dockerfile[\w.-]*|docker-compose[\w.-]*|"
    r"compose[\w.-]*\.ya?ml|\.env[\w.-]*|\.tool-versions|\.python-version|\.nvmrc|"
    r"\.node-version|\.terraform-version|[\w.-]+\.(?:toml|ya?ml|json|cfg|ini|lock|conf|mk)|"
    r"requirements[\w.-]*\.txt|setup\.py|go\.mod|go\.sum|Gemfile[\w.]*|\.github/[\w./-]+|"
    r"conftest\.py|tsconfig[\w.-]*\.json)$"
)


# An error that says how the environment bites (a module, a tool, a limit, a version, a port),
# unlike an assertion or a lint finding about the code under work.
_ENVIRONMENT = re.compile(
    r"(?i)\b(?:modulenotfound|no module named|importerror|command not found|not found in path|"
    r"no such file|permission denied|eacces|econnrefused|connection refused|exceeds?|maximum|"
    r"minimum|max(?:imum)? \d|must be|requires?|required|unsupported|not supported|"
    r"unrecognized|invalid option|version|out of memory|oom|address already in use|"
    r"port \d+ (?:is )?in use|certificate|ssl|tls|rate limit|quota|timed? ?out|not installed|"
    r"missing (?:env|environment|variable|dependency|module|package))\b"
)


def _a_bug_fixed(pitfall: Pitfall) -> bool:
    """A failure fixed in the session by editing the code under work, or found by a one-off run
    (one test, one file): the bug the session fixed, told in its digest. A pitfall is a trap of
    the environment: what fixed it was a command (`pip install -e .`) or a setup file."""
    from wikimem.dream.commands import one_off

    if one_off(pitfall.command, command_kind(pitfall.command) or "test"):
        return True  # one test, one file, one package: a run of the moment
    if pitfall.ran or _ENVIRONMENT.search(pitfall.error):
        return False  # "No module named …", "exceeds provider max 900": how the setup bites
    return bool(pitfall.files) and not any(_SETUP_FILE.search(f) for f in pitfall.files)


def base_of(command: str) -> str:
    """The tool and what it runs, without the options: `npm test -- --x` → `npm test`."""
    words = [w for w in command.split() if not w.startswith("-")]
    return " ".join(words[:2]) if words else command


# Runners that start another tool: the tool is the word after them.
_RUNNERS = frozenset("npx bunx pnpx uvx exec run poetry uv pipenv bundle".split())
_TARGET = re.compile(r"[\w.-]*/[\w./-]+|[\w-]+\.\w{1,5}(?:::\w+)?")


def tool_of(command: str) -> str:
    words = command.split()
    while len(words) > 1 and words[0] in _RUNNERS:
        words = words[1:]
    return words[0] if words else ""


def targets_of(command: str) -> frozenset[str]:
    """The files or paths a command runs on (`src/widgets/Widget30.test.tsx`)."""
    return frozenset(
        w for w in command.split()[1:] if not w.startswith("-") and _TARGET.fullmatch(w)
    )


def same_run(failed: str, passed: str) -> bool:
    """Whether a passing command reruns what failed: the same tool and what it runs, on the
    same targets (another test file passing fixes nothing about this one), or on everything."""
    if base_of(failed) != base_of(passed):
        return False
    a, b = targets_of(failed), targets_of(passed)
    return a == b or not b


def explain(messages: Sequence[str]) -> str:
    """The sentences of the agent's messages that say why it failed and what fixed it, in their
    order, wherever they are in the message; sentences that only report success come last."""
    scored: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    for message in messages:
        for sentence in _SENTENCE.split(" ".join(message.split())):
            s = sentence.strip()
            if len(s) < 12 or _FILLER.match(s) or s in seen:
                continue
            seen.add(s)
            score = (
                2 * bool(_CAUSE.search(s)) + 2 * bool(_FIX.search(s)) - 2 * bool(_OUTCOME.search(s))
            )
            scored.append((score, len(scored), s))
    if not scored:
        return ""
    best = sorted((x for x in scored if x[0] > 0), key=lambda x: (-x[0], x[1]))
    if not best:
        best = sorted(scored, key=lambda x: (-x[0], x[1]))[:2]
    chosen: list[tuple[int, str]] = []
    used = 0
    for _, order, s in best:
        if used + len(s) + 1 > MAX_EXPLANATION:
            continue
        chosen.append((order, s))
        used += len(s) + 1
    return " ".join(s for _, s in sorted(chosen)) or clip(best[0][2], MAX_EXPLANATION)


def find_pitfalls(records: Sequence[dict[str, Any]]) -> list[Pitfall]:
    failing: dict[str, Pitfall] = {}  # base of the failing command -> what happened since
    messages: dict[str, list[str]] = {}
    found: list[tuple[Pitfall, list[str]]] = []
    for r in records:
        event = r.get("event")
        if event in ("Stop", "AssistantMessage") and isinstance(r.get("message"), str):
            for base in failing:
                messages[base].append(r["message"])
            for _, later in found:
                if len(later) < 3:
                    later.append(r["message"])
            continue
        if event not in ("PostToolUse", "PostToolUseFailure"):
            continue
        command = shell_command(r)
        if command:
            outcome = shell_outcome(r)
            base = base_of(command)
            if outcome == "failed":
                if base not in failing:
                    failing[base] = Pitfall(command, error_excerpt(r), command)
                    messages[base] = []
            elif base in failing and same_run(failing[base].command, command):
                pitfall = failing.pop(base)
                pitfall.fixed_by = command
                found.append((pitfall, messages.pop(base)))
            elif not read_only(command):
                for pending in failing.values():
                    pending.acted += 1
                    # e.g. `pip install -e .` before the rerun; only a command that touches
                    # what failed (its tool, a word of the command or of its error) can have
                    # fixed it: the next command run is not a cause
                    if command not in pending.ran and _touches(command, pending):
                        pending.ran.append(command)
            continue
        for pending in failing.values():
            pending.files.extend(f for f in touched_files(r) if f not in pending.files)
    out = []
    for pitfall, said in found:
        if _a_bug_fixed(pitfall):
            continue  # the session's work: its digest tells it, no trap for the next one
        if pitfall.fixed_by == pitfall.command and not (pitfall.acted or pitfall.files):
            continue  # the same command passed on a plain retry: a blip, nothing to avoid
        pitfall.explanation = explain(said)
        out.append(pitfall)
    for base, pitfall in failing.items():
        if _a_bug_fixed(Pitfall(pitfall.command, pitfall.error, "", [], "", [])):
            continue
        # Never fixed in the session: worth keeping only with the agent's account of the cause
        # ("the local database has no ledger_entries table"), never with an invented fix. A
        # failing test left failing is the work in progress (a bug), not a pitfall.
        if command_kind(pitfall.command) == "test":
            continue
        cause = explain_cause(messages.get(base, []))
        if cause:
            pitfall.fixed_by = ""
            pitfall.files, pitfall.ran = [], []
            pitfall.explanation = cause
            out.append(pitfall)
    return out


def explain_cause(messages: Sequence[str]) -> str:
    """The sentences of the agent's messages that say why something failed (no fix claimed)."""
    found: list[str] = []
    used = 0
    for message in messages:
        for sentence in _SENTENCE.split(" ".join(message.split())):
            s = sentence.strip()
            if len(s) >= 12 and _CAUSE.search(s) and not _FILLER.match(s) and s not in found:
                if used + len(s) > MAX_EXPLANATION:
                    break
                found.append(s)
                used += len(s) + 1
    return " ".join(found)


_WORD = re.compile(r"[A-Za-z_][\w.-]{3,}")
_GENERIC = frozenset(
    """test tests true false error errors failed fail failure exit code line file files found
    none null with from that this then install build check lint python python3 node main
    src lib run --""".split()
)


def _words(text: str) -> set[str]:
    return {w.lower().strip(".-") for w in _WORD.findall(text)} - _GENERIC


def _touches(command: str, pending: Pitfall) -> bool:
    """Whether `command` acts on what failed: the same tool, or a distinctive word of the
    failing command or of its error (a module, a package, a file, a setting)."""
    if tool_of(command) == tool_of(pending.command):
        return True
    return bool(_words(command) & (_words(pending.command) | _words(pending.error)))


def pitfall_text(p: Pitfall) -> str:
    text = f"`{clip(p.command, 160)}` failed"
    if p.error:
        text += f" ({clip(p.error, 200)})"
    fixes = []
    if p.ran:
        fixes.append("running " + ", ".join(f"`{clip(c, 100)}`" for c in p.ran[-3:]))
    if p.files:
        fixes.append("editing " + ", ".join(f"`{f}`" for f in p.files[:4]))
    if fixes:
        text += "; fixed by " + " and ".join(fixes)
    if not p.fixed_by:
        text += "; not fixed in that session"
    elif p.fixed_by != p.command:
        text += f"; `{clip(p.fixed_by, 120)}` passed"
    text += "."
    if p.explanation:
        text += f" {p.explanation}"
    return clip(text, 700)


_LEAD = re.compile(r"^`([^`]+)`")


def same_pitfall(new: str, old: str) -> bool:
    a, b = _LEAD.match(new), _LEAD.match(old)
    return bool(a and b and base_of(a.group(1)) == base_of(b.group(1)))
