"""`wikimem eval`: measure what the dreams are worth, in a temporary home.

The engine is `wikimem.evaluate`; this module picks the backend, asks before spending a model,
and draws the per-category table. A measurement, not a check: failing cases still exit 0; only
an error does not (a bad option, a model run not confirmed, a replayed command that failed).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from wikimem.cli.common import (
    HomeOption,
    JsonOption,
    console,
    err_console,
    handle_errors,
)
from wikimem.cli.output import print_json
from wikimem.cli.progress import enabled_for, shown
from wikimem.errors import WikimemError

if TYPE_CHECKING:
    from wikimem.config import Config
    from wikimem.evaluate.runner import Backend, Outcome

# Spelled out here so `wikimem --help` imports nothing of the engine (tests keep them equal to
# wikimem.evaluate.sets.NAMES and wikimem.evaluate.runner.CHOICES).
SET_NAMES = ("main", "heldout", "heldout2", "heldout3", "heldout4", "blindA", "blindB", "blindC")
BACKEND_CHOICES = (
    "offline",
    "scripted",
    "configured",
    "auto",
    "anthropic",
    "claude-cli",
    "codex-cli",
    "gemini-cli",
    "openai",
)

HELP = """Measure what your dreams are worth: scripted sessions in six projects are replayed
through the real hooks and `wikimem dream`, then each case's question is asked in a new session
and what the agent is given is scored per category (clean, answer present, captured, stale,
superseded offered, junk, bleed).

Everything runs in a temporary home that is deleted afterwards: your own home (--home,
$WIKIMEM_HOME or ~/.wikimem) is never written and your memory is never read; with a model
backend only the [dream] settings of its config are read.

--backend offline (the default) and scripted (a local stand-in that answers as a good model
would) cost nothing and use no network. A model backend (configured, anthropic, claude-cli,
codex-cli, gemini-cli, openai) sends the scripted sessions to your model and spends what your
dreams spend: it says how many calls and characters first, and runs only with --yes or your
answer at the prompt. Failing cases are a result, not an error: the exit status is 0."""


def _one_of(values: tuple[str, ...]) -> str:
    return " | ".join(values) + "."


def _config(home: str | None) -> Config:
    """The person's config, read without writing anything (not even its cache) into their
    home; the defaults when there is none."""
    from wikimem.config import load_config
    from wikimem.home import resolve_home

    return load_config(resolve_home(home), write_cache=False)


def _refuse_unusable(backend: Backend, config: Config) -> None:
    """A model backend that cannot work here would make every dream fall back offline: the
    figures would be offline's under the model's name."""
    from wikimem.dream.choice import LOCAL_SERVERS, survey

    # local servers are probed only when the backend is the one that would use them
    servers = LOCAL_SERVERS if backend.name == "openai" else ()
    for option in survey(config, local_servers=servers):
        if option.name == backend.name and not option.usable:
            raise WikimemError(f"{backend.name} cannot run here: {option.detail}")


def _confirm(backend: Backend, what: str, yes: bool) -> None:
    from wikimem.dream.choice import COSTS

    err_console.print(
        f"wikimem eval with {backend.name}: {what}. It spends {COSTS[backend.name]}.",
        markup=False,
        highlight=False,
    )
    if yes:
        return
    if not sys.stdin.isatty():
        raise WikimemError(
            f"not run: {backend.name} spends model calls; run again with --yes to spend them "
            "(--backend scripted measures the model path for free)"
        )
    if not typer.confirm("Run it?", default=False, err=True):
        err_console.print("not run", markup=False)
        raise typer.Exit(1)


def _print_table(outcome: Outcome) -> None:
    from wikimem.evaluate.report import HEADER, category_rows, text_table

    rows = category_rows(outcome.results, outcome.unattributed)
    if not console.is_terminal:  # a pipe or a file gets Markdown, whatever its width
        console.print(text_table(rows), markup=False, highlight=False, soft_wrap=True)
        return
    from rich import box
    from rich.table import Table

    # Fits an 80-column terminal: headers on two lines, one space between columns, rates as
    # counts (the Markdown table, the score line and --json give the percentages).
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0))
    for i, name in enumerate(HEADER):
        table.add_column(
            name.replace(" ", "\n", 1),
            justify="left" if i == 0 else "right",
            no_wrap=i != 0,
            min_width=10 if i == 0 else None,
        )
    for i, row in enumerate(rows):
        cells = [c.split(" (")[0] if 2 <= j <= 8 else c for j, c in enumerate(row)]
        table.add_row(*cells, style="bold" if i == len(rows) - 1 else None)
    console.print(table)


def _show(set_name: str, outcome: Outcome, skipped: list[str], verbose: bool) -> None:
    from wikimem.evaluate import sets
    from wikimem.evaluate.report import detail_lines, summary_lines

    run = outcome.run

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    say(
        f"\n{sets.label(set_name)}, backend {outcome.backend}: {len(outcome.results)} cases, "
        f"{run.hook_calls:,} hook calls, {len(run.dreams)} dreams, {outcome.seconds:.0f} s"
    )
    if skipped:
        say(f"skipped (client not supported by this wikimem): {', '.join(skipped)}")
    _print_table(outcome)
    say("")
    for line in summary_lines(run, outcome.results, outcome.unattributed, outcome.model):
        say(line)
    if verbose:
        for line in detail_lines(outcome.results, outcome.unattributed):
            say(line)


def register(app: typer.Typer) -> None:
    @app.command("eval", help=HELP)
    @handle_errors
    def eval_cmd(
        case_set: Annotated[
            str,
            typer.Option(
                "--set",
                help="Which cases: " + _one_of((*SET_NAMES, "all")),
                autocompletion=lambda incomplete: [
                    s for s in (*SET_NAMES, "all") if s.startswith(incomplete)
                ],
            ),
        ] = "main",
        backend_choice: Annotated[
            str,
            typer.Option(
                "--backend",
                help="Which dream: "
                + _one_of(BACKEND_CHOICES)
                + " configured = the backend of your config.",
                autocompletion=lambda incomplete: [
                    b for b in BACKEND_CHOICES if b.startswith(incomplete)
                ],
            ),
        ] = "offline",
        yes: Annotated[
            bool, typer.Option("--yes", help="Spend a model backend's calls without asking.")
        ] = False,
        only: Annotated[
            str | None,
            typer.Option("--cases", help="Only the cases whose id or category contains this."),
        ] = None,
        verbose: Annotated[
            bool,
            typer.Option("--verbose", help="Each failing case: what failed, what was injected."),
        ] = False,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        if case_set not in (*SET_NAMES, "all"):
            raise typer.BadParameter(
                f"expected one of {', '.join((*SET_NAMES, 'all'))}", param_hint="--set"
            )
        if backend_choice not in BACKEND_CHOICES:
            raise typer.BadParameter(
                f"expected one of {', '.join(BACKEND_CHOICES)}", param_hint="--backend"
            )
        from wikimem.evaluate import sets
        from wikimem.evaluate.cost import estimate
        from wikimem.evaluate.runner import choose, run_backend, select_cases

        free = backend_choice in ("offline", "scripted")
        config = None if free else _config(home)
        backend = choose(backend_choice, config, os.environ)
        names = SET_NAMES if case_set == "all" else (case_set,)
        chosen = {name: select_cases(name, only) for name in names}
        chosen = {name: picked for name, picked in chosen.items() if picked[0]}
        if not chosen:
            raise WikimemError(f"no case matches {only!r}")
        if backend.spends:
            assert config is not None and backend.settings is not None
            _refuse_unusable(backend, config)
            cost = [estimate(cases, backend.settings, backend.name) for cases, _ in chosen.values()]
            from wikimem.dream.usage import estimate_tokens

            calls, chars = sum(c.calls for c in cost), sum(c.chars for c in cost)
            cases_n = sum(len(cases) for cases, _ in chosen.values())
            _confirm(
                backend,
                f"{cases_n} cases, {sum(c.dreams for c in cost)} dreams, about {calls} model "
                f"calls carrying about {chars:,} characters (about {estimate_tokens(chars):,} "
                "input tokens, 4 characters a token)",
                yes,
            )
        outcomes: list[tuple[str, Outcome, list[str]]] = []
        started = time.monotonic()
        with (
            tempfile.TemporaryDirectory(prefix="wikimem-eval-", ignore_cleanup_errors=True) as tmp,
            shown(enabled_for(json_out), "starting the evaluation") as progress,
        ):
            for name, (cases, skipped) in chosen.items():

                def step(what: str, done: int, total: int | None, name: str = name) -> None:
                    progress(f"{name} set: {what}", done, total)

                work = Path(tmp) / name
                outcome = run_backend(backend, cases, work, step, world=sets.world(name))
                outcomes.append((name, outcome, skipped))
        clean = [sum(o.summary["clean"][i] for _, o, _ in outcomes) for i in (0, 1)]
        failed = [line for _, o, _ in outcomes for line in o.run.cli_errors]
        if json_out:
            print_json(
                {
                    "backend": backend.name,
                    "clean": clean,
                    "sets": [
                        {"set": name, "skipped": skipped, **o.as_json()}
                        for name, o, skipped in outcomes
                    ],
                }
            )
        else:
            for name, outcome, skipped in outcomes:
                _show(name, outcome, skipped, verbose)
            from wikimem.evaluate.report import rate

            which = "all sets" if len(outcomes) > 1 else outcomes[0][0] + " set"
            took = f" in {time.monotonic() - started:.0f} s" if console.is_terminal else ""
            console.print(
                f"\nscore ({which}, {backend.name}): clean {rate(*clean)}{took}",
                markup=False,
                highlight=False,
            )
        if failed:
            raise WikimemError(
                f"{len(failed)} replayed command(s) failed, so these figures do not measure "
                f"the memory; the first: {failed[0]}"
            )
