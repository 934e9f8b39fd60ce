"""Verbs that set wikimem up and report on it: init, hook, install, uninstall, status."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from wikimem.cli.common import HomeOption, JsonOption, console, handle_errors, home_of
from wikimem.cli.output import print_json
from wikimem.cli.progress import enabled_for, shown
from wikimem.harness import CLIENTS
from wikimem.home import resolve_home

if TYPE_CHECKING:  # each command imports what it uses: start-up stays light
    from wikimem.setup.install import InstallResult
    from wikimem.setup.mcpconfig import McpResult


def complete_client(incomplete: str) -> list[str]:
    return [c for c in CLIENTS if c.startswith(incomplete)]


ClientArg = Annotated[
    str,
    typer.Argument(help=f"{', '.join(CLIENTS)}", metavar="CLIENT", autocompletion=complete_client),
]
ScopeOption = Annotated[str, typer.Option("--scope", help="user (all projects) or project")]
ProjectDirOption = Annotated[
    str | None,
    typer.Option("--project-dir", help="Project root for --scope project (default: cwd)"),
]
DryRunOption = Annotated[bool, typer.Option("--dry-run", help="Show the change, write nothing.")]
McpOption = Annotated[
    bool,
    typer.Option("--mcp", help="Also register (uninstall: remove) the `wikimem mcp` server."),
]


def _check_client(client: str) -> None:
    if client not in CLIENTS:
        raise typer.BadParameter(
            f"{client!r} is not one of {', '.join(CLIENTS)}", param_hint="CLIENT"
        )


def _result_data(result: InstallResult | McpResult, verb: str) -> dict[str, Any]:
    from wikimem.setup.install import InstallResult

    if isinstance(result, InstallResult):
        data = result.as_dict()
    else:
        data = {k: v for k, v in vars(result).items() if k not in ("before", "after")}
        data["messages"] = list(result.messages)
    if result.dry_run:
        data["diff"] = _diff(result, verb)
    return data


def _show_result(result: InstallResult | McpResult, verb: str) -> None:
    from wikimem.setup.install import InstallResult
    from wikimem.setup.mcpconfig import McpResult

    if isinstance(result, InstallResult) and result.removed:
        what = "would remove" if result.dry_run else "removed"
        console.print(
            f"{what} {result.path}: wikimem created it and nothing else is left in it",
            markup=False,
        )
    elif result.dry_run:
        text = _diff(result, verb)
        console.print(text if text else f"{result.path}: no change", markup=False, highlight=False)
    elif result.changed:
        what = "MCP server" if isinstance(result, McpResult) else "hooks"
        if isinstance(result, InstallResult) and result.client == "opencode":
            what = "plugin"
        console.print(f"{verb}: {result.client} {what} in {result.path}", markup=False)
        if isinstance(result, InstallResult) and result.events:
            console.print(f"  events: {', '.join(result.events)}", markup=False)
        if result.backup:
            console.print(f"  backup: {result.backup}", markup=False)
    else:
        console.print(f"{result.path}: already up to date, nothing changed", markup=False)
    for message in result.messages:
        console.print(message, markup=False)


def _diff(result: InstallResult | McpResult, verb: str) -> str:
    import difflib

    return "".join(
        difflib.unified_diff(
            result.before.splitlines(keepends=True),
            result.after.splitlines(keepends=True),
            fromfile=result.path,
            tofile=f"{result.path} (after {verb})",
        )
    )


def _report(results: list[Any], verb: str, json_out: bool) -> None:
    """The hooks' result, and the MCP server's after it when there is one."""
    if json_out:
        data = _result_data(results[0], verb)
        if len(results) > 1:
            data = {"hooks": data, "mcp": _result_data(results[1], verb)}
        print_json(data)
        return
    for result in results:
        _show_result(result, verb)


def register(app: typer.Typer) -> None:
    @app.command()
    @handle_errors
    def init(home: str | None = HomeOption, json_out: bool = JsonOption) -> None:
        """Create the memory home: config.toml, events/, state/ and memory/ (a git repository)."""
        from wikimem.layout import init_home

        result = init_home(home_of(home))
        from wikimem.config import load_config
        from wikimem.dream import choice

        config = load_config(result.home)
        options = choice.survey(config)
        sends = choice.estimate(result.home, config)
        if json_out:
            print_json(
                {
                    "home": result.home.root,
                    "created": list(result.created),
                    "dream_backends": [o.as_dict() for o in options],
                    "dream_sends": sends.__dict__,
                }
            )
            return
        if result.changed:
            console.print(f"initialised {result.home.root}", markup=False)
            for path in result.created:
                console.print(f"  created {path}", markup=False)
        else:
            console.print(
                f"{result.home.root} is already initialised; nothing changed", markup=False
            )
        console.print("\ndream backends on this machine:", markup=False)
        for o in options:
            mark = "*" if o.in_use else ("+" if o.usable else "-")
            console.print(f"  {mark} {o.name:<11} {o.detail}", markup=False, highlight=False)
            console.print(f"    {'':<11} costs: {o.cost}", markup=False, highlight=False)
        console.print(f"({choice.how_to_choose(config)}.)", markup=False, highlight=False)
        console.print(
            f"what a model dream would send: {sends.line()}; see it exactly with "
            "`wikimem dream --dry-run --show-prompt --backend NAME`",
            markup=False,
            highlight=False,
        )

    @app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def hook(client: ClientArg, home: str | None = HomeOption) -> None:
        """The hook entry point harnesses call (reads one JSON payload on stdin; always exits 0)."""
        # `wikimem hook` is dispatched in wikimem.__main__ before typer is imported; this
        # definition documents it (`wikimem hook --help`) and serves a caller of the typer app.
        from wikimem.capture.hook import main

        args = [client] + (["--home", home] if home else [])
        raise typer.Exit(main(args))

    @app.command("install")
    @handle_errors
    def install_cmd(
        client: ClientArg,
        scope: ScopeOption = "user",
        project_dir: ProjectDirOption = None,
        dry_run: DryRunOption = False,
        trust: Annotated[
            bool,
            typer.Option(
                "--trust",
                help="Codex: record in ~/.codex/config.toml that you trust wikimem's hooks "
                "(otherwise Codex skips them until you trust them in /hooks). Gemini CLI: record "
                "the project folder as trusted in ~/.gemini/trustedFolders.json (Gemini runs no "
                "hook in an untrusted folder). Copilot CLI, with --scope project: add the "
                "repository to trustedFolders in ~/.copilot/config.json (Copilot skips "
                "repository hooks in an untrusted folder).",
            ),
        ] = False,
        mcp: McpOption = False,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Wire wikimem's hooks into a harness config, keeping every other entry."""
        from wikimem.layout import init_home
        from wikimem.setup.changeset import Changes
        from wikimem.setup.install import plan_install, settle
        from wikimem.setup.mcpconfig import plan_install_mcp

        _check_client(client)
        the_home = home_of(home)
        steps = 2 + (1 if mcp else 0) + (0 if dry_run else 1)
        with shown(enabled_for(json_out), f"installing {client}") as progress:
            # Everything is planned first: a refusal anywhere (trust, a foreign MCP entry, a
            # file that does not parse) leaves every file as it was; then all is written, or none.
            changes = Changes(the_home)
            progress(f"reading {client}'s hook configuration", 0, steps)
            results: list[Any] = [
                plan_install(changes, client, the_home, scope, project_dir, dry_run, trust)
            ]
            if mcp:
                progress(f"reading {client}'s MCP servers", len(results), steps)
                results.append(
                    plan_install_mcp(changes, client, the_home, scope, project_dir, dry_run)
                )
            if not dry_run:
                progress("making the memory home", len(results), steps)
                init_home(the_home)
                progress("writing the configuration files", len(results) + 1, steps)
                changes.commit()
                results = settle(changes, *results)
        _report(results, "installed", json_out)

    @app.command("uninstall")
    @handle_errors
    def uninstall_cmd(
        client: Annotated[
            str,
            typer.Argument(
                help=f"{', '.join(CLIENTS)}, or export (the managed blocks of `wikimem export`)",
                metavar="CLIENT",
                autocompletion=lambda incomplete: [
                    c for c in (*CLIENTS, "export") if c.startswith(incomplete)
                ],
            ),
        ],
        scope: ScopeOption = "user",
        project_dir: ProjectDirOption = None,
        dry_run: DryRunOption = False,
        mcp: McpOption = False,
        to: Annotated[
            list[str] | None,
            typer.Option(
                "--to",
                metavar="FILE",
                help="With export: the files to take the block out of (default: every file "
                "`wikimem export --to` enabled).",
            ),
        ] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Remove exactly wikimem's hooks from a harness config (or, with `export`, wikimem's
        blocks from instruction files, giving each file its own bytes back)."""
        from wikimem.setup.changeset import Changes
        from wikimem.setup.install import plan_uninstall, settle
        from wikimem.setup.mcpconfig import owner_home, plan_uninstall_mcp

        if client == "export":
            from wikimem.cli.export import show
            from wikimem.export.files import remove

            show(remove(home_of(home), to or []), json_out)
            return
        if to:
            raise typer.BadParameter("is for `wikimem uninstall export`", param_hint="--to")
        _check_client(client)
        # a broken config.toml must not stop it; without --home, the home the hooks write to
        the_home = resolve_home(home) if home else owner_home(client, scope, project_dir)
        changes = Changes(the_home)
        results: list[Any] = [plan_uninstall(changes, client, scope, project_dir, dry_run)]
        if mcp:
            results.append(plan_uninstall_mcp(changes, client, scope, project_dir, dry_run))
        if not dry_run:
            changes.commit()
            results = settle(changes, *results)
        _report(results, "removed", json_out)

    @app.command()
    @handle_errors
    def status(
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
        project_dir: ProjectDirOption = None,
    ) -> None:
        """Events recorded per client and session, size on disk, hooks installed where."""
        import os

        from wikimem.status import collect

        info = collect(home_of(home), project_dir or os.getcwd())
        if json_out:
            print_json(info.as_dict())
            return
        from wikimem.cli.statusview import render

        sys.stdout.write(render(info))


def register_doctor(app: typer.Typer) -> None:
    @app.command()
    @handle_errors
    def doctor(
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
        project_dir: ProjectDirOption = None,
    ) -> None:
        """Check the home, the wiki, the index and every harness's wiring; say what to fix."""
        import os

        from wikimem.doctor import diagnose

        # resolve_home, not home_of: a broken config.toml is one of the things doctor reports
        checks = diagnose(resolve_home(home), project_dir or os.getcwd())
        if json_out:
            print_json([c.__dict__ for c in checks])
        else:
            marks = {
                "ok": "[green]ok[/]",
                "warn": "[yellow]warn[/]",
                "fail": "[red]FAIL[/]",
                "info": "[dim]info[/]",
            }
            for c in checks:
                console.print(f"{marks[c.status]:>16} {c.area}: ", end="", highlight=False)
                console.print(c.detail, markup=False, highlight=False)
                if c.fix:
                    console.print(f"                 → {c.fix}", markup=False, highlight=False)
        if any(c.status == "fail" for c in checks):
            raise typer.Exit(1)
