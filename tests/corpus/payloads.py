"""Every hook payload fixture of a client: `tests/fixtures/payloads/<client>_*.json`, and the
files of a client's own fixture folder (`tests/fixtures/<client>/*.json`, as Gemini CLI's are),
its environment file aside. A registered client without any is a gap the suites report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def payload_files(client: str) -> list[Path]:
    files = sorted((FIXTURES / "payloads").glob(f"{client}_*.json"))
    files += sorted(p for p in (FIXTURES / client).glob("*.json") if p.name != "hook_env.json")
    return files


def payloads(client: str) -> list[dict[str, Any]]:
    out = []
    for path in payload_files(client):
        data = json.loads(path.read_text())
        if isinstance(data, dict) and "hook_event_name" in data:
            out.append(data)
    return out
