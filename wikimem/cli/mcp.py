"""`wikimem mcp`: serve the memory as MCP tools on stdio (the client starts this command)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from wikimem.cli.common import HomeOption, handle_errors, home_of


def register(app: typer.Typer) -> None:
    @app.command()
    @handle_errors
    def mcp(
        home: str | None = HomeOption,
        cwd: Annotated[
            str | None,
            typer.Option(
                "--cwd", help="Project directory the tools act for (default: the current one)."
            ),
        ] = None,
    ) -> None:
        """MCP server on stdio: memory_search, _read, _list, _write, _delete, _recent (writes go
        through the gate and are committed)."""
        from wikimem.mcp.server import serve

        serve(home_of(home), os.path.abspath(cwd) if cwd else None)
