"""`wikimem eval`: the memory evaluation as a person runs it against their own backend.

It measures in a temporary home and never writes the person's (nor reads their memory); a model
that costs runs only once the person has been told what it will send and said yes; failing cases
are a result (exit 0); and, run with the scripted model on the main set, the score CI holds the
memory to."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wikimem.config import load_config
from wikimem.evaluate import sets
from wikimem.evaluate.cases import Case, Query, S, T
from wikimem.evaluate.clients import Run
from wikimem.evaluate.cost import estimate
from wikimem.evaluate.runner import CHOICES, scripted_turns, select_cases
from wikimem.evaluate.scripted_model import MessagesServer, ScriptedModel
from wikimem.home import Home


def wikimem(*args: str, env: dict[str, str] | None = None, timeout: int = 300) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "wikimem", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() if p.is_file() else b"<dir>"
        for p in sorted(root.rglob("*"))
    }


@pytest.fixture
def person(home: Path) -> Path:
    """The person's own home, with a note in it."""
    note = home / "memory" / "profile" / "deploys.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("---\ntitle: Deploys\n---\n- The deploy window is Tuesday.\n")
    return home


def set_dream(home: Path, **settings: str) -> None:
    config = home / "config.toml"
    lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items())
    config.write_text(config.read_text().replace("[dream]\n", "[dream]\n" + lines, 1))


class RecordingModel(ScriptedModel):
    """The scripted model, keeping the model name each request asked for."""

    def __init__(self, turns: list[tuple[str, tuple[object, ...]]]) -> None:
        super().__init__(turns)
        self.models: list[str] = []

    def respond(self, request: dict[str, Any]) -> dict[str, Any]:
        self.models.append(str(request.get("model")))
        return super().respond(request)


def test_help_says_where_it_runs_and_what_a_model_costs() -> None:
    out = " ".join(wikimem("eval", "--help").stdout.split())
    assert "temporary home" in out and "never written" in out and "memory is never read" in out
    assert "--yes" in out and "spends" in out
    for name in (*sets.NAMES, "all", "offline", "scripted", "configured", "claude-cli"):
        assert name in out


def test_the_choices_the_command_spells_out_are_the_engines() -> None:
    from wikimem.cli.evaluate import BACKEND_CHOICES, SET_NAMES

    assert SET_NAMES == sets.NAMES
    assert BACKEND_CHOICES == CHOICES


def test_a_failing_case_is_a_result_and_the_persons_home_is_left_as_it_was(
    person: Path,
) -> None:
    """`configured` with an offline config: free, so nothing is asked; the case fails offline
    (a terse preference with typos the offline rules do not read) and the exit status is still 0."""
    set_dream(person, backend="offline")
    before = snapshot(person)
    proc = wikimem("eval", "--backend", "configured", "--set", "heldout2", "--cases", "iso-dates")
    assert proc.returncode == 0, proc.stderr
    assert "| terse preference | 1     | 0/1 (0%)" in proc.stdout
    assert "score (heldout2 set, offline): clean 0/1 (0%)" in proc.stdout
    assert snapshot(person) == before


def test_a_model_that_costs_is_not_run_without_yes(isolated_home: Path) -> None:
    model = ScriptedModel([])
    with MessagesServer(model) as server:
        proc = wikimem(
            "eval",
            "--backend",
            "anthropic",
            env={"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": server.url},
        )
    assert proc.returncode == 1
    said = " ".join(proc.stderr.split())
    assert "54 cases, 6 dreams, about 22 model calls" in said
    assert "Anthropic API credit" in said and "--yes" in said
    assert model.stats.requests == 0
    assert not isolated_home.exists()  # not even made


def test_a_model_that_cannot_run_here_is_refused_before_anything_runs() -> None:
    proc = wikimem("eval", "--backend", "anthropic", "--yes")
    assert proc.returncode == 1
    assert "anthropic cannot run here: ANTHROPIC_API_KEY not set" in proc.stderr


def test_with_yes_the_persons_model_runs_with_their_settings_in_a_temporary_home(
    person: Path,
) -> None:
    set_dream(person, model="their-model")
    before = snapshot(person)
    cases, _ = select_cases("main", "first-staging-host")
    model = RecordingModel(scripted_turns(cases))
    with MessagesServer(model) as server:
        proc = wikimem(
            "eval",
            "--backend",
            "anthropic",
            "--yes",
            "--cases",
            "first-staging-host",
            "--json",
            env={"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": server.url},
        )
    assert proc.returncode == 0, proc.stderr
    assert "1 cases, 1 dreams, about 1 model calls" in " ".join(proc.stderr.split())
    out = json.loads(proc.stdout)
    assert out["backend"] == "anthropic" and out["clean"] == [1, 1]
    (result,) = out["sets"]
    assert result["model"] is None  # the person's model, not the scripted one
    assert [d["model_chunks"] for d in result["dreams"]] == [1]
    (case,) = result["cases"]
    assert case["captured"] is True and case["answer_present"] is True
    assert model.models and set(model.models) == {"their-model"}
    assert snapshot(person) == before


def test_an_unknown_set_or_backend_is_a_usage_error() -> None:
    assert wikimem("eval", "--set", "nope").returncode == 2
    assert wikimem("eval", "--backend", "nope").returncode == 2


def test_the_cost_is_one_call_per_project_per_day_and_more_for_a_long_day(tmp_path: Path) -> None:
    dream = load_config(Home(str(tmp_path))).dream

    def case(n: int, project: str, day: int, output: str = "") -> Case:
        run = Run("make test", False, output)
        turn = T(f"prompt {n}", run)
        return Case(
            f"c{n}", "x", "x", (S("claude", project, day, turn),), Query("claude", project, "q")
        )

    small = [case(1, "api", 1), case(2, "web", 1), case(3, "api", 1), case(4, "api", 2)]
    cost = estimate(small, dream, "anthropic")
    assert (cost.dreams, cost.calls) == (2, 3)
    long_day = [case(n, "api", 1, "x" * 200) for n in range(dream.chunk_chars // 200)]
    assert estimate(long_day, dream, "anthropic").calls == 2
    agent_cli = estimate(small, dream, "claude-cli")
    assert agent_cli.calls == cost.calls and agent_cli.chars > cost.chars  # the schema quoted


def test_the_main_set_with_the_scripted_model_scores_every_case_clean(person: Path) -> None:
    """What CI holds the memory to: the main set, through the real hooks and the model path of
    the dream (a stand-in answering as a good model would), every question answered cleanly. A
    change that makes this fail either broke the memory or must say why the score moved
    (docs/benchmarks.md)."""
    before = snapshot(person)
    proc = wikimem("eval", "--backend", "scripted", "--json", timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    (result,) = out["sets"]
    assert result["command_errors"] == [] and result["errors_log"] == []
    summary = result["summary"]
    assert out["clean"] == summary["clean"] == [54, 54]
    assert summary["answer_present"] == [47, 47]
    assert summary["captured"] == [46, 46]
    assert summary["superseded_offered"] == [0, 17]
    assert summary["stale_in_notes"] == [0, 17]
    assert summary["bleed"] == [0, 54]
    assert summary["junk_lines"] == 0
    assert result["model"]["corrections"] == 0
    # what a person is told a model run makes is what this run made
    cases, _ = select_cases("main")
    expected = estimate(cases, load_config(Home(str(person))).dream, "anthropic")
    assert result["model"]["requests"] == expected.calls == 22
    sent = sum(c for d in result["dreams"] for c in d["prompt_chars"])
    assert abs(expected.chars - sent) / sent < 0.15
    assert snapshot(person) == before
