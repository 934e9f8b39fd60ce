"""Verbs that read and change the wiki: remember, forget, edit, show, list, log, diff."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from typing import Annotated

import typer
from rich.markdown import Markdown
from rich.syntax import Syntax
from rich.table import Table

from wikimem.cli import (
    HomeOption,
    JsonOption,
    console,
    err_console,
    fail,
    handle_errors,
    home_of,
    print_json,
)
from wikimem.errors import WikimemError
from wikimem.wiki.batch import BatchResult, Wiki
from wikimem.wiki.gate import content_hash
from wikimem.wiki.notemeta import read_meta
from wikimem.wiki.remember import (
    check_edit,
    current_project,
    edit_note,
    forget,
    remember,
    resolve_path,
    template_for,
)


def _then_sync(wiki: Wiki, result: BatchResult) -> BatchResult:
    """`[sync] auto`: a commit is pushed by a detached sync; the person does not wait for it."""
    if result.commit:
        from wikimem.sync.auto import after_write

        after_write(wiki.home, wiki.config)
    return result


def _report(result: BatchResult, json_out: bool) -> None:
    if json_out:
        print_json(
            {
                "commit": result.commit,
                "written": [
                    {"path": r.write.path, "operation": r.write.operation} for r in result.written
                ],
                "blocked": [{"path": r.write.path, "reason": r.reason} for r in result.blocked],
                "warnings": list(result.warnings),
            }
        )
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


def register(app: typer.Typer) -> None:
    @app.command("remember")
    @handle_errors
    def remember_cmd(
        text: Annotated[str, typer.Argument(help="What to remember, in your own words.")],
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
        wiki = Wiki(home_of(home))
        result = remember(wiki, text, path, project or current_project())
        _report(_then_sync(wiki, result), json_out)

    @app.command("forget")
    @handle_errors
    def forget_cmd(path: str, home: str | None = HomeOption, json_out: bool = JsonOption) -> None:
        """Delete a note, through the gate, committed (git history keeps it)."""
        wiki = Wiki(home_of(home))
        _report(_then_sync(wiki, forget(wiki, path)), json_out)

    @app.command()
    @handle_errors
    def edit(path: str, home: str | None = HomeOption) -> None:
        """Open a note in $EDITOR; validate, then commit (an invalid note is never committed)."""
        wiki = Wiki(home_of(home))
        rel = resolve_path(wiki, path)
        original = wiki.read(rel)
        base = content_hash(original)
        text = original if original is not None else template_for(rel)
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        fd, tmp = tempfile.mkstemp(prefix="wikimem-edit-", suffix=".md")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        while True:
            proc = subprocess.run([*shlex.split(editor), tmp], check=False)
            if proc.returncode != 0:
                raise fail(
                    f"{editor} exited {proc.returncode}; nothing changed (your text is in {tmp})"
                )
            with open(tmp, encoding="utf-8") as fh:
                edited = fh.read()
            if edited == original or (original is None and edited == text):
                os.unlink(tmp)
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
        result = _then_sync(wiki, edit_note(wiki, rel, edited, base))
        if result.blocked:
            err_console.print(f"your text is kept in {tmp}", markup=False)
        else:
            os.unlink(tmp)
        _report(result, json_out=False)

    @app.command()
    @handle_errors
    def show(
        path: str,
        home: str | None = HomeOption,
        raw: Annotated[bool, typer.Option("--raw", help="Print the file as is.")] = False,
    ) -> None:
        """Show one note (rendered markdown; --raw for the file)."""
        wiki = Wiki(home_of(home))
        rel = resolve_path(wiki, path)
        text = wiki.read(rel)
        if text is None:
            raise WikimemError(f"no note at {rel}")
        if raw or not console.is_terminal:
            console.print(text, markup=False, highlight=False, end="")
            return
        meta, body = read_meta(text)
        console.rule(f"{rel} — {meta.get('title', '')}", align="left")
        details = ", ".join(
            f"{k}: {meta[k]}" for k in ("kind", "tags", "updated", "sources") if meta.get(k)
        )
        console.print(details, style="dim", markup=False)
        console.print(Markdown(body))

    @app.command("list")
    @handle_errors
    def list_cmd(
        prefix: Annotated[str, typer.Argument(help="Only paths starting with this.")] = "",
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """List notes with their title, kind and last update."""
        wiki = Wiki(home_of(home))
        rows = []
        for rel in wiki.paths(prefix):
            meta, _ = read_meta(wiki.read(rel) or "")
            rows.append(
                {
                    "path": rel,
                    "title": meta.get("title", ""),
                    "kind": meta.get("kind", ""),
                    "updated": str(meta.get("updated", "")),
                    "pinned": bool(meta.get("pinned", False)),
                }
            )
        if json_out:
            print_json(rows)
            return
        table = Table(show_edge=False)
        for col in ("path", "title", "kind", "updated"):
            table.add_column(col)
        for row in rows:
            table.add_row(
                row["path"] + (" 📌" if row["pinned"] else ""),
                str(row["title"]),
                str(row["kind"]),
                row["updated"],
            )
        console.print(table if rows else "no notes yet")

    @app.command()
    @handle_errors
    def log(
        n: Annotated[int, typer.Option("-n", help="How many commits.")] = 20,
        path: Annotated[str | None, typer.Argument()] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Memory history: one line per commit, newest first."""
        wiki = Wiki(home_of(home))
        commits = wiki.log(n, resolve_path(wiki, path) if path else None)
        if json_out:
            print_json([c.__dict__ for c in commits])
            return
        for c in commits:
            console.print(
                f"[yellow]{c.sha[:10]}[/] [dim]{c.date[:19]}[/] {c.subject}", highlight=False
            )
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
    ) -> None:
        """What changed in memory: the last commit, or since REV (working tree included)."""
        text = Wiki(home_of(home)).store.diff(rev)
        if not text.strip():
            console.print("no differences", markup=False)
        elif console.is_terminal:
            console.print(Syntax(text, "diff", theme="ansi_dark", word_wrap=True))
        else:
            console.print(text, markup=False, highlight=False)
