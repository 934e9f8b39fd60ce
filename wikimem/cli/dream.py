"""`wikimem dream`: consolidate new events into the wiki, with progress, --dry-run and --json."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from wikimem.cli.common import (
    HomeOption,
    JsonOption,
    console,
    err_console,
    handle_errors,
    initialised_home,
)
from wikimem.cli.output import print_json
from wikimem.cli.progress import enabled_for, shown
from wikimem.dream import BACKENDS
from wikimem.home import Home, resolve_home
from wikimem.progress import Progress, quiet

if TYPE_CHECKING:  # the runner is imported by the command: `wikimem --help` does not pay for it
    from wikimem.dream.runner import DreamResult


# On a terminal, a dream that changed more notes than this says so in its one summary line and
# leaves the list to `wikimem diff`; a pipe gets every path, one a line, as before.
LISTED_ON_A_TERMINAL = 10


def _show(result: DreamResult, on_terminal: bool = False) -> None:
    if result.prompts:
        for i, text in enumerate(result.prompts, 1):
            console.print(
                f"===== chunk {i} of {len(result.prompts)}: what {result.backend} would send =====",
                markup=False,
                highlight=False,
            )
            console.print(text, markup=False, highlight=False)
        console.print(
            f"(show-prompt: nothing was sent, nothing written; {result.events} events. A chunk "
            "after the first would also show the notes earlier chunks changed.)",
            markup=False,
        )
        return
    if result.dry_run:
        console.print(result.diff or "nothing would change", markup=False, highlight=False)
        console.print(
            f"(dry run: {result.events} events, nothing written, watermark unchanged)", markup=False
        )
    else:
        what = []
        for label, items in (
            ("created", result.created),
            ("updated", result.updated),
            ("deleted", result.deleted),
        ):
            if items:
                what.append(f"{len(items)} {label}")
        summary = ", ".join(what) or "no changes"
        label = result.backend
        if result.offline_chunks and not result.model_chunks:
            label += ", ran offline"
        elif result.offline_chunks:
            label += f", {result.offline_chunks} chunk(s) offline"
        changed = len(result.created) + len(result.updated) + len(result.deleted)
        listed = not on_terminal or changed <= LISTED_ON_A_TERMINAL
        tail = ""
        if on_terminal:
            tail = f" in {result.seconds:.1f} s" + (
                "" if listed else " (`wikimem diff` lists them)"
            )
        console.print(
            f"dream ({label}): {result.events} events from {len(result.sessions)} sessions → {summary}"
            + (f"; commit {result.commit[:10]}" if result.commit else "")
            + tail,
            markup=False,
        )
        for label, items in (
            ("created", result.created),
            ("updated", result.updated),
            ("deleted", result.deleted),
        ):
            for path in items if listed else ():
                console.print(f"  {label} {path}", markup=False)
    for path, how in result.settled:
        console.print(f"settled a sync conflict in {path}: {how}", markup=False)
    for line in result.recovered:
        err_console.print(f"recovered: {line}", markup=False)
    for path, reason in result.rejected:
        err_console.print(f"rejected operation on {path}: {reason}", markup=False)
    for _, reason in result.blocked:
        err_console.print(f"blocked by the gate: {reason}", markup=False)
    for path, reason in result.parked:
        err_console.print(f"parked (retried by the next dream): {path}: {reason}", markup=False)
    for project, count, reason in result.deferred:
        err_console.print(
            f"deferred {count} event(s) of {project} to the next dream: {reason}", markup=False
        )
    for where, reason in result.quarantined:
        err_console.print(f"quarantined the event at {where}: {reason}", markup=False)
    for warning in result.warnings:
        err_console.print(f"warning: {warning}", markup=False)
    fell_back = result.fallback_line()
    if fell_back:
        err_console.print(f"dream: {fell_back}", markup=False, highlight=False)


def _synced(
    the_home: Home, *, background: bool, progress: Progress = quiet, **kwargs: Any
) -> DreamResult:
    """run_dream between two automatic syncs (`[sync] auto`): pull before, push after. A sync
    failure is recorded (status, doctor) and never fails the dream."""
    from wikimem.dream.runner import run_dream
    from wikimem.sync.auto import around_dream

    def sync() -> None:
        error = (
            None
            if kwargs.get("dry_run")
            else around_dream(the_home, background=background, progress=progress)
        )
        if error and not background:
            err_console.print(f"sync: {error}", markup=False)

    sync()
    try:
        return run_dream(the_home, progress=progress, **kwargs)
    finally:
        sync()


def register(app: typer.Typer) -> None:
    @app.command()
    @handle_errors
    def dream(
        backend: Annotated[
            str | None,
            typer.Option(
                "--backend",
                help=f"{', '.join(BACKENDS)} (default: config).",
                autocompletion=lambda incomplete: [b for b in BACKENDS if b.startswith(incomplete)],
            ),
        ] = None,
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help="Print the diff it would commit; change nothing.")
        ] = False,
        show_prompt: Annotated[
            bool,
            typer.Option(
                "--show-prompt",
                help="With --dry-run: print exactly what each chunk would send to the model "
                "(redacted as sent); call no model.",
            ),
        ] = False,
        drop_parked: Annotated[
            bool,
            typer.Option(
                "--drop-parked",
                help="Discard the writes the gate blocked earlier instead of trying them again.",
            ),
        ] = False,
        auto: Annotated[
            bool,
            typer.Option(
                "--auto", hidden=True, help="Started by a hook: quiet, log to state/dream.log."
            ),
        ] = False,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Consolidate the sessions recorded since the last dream into the wiki (one commit)."""
        if backend is not None and backend not in BACKENDS:
            raise typer.BadParameter(
                f"expected one of {', '.join(BACKENDS)}", param_hint="--backend"
            )
        if show_prompt and not dry_run:
            raise typer.BadParameter("needs --dry-run", param_hint="--show-prompt")
        # --auto: a config error, like any failure, is written to state/dream.log below
        the_home = resolve_home(home) if auto else initialised_home(home)
        if auto:
            # Started detached by a hook: nobody sees stdout or stderr, so the outcome, failure
            # included, goes to state/dream.log (and `wikimem status` / `doctor` show it).
            from wikimem.capture.events import utc_timestamp

            try:
                entry = _synced(the_home, background=True, backend_name=backend).as_dict()
            except Exception as exc:
                import traceback

                traceback.print_exc()  # into state/dream.out
                entry = {"error": f"{exc.__class__.__name__}: {exc}"}
            line = json.dumps({"ts": utc_timestamp(), **entry}, default=str)
            with open(os.path.join(the_home.state_dir, "dream.log"), "a", encoding="utf-8") as fh:
                fh.write(line + "\n")
            if "error" in entry:
                raise typer.Exit(1)
            return
        on_terminal = enabled_for(json_out) and not show_prompt
        with shown(on_terminal, "starting the dream") as progress:
            result = _synced(
                the_home,
                background=False,
                backend_name=backend,
                dry_run=dry_run,
                drop_parked=drop_parked,
                show_prompt=show_prompt,
                progress=progress,
            )
        if json_out:
            print_json(result.as_dict())
            fell_back = result.fallback_line()
            if fell_back:
                err_console.print(f"dream: {fell_back}", markup=False, highlight=False)
        else:
            _show(result, on_terminal)
