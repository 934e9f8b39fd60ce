"""Memory evaluation, the bench's form of `wikimem eval`: the same engine (wikimem/evaluate/),
cases and scores, with the bench's options.

    python bench/memory_eval.py [--backend offline|model|both] [--json] [--verbose]
                                [--cases SUBSTRING] [--set main|heldout|heldout2|heldout3|heldout4]
                                [--keep DIR [--reuse]]

`model` is `wikimem eval --backend scripted`: `wikimem dream --backend anthropic` against a local
stand-in for the Messages API that answers each turn as a good model would. `--keep DIR` builds
the homes under DIR and keeps them; `--reuse` scores them again without replaying. What the
cases, sets and columns are: docs/eval.md and wikimem/evaluate/.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from _common import machine, table  # noqa: E402

from wikimem.evaluate import scoring, sets  # noqa: E402
from wikimem.evaluate.report import (  # noqa: E402
    HEADER,
    CaseResult,
    category_rows,
    detail_lines,
    summary_lines,
)
from wikimem.evaluate.runner import Backend, Outcome, run_backend, select_cases  # noqa: E402
from wikimem.evaluate.sets import datafile  # noqa: E402

ENGINE = {"offline": "offline", "model": "scripted"}  # the bench's names -> the engine's


def elsewhere(result: CaseResult) -> bool:
    """A question asked in a project where nothing of its history happened (the person's own
    rules, said in other projects), naming none."""
    case = result.case
    return (
        bool(case.expect)
        and not case.also_visible
        and all(item.project != case.query.project for item in case.history)
    )


def prompt_time(results: list[CaseResult]) -> dict[str, int]:
    """What prompt-time recall did: questions it gave something, answers only it gave, and the
    person's rules asked in another project (found, and how many of those questions bled)."""
    gave = [r for r in results if r.answer.prompt.strip()]
    only = [
        r
        for r in results
        if r.answer_present
        and not scoring.all_present(r.answer.start, r.case.expect, r.case.same_line)
    ]
    rules = [r for r in results if elsewhere(r)]
    return {
        "questions": len(results),
        "given_at_prompt": len(gave),
        "answers": sum(bool(r.answer_present) for r in results),
        "answers_only_at_prompt": len(only),
        "rules_elsewhere": len(rules),
        "rules_elsewhere_found": sum(bool(r.answer_present) for r in rules),
        "rules_elsewhere_only_at_prompt": sum(r in only for r in rules),
        "bleed": sum(r.bleed for r in results),
    }


def prompt_time_line(results: list[CaseResult]) -> str:
    p = prompt_time(results)
    return (
        f"prompt-time recall: something given for {p['given_at_prompt']} of {p['questions']} "
        f"questions; {p['answers_only_at_prompt']} of {p['answers']} answers came only from it; "
        f"the person's rules asked in another project: {p['rules_elsewhere_found']} of "
        f"{p['rules_elsewhere']} found ({p['rules_elsewhere_only_at_prompt']} only at prompt "
        f"time); bleed in {p['bleed']} questions."
    )


def print_report(name: str, out: Outcome, verbose: bool) -> None:
    run = out.run
    print(
        f"\n## backend: {name} — {len(out.results)} cases, {run.hook_calls:,} hook calls, "
        f"{len(run.dreams)} dreams, {out.seconds:.0f} s ({out.cpu_seconds:.0f} s CPU)\n"
    )
    print(table(category_rows(out.results, out.unattributed), list(HEADER)))
    print()
    for line in summary_lines(run, out.results, out.unattributed, out.model):
        print(line)
    print(prompt_time_line(out.results))
    if verbose:
        for line in detail_lines(out.results, out.unattributed):
            print(line)


def as_json(name: str, out: Outcome) -> dict[str, Any]:
    return {**out.as_json(), "backend": name, "prompt_time": prompt_time(out.results)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", choices=("offline", "model", "both"), default="offline")
    ap.add_argument("--json", action="store_true", help="machine-readable output only")
    ap.add_argument("--verbose", action="store_true", help="failing cases with what was injected")
    ap.add_argument("--cases", help="only cases whose id or category contains this")
    ap.add_argument(
        "--set",
        dest="case_set",
        choices=sets.NAMES,
        help="which cases to run: main (default), heldout, heldout2, heldout3, heldout4 "
        "(wikimem/evaluate/sets/)",
    )
    ap.add_argument(
        "--set-file",
        help="a case set written as data (a JSON file, docs/eval.md), instead of --set",
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
    world = sets.world(case_set)
    if args.set_file:
        if args.case_set or args.heldout:
            print("--set-file and --set disagree", file=sys.stderr)
            return 2
        world, file_cases, case_set = datafile.load(Path(args.set_file))
        cases, skipped = select_cases(file_cases, args.cases)
    else:
        cases, skipped = select_cases(case_set, args.cases)
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
    outputs: list[tuple[str, Outcome]] = []
    try:
        for name in backends:
            work = root / name
            if not args.reuse and work.exists() and any(work.iterdir()):
                print(f"{work} is not empty; choose another --keep directory", file=sys.stderr)
                return 2

            said = [""]

            def say(
                what: str, done: int, total: int | None, name: str = name, said: list[str] = said
            ) -> None:
                if not args.json and what != said[0]:  # one line a phase, not a step
                    said[0] = what
                    print(f"  [{name}] {what} ({done}/{total})", file=sys.stderr, flush=True)

            outcome = run_backend(Backend(ENGINE[name]), cases, work, say, args.reuse, world)
            outputs.append((name, outcome))
    finally:
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        data = [as_json(name, o) for name, o in outputs]
        print(json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=False))
        return 0
    label = ""
    if case_set in sets.NAMES and case_set != "main":
        label = f", {sets.label(case_set)}"
    elif case_set not in sets.NAMES:
        label = f", {case_set} ({args.set_file})"
    print(f"memory evaluation{label} ({machine()})")
    if skipped:
        print(f"skipped (client not supported by this wikimem): {', '.join(skipped)}")
    for name, out in outputs:
        print_report(name, out, args.verbose)
    if args.keep:
        print(f"\nhomes kept under {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
