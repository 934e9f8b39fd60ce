"""LoCoMo end to end: replay the conversations through the real hook, dream offline, then ask.

For each of the 10 conversations in ../shared/benchmarks/locomo10 (read from there, never
copied): a fresh home and project; every session replayed through the installed hook command as
a Claude Code session (speaker A's turns as prompts, speaker B's as the assistant's messages,
each turn's text carrying its session's date: `[date] Speaker: text`); `wikimem dream --backend
offline`; then, for every question of the subset, the text `wikimem` would inject for a prompt
equal to the question, at 1,000 / 3,000 / 8,000 characters. Reported: the answer-present rate
beside raw-turn BM25 computed in the same run (SQLite FTS5, porter, BM25, the question's
non-stopword terms OR-ed, turns formatted `[date] Speaker: text`, added best-first while they
fit the budget).

The subset: questions of category 1, 2 or 4 whose answer (lower-cased, punctuation folded to
spaces, whitespace collapsed) appears in their own evidence turns formatted as above.

    python bench/locomo.py [--work DIR] [--reuse] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, table

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "benchmarks" / "locomo10"
BUDGETS = (1000, 3000, 8000)
sys.path.insert(0, str(REPO))


def norm(text: object) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", str(text).lower()).split())


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
    turns = formatted_turns(conv)
    out = []
    for q in conv["qa"]:
        if q.get("category") not in (1, 2, 4) or "answer" not in q:
            continue
        evidence = " ".join(turns[e] for e in q.get("evidence", []) if e in turns)
        answer = norm(q["answer"])
        if answer and answer in norm(evidence):
            out.append(q)
    return out


def payloads(conv_id: str, conv: dict[str, Any], cwd: str) -> list[dict[str, Any]]:
    speaker_a = conv["speaker_a"]
    events: list[dict[str, Any]] = []
    for k, date, turns in sessions_of(conv):
        sid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"locomo/{conv_id}/session_{k}"))
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


def build(conv_file: str, work: str) -> tuple[str, float, int]:
    """Replay one conversation and dream; returns (conversation id, seconds, events)."""
    from wikimem.harness.install import hook_command
    from wikimem.home import Home
    from wikimem.layout import init_home

    conv_id = Path(conv_file).stem
    conv = json.loads(Path(conv_file).read_text())
    root = Path(work) / f"conv-{conv_id}"
    home = Home(str(root / "home"))
    project = root / f"locomo-{conv_id}"
    project.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    init_home(home)
    Path(home.config_path).write_text("[dream]\nauto = false\n")
    command = shlex.split(hook_command("claude", home))
    start = time.perf_counter()
    events = payloads(conv_id, conv, str(project))
    for payload in events:
        subprocess.run(
            command,
            input=json.dumps(payload).encode(),
            capture_output=True,
            check=True,
            cwd=project,
        )
    env = dict(os.environ, WIKIMEM_HOME=home.root)
    subprocess.run(
        [sys.executable, "-m", "wikimem", "dream", "--backend", "offline"],
        check=True,
        capture_output=True,
        env=env,
    )
    return conv_id, time.perf_counter() - start, len(events)


def baseline_texts(conv: dict[str, Any], question: str, budgets: tuple[int, ...]) -> dict[int, str]:
    from wikimem.recall.index import fts_query

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter')")
    db.executemany("INSERT INTO t(body) VALUES (?)", [(v,) for v in formatted_turns(conv).values()])
    match = fts_query(question)
    rows = (
        [r[0] for r in db.execute("SELECT body FROM t WHERE t MATCH ? ORDER BY bm25(t)", (match,))]
        if match
        else []
    )
    out = {}
    for budget in budgets:
        picked: list[str] = []
        used = 0
        for body in rows:
            if used + len(body) + 1 <= budget:
                picked.append(body)
                used += len(body) + 1
        out[budget] = "\n".join(picked)
    return out


def evaluate(work: str) -> dict[str, Any]:
    from wikimem.home import Home
    from wikimem.recall.index import open_index
    from wikimem.recall.inject import prompt as inject_prompt

    totals = {b: [0, 0] for b in BUDGETS}  # budget -> [wikimem hits, baseline hits]
    by_cat: dict[int, dict[int, list[int]]] = {}
    sizes = {b: 0 for b in BUDGETS}
    n = 0
    for conv_file in sorted(DATA.glob("*.json")):
        conv = json.loads(conv_file.read_text())
        conv_id = conv_file.stem
        home = Home(str(Path(work) / f"conv-{conv_id}" / "home"))
        index = open_index(home.state_dir, home.memory_dir)
        index.refresh(full=True)
        project = f"locomo-{conv_id}"
        for q in subset(conv):
            n += 1
            answer = norm(q["answer"])
            base = baseline_texts(conv, q["question"], BUDGETS)
            cat = by_cat.setdefault(q["category"], {b: [0, 0, 0] for b in BUDGETS})
            for budget in BUDGETS:
                ours = inject_prompt(home, index, project, None, q["question"], budget) or ""
                assert len(ours) <= budget, (len(ours), budget)
                sizes[budget] += len(ours)
                hit_ours = answer in norm(ours)
                hit_base = answer in norm(base[budget])
                totals[budget][0] += hit_ours
                totals[budget][1] += hit_base
                cat[budget][0] += hit_ours
                cat[budget][1] += hit_base
                cat[budget][2] += 1
        index.close()
    return {
        "questions": n,
        "totals": totals,
        "by_category": by_cat,
        "mean_chars": {b: sizes[b] / max(n, 1) for b in BUDGETS},
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", help="keep the homes here (default: a temp dir)")
    ap.add_argument(
        "--reuse", action="store_true", help="skip replay and dream; evaluate --work as is"
    )
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"LoCoMo data not found at {DATA}", file=sys.stderr)
        return 2
    tmp = None
    work = args.work
    if work is None:
        tmp = tempfile.TemporaryDirectory(prefix="wikimem-locomo-")
        work = tmp.name
    print(f"LoCoMo answer-present rate ({machine()})")
    if not args.reuse:
        start = time.perf_counter()
        files = [str(f) for f in sorted(DATA.glob("*.json"))]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            built = list(pool.map(build, files, [work] * len(files)))
        events = sum(e for _, _, e in built)
        print(
            f"replayed {events:,} hook events through the installed hook and dreamed offline "
            f"in {time.perf_counter() - start:.0f} s ({args.jobs} jobs)"
        )
    result = evaluate(work)
    n = result["questions"]
    rows = []
    for b in BUDGETS:
        ours, base = result["totals"][b]
        rows.append(
            [
                f"{b:,}",
                f"{base / n:.3f}",
                f"{ours / n:.3f}",
                f"{(ours - base) / n:+.3f}",
                f"{result['mean_chars'][b]:,.0f}",
            ]
        )
    print(f"\n{n} questions (categories 1, 2, 4 with the answer in their evidence turns)\n")
    print(
        table(
            rows, ["budget (chars)", "raw-turn BM25", "wikimem", "difference", "wikimem mean chars"]
        )
    )
    cat_rows = []
    names = {1: "multi-hop", 2: "temporal", 4: "single-hop"}
    for cat, per in sorted(result["by_category"].items()):
        cells = [f"{names.get(cat, cat)} ({per[BUDGETS[0]][2]})"]
        for b in BUDGETS:
            ours, base, count = per[b]
            cells.append(f"{base / count:.2f} / {ours / count:.2f}")
        cat_rows.append(cells)
    print("\nby category, raw-turn BM25 / wikimem:\n")
    print(table(cat_rows, ["category (questions)", *[f"{b:,}" for b in BUDGETS]]))
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
