"""The memory evaluation's own rules (wikimem/evaluate): what counts as offered as current, as
junk, as bleed; the case sets; the scripted model's answers; and the bench's form of the command
end to end, so it does not rot while the memory changes under it. The command itself, and the
main set's score with the scripted model, are in tests/test_eval_cli.py."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from wikimem.evaluate import scoring
from wikimem.evaluate.cases import PROJECTS, Case, Drop, Put, Session
from wikimem.evaluate.clients import CLIENTS, Edit, Run, Turn
from wikimem.evaluate.scripted_model import ScriptedModel, marker
from wikimem.evaluate.sets.heldout import build_heldout_cases
from wikimem.evaluate.sets.heldout2 import build_heldout2_cases
from wikimem.evaluate.sets.heldout3 import build_heldout3_cases
from wikimem.evaluate.sets.heldout4 import build_heldout4_cases
from wikimem.evaluate.sets.main import build_cases

BENCH = Path(__file__).resolve().parents[1] / "bench"

# -- values and the past ----------------------------------------------------------------------


def test_values_match_whole_words_with_any_punctuation_between() -> None:
    assert scoring.present("listens on localhost 5055", ("localhost:5055",))
    assert scoring.present("Indent with 2-space tabs", ("2 space",))
    assert not scoring.present("port 93001", ("9300",))
    assert not scoring.present("grafana.acme.dev", ("acme-devx",))
    assert not scoring.present("All tests live under tests/", ("__tests__",))
    assert scoring.present("never in src/__tests__/", ("__tests__",))


@pytest.mark.parametrize(
    "line",
    [
        "The collector listens on 9300 since 2026-03-02 (was 9102 until then).",
        '- Use bun (stated 2026-03-04 in codex:019d7a2e; replaces "I use pnpm for JS stuff, never npm.")',
        "- Uses bun for JavaScript, replacing an earlier preference for pnpm.",
        "forget that, the payments sandbox no longer needs the VPN",
        "I've switched to rebase merges, no more squash.",
        "VAT rates come from the tax API (formerly hardcoded in config/vat_2025.yaml).",
        "config/vat_2025.yaml is gone.",
        "~~port 9102~~ port 9300",
    ],
)
def test_an_old_value_marked_as_past_is_not_offered(line: str) -> None:
    for value in ("9102", "pnpm", "VPN", "squash", "vat_2025"):
        assert scoring.current_occurrences(line, value) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("- **Asked:** by the way, the metrics collector runs on port 9102 here.", "9102"),
        ("- I always use pnpm for JS stuff, never npm. (stated 2026-03-02)", "pnpm"),
        ("- **Asked:** remember that the payments sandbox needs VPN access", "VPN"),
        ("Don't forget, the collector runs on 9102", "9102"),
        ("Was it 9102? The collector runs on 9102.", "9102"),
    ],
)
def test_an_old_value_stated_plainly_is_offered_as_current(text: str, value: str) -> None:
    assert scoring.current_occurrences(text, value)


def test_a_past_heading_marks_what_follows_until_the_next_heading() -> None:
    text = "### projects/a/env.md — Env\n- port 9300\n## History\n- port 9102\n### other.md\n- 9102"
    assert scoring.current_occurrences(text, "9102") == ["- 9102"]


def test_an_answer_counts_when_stated_as_current_even_next_to_a_past_marker() -> None:
    assert scoring.all_present("The collector was moved to 9300 on Monday.", (("9300",),))
    assert scoring.all_present("Never commit anything under data/raw/.", (("data/raw",),))
    quoted = '- Indent with 4 spaces (stated …; replaces "Always use 2-space indentation.")'
    assert not scoring.all_present(quoted, (("2-space",),))


def test_an_answer_ignores_heading_lines_and_can_require_one_line() -> None:
    text = "### projects/a/sessions/2026-03-02-x.md\n- Grafana moved on Monday.\n- Postgres 16 since 2026-03-03."
    dates = ("2026-03-02",)
    assert not scoring.all_present(text, (dates,))
    assert not scoring.all_present(text, (("2026-03-03",), ("grafana",)), same_line=True)
    assert scoring.all_present(text, (("2026-03-03",), ("postgres",)), same_line=True)


# -- junk ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("- Can you check why the health endpoint returns 500?", "question"),
        ("- I'm seeing a weird error in the logs.", "passing state"),
        ("- I am going to lunch, finish the migration script meanwhile.", "passing state"),
        ("- By the way, the collector runs on 9102.", "filler"),
        ("- Fix the test settings.", "request"),
        ("- The collector was moved to 9300, please fix the dashboards.", "request"),
        ("- We migrated the warehouse yesterday.", "relative date"),
        ("- The collector was moved on Monday.", "relative date"),
        ("- Local API is on http://localhost:5055 now.", "relative date"),
        ("| `python -m app.backfill --dry-run --limit 163` | run | 1 | 0 | - |", "one-off variant"),
        (
            "| `pytest tests/test_orders.py::test_refund_17 -x` | test | 1 | 0 | - |",
            "one-off variant",
        ),
        ("- Use pnpm [… note clipped for this prompt …]", "clipped"),
    ],
)
def test_junk_rules(line: str, rule: str) -> None:
    assert scoring.line_rule(line) == rule


@pytest.mark.parametrize(
    "line",
    [
        "- Indent with 2 spaces.",
        "- Never commit anything under data/raw/ (customer data).",
        "- Run the backfill with `python -m pipeline.backfill`; add `--dry-run` to preview.",
        "- The metrics collector listens on port 9300 since 2026-03-02 (was 9102 until then).",
        "- The on-call handoff is every Tuesday at 10:00 CET. (stated 2026-03-02 via wikimem remember)",
        "| `make test` | test | 3 | 0 | 2026-03-04 |",
        "- `src/handlers/route_17.py` (3 edits)",
    ],
)
def test_claims_are_not_junk(line: str) -> None:
    assert scoring.line_rule(line) is None


def test_commands_differing_only_in_numbers_are_one_off_variants() -> None:
    body = (
        "| command | kind |\n|---|---|\n| `pytest tests/test_route_17.py -q` | test |\n"
        "| `pytest tests/test_route_18.py -q` | test |\n| `make test` | test |\n"
    )
    junk = scoring.junk_in_note("projects/a/commands.md", body)
    assert [j.rule for j in junk] == ["one-off variant", "one-off variant"]
    assert all("test_route" in j.line for j in junk)


# -- bleed ----------------------------------------------------------------------------------------


def test_blocks_from_another_project_are_bleed_unless_named() -> None:
    text = (
        '<memory source="wikimem">\nnote\n\n### profile/a.md — A\n- x\n'
        "### projects/acme-api/notes.md — N\n- y\n### projects/acme-web/sessions/2026-03-02-p.md\n- z\n</memory>"
    )
    assert [b.path for b in scoring.foreign_blocks(text, "acme-api")] == [
        "projects/acme-web/sessions/2026-03-02-p.md"
    ]
    assert scoring.foreign_blocks(text, "acme-api", ("acme-web",)) == []


# -- the cases and the payloads -----------------------------------------------------------------


def test_cases_are_many_and_well_formed() -> None:
    cases = build_cases()
    assert len({c.id for c in cases}) == len(cases) >= 40
    keys = {p.key for p in PROJECTS}
    for c in cases:
        assert c.query.client in CLIENTS and c.query.project in keys
        assert c.expect or c.old or c.junk, c.id
        for item in c.history:
            assert item.project in keys
    assert {c.query.client for c in cases} >= {"claude", "codex", "cursor"}


def test_the_second_held_out_set_is_forty_cases_over_six_projects_and_four_clients() -> None:
    cases = build_heldout2_cases()
    assert len(cases) == 40 and len({c.id for c in cases}) == 40
    assert all(c.id.startswith("h2-") for c in cases)
    assert {c.query.project for c in cases} | {i.project for c in cases for i in c.history} == {
        p.key for p in PROJECTS
    }
    clients = {c.query.client for c in cases} | {
        i.client for c in cases for i in c.history if isinstance(i, Session)
    }
    assert clients >= {"claude", "codex", "cursor", "gemini"}
    for c in cases:
        assert c.expect or c.old or c.foreign or c.junk, c.id


@pytest.mark.parametrize(
    ("build", "prefix"), [(build_heldout3_cases, "h3-"), (build_heldout4_cases, "h4-")]
)
def test_the_later_held_out_sets_cover_the_second_sets_classes_projects_and_clients(
    build: Callable[[], list[Case]], prefix: str
) -> None:
    """Built only, never replayed here: each set is run once, for the final measurement."""
    cases = build()
    assert len(cases) == 20 and len({c.id for c in cases}) == 20
    assert all(c.id.startswith(prefix) for c in cases)
    per_class = Counter(c.category for c in cases)
    assert set(per_class) == {c.category for c in build_heldout2_cases()}
    assert all(2 <= n <= 3 for n in per_class.values()), per_class
    assert {c.query.project for c in cases} | {i.project for c in cases for i in c.history} == {
        p.key for p in PROJECTS
    }
    assert {c.query.client for c in cases} == {"claude", "codex", "cursor", "gemini"}
    for c in cases:
        assert c.expect or c.old or c.foreign or c.junk, c.id
        gemini = c.query.client == "gemini" or any(
            isinstance(i, Session) and i.client == "gemini" for i in c.history
        )
        assert (c.needs_client == "gemini") == gemini, c.id


@pytest.mark.parametrize(
    "build",
    [
        build_cases,
        build_heldout_cases,
        build_heldout2_cases,
        build_heldout3_cases,
        build_heldout4_cases,
    ],
)
def test_every_scripted_turn_is_recognisable_by_its_prompt(build: Callable[[], list[Case]]) -> None:
    """The scripted model finds a turn by the first 80 characters of its prompt: two turns
    sharing them would get each other's answers."""
    marks = [
        marker(t.prompt)
        for c in build()
        for i in c.history
        if isinstance(i, Session)
        for t in i.turns
        if t.model
    ]
    assert len(set(marks)) == len(marks)


def test_session_ids_share_prefixes_but_stay_distinct() -> None:
    for spec in CLIENTS.values():
        ids = [spec.session_id(n) for n in range(1, 40)]
        assert len(set(ids)) == len(ids)
        assert len({i[:8] for i in ids}) == 1, spec.name


def test_every_client_records_the_prompt_tools_and_answer() -> None:
    turn = Turn("hello", (Run("make test", False, "boom"), Edit("a.py")), "fixed")
    for spec in CLIENTS.values():
        payloads = spec.session(spec.session_id(1), "/repo", [turn])
        text = json.dumps(payloads)
        assert "hello" in text and "make test" in text and "a.py" in text and "fixed" in text
        assert len(spec.opening(spec.session_id(2), "/repo", "q")) == 2


# -- the scripted model -------------------------------------------------------------------------


def _prompt(notes: str, events: str, catalogue: str = "") -> str:
    return (
        "Project: acme-api\nToday: 2026-03-04\n## Catalogue of existing notes (path — title)\n"
        f"{catalogue}\n\n## Notes relevant to these events\n{notes}\n"
        f"## New events since the last consolidation\n{events}"
    )


def test_the_scripted_model_rewrites_the_subject_line_of_the_note_it_was_shown() -> None:
    model = ScriptedModel(
        [("the collector moved to 9300", (Put("P/env.md", r"collector", "Collector on 9300."),))]
    )
    shown = (
        "\n### projects/acme-api/env.md\n```markdown\n---\ntitle: Env\nkind: project\n---\n"
        "- Collector on 9102.\n- Staging is s3.\n```\n"
    )
    events = (
        "### session codex:019d7a2e (codex, started 2026-03-04 09:00 UTC)\n"
        "[09:00] user: the collector moved to 9300\n[09:01] assistant: done\n"
    )
    ops = model.operations(_prompt(shown, events, "- projects/acme-api/env.md — Env"))
    upsert = next(o for o in ops if o["path"] == "projects/acme-api/env.md")
    assert upsert["body"] == "- Staging is s3.\n- Collector on 9300.\n"
    digest = next(o for o in ops if o["kind"] == "session")
    assert digest["path"] == "projects/acme-api/sessions/2026-03-04-019d7a2e.md"
    assert model.stats.blind_rewrites == []


def test_the_scripted_model_counts_a_note_it_must_change_but_was_not_shown() -> None:
    model = ScriptedModel([("forget that", (Drop("P/env.md", r"vpn"),))])
    events = "### session claude:proj-ses (claude, started 2026-03-04 09:00 UTC)\n[09:00] user: forget that\n"
    ops = model.operations(_prompt("(none yet)\n", events, "- projects/acme-api/env.md — Env"))
    assert {
        "op": "delete",
        "path": "projects/acme-api/env.md",
        "reason": "retracted by the user",
    } in ops
    assert model.stats.blind_rewrites == ["projects/acme-api/env.md"]


def test_under_the_claims_protocol_the_scripted_model_claims_and_retracts() -> None:
    model = ScriptedModel(
        [
            (
                "moved to 9300",
                (Put("P/env.md", r"metrics (collector|agent)", "Collector on 9300."),),
            ),
            ("forget the vpn", (Drop("P/env.md", r"vpn"),)),
        ]
    )
    shown = "\n### projects/acme-api/env.md\n```markdown\n---\ntitle: Env\n---\n- Sandbox needs VPN.\n```\n"
    events = (
        "### session codex:019d7a2e (codex, started 2026-03-04 09:00 UTC)\n"
        "[09:00] user: moved to 9300\n[09:01] user: forget the vpn\n"
    )
    ops = model.operations(_prompt(shown, events, "- projects/acme-api/env.md — Env"), claims=True)
    assert ops == [
        {
            "op": "claim",
            "path": "projects/acme-api/env.md",
            "subject": "metrics collector",
            "text": "Collector on 9300.",
            "sources": ["codex:019d7a2e"],
        },
        {"op": "retract", "path": "projects/acme-api/env.md", "text": "Sandbox needs VPN."},
    ]


# -- the bench's form, one case -------------------------------------------------------------------


def test_the_bench_runs_one_case_end_to_end_and_keeps_its_homes(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH / "memory_eval.py"),
            "--cases",
            "first-staging-host",
            "--json",
            "--keep",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["backend"] == "offline"
    assert out["hook_calls"] >= 7
    assert out["command_errors"] == [] and out["errors_log"] == []
    (case,) = out["cases"]
    assert case["id"] == "first-staging-host" and case["project"] == "acme-api"
    assert case["injected_start_chars"] > 0
    assert (tmp_path / "offline" / "home" / "memory").is_dir()
