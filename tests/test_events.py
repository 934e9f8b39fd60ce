"""Record encoding, truncation and the JSON fast path."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from wikimem.capture import events, fastjson

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=25,
)


@given(json_values)
def test_fastjson_matches_json(value: object) -> None:
    assert fastjson.dumps(value) == json.dumps(value, separators=(",", ":"))
    assert fastjson.dumps(value, ascii=False) == json.dumps(
        value, separators=(",", ":"), ensure_ascii=False
    )
    assert fastjson.loads(json.dumps(value)) == value
    assert fastjson.loads(" \n" + json.dumps(value, indent=2) + "\n") == value


def test_fastjson_rejects_what_json_rejects() -> None:
    for bad in ["", "{", "[1,]", "[1] [2]", "nul", "{'a': 1}"]:
        try:
            fastjson.loads(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad!r}")


def test_truncate_keeps_head_tail_and_marker() -> None:
    text = "A" * 10000 + "TAIL"
    out = events.truncate(text, 1000)
    assert len(out.encode()) <= 1000
    assert out.startswith("AAA") and out.endswith("TAIL")
    assert "wikimem truncated" in out


def test_truncate_respects_utf8_bytes() -> None:
    out = events.truncate("é" * 5000, 1000)
    assert len(out.encode()) <= 1000
    out.encode("utf-8")  # no broken characters


def test_short_text_untouched() -> None:
    assert events.truncate("short", 1000) == "short"


def test_read_from_skips_partial_last_line_and_bad_lines(tmp_path: Path) -> None:
    f = tmp_path / "2026-11-29.jsonl"
    f.write_bytes(b'{"a":1}\nnot json\n[1]\n{"b":2}\n{"c":')
    got = list(events.read_from(str(f)))
    assert [r for _, r in got] == [{"a": 1}, {"b": 2}]
    assert got[-1][0] == len(b'{"a":1}\nnot json\n[1]\n{"b":2}\n')


def test_timestamp_format() -> None:
    assert events.utc_timestamp(1_764_439_451_123_456_789) == "2025-11-29T18:04:11.123456Z"
