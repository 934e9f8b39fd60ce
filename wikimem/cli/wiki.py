"""Verbs that read and change the wiki: remember, forget, edit, show, list, log, diff."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from wikimem.cli.common import (
    HomeOption,
    JsonOption,
    console,
    err_console,
    fail,
    handle_errors,
    initialised_home,
)
from wikimem.cli.output import print_json
from wikimem.errors import WikimemError

if TYPE_CHECKING:  # each command imports the wiki itself: start-up stays light
    from rich.table import Table

    from wikimem.wiki.batch import BatchResult, Wiki


def complete_note_path(incomplete: str) -> list[str]:
    """Shell completion for PATH arguments: the notes whose path starts with what was typed."""
    try:
        from wikimem.home import resolve_home
        from wikimem.wiki.plainfile import note_paths

        paths = note_paths(resolve_home().memory_dir)
    except OSError:
        return []
    return [p for p in paths if p.startswith(incomplete)]


PathArg = Annotated[
    str,
    typer.Argument(
        help="Note path relative to memory/ (`.md` optional; a [[wikilink]] works too).",
        autocompletion=complete_note_path,
    ),
]


def result_data(result: BatchResult) -> dict[str, Any]:
    return {
        "commit": result.commit,
        "written": [{"path": r.write.path, "operation": r.write.operation} for r in result.written],
        "blocked": [{"path": r.write.path, "reason": r.reason} for r in result.blocked],
        "warnings": list(result.warnings),
    }


def _then_sync(wiki: Wiki, result: BatchResult) -> BatchResult:
    """`[sync] auto`: a commit is pushed by a detached sync; the person does not wait for it."""
    if result.commit:
        from wikimem.sync.auto import after_write

        after_write(wiki.home, wiki.config)
    return result


def _report(result: BatchResult, json_out: bool) -> None:
    if json_out:
        print_json(result_data(result))
    else:
        for r in result.written:
            console.print(
                f"{r.write.operation}d {r.write.path}"
                if r.write.operation != "delete"
                else f"deleted {r.write.path}",
                markup=False,
            )
            if r.redacted:
                console.print(
                    f"  secrets redacted: {', '.join(sorted(set(r.redacted)))}", markup=False
                )
        if result.commit:
            console.print(
                f"committed {result.commit[:10]}: {result.message.splitlines()[0]}", markup=False
            )
        for w in result.warnings:
            err_console.print(f"warning: {w}", markup=False)
    for r in result.blocked:
        if not json_out:
            err_console.print(f"blocked: {r.reason}", markup=False, soft_wrap=True)
    if result.blocked and not result.written:
        raise typer.Exit(1)
    if not result.written and not result.blocked and not json_out:
        console.print("no change", markup=False)


def _stdin_text() -> str:
    """`remember -`: the text from stdin, which must be UTF-8."""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise WikimemError("the text on stdin is not valid UTF-8; nothing was written") from None


def _edit_in_editor(wiki: Wiki, rel: str, json_out: bool) -> None:
    import shlex
    import subprocess
    import tempfile

    from wikimem.wiki.editstamp import stamp_updated
    from wikimem.wiki.gate import content_hash
    from wikimem.wiki.notes import now_utc
    from wikimem.wiki.remember import check_edit, edit_note, template_for

    original = wiki.read(rel)
    base = content_hash(original)
    text = original if original is not None else template_for(rel)
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    # The draft stays in the home's private state/ (never the shared /tmp): it is kept when the
    # editor fails or the gate refuses, so the person's text is not lost, and it must not leave
    # the place the person chose for their memory.
    drafts = os.path.join(wiki.home.state_dir, "drafts")
    os.makedirs(drafts, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="edit-", suffix=".md", dir=drafts)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    while True:
        try:
            proc = subprocess.run([*shlex.split(editor), tmp], check=False)
        except OSError as exc:
            raise fail(
                f"cannot run the editor {editor!r}: {exc.strerror}; nothing changed"
            ) from None
        if proc.returncode != 0:
            raise fail(
                f"{editor} exited {proc.returncode}; nothing changed (your text is in {tmp})"
            )
        with open(tmp, encoding="utf-8", errors="surrogateescape") as fh:
            edited = fh.read()
        if edited == original or (original is None and edited == text):
            os.unlink(tmp)
            if json_out:
                print_json({"commit": None, "written": [], "blocked": [], "warnings": []})
            else:
                console.print("no change", markup=False)
            return
        problem = check_edit(wiki, rel, edited)
        if problem is None:
            break
        err_console.print(f"invalid: {problem}", markup=False)
        try:
            again = typer.confirm("Reopen the editor to fix it?", default=True)
        except typer.Abort:  # no terminal to answer on
            again = False
        if not again:
            raise fail(f"aborted; nothing committed (your text is in {tmp})")
    result = _then_sync(
        wiki, edit_note(wiki, rel, stamp_updated(original, edited, now_utc()), base)
    )
    if result.blocked:
        err_console.print(f"your text is kept in {tmp}", markup=False)
    else:
        os.unlink(tmp)
    _report(result, json_out)


def _note_data(rel: str, text: str) -> dict[str, Any]:
    from wikimem.wiki.notemeta import as_list, read_meta

    meta, body = read_meta(text)
    return {
        "path": rel,
        "title": str(meta.get("title") or ""),
        "kind": str(meta.get("kind") or ""),
        "tags": as_list(meta.get("tags")),
        "created": str(meta.get("created") or ""),
        "updated": str(meta.get("updated") or ""),
        "sources": as_list(meta.get("sources")),
        "pinned": meta.get("pinned") is True,
        "meta": meta,
        "body": body,
        "text": text,
    }


def _show_rendered(rel: str, text: str) -> None:
    """A note for a person at a terminal: every character kept at any width (long words and
    code lines wrap, links show their address)."""
    from rich.markdown import Markdown
    from rich.text import Text

    from wikimem.sync.markers import has_markers, is_marker_line

    note = _note_data(rel, text)
    console.print(Text(f"{rel} — {note['title']}", style="bold"), soft_wrap=False)
    details = "; ".join(
        f"{k}: {', '.join(v) if isinstance(v, list) else v}"
        for k, v in ((k, note[k]) for k in ("kind", "tags", "updated", "sources"))
        if v
    )
    if details:
        console.print(Text(details, style="dim"), soft_wrap=False)
    console.rule(style="dim")
    body = note["body"]
    if not has_markers(body):
        console.print(Markdown(body, hyperlinks=False), soft_wrap=False)
        return
    # A sync conflict: its marker lines are shown as they are (markdown would read `=======`
    # as a heading's underline and `<<<<<<<` as quoted text), each side rendered between them.
    console.print(
        Text(
            "(a sync conflict not yet settled: both versions are kept between the markers; the "
            "next `wikimem dream` settles it, or remove the markers by hand)",
            style="yellow",
        )
    )
    part: list[str] = []
    for line in [*body.split("\n"), None]:
        if line is not None and not is_marker_line(line):
            part.append(line)
            continue
        if "".join(part).strip():
            console.print(Markdown("\n".join(part), hyperlinks=False), soft_wrap=False)
        part = []
        if line is not None:
            console.print(Text(line, style="bold yellow"), soft_wrap=False)


def _print_list(rows: list[dict[str, Any]]) -> None:
    """The notes for a person at a terminal. The path is what `show` and `edit` need, so it is
    never cut: a table when the terminal is wide enough for whole paths, else one note per
    stanza (the path on its own line, the rest indented below)."""
    from rich.text import Text

    widest = max(len(r["path"]) for r in rows) + 2
    if console.width >= widest + 48:
        console.print(_list_table(rows), soft_wrap=False)
        return
    for row in rows:
        console.print(Text(row["path"] + (" 📌" if row["pinned"] else ""), style="bold"))
        details = " · ".join(str(row[k]) for k in ("title", "kind", "updated") if row[k])
        console.print(Text(f"  {details}", style="dim"), soft_wrap=False)


def _list_table(rows: list[dict[str, Any]]) -> Table:
    from rich.table import Table

    table = Table(show_edge=False)
    table.add_column("path", no_wrap=True)
    table.add_column("title", overflow="fold")
    table.add_column("kind", overflow="fold")
    table.add_column("updated", overflow="fold")
    for row in rows:
        table.add_row(
            row["path"] + (" 📌" if row["pinned"] else ""),
            str(row["title"]),
            str(row["kind"]),
            row["updated"],
        )
    return table


def _diff_files(patch: str) -> list[str]:
    files = []
    for line in patch.splitlines():
        if line.startswith("diff --git a/"):
            files.append(line.split(" b/", 1)[-1])
    return files


def register(app: typer.Typer) -> None:
    @app.command("remember")
    @handle_errors
    def remember_cmd(
        text: Annotated[
            str, typer.Argument(help="What to remember, in your own words ('-' reads stdin).")
        ],
        path: Annotated[
            str | None,
            typer.Option("--path", help="Note to fold it into (default: chosen for you)."),
        ] = None,
        project: Annotated[
            str | None, typer.Option("--project", help="Project slug (default: this repository's).")
        ] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Write something into memory now, through the gate, committed."""
        from wikimem.wiki.batch import Wiki
        from wikimem.wiki.remember import current_project, project_option, remember

        wiki = Wiki(initialised_home(home))
        if text == "-":
            text = _stdin_text()
        slug = project_option(project) or current_project()
        _report(_then_sync(wiki, remember(wiki, text, path, slug)), json_out)

    @app.command("forget")
    @handle_errors
    def forget_cmd(
        path: PathArg,
        project: Annotated[
            str | None, typer.Option("--project", help="Project slug (default: this repository's).")
        ] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Delete a note, through the gate, committed (git history keeps it). Given words that
        name no note ("the yarn rule"), retract the claims they name in this project's notes
        and your profile instead, each kept in its note's hidden history."""
        from wikimem.wiki.batch import Wiki
        from wikimem.wiki.remember import current_project, forget, project_option

        wiki = Wiki(initialised_home(home))
        slug = project_option(project) or current_project()
        _report(_then_sync(wiki, forget(wiki, path, slug)), json_out)

    @app.command("scrub")
    @handle_errors
    def scrub_cmd(
        value: Annotated[
            str,
            typer.Argument(
                help="The exact text to remove ('-' reads it from stdin, which keeps it out of "
                "your shell's history)."
            ),
        ],
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Remove a stored value (a leaked password or token) from the notes (committed),
        events/, state/ and the search index; say how to purge it from git history."""
        from dataclasses import asdict

        from wikimem.scrub import history_advice, scrub

        the_home = initialised_home(home)
        if value == "-":
            value = _stdin_text().rstrip("\r\n")
        result = scrub(the_home, value)
        advice = history_advice(the_home, result)
        if json_out:
            print_json({**asdict(result), "history": advice})
            return
        if result.commit:
            console.print(f"committed {result.commit[:10]}: scrub", markup=False)
        for rel in result.notes:
            console.print(f"notes: {rel}", markup=False)
        for old, new in result.moved:
            console.print(f"notes: {old} -> {new}", markup=False)
        for rel, reason in result.blocked:
            err_console.print(f"blocked: {rel}: {reason}", markup=False, soft_wrap=True)
        for where, found in (("events", result.events), ("state", result.state)):
            for name, count in found.items():
                console.print(f"{where}: {name} ({count} masked)", markup=False)
        if not (result.notes or result.moved or result.events or result.state):
            console.print("not found in the notes, events/ or state/", markup=False)
        if result.index_rebuilt:
            console.print("search index: rebuilt", markup=False)
        for line in advice:
            console.print(line, markup=False, soft_wrap=True)

    @app.command("pin")
    @handle_errors
    def pin_cmd(
        path: PathArg,
        off: Annotated[bool, typer.Option("--off", help="Unpin it instead.")] = False,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Pin a note (given at every session start), as you: also a note pinned by a change
        that came from a remote, which this machine does not honour until you pin it here."""
        from wikimem.wiki.batch import Wiki
        from wikimem.wiki.remember import pin

        wiki = Wiki(initialised_home(home))
        result = _then_sync(wiki, pin(wiki, path, on=not off))
        if not result.written and not result.blocked and not json_out:
            console.print(f"{'unpinned' if off else 'pinned'} on this machine", markup=False)
            return
        _report(result, json_out)

    @app.command("confirm")
    @handle_errors
    def confirm_cmd(
        path: PathArg,
        line: Annotated[
            list[str] | None,
            typer.Option(
                "--line",
                help="The id of a held line to give to agents, as listed (repeat for more).",
            ),
        ] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Show a note's lines held from agents (a command fetched from the network, or an
        instruction that is not yours), and give the ones you name to agents, on this machine.

        Without --line it lists them with their ids; at a terminal it then asks whether to
        confirm exactly those lines. A line added or changed since it was listed has another id
        and stays held."""
        from wikimem.wiki.batch import Wiki
        from wikimem.wiki.remember import confirm, held_lines

        wiki = Wiki(initialised_home(home))
        ids = list(line or [])
        if not ids:
            rel, waiting = held_lines(wiki, path)
            if json_out:
                listed = [h.__dict__ for h in waiting]
                print_json({"path": rel, "held": listed, "confirmed": []})
                return
            if not waiting:
                console.print(f"{rel}: no line is held", markup=False)
                return
            console.print(
                f"{rel}: {len(waiting)} line(s) held from agents (quoted data, not instructions):",
                markup=False,
            )
            for h in waiting:
                console.print(f"  {h.id}  from {h.source}; {h.why}", markup=False)
                console.print(f"      > {h.text.strip()}", markup=False, soft_wrap=True)
            if not (sys.stdin.isatty() and console.is_terminal):
                hint = " ".join(f"--line {h.id}" for h in waiting)
                console.print(
                    f"nothing confirmed: `wikimem confirm {rel} {hint}` gives these to agents",
                    markup=False,
                    soft_wrap=True,
                )
                return
            if not typer.confirm("Give exactly these lines to agents?", default=False):
                console.print("nothing confirmed", markup=False)
                return
            ids = [h.id for h in waiting]  # what was shown, not what is there by now
        result, lines = confirm(wiki, path, ids)
        if result is not None:
            _then_sync(wiki, result)
        if json_out:
            print_json({"confirmed": lines, "commit": result.commit if result else None})
            return
        if result is not None and result.blocked:
            _report(result, json_out)
            return
        for text in lines:
            console.print(f"confirmed: {text.strip()}", markup=False, soft_wrap=True)

    @app.command()
    @handle_errors
    def edit(path: PathArg, home: str | None = HomeOption, json_out: bool = JsonOption) -> None:
        """Open a note in $EDITOR; validate, then commit (an invalid note is never committed)."""
        from wikimem.wiki.batch import Wiki
        from wikimem.wiki.remember import check_editable, resolve_path

        wiki = Wiki(initialised_home(home))
        rel = resolve_path(wiki, path)
        check_editable(wiki, rel)  # before the editor opens: no work typed in vain
        _edit_in_editor(wiki, rel, json_out)

    @app.command()
    @handle_errors
    def show(
        path: PathArg,
        home: str | None = HomeOption,
        raw: Annotated[
            bool, typer.Option("--raw", help="Print the file as is (held lines excepted).")
        ] = False,
        json_out: bool = JsonOption,
    ) -> None:
        """Show one note (rendered markdown at a terminal; --raw for the file). A line held from
        agents is shown as a line saying so: `wikimem confirm PATH` shows it to you."""
        from wikimem.wiki import confirmations, holds, notemeta, origins
        from wikimem.wiki.batch import Wiki
        from wikimem.wiki.remember import resolve_path

        wiki = Wiki(initialised_home(home))
        rel = resolve_path(wiki, path)
        text = wiki.read(rel)
        if text is None:
            raise WikimemError(f"no note at {rel}")
        # an agent runs `wikimem show` too: a held line is not handed out by this door either
        body = notemeta.split(text)[1]
        state = wiki.home.state_dir
        kept = holds.shown(rel, body, origins.Book(state), confirmations.confirmed(state))
        text = text[: len(text) - len(body)] + kept
        if json_out:
            print_json(_note_data(rel, text))
        elif raw or not console.is_terminal:
            sys.stdout.write(text)
        else:
            _show_rendered(rel, text)

    @app.command("list")
    @handle_errors
    def list_cmd(
        prefix: Annotated[str, typer.Argument(help="Only paths starting with this.")] = "",
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """List notes with their title, kind and last update."""
        from wikimem.wiki.batch import Wiki
        from wikimem.wiki.notemeta import read_meta

        wiki = Wiki(initialised_home(home))
        rows = []
        for rel in wiki.paths(prefix):
            meta, _ = read_meta(wiki.read(rel) or "")
            rows.append(
                {
                    "path": rel,
                    "title": str(meta.get("title") or ""),
                    "kind": str(meta.get("kind") or ""),
                    "updated": str(meta.get("updated") or ""),
                    "pinned": meta.get("pinned") is True,
                }
            )
        if json_out:
            print_json(rows)
        elif not rows:
            console.print(
                "no notes yet" if not prefix else f"no notes under {prefix}", markup=False
            )
        elif console.is_terminal:
            _print_list(rows)
        else:
            # A pipe gets one whole line per note, tab-separated: nothing cut, easy to cut(1).
            for row in rows:
                sys.stdout.write(
                    f"{row['path']}\t{row['title']}\t{row['kind']}\t{row['updated']}\n"
                )

    @app.command()
    @handle_errors
    def log(
        n: Annotated[int, typer.Option("-n", min=1, help="How many commits.")] = 20,
        path: Annotated[
            str | None,
            typer.Argument(
                help="Only commits touching this note.", autocompletion=complete_note_path
            ),
        ] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Memory history: one line per commit, newest first."""
        from rich.text import Text

        from wikimem.wiki.batch import Wiki
        from wikimem.wiki.remember import resolve_path

        wiki = Wiki(initialised_home(home))
        commits = wiki.log(n, resolve_path(wiki, path) if path else None)
        if json_out:
            print_json([c.__dict__ for c in commits])
            return
        for c in commits:
            line = Text()
            line.append(c.sha[:10], style="yellow")
            line.append(" ")
            line.append(c.date[:19], style="dim")
            line.append(f" {c.subject}")
            console.print(line, highlight=False)
            for f in c.files:
                console.print(f"    {f}", style="dim", markup=False)

    @app.command()
    @handle_errors
    def diff(
        rev: Annotated[
            str | None,
            typer.Argument(help="Compare with this revision (default: before the last commit)."),
        ] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """What changed in memory: the last commit, or since REV (working tree included)."""
        from wikimem.wiki.batch import Wiki

        text = Wiki(initialised_home(home)).store.diff(rev)
        if json_out:
            print_json({"rev": rev, "files": _diff_files(text), "patch": text})
        elif not text.strip():
            console.print("no differences", markup=False)
        elif console.is_terminal:
            from rich.syntax import Syntax

            console.print(Syntax(text, "diff", theme="ansi_dark", word_wrap=True), soft_wrap=False)
        else:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
