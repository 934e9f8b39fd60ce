"""`wikimem demo`: the recorded multi-harness scenario, shown step by step."""

from __future__ import annotations

import json

import typer
from rich.rule import Rule

from wikimem.cli import JsonOption, console, handle_errors, print_json
from wikimem.demo import Step, run_demo


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


def register(app: typer.Typer) -> None:
    @app.command()
    @handle_errors
    def demo(json_out: bool = JsonOption) -> None:
        """Run a recorded Claude Code → Codex → Cursor → Gemini CLI scenario in a temporary home
        (offline)."""

        def on_phase(title: str) -> None:
            if not json_out:
                console.print(Rule(title, align="left"))

        def on_step(step: Step) -> None:
            if json_out:
                return
            console.print(f"  [bold]{step.client}[/] {step.event}  {step.summary}", highlight=False)
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
        for key, value in result.extra.items():
            console.print(f"  {key}: {value}", markup=False)
        console.print(
            "  (the temporary home has been removed; your own ~/.wikimem was not touched)",
            markup=False,
        )
