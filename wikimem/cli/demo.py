"""`wikimem demo`: the recorded multi-harness scenario, shown step by step."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from wikimem.cli.common import JsonOption, console, handle_errors
from wikimem.cli.output import print_json

if TYPE_CHECKING:
    from wikimem.demo import Step


def _injected(output: str) -> str | None:
    """The memory text inside a hook's JSON answer, if it carries any."""
    try:
        data = json.loads(output)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    specific = data.get("hookSpecificOutput")
    text = (
        specific.get("additionalContext")
        if isinstance(specific, dict)
        else data.get("additional_context")
    )
    return text if isinstance(text, str) else None


def result_lines(extra: dict[str, Any]) -> list[str]:
    """The demo's outcome in words: what the dream made, what was recorded, what the notes say."""
    lines = []
    dream = extra.get("dream")
    if isinstance(dream, dict):
        created = list(dream.get("created") or [])
        commit = f" in commit {dream['commit']}" if dream.get("commit") else ""
        lines.append(
            f"  dream: {dream.get('events', 0)} events became {len(created)} notes{commit}:"
        )
        lines.extend(f"    {path}" for path in created)
    if "events" in extra:
        by_client = extra.get("by_client") or {}
        counts = ", ".join(f"{c} {n}" for c, n in sorted(by_client.items()))
        lines.append(f"  recorded: {extra['events']} events ({counts})")
    if extra.get("projects"):
        lines.append(f"  projects: {', '.join(extra['projects'])} (one project for both clones)")
    if "secret_redacted" in extra:
        said = "yes, before it reached disk" if extra["secret_redacted"] else "NO"
        lines.append(f"  secret in a tool output redacted: {said}")
    known = {"dream", "events", "by_client", "projects", "secret_redacted"}
    for key, value in extra.items():
        if key in known:
            continue
        if isinstance(value, str) and key.endswith(".md"):
            lines.append(f"  {key}:")
            lines.extend(f"    {ln}" if ln else "" for ln in value.splitlines())
        else:
            lines.append(f"  {key}: {value}")
    return lines


def register(app: typer.Typer) -> None:
    @app.command()
    @handle_errors
    def demo(json_out: bool = JsonOption) -> None:
        """Run a recorded Claude Code → Codex → Cursor → Gemini CLI scenario in a temporary home
        (offline)."""
        from rich.rule import Rule
        from rich.text import Text

        from wikimem.demo import run_demo

        def on_phase(title: str) -> None:
            if not json_out:
                console.print(Rule(title, align="left"))

        def on_step(step: Step) -> None:
            if json_out:
                return
            head = Text("  ")
            head.append(step.client, style="bold")
            head.append(f" {step.event}  {step.summary}")
            console.print(head, highlight=False)
            injected = _injected(step.output)
            if injected:
                console.print("    ↳ memory injected into the agent's context:", style="green")
                for line in injected.splitlines():
                    console.print(f"      {line}", markup=False, highlight=False)
            elif step.output.strip():
                console.print(
                    f"    ↳ hook printed: {step.output.strip()[:300]}",
                    markup=False,
                    highlight=False,
                )

        result = run_demo(on_step, on_phase)
        if json_out:
            print_json(
                {"home": result.home, "steps": [s.__dict__ for s in result.steps], **result.extra}
            )
            return
        console.print(Rule("Result", align="left"))
        for line in result_lines(result.extra):
            console.print(line, markup=False, highlight=False)
        console.print(
            "  (the temporary home has been removed; your own ~/.wikimem was not touched)",
            markup=False,
        )
