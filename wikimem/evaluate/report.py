"""A replayed run scored: each case's result, the summaries per category and overall, and the
lines a report prints. Values and plain strings only; the command line draws the table.

Contract: `score(cases, run)` reads the run's home (memory/) and answers and returns one
`CaseResult` per case plus the junk lines no case owns; `summarise(results)` gives the counts
every report shows (the same in the table, the sentences and `--json`); `category_rows` is the
per-category table (a row per category in the order the cases first name them, then
`overall`); `summary_lines`, `detail_lines` and `as_json` are the rest of a report.

What each column means is in `wikimem.evaluate.scoring` (the rules) and docs/eval.md.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wikimem.evaluate import scoring
from wikimem.evaluate.cases import Case, Session
from wikimem.evaluate.replay import Answer, Run

HEADER = (
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
)


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


def text_table(rows: list[list[str]], header: tuple[str, ...] = HEADER) -> str:
    """The table as Markdown, columns padded: what a pipe or a file gets."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str] | tuple[str, ...]) -> str:
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows]
    return "\n".join(out)


def rate(hits: int, n: int) -> str:
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


def categories(results: list[CaseResult]) -> list[str]:
    """The categories in the order the cases first name them."""
    return list(dict.fromkeys(r.case.category for r in results))


def category_rows(
    results: list[CaseResult], unattributed: list[scoring.JunkLine]
) -> list[list[str]]:
    """The table's rows (cells as printed, columns as `HEADER`), the last one `overall`."""
    rows = []
    for cat in [*categories(results), "overall"]:
        group = results if cat == "overall" else [r for r in results if r.case.category == cat]
        s = summarise(group, len(unattributed) if cat == "overall" else 0)
        rows.append(
            [
                cat,
                str(s["cases"]),
                rate(*s["clean"]),
                rate(*s["answer_present"]),
                rate(*s["captured"]),
                rate(*s["stale_in_notes"]) if s["stale_in_notes"][1] else "-",
                rate(*s["superseded_offered"]) if s["superseded_offered"][1] else "-",
                str(s["junk_lines"]),
                rate(*s["bleed"]),
                f"{s['mean_injected_chars']:,.0f}",
            ]
        )
    return rows


def summary_lines(
    run: Run,
    results: list[CaseResult],
    unattributed: list[scoring.JunkLine],
    model: dict[str, Any] | None,
) -> list[str]:
    """The sentences under the table: the overall figures, junk by rule, what was injected, and
    anything that went wrong while replaying."""
    s = summarise(results, len(unattributed))
    out = [
        f"clean (answer present, nothing superseded, no bleed, no junk injected) "
        f"{rate(*s['clean'])}; answer present {rate(*s['answer_present'])}; superseded offered in "
        f"{s['superseded_offered'][0]} of {s['superseded_offered'][1]} cases; bleed in "
        f"{s['bleed'][0]} of {s['bleed'][1]} questions ({s['foreign_chars_share']:.0%} of injected "
        f"chars from other projects); {s['junk_lines']} junk lines in living notes "
        f"({len(unattributed)} not tied to a case); case junk injected in {s['junk_offered']} cases."
    ]
    rules = Counter(j.rule for r in results for j in r.junk_lines)
    rules.update(j.rule for j in unattributed)
    if rules:
        out.append(
            "junk lines by rule: " + ", ".join(f"{k} {n}" for k, n in rules.most_common()) + "."
        )
    out.append(
        f"injected per question: {s['mean_start_chars']:,.0f} chars at session start + "
        f"{s['mean_prompt_chars']:,.0f} with the prompt (mean)."
    )
    rejected = sum(len(d.get("rejected") or []) for d in run.dreams)
    blocked = sum(len(d.get("blocked") or []) for d in run.dreams)
    if rejected or blocked:
        out.append(f"dream: {rejected} operations rejected, {blocked} writes blocked by the gate.")
    if model:
        m = model
        out.append(
            f"scripted model ({m.get('protocol') or '?'} protocol): {m['requests']} requests, "
            f"{m['corrections']} correction rounds, {m['turns_applied']} scripted turns applied; "
            f"changed {len(m['blind_rewrites'])} notes it was not shown and "
            f"{len(m['clipped_rewrites'])} it was shown clipped; "
            f"{len(m['digest_collisions'])} digest paths shared by two sessions."
        )
    fell_back = [d["fallback"] for d in run.dreams if d.get("fallback")]
    if fell_back:
        out.append(
            f"dream: {len(fell_back)} of {len(run.dreams)} dreams ran (partly) offline: "
            f"{fell_back[0][0]}"
        )
    if run.slow_hooks:
        out.append(
            f"note: {run.slow_hooks} hook calls took longer than the default 0.75 s deadline "
            "(the evaluation runs them with 5 s so the scores do not depend on machine load)."
        )
    out.extend(f"command failed: {line}" for line in run.cli_errors)
    if run.errors_log:
        out.append(f"state/errors.log has {len(run.errors_log)} lines; last: {run.errors_log[-1]}")
    return out


def detail_lines(results: list[CaseResult], unattributed: list[scoring.JunkLine]) -> list[str]:
    """Each failing case: what failed and what its question's session was given."""
    out: list[str] = []
    for r in results:
        if not r.failed:
            continue
        c = r.case
        out.append(f"\n### {c.id} ({c.category}): {c.what}")
        out.append(f"question ({c.query.client}, {r.project}): {c.query.prompt}")
        if r.answer_present is False:
            out.append(f"  answer missing: expected {c.expect}")
        if r.captured is False:
            out.append(f"  not captured in a living note: {c.claim_values}")
        out.extend(f"  stale in notes: {ln}" for ln in r.stale)
        out.extend(f"  superseded offered: {ln}" for ln in r.offered_old)
        out.extend(f"  bleed: {b.path} ({b.chars} chars)" for b in r.foreign_blocks)
        out.extend(f"  bleed: foreign value {v!r}" for v in r.foreign_values)
        out.extend(f"  junk ({j.rule}) in {j.path}: {j.line}" for j in r.junk_lines)
        out.extend(f"  junk injected: {j!r}" for j in r.junk_offered)
        out.append(
            "  injected at session start:" if r.answer.start else "  nothing at session start"
        )
        out.extend(f"    | {ln}" for ln in r.answer.start.splitlines())
        out.append(
            "  injected with the prompt:" if r.answer.prompt else "  nothing with the prompt"
        )
        out.extend(f"    | {ln}" for ln in r.answer.prompt.splitlines())
    if unattributed:
        out.append("\n### junk lines not tied to a case")
        out.extend(f"  ({j.rule}) {j.path}: {j.line}" for j in unattributed)
    return out
