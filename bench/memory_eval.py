"""Memory evaluation: does the next session get what is true now, and only that?

Scripted multi-session cases (bench/memeval/cases.py: first mention, correction, preference
change, retraction, pitfall and fix, opposite conventions in two projects, a noisy session,
`wikimem remember`/`forget`, "since when", releases, one-off command variants, passing states
that are not facts about the person, a note longer than a model prompt shows and more profile
notes than it has slots) are replayed into ONE home with six projects (distinct git
remotes, one without a remote) through the installed hook command and `wikimem dream` after
each day. Then each case's question is asked in a new session, in its project and client:
SessionStart and the prompt go through the real hook, and what the hook returns is scored.

Scores per category (rules in bench/memeval/scoring.py):
  - clean: the answer is present (when one is expected), no superseded value is offered as
    current, nothing bleeds in from another project, no case junk is injected;
  - answer present: every expected value is in the injected text;
  - captured: the expected current value is in a living note (not a digest) the project sees;
  - stale in notes / superseded offered: an old or retracted value stands in a living note, or
    is injected, without being marked as past;
  - junk lines: living-note lines that are questions, requests, filler, relative dates, one-off
    command variants, passing states, clip markers (listed with --verbose);
  - bleed: another project's notes or values injected when the question does not name it;
  - injected chars: session start + prompt.

Backends: `offline`, and `model`: `--backend anthropic` against a local stand-in for the
Messages API that answers each turn as a good model would (bench/memeval/scripted_model.py), so
the model path (prompt, validation, correction round, gate) is measured with known answers.

    python bench/memory_eval.py [--backend offline|model|both] [--json] [--verbose]
                                [--cases SUBSTRING] [--set main|heldout|heldout2|heldout3|heldout4]
                                [--keep DIR]

`--set` picks the cases: `main` (bench/memeval/cases.py, the default); `heldout`
(bench/memeval/heldout.py, also `--heldout`), written after the heuristics were tuned on the main
set, to estimate how much of its score is overfitting; `heldout2` (bench/memeval/heldout2.py),
40 cases written before the judgment changes of 2026-12-02 and never tuned on; `heldout3`
(bench/memeval/heldout3.py), 20 cases written on 2026-12-02 as the final check of the work tuned
on `heldout2`, never run before that final measurement; `heldout4` (bench/memeval/heldout4.py),
20 cases written blind on 2026-12-04 (without reading wikimem's judgment code or any evaluation
output), run once for the final measurement.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from _common import machine, table  # noqa: E402
from memeval import scoring  # noqa: E402
from memeval.cases import Case, Session, build_cases  # noqa: E402
from memeval.heldout import build_heldout_cases  # noqa: E402
from memeval.heldout2 import build_heldout2_cases  # noqa: E402
from memeval.heldout3 import build_heldout3_cases  # noqa: E402
from memeval.heldout4 import build_heldout4_cases  # noqa: E402
from memeval.replay import Answer, Replayer, Run, load_run, save_run  # noqa: E402
from memeval.scripted_model import MessagesServer, ScriptedModel  # noqa: E402


@dataclass
class CaseResult:
    case: Case
    project: str
    answer: Answer
    answer_present: bool | None
    captured: bool | None
    stale: list[str]
    offered_old: list[str]
    foreign_blocks: list[scoring.Block]
    foreign_values: list[str]
    junk_lines: list[scoring.JunkLine] = field(default_factory=list)
    junk_offered: list[str] = field(default_factory=list)

    @property
    def bleed(self) -> bool:
        return bool(self.foreign_blocks or self.foreign_values)

    @property
    def clean(self) -> bool:
        """The question got what is true now and nothing it should not have."""
        return (
            self.answer_present is not False
            and not self.offered_old
            and not self.bleed
            and not self.junk_offered
        )

    @property
    def chars(self) -> int:
        return len(self.answer.start) + len(self.answer.prompt)

    @property
    def failed(self) -> bool:
        return (
            self.answer_present is False
            or self.captured is False
            or bool(self.stale or self.offered_old or self.bleed or self.junk_lines)
            or bool(self.junk_offered)
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "category": self.case.category,
            "what": self.case.what,
            "client": self.case.query.client,
            "project": self.project,
            "question": self.case.query.prompt,
            "clean": self.clean,
            "answer_present": self.answer_present,
            "captured": self.captured,
            "stale_in_notes": self.stale,
            "superseded_offered": self.offered_old,
            "bleed_blocks": [[b.path, b.chars] for b in self.foreign_blocks],
            "bleed_values": self.foreign_values,
            "junk_lines": [[j.path, j.rule, j.line] for j in self.junk_lines],
            "junk_offered": self.junk_offered,
            "injected_start_chars": len(self.answer.start),
            "injected_prompt_chars": len(self.answer.prompt),
            "injected_start": self.answer.start,
            "injected_prompt": self.answer.prompt,
        }


def score(cases: list[Case], run: Run) -> tuple[list[CaseResult], list[scoring.JunkLine]]:
    notes = scoring.read_notes(str(Path(run.home) / "memory"))
    living = [n for n in notes if n.living]
    declared = tuple(j for c in cases for j in c.junk)
    junk = [j for n in living for j in scoring.junk_in_note(n.path, n.body, declared)]
    results: list[CaseResult] = []
    for case in cases:
        project = run.slugs[case.query.project]
        also = tuple(run.slugs[k] for k in case.also_visible)
        answer = run.answers[case.id]
        seen = "\n".join(n.body for n in living if scoring.visible(n.path, project, also))
        claims = case.claim_values
        results.append(
            CaseResult(
                case,
                project,
                answer,
                scoring.all_present(answer.text, case.expect, case.same_line)
                if case.expect
                else None,
                scoring.all_present(seen, claims, case.same_line) if claims else None,
                [ln for v in case.old for ln in scoring.current_occurrences(seen, v)],
                [ln for v in case.old for ln in scoring.current_occurrences(answer.text, v)],
                scoring.foreign_blocks(answer.text, project, also),
                [v for v in case.foreign if scoring.present(answer.text, (v,))],
                junk_offered=[j for j in case.junk if j.lower() in answer.text.lower()],
            )
        )
    unattributed: list[scoring.JunkLine] = []
    for line in junk:
        owner = _owner(line, results, run.slugs)
        if owner is None:
            unattributed.append(line)
        else:
            owner.junk_lines.append(line)
    return results, unattributed


def _owner(
    line: scoring.JunkLine, results: list[CaseResult], slugs: dict[str, str]
) -> CaseResult | None:
    """The case a junk line comes from: one that declares it junk, else one whose keys it holds,
    preferring a case with a session in the note's project."""
    lowered = line.line.lower()
    note_project = scoring.project_of(line.path)

    def in_project(r: CaseResult) -> bool:
        return any(
            slugs[item.project] == note_project
            for item in r.case.history
            if isinstance(item, Session)
        )

    for matches in (
        [r for r in results if any(j.lower() in lowered for j in r.case.junk)],
        [r for r in results if any(k.lower() in lowered for k in r.case.keys)],
    ):
        if matches:
            return next((r for r in matches if in_project(r)), matches[0])
    return None


def _rate(hits: int, n: int) -> str:
    return f"{hits}/{n} ({hits / n:.0%})" if n else "-"


def summarise(rows: list[CaseResult], unattributed: int = 0) -> dict[str, Any]:
    answered = [r for r in rows if r.answer_present is not None]
    claimed = [r for r in rows if r.captured is not None]
    with_old = [r for r in rows if r.case.old]
    injected = sum(r.chars for r in rows)
    foreign = sum(b.chars for r in rows for b in r.foreign_blocks)
    return {
        "cases": len(rows),
        "clean": [sum(r.clean for r in rows), len(rows)],
        "answer_present": [sum(bool(r.answer_present) for r in answered), len(answered)],
        "captured": [sum(bool(r.captured) for r in claimed), len(claimed)],
        "stale_in_notes": [sum(bool(r.stale) for r in with_old), len(with_old)],
        "superseded_offered": [sum(bool(r.offered_old) for r in with_old), len(with_old)],
        "junk_lines": sum(len(r.junk_lines) for r in rows) + unattributed,
        "junk_offered": sum(bool(r.junk_offered) for r in rows),
        "bleed": [sum(r.bleed for r in rows), len(rows)],
        "foreign_chars_share": foreign / injected if injected else 0.0,
        "mean_injected_chars": statistics.mean(r.chars for r in rows) if rows else 0,
        "mean_start_chars": statistics.mean(len(r.answer.start) for r in rows) if rows else 0,
        "mean_prompt_chars": statistics.mean(len(r.answer.prompt) for r in rows) if rows else 0,
    }


def report_table(results: list[CaseResult], unattributed: list[scoring.JunkLine]) -> str:
    categories: list[str] = list(dict.fromkeys(r.case.category for r in results))
    rows = []
    for cat in [*categories, "overall"]:
        group = results if cat == "overall" else [r for r in results if r.case.category == cat]
        s = summarise(group, len(unattributed) if cat == "overall" else 0)
        rows.append(
            [
                cat,
                str(s["cases"]),
                _rate(*s["clean"]),
                _rate(*s["answer_present"]),
                _rate(*s["captured"]),
                _rate(*s["stale_in_notes"]) if s["stale_in_notes"][1] else "-",
                _rate(*s["superseded_offered"]) if s["superseded_offered"][1] else "-",
                str(s["junk_lines"]),
                _rate(*s["bleed"]),
                f"{s['mean_injected_chars']:,.0f}",
            ]
        )
    return table(
        rows,
        [
            "category",
            "cases",
            "clean",
            "answer present",
            "captured",
            "stale in notes",
            "superseded offered",
            "junk lines",
            "bleed",
            "injected chars",
        ],
    )


def run_backend(
    backend: str, cases: list[Case], work: Path, progress: bool, reuse: bool = False
) -> dict[str, Any]:
    def say(text: str) -> None:
        if progress:
            print(f"  [{backend}] {text}", file=sys.stderr, flush=True)

    started = time.perf_counter()
    cpu_before = _cpu()
    model_stats: dict[str, Any] | None = None
    saved = work / "run.json"
    if reuse:
        run = load_run(saved)
        stats = work / "model.json"
        model_stats = json.loads(stats.read_text()) if stats.exists() else None
    elif backend == "offline":
        replayer = Replayer(work, cases, ["--backend", "offline"], {})
        run = replayer.replay(say)
    else:
        turns = [
            (t.prompt, t.model)
            for c in cases
            for item in c.history
            if isinstance(item, Session)
            for t in item.turns
        ]
        model = ScriptedModel(turns)
        with MessagesServer(model) as server:
            env = {"ANTHROPIC_API_KEY": "scripted-model-key", "ANTHROPIC_BASE_URL": server.url}
            replayer = Replayer(work, cases, ["--backend", "anthropic"], env)
            run = replayer.replay(say)
        model_stats = model.stats.as_dict()
        (work / "model.json").write_text(json.dumps(model_stats, indent=1))
    if not reuse:
        save_run(run, saved)
    seconds = time.perf_counter() - started
    results, unattributed = score(cases, run)
    return {
        "backend": backend,
        "seconds": seconds,
        "cpu_seconds": _cpu() - cpu_before,
        "run": run,
        "results": results,
        "unattributed": unattributed,
        "model": model_stats,
    }


def _cpu() -> float:
    """CPU seconds of this process and its finished children: on a shared machine the wall
    clock says more about the neighbours than about the bench."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def print_report(out: dict[str, Any], verbose: bool) -> None:
    run: Run = out["run"]
    results: list[CaseResult] = out["results"]
    unattributed: list[scoring.JunkLine] = out["unattributed"]
    s = summarise(results, len(unattributed))
    print(
        f"\n## backend: {out['backend']} — {len(results)} cases, {run.hook_calls:,} hook calls, "
        f"{len(run.dreams)} dreams, {out['seconds']:.0f} s ({out['cpu_seconds']:.0f} s CPU)\n"
    )
    print(report_table(results, unattributed))
    print(
        f"\nclean (answer present, nothing superseded, no bleed, no junk injected) "
        f"{_rate(*s['clean'])}; answer present {_rate(*s['answer_present'])}; superseded offered in "
        f"{s['superseded_offered'][0]} of {s['superseded_offered'][1]} cases; bleed in "
        f"{s['bleed'][0]} of {s['bleed'][1]} questions ({s['foreign_chars_share']:.0%} of injected "
        f"chars from other projects); {s['junk_lines']} junk lines in living notes "
        f"({len(unattributed)} not tied to a case); case junk injected in {s['junk_offered']} cases."
    )
    rules = Counter(j.rule for r in results for j in r.junk_lines)
    rules.update(j.rule for j in unattributed)
    if rules:
        print("junk lines by rule: " + ", ".join(f"{k} {n}" for k, n in rules.most_common()) + ".")
    print(
        f"injected per question: {s['mean_start_chars']:,.0f} chars at session start + "
        f"{s['mean_prompt_chars']:,.0f} with the prompt (mean)."
    )
    rejected = sum(len(d.get("rejected") or []) for d in run.dreams)
    blocked = sum(len(d.get("blocked") or []) for d in run.dreams)
    if rejected or blocked:
        print(f"dream: {rejected} operations rejected, {blocked} writes blocked by the gate.")
    if out["model"]:
        m = out["model"]
        print(
            f"scripted model ({m.get('protocol') or '?'} protocol): {m['requests']} requests, "
            f"{m['corrections']} correction rounds, {m['turns_applied']} scripted turns applied; "
            f"changed {len(m['blind_rewrites'])} notes it was not shown and "
            f"{len(m['clipped_rewrites'])} it was shown clipped; "
            f"{len(m['digest_collisions'])} digest paths shared by two sessions."
        )
    if run.slow_hooks:
        print(
            f"note: {run.slow_hooks} hook calls took longer than the default 0.75 s deadline "
            "(the bench runs them with 5 s so the scores do not depend on machine load)."
        )
    for line in run.cli_errors:
        print(f"command failed: {line}")
    if run.errors_log:
        print(f"state/errors.log has {len(run.errors_log)} lines; last: {run.errors_log[-1]}")
    if verbose:
        _print_details(results, unattributed)


def _print_details(results: list[CaseResult], unattributed: list[scoring.JunkLine]) -> None:
    for r in results:
        if not r.failed:
            continue
        c = r.case
        print(f"\n### {c.id} ({c.category}): {c.what}")
        print(f"question ({c.query.client}, {r.project}): {c.query.prompt}")
        if r.answer_present is False:
            print(f"  answer missing: expected {c.expect}")
        if r.captured is False:
            print(f"  not captured in a living note: {c.claim_values}")
        for ln in r.stale:
            print(f"  stale in notes: {ln}")
        for ln in r.offered_old:
            print(f"  superseded offered: {ln}")
        for b in r.foreign_blocks:
            print(f"  bleed: {b.path} ({b.chars} chars)")
        for v in r.foreign_values:
            print(f"  bleed: foreign value {v!r}")
        for j in r.junk_lines:
            print(f"  junk ({j.rule}) in {j.path}: {j.line}")
        for j in r.junk_offered:
            print(f"  junk injected: {j!r}")
        print("  injected at session start:" if r.answer.start else "  nothing at session start")
        for ln in r.answer.start.splitlines():
            print(f"    | {ln}")
        print("  injected with the prompt:" if r.answer.prompt else "  nothing with the prompt")
        for ln in r.answer.prompt.splitlines():
            print(f"    | {ln}")
    if unattributed:
        print("\n### junk lines not tied to a case")
        for j in unattributed:
            print(f"  ({j.rule}) {j.path}: {j.line}")


def as_json(out: dict[str, Any]) -> dict[str, Any]:
    run: Run = out["run"]
    results: list[CaseResult] = out["results"]
    unattributed: list[scoring.JunkLine] = out["unattributed"]
    categories = list(dict.fromkeys(r.case.category for r in results))
    return {
        "backend": out["backend"],
        "seconds": round(out["seconds"], 1),
        "cpu_seconds": round(out["cpu_seconds"], 1),
        "summary": summarise(results, len(unattributed)),
        "by_category": {
            c: summarise([r for r in results if r.case.category == c]) for c in categories
        },
        "cases": [r.as_dict() for r in results],
        "unattributed_junk": [[j.path, j.rule, j.line] for j in unattributed],
        "hook_calls": run.hook_calls,
        "slow_hooks": run.slow_hooks,
        "dreams": run.dreams,
        "command_errors": run.cli_errors,
        "errors_log": run.errors_log,
        "model": out["model"],
    }


SETS = {
    "main": ("", build_cases),
    "heldout": ("held-out cases", build_heldout_cases),
    "heldout2": ("second held-out set", build_heldout2_cases),
    "heldout3": ("third held-out set", build_heldout3_cases),
    "heldout4": ("fourth held-out set", build_heldout4_cases),
}


def select_cases(pattern: str | None, case_set: str = "main") -> tuple[list[Case], list[str]]:
    from wikimem.harness import CLIENTS as SUPPORTED

    cases, skipped = [], []
    for case in SETS[case_set][1]():
        if pattern and pattern not in case.id and pattern not in case.category:
            continue
        if case.needs_client and case.needs_client not in SUPPORTED:
            skipped.append(case.id)
            continue
        cases.append(case)
    return cases, skipped


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", choices=("offline", "model", "both"), default="offline")
    ap.add_argument("--json", action="store_true", help="machine-readable output only")
    ap.add_argument("--verbose", action="store_true", help="failing cases with what was injected")
    ap.add_argument("--cases", help="only cases whose id or category contains this")
    ap.add_argument(
        "--set",
        dest="case_set",
        choices=tuple(SETS),
        help="which cases to run: main (default), heldout (bench/memeval/heldout.py), heldout2 "
        "(bench/memeval/heldout2.py), heldout3 (bench/memeval/heldout3.py), heldout4 "
        "(bench/memeval/heldout4.py)",
    )
    ap.add_argument("--heldout", action="store_true", help="the same as --set heldout")
    ap.add_argument("--keep", help="build the homes under this directory and keep them")
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="score the homes already under --keep again, without replaying",
    )
    args = ap.parse_args()
    if args.heldout and args.case_set not in (None, "heldout"):
        print("--heldout and --set disagree", file=sys.stderr)
        return 2
    case_set = "heldout" if args.heldout else args.case_set or "main"
    cases, skipped = select_cases(args.cases, case_set)
    if not cases:
        print("no case matches", file=sys.stderr)
        return 2
    backends = ["offline", "model"] if args.backend == "both" else [args.backend]
    if args.reuse and not args.keep:
        print("--reuse needs --keep DIR", file=sys.stderr)
        return 2
    tmp = None
    if args.keep:
        root = Path(args.keep)
        root.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="wikimem-memeval-")
        root = Path(tmp.name)
    outputs = []
    try:
        for backend in backends:
            work = root / backend
            if not args.reuse and work.exists() and any(work.iterdir()):
                print(f"{work} is not empty; choose another --keep directory", file=sys.stderr)
                return 2
            outputs.append(run_backend(backend, cases, work, not args.json, args.reuse))
    finally:
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        data = [as_json(o) for o in outputs]
        print(json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=False))
        return 0
    label = f", {SETS[case_set][0]}" if SETS[case_set][0] else ""
    print(f"memory evaluation{label} ({machine()})")
    if skipped:
        print(f"skipped (client not supported by this wikimem): {', '.join(skipped)}")
    for out in outputs:
        print_report(out, args.verbose)
    if args.keep:
        print(f"\nhomes kept under {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
