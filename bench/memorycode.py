"""MemoryCode (development split) end to end: do a mentor's latest coding conventions reach the
agent, and do the superseded ones stay out?

The data: MemoryCode's development split (Cohere Labs, Apache-2.0), 120 dialogues in which a
mentor gives a mentee coding conventions amid small talk over 1 to 100 sessions and updates some
of them; read from ../shared/benchmarks/memorycode-dev (or --data), never copied here.

Each dialogue is one person's home (a fresh home per dialogue) and one project (a git repository
`dialogue-<n>`). Each of its sessions is one Claude Code session through the installed hook
command, on its own day (2026-01-05, then one day later per session; the records are re-dated as
`wikimem eval` does): the mentor's turns are the person's prompts, the mentee's reply is the
agent's final message (Stop). A turn is `Name: words`; paragraphs without a name continue the
turn before; two turns of one speaker in a row are one turn; a session opened by the mentee gets
an empty first prompt. `wikimem dream --backend offline` runs after every session. The day after
the last session, each of the last session's final coding tasks (`history_eval_query`) is the
first prompt of a new session; what session start and the prompt hook gave the agent (default
budgets: 8,000 + 3,000 characters) is scored.

The baseline, in the same run and scored the same way: BM25 over the dialogue's raw turns (every
session, `Name: words`; bench/_bm25.py), queried with the task, each hit with the turn before and
after it, best first until 11,000 characters: the same budget as wikimem's session start and
prompt together.

What is scored, for every coding instruction in effect at the end (its latest version; earlier
versions of the same instruction id, from the per-session `instructions`, are its old values):
  - latest present: the distinctive part of the check (below) stated in the text given for any
    of the tasks (also per task), matched loosely (`wikimem.evaluate.scoring.matcher`), not
    under a past heading, struck through or quoted after a past marker;
  - old offered: an old value stated in that text as current (`scoring.current_occurrences`:
    also not in a clause a past marker opens, "was '_x' until …");
  - clean (updated instructions): latest present, no old value offered;
  - the same three per task: every task is code that every convention in effect applies to, so
    each task's own text is scored too (the figures above take any task's text);
  - chit-chat lines: claim lines (bullets, table rows) of wikimem's living notes that hold no
    value of any of the dialogue's instructions, any version (the small talk's, and the
    non-coding instructions' like "use Trello"); each dumped to --out for reading.

The checks, and their distinctive part:
  - a name pattern (variable, function, function argument, method, attribute, class):
    `^x_.*` a prefix 'x_', `.*_x$` a suffix '_x', `.*chx.*` a string 'chx' in the name,
    `.*\\d$` "a single digit" (digit), CamelCase / snake_case / all UPPERCASE (class names);
  - `true` for an element (annotations, asserts, docstrings, try statements, comments): the
    element's word ("annotation", "type hints", "assert", "docstring", "try statement",
    "try/except", "comment");
  - `[name, true]` for a decorator or import: the name, on a line that also says
    decorator/pedantic/@ (decorators) or import/module (imports): "timer" alone is small talk.
  A value two instructions of a dialogue share (a digit in function names and in variable names)
  counts only where said of the instruction's object: the object named in the value's clause,
  else the nearest in its line (a line naming none counts for both).

Why an instruction fails (wikimem only): not injected (its latest value is stated in a living
note but not in what the tasks were given: budget or ranking); value mangled (no living note
holds it, but a line dated to the session that gave it names its object or says "instruction",
"convention", "update", "naming", "prefix", "suffix" or "decorator", and holds no other
instruction's value: "I want to update a previous instruction."; a heuristic); not captured
(neither); old still current (the latest arrives, and so does an old value).
`--rescore RESULT --keep-homes DIR` scores a kept run again without replaying it.

    python bench/memorycode.py [--data DIR] [--dialogues N|all] [--pick spread|first]
                               [--jobs N] [--keep-homes DIR] [--out FILE] [--rescore RESULT]

`--dialogues 36` (the default) is a sample spread evenly over the split: the split is numbered in
order of length (10 dialogues of 1 session, 10 of 2, …, 10 of 100), so `--pick spread` takes 3 of
every length and `--pick first` the 36 shortest.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import _bm25  # noqa: E402
from _common import machine, table  # noqa: E402

from wikimem.evaluate import scoring  # noqa: E402
from wikimem.evaluate.clients import Turn  # noqa: E402
from wikimem.evaluate.replay import Answer  # noqa: E402

DATA = REPO.parent / "shared" / "benchmarks" / "memorycode-dev"
FIRST_DAY = date(2026, 1, 5)
CLIENT = "claude"
PROJECT = "project"
START_CHARS, PROMPT_CHARS = 8000, 3000  # wikimem's defaults, which the homes keep
BUDGET = START_CHARS + PROMPT_CHARS
NEIGHBOURS = 1
DEFAULT_DIALOGUES = 36
FAILURES = ("not captured", "value mangled", "not injected", "old still current")

# -- the checks ----------------------------------------------------------------------------------

_NAME = r"([A-Za-z0-9_]+)"
_PREFIX = re.compile(rf"^\^{_NAME}\.\*$")
_SUFFIX = re.compile(rf"^\.\*{_NAME}\$$")
_CONTAINS = re.compile(rf"^\.\*{_NAME}\.\*$")
_STYLES = {
    r".*\d$": ("a single digit in the name", ("digit", "digits")),
    r"^[a-z0-9_]*$": ("snake_case", ("snake_case", "snake case")),
    r"^[A-Z][a-z0-9]*((\d|[a-z])[A-Z\d]*[a-z0-9]*)*$": ("CamelCase", ("camelcase", "camel case")),
    r"\b[A-Z][A-Z0-9_]*\b": ("all UPPERCASE", ("uppercase", "upper case", "all caps")),
}
_ELEMENTS = {
    "annotation": ("annotation", "annotations", "type hint", "type hints", "annotate"),
    "assert": ("assert", "asserts", "assertion", "assertions"),
    "docstring": ("docstring", "docstrings"),
    "try": (
        "try statement",
        "try statements",
        "try block",
        "try blocks",
        "try except",
        "try catch",
    ),
    "comment": ("comment", "comments"),
}
_CONTEXT = {"decorator": r"decorat|pedantic|@", "import": r"\bimport|\bmodule"}
_ARGUMENT = r"(?:arguments?|args?|parameters?|params?)\b"
_OBJECTS = {
    "argument": re.compile(rf"\b{_ARGUMENT}"),
    "function": re.compile(rf"\bfunctions?\b(?!\s+{_ARGUMENT})"),
    "method": re.compile(r"\bmethods?\b"),
    "variable": re.compile(r"\bvariables?\b"),
    "attribute": re.compile(r"\battributes?\b"),
    "class": re.compile(r"\bclass(?:es)?\b"),
}
_INSTRUCTION_WORDS = re.compile(
    r"\b(?:instructions?|conventions?|naming|updat\w*|prefix|suffix|decorators?)\b",
    re.I,
)


@dataclass(frozen=True)
class Check:
    """One version of a coding instruction: what the data checks and what stands for it in text."""

    kind: str  # the data's object kind: "variable", "method decorator", "import", ...
    raw: str  # the data's check, as JSON
    meaning: str  # "variable names start with 'x_'"
    needles: tuple[str, ...]  # any of these, matched with scoring.matcher
    context: str = ""  # a regex the same line must match too
    target: str | None = None  # the object it is said of: "function", "argument", ...

    def same_value(self, other: Check) -> bool:
        return self.needles == other.needles and self.context == other.context


def target_of(kind: str) -> str | None:
    if kind.startswith("function argument"):
        return "argument"
    head = kind.split()[0]
    return head if head in _OBJECTS else None


def parse_check(kind: str, check: Any) -> Check:
    """The data's `[kind, check]` as a Check; a shape not known here is an error (the data
    changed: say so rather than score it wrongly)."""
    raw = json.dumps(check)
    target = target_of(kind)
    if isinstance(check, str):
        for rx, shape in ((_PREFIX, "start with"), (_SUFFIX, "end with"), (_CONTAINS, "contain")):
            m = rx.match(check)
            if m:
                return Check(
                    kind, raw, f"{kind} names {shape} '{m.group(1)}'", (m.group(1),), "", target
                )
        if check in _STYLES:
            what, needles = _STYLES[check]
            return Check(kind, raw, f"{kind} names: {what}", needles, "", target)
    elif isinstance(check, bool):
        element = kind.split()[-1]
        if element in _ELEMENTS:
            verb = "always" if check else "never"
            return Check(kind, raw, f"{kind}: {verb}", _ELEMENTS[element], "", target)
    elif isinstance(check, list) and len(check) == 2 and isinstance(check[0], str):
        name, wanted = check
        what = "decorator" if kind.endswith("decorator") else "import" if kind == "import" else ""
        if what:
            verb = "always" if wanted else "never"
            return Check(kind, raw, f"{kind} '{name}': {verb}", (name,), _CONTEXT[what], target)
    raise ValueError(f"unknown MemoryCode check {kind!r}: {raw}")


# -- the data --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Version:
    session: int  # 0-based
    check: Check
    topic: str


@dataclass(frozen=True)
class Instruction:
    id: int
    versions: tuple[Version, ...]

    @property
    def latest(self) -> Check:
        return self.versions[-1].check

    @property
    def updated(self) -> bool:
        return len(self.versions) > 1

    @property
    def old(self) -> tuple[Check, ...]:
        """Earlier values that differ from the latest one, each once."""
        out: list[Check] = []
        for v in self.versions[:-1]:
            if not v.check.same_value(self.latest) and not any(v.check.same_value(o) for o in out):
                out.append(v.check)
        return tuple(out)


@dataclass(frozen=True)
class Dialogue:
    number: int
    mentor: str
    mentee: str
    sessions: tuple[tuple[Turn, ...], ...]
    turns: tuple[str, ...]  # every session's turns as said, `Name: words` (the baseline's corpus)
    instructions: tuple[Instruction, ...]  # every coding instruction, in effect at the end
    queries: tuple[str, ...]


def split_turns(text: str, mentor: str, mentee: str) -> list[tuple[str, str]]:
    """(speaker, words) in order: unnamed paragraphs continue the turn before, and two turns of
    one speaker in a row are one."""
    out: list[tuple[str, str]] = []
    for chunk in (c.strip() for c in re.split(r"\n\s*\n", text)):
        if not chunk:
            continue
        for name in (mentor, mentee):
            if chunk.startswith(name + ":"):
                speaker, words = name, chunk[len(name) + 1 :].strip()
                break
        else:
            if not out:
                speaker, words = mentor, chunk
            else:
                speaker, words = out[-1][0], chunk
        if out and out[-1][0] == speaker:
            out[-1] = (speaker, out[-1][1] + "\n\n" + words)
        else:
            out.append((speaker, words))
    return out


def session_turns(said: list[tuple[str, str]], mentor: str) -> tuple[Turn, ...]:
    """Claude Code turns: each mentor turn a prompt, the mentee's reply its final message."""
    turns: list[Turn] = []
    i = 0
    while i < len(said):
        speaker, words = said[i]
        if speaker == mentor:
            reply = said[i + 1][1] if i + 1 < len(said) else ""
            turns.append(Turn(words, (), reply))
            i += 2
        else:  # the mentee opened the session
            turns.append(Turn("", (), words))
            i += 1
    return tuple(turns)


def load_dialogue(path: Path) -> Dialogue:
    data = json.loads(path.read_text(encoding="utf-8"))
    mentor, mentee = data["context"]["mentor"], data["context"]["mentee"]
    sessions: list[tuple[Turn, ...]] = []
    turns: list[str] = []
    history: dict[int, list[Version]] = {}
    for k, s in enumerate(data["sessions"]):
        said = split_turns(s["text"], mentor, mentee)
        sessions.append(session_turns(said, mentor))
        turns.extend(f"{who}: {words}" for who, words in said)
        ids = [x for x in data["instructions"][k] if x != -1]
        topics = [
            t
            for kind, t in zip(s["type"], s["topic"], strict=True)
            if kind.startswith("instruction")
        ]
        if not (len(ids) == len(s["session_regex"]) == len(topics)):
            raise ValueError(f"{path.name} session {k}: instructions and checks do not pair up")
        for (iid, _version), (kind, check), topic in zip(
            ids, s["session_regex"], topics, strict=True
        ):
            history.setdefault(iid, []).append(Version(k, parse_check(kind, check), topic))
    last = data["sessions"][-1]
    instructions = tuple(Instruction(i, tuple(v)) for i, v in history.items())
    expected = sorted(json.dumps(x) for x in last["history_regex"])
    if (
        sorted(json.dumps([i.latest.kind, json.loads(i.latest.raw)]) for i in instructions)
        != expected
    ):
        raise ValueError(f"{path.name}: the latest versions are not the final history_regex")
    number = int(re.sub(r"\D", "", path.stem))
    return Dialogue(
        number,
        mentor,
        mentee,
        tuple(sessions),
        tuple(turns),
        instructions,
        tuple(last["history_eval_query"]),
    )


def dialogue_files(data: Path, count: int | None, pick: str) -> list[Path]:
    files = sorted(data.glob("dialogue_*.json"), key=lambda p: int(re.sub(r"\D", "", p.stem)))
    if count is None or count >= len(files):
        return files
    if pick == "first":
        return files[:count]
    return [files[int((j + 0.5) * len(files) / count)] for j in range(count)]


def day_of(session: int) -> str:
    return (FIRST_DAY + timedelta(days=session)).isoformat()


# -- finding values in text ----------------------------------------------------------------------


_SENTENCE_END = re.compile(r"[.!?]\s|;")


def _said_of(line: str, needle: str, target: str) -> bool:
    """Whether an occurrence of `needle` in `line` is said of `target`. The objects named in its
    clause decide; else the nearest one named before it in its sentence ("When naming
    attributes, always include a digit"), else after it ("a 'x_' prefix for functions"), else
    anywhere in the line; a line naming no object at all says it of every one."""
    lowered = line.lower()
    named = [(m.start(), t) for t, rx in _OBJECTS.items() for m in rx.finditer(lowered)]
    if not named:
        return True

    def bounds(rx: re.Pattern[str], start: int, end: int) -> tuple[int, int]:
        left = 0
        for b in rx.finditer(lowered, 0, start):
            left = b.end()
        nxt = rx.search(lowered, end)
        return left, nxt.start() if nxt else len(lowered)

    for m in scoring.matcher(needle).finditer(lowered):
        for rx in (scoring.BOUNDARY, _SENTENCE_END):
            left, right = bounds(rx, m.start(), m.end())
            before = [(p, t) for p, t in named if left <= p < m.start()]
            after = [(p, t) for p, t in named if m.end() <= p < right]
            if rx is scoring.BOUNDARY:
                chosen = {t for _, t in before + after}
            else:
                chosen = {max(before)[1]} if before else {min(after)[1]} if after else set()
            if chosen:
                break
        else:
            chosen = {min(named, key=lambda h: abs(h[0] - m.start()))[1]}
        if target in chosen:
            return True
    return False


def stated(text: str, check: Check, shared: bool, current: bool) -> list[str]:
    """Lines of `text` stating `check`'s value: never on a heading, under a past heading, struck
    through or quoted after a past marker; with `current`, not in a clause a past marker opens
    either (an old value "was '_x' until …" is not offered)."""
    out: list[str] = []
    for needle in check.needles:
        for line in scoring.current_occurrences(text, needle, clauses=current):
            if check.context and not re.search(check.context, line, re.I):
                continue
            if shared and check.target and not _said_of(line, needle, check.target):
                continue
            if line not in out:
                out.append(line)
    return out


def shared_values(dialogue: Dialogue) -> set[tuple[int, str]]:
    """(instruction id, needle) pairs whose needle another instruction of the dialogue uses."""
    users: dict[str, set[int]] = {}
    for ins in dialogue.instructions:
        for v in ins.versions:
            for n in v.check.needles:
                users.setdefault(n, set()).add(ins.id)
    return {(i, n) for n, ids in users.items() if len(ids) > 1 for i in ids}


def holds_any_value(line: str, dialogue: Dialogue, but: int | None = None) -> bool:
    """Whether `line` holds a value, any version, of the dialogue's instructions (but one)."""
    return any(
        scoring.present(line, v.check.needles)
        for ins in dialogue.instructions
        if ins.id != but
        for v in ins.versions
    )


# -- scoring ------------------------------------------------------------------------------------


@dataclass
class Scored:
    """One instruction against the texts one system gave for the dialogue's tasks."""

    id: int
    kind: str
    latest: str
    topic: str
    updated: bool
    old: list[str]
    present: bool  # in the text given for any task
    present_per_query: list[bool]
    old_offered: list[str]  # old values offered as current (any task)
    old_per_query: list[bool]  # an old value offered as current, task by task
    old_lines: list[str]
    clean: bool  # latest present and no old value offered
    failure: str | None = None  # wikimem only: why it failed (FAILURES)
    notes_held: list[str] | None = None  # wikimem only: living-note lines about it


def score_texts(dialogue: Dialogue, texts: Sequence[str]) -> list[Scored]:
    shared = shared_values(dialogue)
    out: list[Scored] = []
    for ins in dialogue.instructions:
        latest = ins.latest
        is_shared = any((ins.id, n) in shared for n in latest.needles)
        per_query = [bool(stated(t, latest, is_shared, current=False)) for t in texts]
        offered: list[str] = []
        lines: list[str] = []
        old_per_query = [False] * len(texts)
        for old in ins.old:
            old_shared = any((ins.id, n) in shared for n in old.needles)
            found = [stated(t, old, old_shared, current=True) for t in texts]
            for q, lns in enumerate(found):
                old_per_query[q] = old_per_query[q] or bool(lns)
            flat = [ln for lns in found for ln in lns]
            if flat:
                offered.append(old.meaning)
                lines.extend(ln for ln in flat[:2] if ln not in lines)
        present = any(per_query)
        out.append(
            Scored(
                ins.id,
                latest.kind,
                latest.meaning,
                ins.versions[-1].topic,
                ins.updated,
                [o.meaning for o in ins.old],
                present,
                per_query,
                offered,
                old_per_query,
                lines[:4],
                present and not offered,
            )
        )
    return out


_PROVENANCE_DAY = re.compile(r"\|[^|\]]*?(\d{4}-\d\d-\d\d)\]\]")
_CLAIM_LINE = re.compile(r"^(?:[-*+]|\d+\.)\s|^\|")


def living_lines(notes: Sequence[scoring.Note]) -> list[tuple[str, str]]:
    """(path, line) of every claim line of the living notes: bullets and table rows."""
    return [
        (n.path, line)
        for n in notes
        if n.living
        for line in scoring.note_lines(n.body)
        if _CLAIM_LINE.match(line)
    ]


def classify(dialogue: Dialogue, scored: list[Scored], lines: list[tuple[str, str]]) -> None:
    """Why each wikimem failure failed (`Scored.failure`), and what the notes held about it."""
    shared = shared_values(dialogue)
    by_id = {i.id: i for i in dialogue.instructions}
    notes_text = "\n".join(line for _, line in lines)
    for s in scored:
        ins = by_id[s.id]
        latest = ins.latest
        is_shared = any((ins.id, n) in shared for n in latest.needles)
        held = stated(notes_text, latest, is_shared, current=False)
        given_on = {day_of(v.session) for v in ins.versions if v.check.same_value(latest)}
        target = _OBJECTS.get(latest.target or "")
        about: list[str] = []
        for _, line in lines:
            if line in held:
                continue
            days = set(_PROVENANCE_DAY.findall(line))
            if not days & given_on:
                continue
            names_it = bool(target and target.search(line.lower()))
            if (names_it or _INSTRUCTION_WORDS.search(line)) and not holds_any_value(
                line, dialogue, but=ins.id
            ):
                about.append(line)
        s.notes_held = held[:3] or about[:3]
        if not s.present:
            s.failure = "not injected" if held else "value mangled" if about else "not captured"
        elif s.old_offered:
            s.failure = "old still current"


# -- one dialogue -----------------------------------------------------------------------------


def run_dialogue(path: str, work: str) -> dict[str, Any]:
    """Replay one dialogue into a fresh home under `work`, ask its tasks, score both systems."""
    from wikimem.evaluate.replay import Replayer
    from wikimem.home import Home

    started = time.perf_counter()
    dialogue = load_dialogue(Path(path))
    replayer = Replayer(Path(work), [], ["--backend", "offline"], {})
    replayer.add_project(PROJECT, f"dialogue-{dialogue.number}")
    replayer.init_home()
    for k, turns in enumerate(dialogue.sessions):
        with replayer.dated(day_of(k)):
            replayer.replay_turns(CLIENT, PROJECT, turns)
        replayer.dream(day_of(k))
    with replayer.dated(day_of(len(dialogue.sessions))):
        answers = [replayer.open_session(CLIENT, PROJECT, q) for q in dialogue.queries]
    run = replayer.finish()
    notes = scoring.read_notes(Home(replayer.home).memory_dir)
    return {
        **score_dialogue(dialogue, answers, notes),
        "hook_calls": run.hook_calls,
        "slow_hooks": run.slow_hooks,
        "dreams": len(run.dreams),
        "cli_errors": run.cli_errors,
        "errors_log": run.errors_log,
        "seconds": time.perf_counter() - started,
    }


def score_dialogue(
    dialogue: Dialogue, answers: Sequence[Answer], notes: Sequence[scoring.Note]
) -> dict[str, Any]:
    """Both systems scored on one replayed dialogue: wikimem from what its tasks were given
    (`answers`) and the home's notes, the baseline computed here."""
    lines = living_lines(notes)
    ours = score_texts(dialogue, [a.text for a in answers])
    classify(dialogue, ours, lines)
    at_start = score_texts(dialogue, [a.start for a in answers])
    baseline_texts = [
        _bm25.search(dialogue.turns, q, (BUDGET,), NEIGHBOURS)[BUDGET] for q in dialogue.queries
    ]
    theirs = score_texts(dialogue, baseline_texts)
    chit_chat = [
        {"path": p, "line": line} for p, line in lines if not holds_any_value(line, dialogue)
    ]
    return {
        "dialogue": dialogue.number,
        "sessions": len(dialogue.sessions),
        "queries": list(dialogue.queries),
        "wikimem": [asdict(s) for s in ours],
        "wikimem_at_session_start": [s.present for s in at_start],
        "bm25": [asdict(s) for s in theirs],
        "living_lines": len(lines),
        "chit_chat": chit_chat,
        "injected": [
            {"start_chars": len(a.start), "prompt_chars": len(a.prompt), "text": a.text}
            for a in answers
        ],
        "bm25_chars": [len(t) for t in baseline_texts],
    }


def rescore(previous: dict[str, Any], data: Path, homes: Path) -> dict[str, Any]:
    """A result of an earlier run (`--out`) scored again by this code, from what its tasks were
    given (kept in the result) and its home's notes (kept by `--keep-homes`): no replay."""
    from wikimem.home import Home

    dialogue = load_dialogue(data / f"dialogue_{previous['dialogue']}.json")
    answers = []
    for given in previous["injected"]:
        start, text = given["start_chars"], given["text"]
        if start and given["prompt_chars"]:
            answers.append(Answer(text[:start], text[start + 1 :]))
        else:
            answers.append(Answer(text, "") if start else Answer("", text))
    home = Home(str(homes / f"dialogue_{previous['dialogue']}" / "home"))
    scored = score_dialogue(dialogue, answers, scoring.read_notes(home.memory_dir))
    return {**previous, **scored}


def _run_one(args: tuple[str, str, bool]) -> dict[str, Any]:
    path, root, keep = args
    work = Path(root) / Path(path).stem
    if keep:
        work.mkdir(parents=True, exist_ok=False)
        return run_dialogue(path, str(work))
    with tempfile.TemporaryDirectory(prefix=f"wikimem-mc-{Path(path).stem}-") as tmp:
        return run_dialogue(path, tmp)


def run_all(files: Sequence[Path], jobs: int, keep: Path | None) -> list[dict[str, Any]]:
    """Every dialogue's result, in the order of `files`; progress on stderr."""
    root = str(keep) if keep else ""
    tasks = [(str(f), root, keep is not None) for f in files]

    def done(r: dict[str, Any]) -> dict[str, Any]:
        print(
            f"  dialogue_{r['dialogue']}: {r['sessions']} sessions, {r['seconds']:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        return r

    if jobs <= 1:
        return [done(_run_one(t)) for t in tasks]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_run_one, t) for t in tasks]
        for f in as_completed(futures):
            done(f.result())
        return [f.result() for f in futures]


# -- the report -------------------------------------------------------------------------------


def summarise(results: Sequence[dict[str, Any]], system: str) -> dict[str, Any]:
    scored = [s for r in results for s in r[system]]
    updated = [s for s in scored if s["updated"]]
    pairs = [p for s in scored for p in s["present_per_query"]]
    updated_pairs = [
        (p, o)
        for s in updated
        for p, o in zip(s["present_per_query"], s["old_per_query"], strict=True)
    ]
    out: dict[str, Any] = {
        "dialogues": len(results),
        "instructions": len(scored),
        "updated": len(updated),
        "latest_present": sum(s["present"] for s in scored),
        "latest_present_per_query": [sum(pairs), len(pairs)],
        "latest_present_updated": sum(s["present"] for s in updated),
        "old_offered_updated": sum(bool(s["old_offered"]) for s in updated),
        "clean_updated": sum(s["clean"] for s in updated),
        "per_query_updated": {
            "tasks": len(updated_pairs),
            "latest_present": sum(p for p, _ in updated_pairs),
            "old_offered": sum(o for _, o in updated_pairs),
            "clean": sum(p and not o for p, o in updated_pairs),
        },
    }
    if system == "wikimem":
        out["living_lines"] = sum(r["living_lines"] for r in results)
        out["chit_chat_lines"] = sum(len(r["chit_chat"]) for r in results)
        out["latest_present_at_session_start"] = sum(
            sum(r["wikimem_at_session_start"]) for r in results
        )
        out["failures"] = dict(Counter(s["failure"] for s in scored if s["failure"]))
        out["failures_updated"] = dict(Counter(s["failure"] for s in updated if s["failure"]))
    return out


def _share(n: int, d: int) -> str:
    return f"{n}/{d} ({n / d:.2f})" if d else "—"


def _per_task(summary: dict[str, Any], key: str) -> str:
    per = summary["per_query_updated"]
    return _share(per[key], per["tasks"])


def report(results: Sequence[dict[str, Any]]) -> str:
    ours, theirs = summarise(results, "wikimem"), summarise(results, "bm25")
    rows = []
    for label, fn in (
        ("dialogues", lambda s: str(s["dialogues"])),
        ("instructions", lambda s: str(s["instructions"])),
        ("updated instructions", lambda s: str(s["updated"])),
        ("latest present (all)", lambda s: _share(s["latest_present"], s["instructions"])),
        ("per task: latest present (all)", lambda s: _share(*s["latest_present_per_query"])),
        ("latest present (updated)", lambda s: _share(s["latest_present_updated"], s["updated"])),
        ("old offered (updated)", lambda s: _share(s["old_offered_updated"], s["updated"])),
        ("clean-updated", lambda s: _share(s["clean_updated"], s["updated"])),
        ("per task: latest present (updated)", lambda s: _per_task(s, "latest_present")),
        ("per task: old offered (updated)", lambda s: _per_task(s, "old_offered")),
        ("per task: clean (updated)", lambda s: _per_task(s, "clean")),
    ):
        rows.append([label, fn(ours), fn(theirs)])
    rows.append(
        [
            "chit-chat lines (of living-note claim lines)",
            f"{ours['chit_chat_lines']} of {ours['living_lines']}",
            "—",
        ]
    )
    out = [
        table(rows, ["", "wikimem offline", f"BM25 raw turns (±{NEIGHBOURS}, {BUDGET:,} chars)"])
    ]
    fail_rows = [
        [f, str(ours["failures"].get(f, 0)), str(ours["failures_updated"].get(f, 0))]
        for f in FAILURES
    ]
    out.append("\nwikimem's failures, by instruction:\n")
    out.append(table(fail_rows, ["why", "all", "updated"]))
    out.append(
        f"\nlatest value in what session start alone gave: "
        f"{_share(ours['latest_present_at_session_start'], ours['instructions'])}"
    )
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA, help="the dev split's folder")
    ap.add_argument(
        "--dialogues",
        default=str(DEFAULT_DIALOGUES),
        help=f"how many dialogues, or 'all' (default {DEFAULT_DIALOGUES})",
    )
    ap.add_argument(
        "--pick",
        choices=("spread", "first"),
        default="spread",
        help="spread: evenly over the split (every length); first: the lowest numbers",
    )
    ap.add_argument("--jobs", type=int, default=1, help="dialogues replayed in parallel")
    ap.add_argument("--keep-homes", type=Path, help="build the homes under this (new) folder")
    ap.add_argument("--out", type=Path, help="write the full results here (JSON)")
    ap.add_argument(
        "--rescore",
        type=Path,
        metavar="RESULT",
        help="score an earlier run's --out again (its homes in --keep-homes), without replaying",
    )
    args = ap.parse_args()
    if not args.data.is_dir():
        print(f"MemoryCode data not found at {args.data}", file=sys.stderr)
        return 2
    command = " ".join(sys.argv)
    if args.rescore:
        if not args.keep_homes:
            print("--rescore needs the run's homes: --keep-homes DIR", file=sys.stderr)
            return 2
        previous = json.loads(args.rescore.read_text())
        results = [rescore(r, args.data, args.keep_homes) for r in previous["results"]]
        seconds = previous["seconds"]
        command = f"{command} (scoring {previous['command']})"
        print(f"MemoryCode dev: {args.rescore} scored again", file=sys.stderr)
    else:
        count = None if args.dialogues == "all" else int(args.dialogues)
        files = dialogue_files(args.data, count, args.pick)
        if args.keep_homes:
            args.keep_homes.mkdir(parents=True, exist_ok=True)
        print(
            f"MemoryCode dev ({machine()}): {len(files)} dialogues, {args.jobs} job(s)",
            file=sys.stderr,
        )
        started = time.perf_counter()
        results = run_all(files, args.jobs, args.keep_homes)
        seconds = time.perf_counter() - started
    sessions = sum(r["sessions"] for r in results)
    hooks = sum(r["hook_calls"] for r in results)
    print(
        f"\n{len(results)} dialogues, {sessions:,} sessions, {hooks:,} hook calls, "
        f"{sum(r['dreams'] for r in results):,} offline dreams: {seconds:.0f} s wall"
        + (" (scored again now)\n" if args.rescore else f" ({args.jobs} job(s))\n")
    )
    print(report(results))
    problems = [e for r in results for e in r["cli_errors"] + r["errors_log"]]
    if problems:
        print(f"\n{len(problems)} command errors or errors.log lines (in --out)")
    if args.out:
        summary = {"wikimem": summarise(results, "wikimem"), "bm25": summarise(results, "bm25")}
        args.out.write_text(
            json.dumps(
                {
                    "command": command,
                    "dialogues": [r["dialogue"] for r in results],
                    "seconds": seconds,
                    "budget": {"start": START_CHARS, "prompt": PROMPT_CHARS, "bm25": BUDGET},
                    "summary": summary,
                    "results": list(results),
                },
                indent=1,
                ensure_ascii=False,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
