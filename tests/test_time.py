"""Time on bad days: clocks that are ahead or behind, and files that are replaced.

A machine's clock can be wrong (a laptop back from a dead battery, a VM restored from a
snapshot): nothing wikimem decides may then stop working until real time catches up, and a
file made again under an old name is a new file."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from wikimem.capture import autodream, events
from wikimem.dream.runner import run_dream
from wikimem.home import Home
from wikimem.sync.remote import set_setting

THREE_DAYS = 3 * 86400


def prompts(session: str, n: int, ts: str, project: str = "api") -> list[dict[str, object]]:
    return [
        {
            "v": 1,
            "ts": ts,
            "client": "claude",
            "session": session,
            "event": "UserPromptSubmit",
            "native_event": "UserPromptSubmit",
            "cwd": f"/work/{project}",
            "project": project,
            "prompt": f"Step {i}: make the payments retry job idempotent",
        }
        for i in range(n)
    ]


def append_all(home: Path, records: list[dict[str, object]]) -> Path:
    path = ""
    for r in records:
        path = events.append(str(home / "events"), r)
    return Path(path)


AUTO = {"dream": {"auto": True, "min_new_events": 10, "min_interval_minutes": 180}}


def test_a_dream_run_with_the_clock_ahead_neither_stops_auto_dreams_nor_skips_events(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Days ahead, a dream stamps its run in the future and its retention removes today's
    events file (consolidated: "old" by that clock). Back on real time, the hooks make the file
    again: the next automatic dream is due, and reads every one of the new events."""
    config = home / "config.toml"
    config.write_text(set_setting(config.read_text(), "events", "retention_days", "1"))
    now = events.utc_timestamp()
    first = append_all(home, prompts("s-before", 10, now))
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + THREE_DAYS)
    assert run_dream(Home(str(home)), backend_name="offline").events == 10
    assert not first.exists()  # removed by retention: fully consolidated, and "3 days old"
    monkeypatch.setattr(time, "time", real)  # the clock is put right

    again = append_all(home, prompts("s-after", 40, events.utc_timestamp()))
    assert again == first  # the same name, a new file
    assert autodream.due(Home(str(home)), AUTO)  # not "the last dream was in 3 days"
    result = run_dream(Home(str(home)), backend_name="offline")
    assert result.events == 40  # none of the new file's events skipped
    assert not autodream.due(Home(str(home)), AUTO)  # and the interval counts again


def test_an_events_file_replaced_under_its_name_is_read_from_its_start(home: Path) -> None:
    path = append_all(home, prompts("s-one", 10, "2026-11-30T10:00:00.000000Z"))
    assert run_dream(Home(str(home)), backend_name="offline").events == 10
    path.unlink()  # deleted by hand, by a restore, by a clean-up script
    append_all(home, prompts("s-two", 40, "2026-11-30T11:00:00.000000Z"))
    assert run_dream(Home(str(home)), backend_name="offline").events == 40
    assert run_dream(Home(str(home)), backend_name="offline").events == 0  # once, not twice


def test_an_offset_recorded_before_files_had_ids_still_counts(home: Path) -> None:
    """A watermark an older wikimem wrote (offsets by name alone) is taken for the file that
    has the name now: nothing is consolidated twice after an upgrade."""
    path = append_all(home, prompts("s-one", 10, "2026-11-30T10:00:00.000000Z"))
    state = home / "state" / "watermark.json"
    state.write_text(json.dumps({"offsets": {path.name: path.stat().st_size}, "last_dream": ""}))
    assert run_dream(Home(str(home)), backend_name="offline").events == 0
    append_all(home, prompts("s-one", 5, "2026-11-30T10:05:00.000000Z"))
    assert run_dream(Home(str(home)), backend_name="offline").events == 5
    offsets = json.loads(state.read_text())["offsets"]
    assert list(offsets) == [f"{path.name}#{events.file_id(str(path))}"]


def test_doctor_says_when_this_machines_clock_is_behind_the_memorys_history(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Conflicts are settled by time: a machine whose clock is behind loses ones it should
    win. It cannot know the true time, but a commit from its future says its clock is off."""
    from wikimem.sync.health import checks
    from wikimem.wiki.batch import Wiki
    from wikimem.wiki.remember import remember

    assert not any("clock" in c.detail for c in checks(Home(str(home))))
    ahead = "@" + str(int(time.time()) + THREE_DAYS) + " +0000"
    monkeypatch.setenv("GIT_COMMITTER_DATE", ahead)  # made by a machine 3 days ahead of us
    remember(Wiki(Home(str(home))), "The staging database listens on port 5433")
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    found = [c for c in checks(Home(str(home))) if "clock" in c.detail]
    assert found and "72.0 h" in found[0].detail and "behind" in found[0].detail
