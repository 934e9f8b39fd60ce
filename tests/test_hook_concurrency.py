"""Concurrent hooks on one session lose and interleave nothing."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
from pathlib import Path

from tests.conftest import records

PROCESSES = 8
CALLS = 200


def _worker(worker: int, home: str) -> None:
    os.environ["WIKIMEM_HOME"] = home
    from wikimem.capture.hook import main

    for i in range(CALLS):
        payload = {
            "session_id": "shared-session",
            "hook_event_name": "PostToolUse",
            "cwd": "/tmp/proj",
            "tool_name": "Bash",
            "tool_input": {"command": f"echo {worker}-{i}"},
            # a long output makes each record a multi-kilobyte single write
            "tool_response": {"stdout": f"{worker}-{i} " + "y" * 3000, "stderr": ""},
        }
        main(["claude"], stdin=io.BytesIO(json.dumps(payload).encode()), stdout=io.BytesIO())


def test_eight_processes_times_two_hundred_calls(home: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_worker, args=(w, str(home))) for w in range(PROCESSES)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    lines = b"".join(f.read_bytes() for f in (home / "events").glob("*.jsonl")).split(b"\n")
    assert lines[-1] == b""  # every record ends with its newline
    recs = records(home)  # every line parses: nothing interleaved
    assert len(recs) == PROCESSES * CALLS
    seen = {r["input"]["command"] for r in recs}
    assert seen == {f"echo {w}-{i}" for w in range(PROCESSES) for i in range(CALLS)}
    assert not (home / "state" / "errors.log").exists()
