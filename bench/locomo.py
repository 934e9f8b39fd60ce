"""LoCoMo end to end: replay the conversations through the real hook, dream offline, then ask.

The data: the LoCoMo benchmark's 10 conversations, read from ../shared/benchmarks/locomo10 when
present (never copied into this repository).
Each session is replayed through the installed hook command as a Claude Code session (speaker
A's turns as prompts, speaker B's as the assistant's messages, each turn's text carrying its
session's date: `[date] Speaker: text`), then `wikimem dream --backend offline` runs, then for
every question of the subset the text `wikimem` would inject for a prompt equal to the question
is computed at 1,000 / 3,000 / 8,000 characters.

Two layouts:
  - shared (the default, the layout the recall budget is stated for): ONE home, each conversation its own project
    (a git repository `locomo-<id>`), session ids opaque and prefix-sharing
    (`locomo-<id>-session_<k>`: all sessions of a conversation share their first 8 characters),
    one dream over everything; a question is asked in its conversation's project;
  - `--per-conversation` (the earlier bench): a fresh home per conversation, UUID session ids.

The subset and the baseline are the data README's: questions of category 1, 2 or 4 whose answer
(lower-cased, punctuation folded to spaces, whitespace collapsed) appears as whole words in their
own evidence turns formatted as above — 510 questions; raw-turn BM25 is SQLite FTS5 (porter,
BM25) over the conversation's turns, queried with the question's non-stopword terms OR-ed, turns
added best-first until the next one does not fit. Computed in the same run, it reproduces the
README's figures (0.655 / 0.767 / 0.841). BM25 with neighbours, measured in the same run, is the
baseline prompt-time recall has to beat: the same search, each hit given with the turn before and
the turn after it in its session (a turn already given is not repeated), best first until the
first that does not fit. A question is answered when the normalised answer is a substring of
the normalised injected text (every column alike).

    python bench/locomo.py [--per-conversation] [--work DIR] [--reuse] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _bm25
from _common import machine, table

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "benchmarks" / "locomo10"
BUDGETS = (1000, 3000, 8000)
CATEGORIES = {1: "multi-hop", 2: "temporal", 4: "single-hop"}
sys.path.insert(0, str(REPO))


def norm(text: object) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", str(text).lower()).split())


def whole_words_in(needle: str, haystack: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", haystack) is not None


def sessions_of(conv: dict[str, Any]) -> list[tuple[int, str, list[dict[str, Any]]]]:
    out = []
    k = 1
    while f"session_{k}" in conv:
        out.append((k, conv[f"session_{k}_date_time"], conv[f"session_{k}"]))
        k += 1
    return out


def formatted_turns(conv: dict[str, Any]) -> dict[str, str]:
    return {
        t["dia_id"]: f"[{date}] {t['speaker']}: {t['text']}"
        for _, date, turns in sessions_of(conv)
        for t in turns
    }


def subset(conv: dict[str, Any]) -> list[dict[str, Any]]:
    """The README's questions: category 1, 2 or 4, the answer as whole words in its evidence."""
    turns = formatted_turns(conv)
    out = []
    for q in conv["qa"]:
        if q.get("category") not in CATEGORIES or "answer" not in q:
            continue
        evidence = " ".join(turns[e] for e in q.get("evidence", []) if e in turns)
        answer = norm(q["answer"])
        if answer and whole_words_in(answer, norm(evidence)):
            out.append(q)
    return out


def uuid_ids(conv_id: str) -> Callable[[int], str]:
    return lambda k: str(uuid.uuid5(uuid.NAMESPACE_URL, f"locomo/{conv_id}/session_{k}"))


def shared_ids(conv_id: str) -> Callable[[int], str]:
    return lambda k: f"locomo-{conv_id}-session_{k}"


def payloads(
    conv: dict[str, Any], cwd: str, session_id: Callable[[int], str]
) -> list[dict[str, Any]]:
    speaker_a = conv["speaker_a"]
    events: list[dict[str, Any]] = []
    for k, date, turns in sessions_of(conv):
        sid = session_id(k)
        base = {"session_id": sid, "cwd": cwd, "transcript_path": f"/tmp/{sid}.jsonl"}
        events.append({**base, "hook_event_name": "SessionStart", "source": "startup"})
        for t in turns:
            text = f"[{date}] {t['speaker']}: {t['text']}"
            if t["speaker"] == speaker_a:
                events.append({**base, "hook_event_name": "UserPromptSubmit", "prompt": text})
            else:
                events.append(
                    {
                        **base,
                        "hook_event_name": "Stop",
                        "stop_hook_active": False,
                        "last_assistant_message": text,
                    }
                )
        events.append({**base, "hook_event_name": "SessionEnd", "reason": "other"})
    return events


def _init_home(root: Path) -> Any:
    from wikimem.home import Home
    from wikimem.layout import init_home

    home = Home(str(root))
    init_home(home)
    Path(home.config_path).write_text("[dream]\nauto = false\n")
    return home


def _replay(home_root: str, conv_file: str, project: str, shared: bool) -> int:
    """Replay one conversation into `home_root` through the installed hook; returns events."""
    from wikimem.home import Home
    from wikimem.setup.install import hook_command

    conv_id = Path(conv_file).stem
    conv = json.loads(Path(conv_file).read_text())
    Path(project).mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", project], check=True)
    command = shlex.split(hook_command("claude", Home(home_root)))
    ids = shared_ids(conv_id) if shared else uuid_ids(conv_id)
    events = payloads(conv, project, ids)
    for payload in events:
        subprocess.run(
            command,
            input=json.dumps(payload).encode(),
            capture_output=True,
            check=True,
            cwd=project,
        )
    return len(events)


def _dream(home_root: str) -> None:
    env = dict(os.environ, WIKIMEM_HOME=home_root, PYTHONPATH=str(REPO))
    subprocess.run(
        [sys.executable, "-m", "wikimem", "dream", "--backend", "offline"],
        check=True,
        capture_output=True,
        env=env,
    )


def build_conversation(conv_file: str, work: str) -> int:
    """Per-conversation layout: a fresh home and project, replay, dream; returns events."""
    root = Path(work) / f"conv-{Path(conv_file).stem}"
    home = _init_home(root / "home")
    events = _replay(home.root, conv_file, str(root / f"locomo-{Path(conv_file).stem}"), False)
    _dream(home.root)
    return events


def build(work: str, shared: bool, jobs: int) -> int:
    files = [str(f) for f in sorted(DATA.glob("*.json"))]
    if not shared:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            return sum(pool.map(build_conversation, files, [work] * len(files)))
    home = _init_home(Path(work) / "shared" / "home")
    projects = [str(Path(work) / "shared" / "repos" / f"locomo-{Path(f).stem}") for f in files]
    if jobs <= 1:
        events = sum(_replay(home.root, f, p, True) for f, p in zip(files, projects, strict=True))
    else:
        # Conversations replayed concurrently into the one home: realistic, but the order of
        # the records (and so the dream's chunks) then varies from run to run.
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            events = sum(
                pool.map(_replay, [home.root] * len(files), files, projects, [True] * len(files))
            )
    _dream(home.root)
    return events


def baseline_texts(conv: dict[str, Any], question: str, budgets: tuple[int, ...]) -> dict[int, str]:
    """Raw-turn BM25 as the data README defines it (no neighbour turns)."""
    return _bm25.search(list(formatted_turns(conv).values()), question, budgets)


def neighbour_texts(
    conv: dict[str, Any], question: str, budgets: tuple[int, ...]
) -> dict[int, str]:
    """BM25 with neighbours, the baseline prompt-time recall has to beat: the same
    raw-turn BM25, each hit given with the turn before and the turn after it in its session (a
    turn already given is not repeated), best first until the first that does not fit."""
    order: list[str] = []
    session_of: list[int] = []
    for k, date, turns in sessions_of(conv):
        for t in turns:
            order.append(f"[{date}] {t['speaker']}: {t['text']}")
            session_of.append(k)
    hits = _bm25.ranked(order, question)
    out = {}
    for budget in budgets:
        picked: set[int] = set()
        used = 0
        for i in hits:
            block = [
                j
                for j in (i - 1, i, i + 1)
                if 0 <= j < len(order) and session_of[j] == session_of[i] and j not in picked
            ]
            cost = sum(len(order[j]) + 1 for j in block)
            if used + cost > budget:
                break
            picked.update(block)
            used += cost
        out[budget] = "\n".join(order[j] for j in sorted(picked))
    return out


def _other_project_chars(text: str, project: str) -> int:
    """Characters of injected text from another project: its `### projects/<slug>/…` blocks, and
    the person's rules said there (`… (said in <slug>, <date>)`)."""
    total = 0
    current: str | None = None
    for line in text.split("\n"):
        if line.startswith("### "):
            parts = line[4:].split(" ", 1)[0].split("/")
            current = parts[1] if len(parts) >= 3 and parts[0] == "projects" else None
        said = line.rsplit("(said in ", 1)[-1].split(",", 1)[0] if "(said in " in line else None
        if (current is not None and current != project) or (said and said != project):
            total += len(line) + 1
    return total


METHODS = ("raw-turn BM25", "BM25 + neighbours", "wikimem")


def evaluate(work: str, shared: bool) -> dict[str, Any]:
    from wikimem.capture.project import project_slug
    from wikimem.home import Home
    from wikimem.recall.index import open_index
    from wikimem.recall.inject import prompt as inject_prompt

    # budget -> hits per method (METHODS order)
    totals = {b: [0] * len(METHODS) for b in BUDGETS}
    # category -> budget -> hits per method, then the number of questions
    by_cat: dict[int, dict[int, list[int]]] = {}
    sizes = {b: 0 for b in BUDGETS}
    foreign = {b: 0 for b in BUDGETS}
    n = 0
    shared_index = None
    if shared:
        home = Home(str(Path(work) / "shared" / "home"))
        shared_index = open_index(home.state_dir, home.memory_dir)
        shared_index.refresh(full=True)
    for conv_file in sorted(DATA.glob("*.json")):
        conv = json.loads(conv_file.read_text())
        conv_id = conv_file.stem
        if shared:
            project = project_slug(str(Path(work) / "shared" / "repos" / f"locomo-{conv_id}"))
            index = shared_index
        else:
            home = Home(str(Path(work) / f"conv-{conv_id}" / "home"))
            index = open_index(home.state_dir, home.memory_dir)
            index.refresh(full=True)
            project = f"locomo-{conv_id}"
        assert index is not None
        for q in subset(conv):
            n += 1
            answer = norm(q["answer"])
            base = baseline_texts(conv, q["question"], BUDGETS)
            near = neighbour_texts(conv, q["question"], BUDGETS)
            cat = by_cat.setdefault(q["category"], {b: [0] * (len(METHODS) + 1) for b in BUDGETS})
            for budget in BUDGETS:
                ours = inject_prompt(home, index, project, None, q["question"], budget) or ""
                assert len(ours) <= budget, (len(ours), budget)
                sizes[budget] += len(ours)
                foreign[budget] += _other_project_chars(ours, project)
                for m, text in enumerate((base[budget], near[budget], ours)):
                    hit = answer in norm(text)
                    totals[budget][m] += hit
                    cat[budget][m] += hit
                cat[budget][-1] += 1
        if not shared:
            index.close()
    if shared_index is not None:
        shared_index.close()
    return {
        "questions": n,
        "methods": list(METHODS),
        "totals": totals,
        "by_category": by_cat,
        "mean_chars": {b: sizes[b] / max(n, 1) for b in BUDGETS},
        "other_project_share": {b: foreign[b] / max(sizes[b], 1) for b in BUDGETS},
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--per-conversation",
        action="store_true",
        help="the earlier layout: a fresh home per conversation, UUID session ids",
    )
    ap.add_argument("--work", help="keep the homes here (default: a temp dir)")
    ap.add_argument(
        "--reuse", action="store_true", help="skip replay and dream; evaluate --work as is"
    )
    ap.add_argument(
        "--jobs",
        type=int,
        help="parallel replays (default: 1 shared, so the run is deterministic; 2 per conversation)",
    )
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args()
    shared = not args.per_conversation
    jobs = args.jobs or (1 if shared else 2)
    if not DATA.is_dir():
        print(f"LoCoMo data not found at {DATA}", file=sys.stderr)
        return 2
    tmp = None
    work = args.work
    if work is None:
        tmp = tempfile.TemporaryDirectory(prefix="wikimem-locomo-")
        work = tmp.name
    layout = (
        "all conversations in one home (10 projects, prefix-sharing session ids)"
        if shared
        else "a fresh home per conversation (UUID session ids)"
    )
    log = sys.stderr if args.json else sys.stdout
    print(f"LoCoMo answer-present rate ({machine()}); {layout}", file=log)
    if not args.reuse:
        start = time.perf_counter()
        events = build(work, shared, jobs)
        print(
            f"replayed {events:,} hook events through the installed hook and dreamed offline "
            f"in {time.perf_counter() - start:.0f} s ({jobs} job{'s' if jobs != 1 else ''})",
            file=log,
        )
    result = evaluate(work, shared)
    if args.json:
        print(json.dumps({"layout": "shared" if shared else "per-conversation", **result}))
        return 0
    n = result["questions"]
    rows = []
    for b in BUDGETS:
        raw, near, ours = result["totals"][b]
        rows.append(
            [
                f"{b:,}",
                f"{raw / n:.3f}",
                f"{near / n:.3f}",
                f"{ours / n:.3f}",
                f"{(ours - near) / n:+.3f}",
                f"{result['mean_chars'][b]:,.0f}",
                f"{result['other_project_share'][b]:.0%}",
            ]
        )
    print(f"\n{n} questions (categories 1, 2, 4 with the answer in their evidence turns)\n")
    print(
        table(
            rows,
            [
                "budget (chars)",
                "raw-turn BM25",
                "BM25 + neighbours",
                "wikimem",
                "vs neighbours",
                "wikimem mean chars",
                "from other conversations",
            ],
        )
    )
    cat_rows = []
    for cat, per in sorted(result["by_category"].items()):
        cells = [f"{CATEGORIES.get(cat, cat)} ({per[BUDGETS[0]][-1]})"]
        for b in BUDGETS:
            *hits, count = per[b]
            cells.append(" / ".join(f"{h / count:.3f}" for h in hits))
        cat_rows.append(cells)
    print("\nby category, raw-turn BM25 / BM25 + neighbours / wikimem:\n")
    print(table(cat_rows, ["category (questions)", *[f"{b:,}" for b in BUDGETS]]))
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
