"""Hostile input suite (issue 12): property-based fuzzing of every adapter and the hook entry.

Whatever a harness (or anything else) writes on stdin: arbitrary JSON, wrong types in every
field of every client's events, bytes that are not JSON, deep nesting, huge fields. The hook
exits 0, prints valid JSON or nothing, and leaves exactly one well-formed record or an error
line (nothing at all only for an event that is noise by contract). Adapters raise nothing but
HookInputError. Readers of the events log survive any damage and lose no intact record.

The `long` runs (WIKIMEM_LONG=1 pytest -m long) try many more examples.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO, hook_env
from tests.corpus.payloads import event_of, payload_files, payloads
from wikimem.capture import events, hook
from wikimem.harness import CLIENTS, HookInputError

# Examples per property: the normal run, and the `long` one (WIKIMEM_LONG=1 pytest -m long).
EXAMPLES = [
    pytest.param(80, id="quick"),
    pytest.param(1500, marks=pytest.mark.long, id="long"),
]
ENTRY_EXAMPLES = [
    pytest.param(25, id="quick"),
    pytest.param(200, marks=pytest.mark.long, id="long"),
]


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


# A record holds at most ~70 KB of text (a 16 KB prompt, 4 KB outputs, 1 KB identifiers, …);
# written as ASCII JSON, a control character takes 6 bytes (\u0000).
MAX_LINE = 6 * 80 * 1024
REQUIRED = ("v", "ts", "client", "session", "event", "native_event", "cwd", "project")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=60),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
big_text = st.builds(
    lambda c, n: c * n, st.sampled_from(["x", "é", "\u2028", "\x00", "🙂"]), st.integers(0, 200_000)
)


def _mutated(client: str) -> st.SearchStrategy[dict[str, Any]]:
    """A real event of the client, each of some of its fields replaced by something hostile."""
    bases = payloads(client)
    assert bases, f"no payload fixtures for the registered client {client!r}"

    def mutate(base: dict[str, Any], changes: list[tuple[int, Any]]) -> dict[str, Any]:
        out = dict(base)
        keys = sorted(out)
        for index, value in changes:
            out[keys[index % len(keys)]] = value
        return out

    hostile = json_values | big_text | st.just(_deep(600)) | st.just(_deep(3000))
    return st.builds(
        mutate, st.sampled_from(bases), st.lists(st.tuples(st.integers(0, 50), hostile), max_size=4)
    )


def _deep(levels: int) -> Any:
    """A value nested `levels` deep, built without recursion."""
    value: Any = "bottom"
    for _ in range(levels):
        value = [value]
    return value


def _encode(value: Any) -> bytes:
    try:
        return json.dumps(value).encode()
    except (RecursionError, ValueError):
        return b"[" * 5000 + b"]" * 5000


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def run_once(home: Path, client: str, raw: bytes) -> tuple[bytes, int, int]:
    """(stdout, records added, error lines added) of one in-process hook call."""
    events_dir = home / "events"
    errors_log = home / "state" / "errors.log"
    before = sum(_lines(f) for f in events_dir.glob("*.jsonl"))
    errors_before = _lines(errors_log)
    out = io.BytesIO()
    assert hook.main([client], stdin=io.BytesIO(raw), stdout=out) == 0
    after = sum(_lines(f) for f in events_dir.glob("*.jsonl"))
    return out.getvalue(), after - before, _lines(errors_log) - errors_before


def assert_contract(home: Path, client: str, raw: bytes, noise_ok: bool = True) -> None:
    out, added, errors = run_once(home, client, raw)
    if out:
        json.loads(out)  # valid JSON
    assert added in (0, 1)
    if added == 0 and not noise_ok:
        assert errors >= 1
    for f in (home / "events").glob("*.jsonl"):
        for line in f.read_bytes().splitlines():
            record = json.loads(line)
            assert all(k in record for k in REQUIRED), record
            assert len(line) < MAX_LINE


@pytest.fixture
def quiet_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = home / "config.toml"
    config.write_text(config.read_text().replace("[dream]\n", "[dream]\nauto = false\n"))
    monkeypatch.setenv("WIKIMEM_HOOK_DEADLINE", "5")
    return home


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("client", CLIENTS)
def test_mutated_events_of_every_client(client: str, examples: int, quiet_home: Path) -> None:
    stamps = iter(range(10**9))

    @fuzz(examples)
    @given(_mutated(client))
    def check(payload: dict[str, Any]) -> None:
        payload = _fresh_time(payload, next(stamps))
        raw = _encode(payload)
        # Nothing at all is right for an event the adapter calls noise (Codex's
        # PreModelRequest, Gemini's BeforeModel)
        assert_contract(quiet_home, client, raw, noise_ok=_noise(client, payload))

    check()


def _fresh_time(payload: dict[str, Any], n: int) -> dict[str, Any]:
    """Gemini CLI and Copilot CLI deliver one event to each of their wirings with one timestamp,
    and wikimem keeps the first: each example is a new event, so it gets a time of its own (in
    the fixture's form: ISO text, or Copilot's epoch milliseconds). Antigravity's payloads carry
    no time: a new event is a new step (`stepIdx`)."""
    step = payload.get("stepIdx")
    if isinstance(step, int) and not isinstance(step, bool) and "conversationId" in payload:
        return {**payload, "stepIdx": 1000 + n}
    stamp = payload.get("timestamp")
    if isinstance(stamp, str) and stamp.startswith("2026-") and len(stamp) < 40:
        return {**payload, "timestamp": f"2026-11-29T18:04:11.{n:09d}Z"}
    if isinstance(stamp, int) and not isinstance(stamp, bool) and stamp > 10**12:
        return {**payload, "timestamp": 1796227960000 + n}
    return payload


def _noise(client: str, payload: dict[str, Any]) -> bool:
    if client == "antigravity" and payload.get("hook_event_name") == "PreInvocation":
        return True  # one per model call: only a conversation's first is recorded
    try:
        return hook._adapter(client).normalise(payload, {}) is None
    except (HookInputError, RecursionError):
        return False


@pytest.mark.parametrize("examples", EXAMPLES)
def test_copilot_events_named_by_the_command(examples: int, quiet_home: Path) -> None:
    """Copilot CLI's camelCase payloads carry no event name: the installed command passes it
    (`--event`). Mutated payloads, and an event name the adapter does not know, in that form."""
    files = payload_files("copilot")
    bases = [
        (event_of(p), json.loads(p.read_text()))
        for p in files
        if "hook_event_name" not in json.loads(p.read_text())
    ]
    assert bases
    stamps = iter(range(10**9))
    hostile = json_values | big_text | st.just(_deep(600))

    @fuzz(examples)
    @given(
        st.sampled_from(bases),
        st.lists(st.tuples(st.integers(0, 50), hostile), max_size=3),
        st.sampled_from(["", "notification", "somethingNew"]),
    )
    def check(base: tuple[str, dict[str, Any]], changes: list[tuple[int, Any]], other: str) -> None:
        event, payload = base[0], dict(base[1])
        keys = sorted(payload)
        for index, value in changes:
            payload[keys[index % len(keys)]] = value
        payload = _fresh_time(payload, next(stamps))
        out = io.BytesIO()
        argv = ["copilot", "--event", other or event]
        before = sum(_lines(f) for f in (quiet_home / "events").glob("*.jsonl"))
        errors_before = _lines(quiet_home / "state" / "errors.log")
        assert hook.main(argv, stdin=io.BytesIO(_encode(payload)), stdout=out) == 0
        if out.getvalue():
            assert set(json.loads(out.getvalue())) == {"additionalContext"}
        added = sum(_lines(f) for f in (quiet_home / "events").glob("*.jsonl")) - before
        errors = _lines(quiet_home / "state" / "errors.log") - errors_before
        noise = _noise("copilot", {**payload, "hook_event_name": other or event})
        assert added in (0, 1) and (added == 1 or errors >= 1 or noise)

    check()


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("client", CLIENTS)
def test_arbitrary_json_and_bytes(client: str, examples: int, quiet_home: Path) -> None:
    @fuzz(examples)
    @given(st.one_of(json_values.map(_encode), st.binary(max_size=400)))
    def check(raw: bytes) -> None:
        out, added, errors = run_once(quiet_home, client, raw)
        if out:
            json.loads(out)
        assert added in (0, 1) and (added == 1 or errors >= 1)

    check()


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("client", CLIENTS)
def test_adapters_raise_nothing_but_hook_input_errors(client: str, examples: int) -> None:
    adapter = hook._adapter(client)

    @fuzz(examples)
    @given(st.one_of(_mutated(client), st.dictionaries(st.text(max_size=20), json_values)))
    def check(payload: dict[str, Any]) -> None:
        try:
            fields = adapter.normalise(payload, {})
        except HookInputError:
            return
        except RecursionError:
            return  # the hook cuts such nesting and normalises again (test_hook_bad_days)
        if fields is None:
            return
        assert isinstance(fields["session"], str) and isinstance(fields["event"], str)
        for context in (None, "some memory"):
            out = adapter.render(fields["native_event"], fields["event"], context)
            assert out is None or isinstance(json.loads(out), dict)

    check()


@pytest.mark.parametrize("examples", ENTRY_EXAMPLES)
def test_the_installed_entry_fails_open(examples: int) -> None:
    """The real entry (`python -I -S hookentry.py`), in a subprocess: exit 0, no traceback,
    stdout valid JSON or nothing; Cursor's prompt hook always gets its answer."""

    @fuzz(examples)
    @given(
        st.sampled_from(CLIENTS),
        st.one_of(
            st.binary(max_size=200),
            json_values.map(_encode),
            st.just(b'{"hook_event_name": "beforeSubmitPrompt", "prompt": ' + b"[" * 100_000),
        ),
    )
    def check(client: str, raw: bytes) -> None:
        home = Path(os.environ["WIKIMEM_HOME"])
        cmd = [sys.executable, "-I", "-S", str(REPO / "wikimem" / "hookentry.py"), client]
        proc = subprocess.run(cmd, input=raw, capture_output=True, env=hook_env(), timeout=30)
        assert proc.returncode == 0 and proc.stderr == b""
        if proc.stdout:
            json.loads(proc.stdout)
        if client == "cursor" and b"beforeSubmitPrompt" in raw:
            assert json.loads(proc.stdout) == {"continue": True}
        for f in (home / "events").glob("*.jsonl"):
            for line in f.read_bytes().splitlines():
                json.loads(line)

    check()


@pytest.mark.parametrize("examples", EXAMPLES)
def test_damage_never_costs_an_intact_record(examples: int, tmp_path: Path) -> None:
    """Torn writes and garbage anywhere in a file (on their own line, or with the next record
    appended onto them): every intact record is still read, in order."""
    files = iter(range(10**9))

    @fuzz(examples)
    @given(
        prompts=st.lists(st.text(max_size=30), min_size=1, max_size=8),
        damage=st.lists(
            st.tuples(st.integers(0, 8), st.binary(max_size=40), st.booleans()), max_size=4
        ),
    )
    def check(prompts: list[str], damage: list[tuple[int, bytes, bool]]) -> None:
        _check_damage(prompts, damage, tmp_path / f"{next(files)}.jsonl")

    check()


def _check_damage(prompts: list[str], damage: list[tuple[int, bytes, bool]], path: Path) -> None:
    lines = [
        events.encode_record({"v": 1, "ts": "2026-11-29T00:00:00.000000Z", "prompt": p, "n": i})
        for i, p in enumerate(prompts)
    ]
    chunks: list[bytes] = list(lines)
    for position, junk, glued in sorted(damage, reverse=True):
        junk = junk.replace(b"\n", b" ")
        chunks.insert(min(position, len(chunks)), junk if glued else junk + b"\n")
    path.write_bytes(b"".join(chunks))
    got = [r.get("n") for _, r in events.read_from(str(path), 0, [])]
    # a record glued behind garbage is recovered from the end of its line
    assert [n for n in got if isinstance(n, int) and not isinstance(n, bool)] == list(
        range(len(prompts))
    )
