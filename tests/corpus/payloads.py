"""Every hook payload fixture of a client: `tests/fixtures/payloads/<client>_*.json`, the files of
a client's own fixture folder (`tests/fixtures/<client>/*.json`, as Gemini CLI's are) and of its
folder of real payloads (`tests/fixtures/observed/<client>/*.json`), environment files aside. A
registered client without any is a gap the suites report.

GitHub Copilot CLI's and Antigravity CLI's camelCase payloads carry no event name (the installed
command passes it as `--event`): their files are named `<event>[.<case>].json`, and `payloads` puts that event into
`hook_event_name`, as the hook entry does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NAMED_BY_COMMAND = ("copilot", "antigravity")


def payload_files(client: str) -> list[Path]:
    files = sorted((FIXTURES / "payloads").glob(f"{client}_*.json"))
    for folder in (FIXTURES / client, FIXTURES / "observed" / client):
        files += sorted(p for p in folder.glob("*.json") if p.name != "hook_env.json")
    return files


def event_of(path: Path) -> str:
    """The event a fixture file is named for (`postToolUse.bash_failing.json`: postToolUse)."""
    return path.name.split(".", 1)[0]


def payloads(client: str) -> list[dict[str, Any]]:
    out = []
    for path in payload_files(client):
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            continue
        if "hook_event_name" not in data and client in NAMED_BY_COMMAND:
            data = {**data, "hook_event_name": event_of(path)}
        if "hook_event_name" in data:
            out.append(data)
    return out
