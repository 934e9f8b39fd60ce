"""Verbs to see what the agent gets: `search` and `inject`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from wikimem.cli.common import (
    HomeOption,
    JsonOption,
    console,
    handle_errors,
    initialised_home,
)
from wikimem.cli.output import print_json
from wikimem.errors import WikimemError
from wikimem.harness import CLIENTS

if TYPE_CHECKING:
    from rich.text import Text

    from wikimem.recall.index import Hit

SNIPPET_CHARS = 240


def snippet(body: str, terms: list[str]) -> str:
    """The stretch of a passage around the words that matched (not merely its first lines)."""
    from wikimem.recall.inject import window

    return window(" ".join(body.split()), terms, SNIPPET_CHARS)


def _highlighted(text: str, terms: list[str]) -> Text:
    import re

    from rich.text import Text

    out = Text(text)
    for term in terms:
        # FTS5 matched the stem: mark every word that starts like the term. A str pattern (not
        # a compiled one): rich before 13.9 is typed for str only.
        out.highlight_regex(rf"(?i)\b{re.escape(term[:6] if len(term) > 6 else term)}\w*", "bold")
    return out


def register(app: typer.Typer) -> None:
    @app.command()
    @handle_errors
    def search(
        query: Annotated[str, typer.Argument(help="Any text: words, a question, code.")],
        limit: Annotated[int, typer.Option("--limit", help="How many results.")] = 10,
        project: Annotated[
            str | None, typer.Option("--project", help="Rank this project's notes first.")
        ] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Ranked notes (best passage of each) for a query; the index is brought up to date first."""
        from wikimem.recall.index import open_index, query_terms

        the_home = initialised_home(home)
        index = open_index(the_home.state_dir, the_home.memory_dir)
        try:
            index.refresh(full=True)
            hits = index.search(query, limit=limit * 3, project=project)
        finally:
            index.close()
        best: dict[str, Hit] = {}
        for h in hits:
            best.setdefault(h.path, h)  # a note's best passage
        terms = query_terms(query)
        from wikimem.wiki.holds import safe_title

        results = [
            {
                "path": h.path,
                "title": safe_title(h.title, h.path),
                "kind": h.kind,
                "score": round(h.score, 3),
                "section": h.heading,
                "snippet": snippet(h.body, terms),
            }
            for h in list(best.values())[:limit]
        ]
        if json_out:
            print_json(results)
            return
        if not results:
            console.print("no matching notes", markup=False)
            return
        from rich.table import Table
        from rich.text import Text

        table = Table(show_edge=False)
        for col in ("score", "path", "snippet"):
            table.add_column(col, overflow="fold")
        for r in results:
            table.add_row(
                f"{r['score']:.2f}",
                Text(f"{r['path']}\n{r['title']}"),
                _highlighted(str(r["snippet"]), terms),
            )
        console.print(table, soft_wrap=False)

    @app.command()
    @handle_errors
    def inject(
        what: Annotated[
            str, typer.Argument(help="session-start or prompt", metavar="session-start|prompt")
        ],
        cwd: Annotated[
            str | None, typer.Option("--cwd", help="Project directory (default: cwd).")
        ] = None,
        prompt: Annotated[
            str | None, typer.Option("--prompt", help="The prompt (for `prompt`).")
        ] = None,
        client: Annotated[
            str | None, typer.Option("--client", help="Print the exact JSON this client would get.")
        ] = None,
        home: str | None = HomeOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Print what a hook would inject now (nothing is recorded as given)."""
        from wikimem.capture.hook import build_record
        from wikimem.rawconfig import load_raw
        from wikimem.recall.inject import for_event

        if what not in ("session-start", "prompt"):
            raise typer.BadParameter("expected session-start or prompt", param_hint="WHAT")
        if what == "prompt" and not prompt:
            raise WikimemError("inject prompt needs --prompt TEXT")
        if client is not None and client not in CLIENTS:
            raise typer.BadParameter(f"expected one of {', '.join(CLIENTS)}", param_hint="--client")
        the_home = initialised_home(home)
        settings = load_raw(the_home)
        event = "SessionStart" if what == "session-start" else "UserPromptSubmit"
        fields = {
            "session": "",
            "event": event,
            "native_event": event,
            "cwd": os.path.abspath(cwd or os.getcwd()),
        }
        if prompt:
            fields["prompt"] = prompt
        record = build_record(client or "claude", fields, settings)
        record["session"] = None  # a preview: nothing is recorded as already given
        import time

        text = for_event(the_home, record, settings, time.monotonic() + 30)
        out: str | None = None
        if client is not None:
            from wikimem.capture.hook import _adapter

            native = {
                "cursor": {
                    "SessionStart": "sessionStart",
                    "UserPromptSubmit": "beforeSubmitPrompt",
                },
                "gemini": {"UserPromptSubmit": "BeforeAgent"},
                "copilot": {
                    "SessionStart": "sessionStart",
                    "UserPromptSubmit": "userPromptSubmitted",
                },
            }.get(client, {}).get(event, event)
            out = _adapter(client).render(native, event, text)
        if json_out:
            data: dict[str, Any] = {"event": event, "project": record.get("project"), "text": text}
            if client is not None:
                data.update({"client": client, "hook_output": out})
            print_json(data)
        elif client is None:
            console.print(text or "(nothing would be injected)", markup=False, highlight=False)
        else:
            console.print(
                out or "(nothing: the hook would print nothing)", markup=False, highlight=False
            )
