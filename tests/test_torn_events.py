"""A torn line in an events file (a crash, a full disk) costs that line only (issue 12, item 2):
the next record starts on a fresh line, readers skip the damage with a warning, and the record
after it is consolidated."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import payload, run_hook
from wikimem.capture import events
from wikimem.dream.fake import FakeBackend
from wikimem.dream.reader import new_events
from wikimem.dream.runner import run_dream
from wikimem.dream.watermark import Watermark
from wikimem.home import Home


def _record(n: int, ts: str = "2026-11-29T10:00:00.000000Z") -> dict[str, Any]:
    return {
        "v": 1,
        "ts": ts,
        "client": "claude",
        "session": f"s{n}",
        "event": "UserPromptSubmit",
        "native_event": "UserPromptSubmit",
        "cwd": "/tmp/proj",
        "project": "proj",
        "prompt": f"prompt number {n}",
    }


TORN = events.encode_record(_record(0))[:37]  # what a crash leaves: half a record, no newline


def test_next_append_starts_on_a_fresh_line(tmp_path: Path) -> None:
    path = Path(events.append(str(tmp_path), _record(1)))
    with open(path, "ab") as fh:
        fh.write(TORN)
    events.append(str(tmp_path), _record(2))
    lines = path.read_bytes().split(b"\n")
    assert lines[1] == TORN and lines[-1] == b""
    damaged: list[tuple[int, int]] = []
    got = [r["session"] for _, r in events.read_from(str(path), 0, damaged)]
    assert got == ["s1", "s2"]
    assert damaged == [(len(lines[0]) + 1, len(TORN) + 1)]


def test_a_short_write_leaves_no_half_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = Path(events.append(str(tmp_path), _record(1)))
    before = path.read_bytes()
    real_write = os.write

    def disk_full(fd: int, data: bytes) -> int:
        return real_write(fd, data[: len(data) // 2])

    monkeypatch.setattr(events.os, "write", disk_full)
    with pytest.raises(OSError, match="short write"):
        events.append(str(tmp_path), _record(2))
    monkeypatch.setattr(events.os, "write", real_write)
    assert path.read_bytes() == before  # the half record was cut off again
    events.append(str(tmp_path), _record(3))
    assert [r["session"] for _, r in events.read_from(str(path))] == ["s1", "s3"]


def test_a_record_glued_onto_a_torn_line_is_recovered(tmp_path: Path) -> None:
    """Files written before writers closed torn lines: the next record sits on the same line."""
    path = tmp_path / "2026-11-29.jsonl"
    nested = _record(9)
    nested["input"] = {"v": 1, "note": 'an object starting {"v": inside the record'}
    path.write_bytes(
        events.encode_record(_record(1))
        + TORN
        + events.encode_record(nested)
        + b"garbage that is not json\n"
        + events.encode_record(_record(3))
    )
    damaged: list[tuple[int, int]] = []
    got = [r["session"] for _, r in events.read_from(str(path), 0, damaged)]
    assert got == ["s1", "s9", "s3"]
    assert [length for _, length in damaged] == [len(TORN), len(b"garbage that is not json\n")]


def test_the_hook_after_a_crash_writes_a_clean_line(isolated_home: Path) -> None:
    run_hook("claude", payload("claude_Stop"))
    [path] = list((isolated_home / "events").glob("*.jsonl"))
    with open(path, "ab") as fh:
        fh.write(b'{"v":1,"ts":"2026-11-29T10:00:00.0Z","client":"cla')  # the crash
    run_hook("codex", payload("codex_Stop"))
    assert path.read_bytes().endswith(b"\n")
    assert [r["client"] for r in records_skipping_damage(path)] == ["claude", "codex"]


def records_skipping_damage(path: Path) -> list[dict[str, Any]]:
    return [r for _, r in events.read_from(str(path))]


def _write_events(home: Path, name: str, payloads: list[bytes]) -> Path:
    events_dir = home / "events"
    events_dir.mkdir(parents=True, exist_ok=True)
    path = events_dir / name
    path.write_bytes(b"".join(payloads))
    return path


def test_dream_warns_and_consolidates_the_record_after_the_damage(home: Path) -> None:
    today = events.utc_timestamp()
    path = _write_events(
        home,
        f"{today[:10]}.jsonl",
        [
            events.encode_record(_record(1, today)),
            TORN + b"\n",
            events.encode_record(_record(2, today)),
        ],
    )
    backend = FakeBackend()
    result = run_dream(Home(str(home)), backend)
    assert result.events == 2
    assert any("damaged line" in w for w in result.warnings)
    rendered = "\n".join(p.user for p in backend.prompts)
    assert "prompt number 2" in rendered
    # consolidated once: the next dream has nothing to read and nothing to warn about
    again = run_dream(Home(str(home)), FakeBackend())
    assert again.events == 0 and not any("damaged" in w for w in again.warnings)
    assert path.stat().st_size > 0


def test_a_torn_tail_of_a_settled_past_file_is_skipped_once(home: Path) -> None:
    path = _write_events(
        home,
        "2026-11-28.jsonl",
        [events.encode_record(_record(1, "2026-11-28T10:00:00.000000Z")), TORN],
    )
    old = time.time() - 3600
    os.utime(path, (old, old))
    result = run_dream(Home(str(home)), FakeBackend())
    assert result.events == 1
    assert any("damaged line" in w for w in result.warnings)
    again = run_dream(Home(str(home)), FakeBackend())
    assert not any("damaged" in w for w in again.warnings)


def test_todays_unterminated_line_is_left_for_its_writer(tmp_path: Path) -> None:
    today = events.utc_timestamp()[:10]
    path = tmp_path / f"{today}.jsonl"
    path.write_bytes(events.encode_record(_record(1)) + TORN)
    damaged: list[object] = []
    got = list(new_events(str(tmp_path), Watermark({}, ""), damaged))  # type: ignore[arg-type]
    assert [r["session"] for _, _, r in got] == ["s1"]
    assert damaged == []  # a hook may be mid-append: not damage (yet)


def test_the_writer_check_costs_one_small_read(tmp_path: Path) -> None:
    """The fresh-line guarantee is one pread of one byte per append; nothing else is read."""
    events.append(str(tmp_path), _record(1))
    reads: list[int] = []
    real_pread = os.pread

    def counting_pread(fd: int, n: int, offset: int) -> bytes:
        reads.append(n)
        return real_pread(fd, n, offset)

    os.pread = counting_pread  # type: ignore[assignment]
    try:
        events.append(str(tmp_path), _record(2))
    finally:
        os.pread = real_pread  # type: ignore[assignment]
    assert reads == [1]
    json.loads(Path(tmp_path / "2026-11-29.jsonl").read_text().splitlines()[-1])
