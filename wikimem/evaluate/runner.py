"""One evaluation run: a case set replayed with one dream backend in a temporary home, scored.

Contract: `select_cases(set, pattern)` builds a set's cases (those that need a client this
wikimem does not know are returned apart, as skipped); `run_backend(backend, cases, work)`
replays them under `work` (a directory the caller made and removes: the home, the six
repositories and the HOME the hooks see all live there) and returns an `Outcome`.

Backends (`Backend`): `offline`; `scripted`, `wikimem dream --backend anthropic` against a local
stand-in for the Messages API that answers each turn as a good model would
(`scripted_model`), so the model path is measured with known answers, for free; or a model
backend by name (`anthropic`, `claude-cli`, ...), which is the person's real model: it spends
what a dream of theirs spends, and the temporary home gets their `[dream]` settings (model,
server, limits) and their environment (keys, signed-in CLIs) for the dream only.

Nothing here reads or writes the person's wikimem home: every command runs with `WIKIMEM_HOME`
set to the temporary one, and the hooks with their own `--home`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wikimem.config import Config, DreamConfig
from wikimem.dream import BACKENDS, resolve
from wikimem.errors import WikimemError
from wikimem.evaluate import scoring, sets
from wikimem.evaluate.cases import Case, Session, World
from wikimem.evaluate.replay import Replayer, Run, load_run, save_run
from wikimem.evaluate.report import CaseResult, categories, score, summarise
from wikimem.evaluate.scripted_model import MessagesServer, ScriptedModel
from wikimem.progress import Progress, quiet

# The [dream] settings a model backend's run takes from the person's config (`auto` stays off:
# the evaluation dreams once after each scripted day, itself).
CARRIED_SETTINGS = (
    "backend",
    "model",
    "base_url",
    "api_key_env",
    "max_calls_per_day",
    "max_tokens_per_day",
    "timeout_seconds",
    "chunk_chars",
    "notes_chars",
    "max_tokens",
    "max_retries",
)


@dataclass(frozen=True)
class Backend:
    """The dream an evaluation runs: `offline`, `scripted`, or a model backend by name (with
    the person's [dream] settings and the environment its dream needs)."""

    name: str
    settings: DreamConfig | None = None
    environ: Mapping[str, str] = field(default_factory=dict)

    @property
    def spends(self) -> bool:
        """Whether a run calls a real model (a plan's usage, API credit, a server's time)."""
        return self.name not in ("offline", "scripted")


@dataclass
class Outcome:
    backend: str
    seconds: float
    cpu_seconds: float
    run: Run
    results: list[CaseResult]
    unattributed: list[scoring.JunkLine]
    model: dict[str, Any] | None

    @property
    def summary(self) -> dict[str, Any]:
        return summarise(self.results, len(self.unattributed))

    def as_json(self) -> dict[str, Any]:
        run = self.run
        return {
            "backend": self.backend,
            "seconds": round(self.seconds, 1),
            "cpu_seconds": round(self.cpu_seconds, 1),
            "summary": self.summary,
            "by_category": {
                c: summarise([r for r in self.results if r.case.category == c])
                for c in categories(self.results)
            },
            "cases": [r.as_dict() for r in self.results],
            "unattributed_junk": [[j.path, j.rule, j.line] for j in self.unattributed],
            "hook_calls": run.hook_calls,
            "slow_hooks": run.slow_hooks,
            "dreams": run.dreams,
            "command_errors": run.cli_errors,
            "errors_log": run.errors_log,
            "model": self.model,
        }


def select_cases(
    case_set: str | list[Case] = "main", pattern: str | None = None
) -> tuple[list[Case], list[str]]:
    """(the cases to run, the ids skipped because this wikimem does not support their client)
    of a set by name or of a list of cases; `pattern` keeps only cases whose id or category
    contains it."""
    from wikimem.harness import CLIENTS as SUPPORTED

    cases, skipped = [], []
    for case in sets.build(case_set) if isinstance(case_set, str) else case_set:
        if pattern and pattern not in case.id and pattern not in case.category:
            continue
        if case.needs_client and case.needs_client not in SUPPORTED:
            skipped.append(case.id)
            continue
        cases.append(case)
    return cases, skipped


def scripted_turns(cases: list[Case]) -> list[tuple[str, tuple[object, ...]]]:
    return [
        (t.prompt, t.model)
        for c in cases
        for item in c.history
        if isinstance(item, Session)
        for t in item.turns
    ]


def model_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """What a real model backend's dream sees of the person's environment: everything (its key,
    the HOME its CLI is signed in under, a proxy) but the variables the replay sets itself."""
    own = ("WIKIMEM_", "GIT_", "PYTHON")
    return {k: v for k, v in environ.items() if not k.startswith(own)}


def dream_settings(settings: DreamConfig) -> dict[str, str | int]:
    return {name: getattr(settings, name) for name in CARRIED_SETTINGS}


def run_backend(
    backend: Backend,
    cases: list[Case],
    work: Path,
    progress: Progress = quiet,
    reuse: bool = False,
    world: World | None = None,
) -> Outcome:
    """Replay `cases` under `work` with `backend` and score them (`reuse`: score the run saved
    under `work` again, without replaying); `world` is the set's repositories and calendar."""
    started = time.perf_counter()
    cpu_before = _cpu()
    model_stats: dict[str, Any] | None = None
    saved = work / "run.json"
    if reuse:
        run = load_run(saved)
        stats = work / "model.json"
        model_stats = json.loads(stats.read_text()) if stats.exists() else None
    elif backend.name == "offline":
        run = Replayer(work, cases, ["--backend", "offline"], {}, world=world).replay(progress)
    elif backend.name == "scripted":
        model = ScriptedModel(scripted_turns(cases))
        with MessagesServer(model) as server:
            env = {"ANTHROPIC_API_KEY": "scripted-model-key", "ANTHROPIC_BASE_URL": server.url}
            replayer = Replayer(work, cases, ["--backend", "anthropic"], env, world=world)
            run = replayer.replay(progress)
        model_stats = model.stats.as_dict()
        (work / "model.json").write_text(json.dumps(model_stats, indent=1))
    else:
        settings = dream_settings(backend.settings) if backend.settings else {}
        replayer = Replayer(
            work,
            cases,
            ["--backend", backend.name],
            model_environment(backend.environ),
            {**settings, "backend": backend.name},
            world,
        )
        run = replayer.replay(progress)
    if not reuse:
        save_run(run, saved)
    seconds = time.perf_counter() - started
    results, unattributed = score(cases, run)
    return Outcome(
        backend.name, seconds, _cpu() - cpu_before, run, results, unattributed, model_stats
    )


def _cpu() -> float:
    """CPU seconds of this process and its finished children: on a shared machine the wall
    clock says more about the neighbours than about the run."""
    try:
        import resource
    except ImportError:  # Windows: this process only
        return time.process_time()
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


CHOICES = ("offline", "scripted", "configured", *(b for b in BACKENDS if b != "offline"))


def choose(choice: str, config: Config | None, environ: Mapping[str, str]) -> Backend:
    """The backend `wikimem eval --backend CHOICE` means: `offline` and `scripted` as they are,
    `configured` the dream backend of the person's config, `auto` resolved as a dream resolves
    it, a model backend by name with the person's [dream] settings and environment."""
    if choice in ("offline", "scripted"):
        return Backend(choice)
    if choice not in CHOICES:
        raise WikimemError(f"unknown backend {choice!r}: one of {', '.join(CHOICES)}")
    if config is None:
        raise WikimemError(f"--backend {choice} needs the config it reads its settings from")
    name = resolve(config.dream.backend if choice == "configured" else choice)
    if name == "offline":
        return Backend("offline")
    return Backend(name, config.dream, dict(environ))
