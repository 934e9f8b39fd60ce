"""No secret of the corpus (tests/corpus/secrets.py) reaches anything wikimem keeps or sends.

Every sample goes through: `redact` in every context (alone, mid-line, deep in a line, in a log,
JSON-escaped, in a YAML quoted scalar); every string field of every payload fixture of every
registered client; `remember`; the MCP tools; and a model's operations (bodies, titles, tags, paths, move
targets, delete reasons). Then nothing of it may be found in events/, state/ (the search index
included), memory/, any file name, git history (contents and commit messages), the dream's
report, or any prompt given to the model. With `gate.secrets = block` the writes are refused,
without echoing the secret. The false-positive rate on ordinary developer text is held to its
published figure (docs/security.md; `python bench/secrets.py` prints it).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.ordinary import ORDINARY
from tests.corpus.payloads import payloads
from tests.corpus.secrets import CONTEXTS, SAMPLES, Sample
from wikimem.capture import hook
from wikimem.capture.redact import redact, token_shaped
from wikimem.dream import statements
from wikimem.dream.fake import FakeBackend
from wikimem.dream.runner import run_dream
from wikimem.errors import WikimemError
from wikimem.harness import CLIENTS
from wikimem.home import Home
from wikimem.mcp.tools import MemoryTools
from wikimem.wiki.batch import Wiki
from wikimem.wiki.notes import kebab
from wikimem.wiki.remember import NotAClaim, remember

MIN_FORMATS = 75
PUBLISHED_FALSE_POSITIVES = 0  # of len(ORDINARY) texts; docs/security.md
# The normal run sends a rotating share of the corpus through each field (every sample still
# passes through many fields of each client) and remembers every sixth sample; the `long` runs
# (WIKIMEM_LONG=1 pytest -m long) send all of it through every field and remember all of it.
SHARE = [12, pytest.param(len(SAMPLES), marks=pytest.mark.long, id="all")]
REMEMBER = [
    pytest.param(SAMPLES[::6], id="every-sixth"),
    pytest.param(SAMPLES, marks=pytest.mark.long, id="all"),
]
COMPACT_CONTEXTS = sorted(c for c in CONTEXTS if c != "deep in a long line")


def test_the_corpus_is_big_enough() -> None:
    assert len(SAMPLES) >= MIN_FORMATS
    assert len({s.name for s in SAMPLES}) == len(SAMPLES)
    assert len(ORDINARY) >= 200


@pytest.mark.parametrize("context", sorted(CONTEXTS))
def test_every_sample_is_redacted_in_every_context(context: str) -> None:
    leaks = []
    for sample in SAMPLES:
        out, kinds = redact(CONTEXTS[context](sample.text))
        if not kinds or _leaked(sample, out):
            leaks.append(sample.name)
    assert leaks == []


def test_false_positives_stay_at_the_published_figure() -> None:
    flagged = [(cat, text[:80]) for cat, text in ORDINARY if redact(text)[1]]
    assert len(flagged) <= PUBLISHED_FALSE_POSITIVES, flagged


def _leaked(sample: Sample, text: str) -> list[str]:
    return [n for n in sample.needles() if n in text or json.dumps(n)[1:-1] in text]


def _leaks_in(text: str) -> list[str]:
    return [f"{s.name}: {n[:12]}…" for s in SAMPLES for n in _leaked(s, text)]


# -- hooks ---------------------------------------------------------------------------------------


def _string_leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, str):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _string_leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _string_leaves(v, (*path, i))


def _set(value: Any, path: tuple[Any, ...], new: str) -> None:
    for step in path[:-1]:
        value = value[step]
    value[path[-1]] = new


def _corpus_text(field: int, per_field: int) -> str:
    """`per_field` samples for the field-th field, each in a context (both rotating, so the
    fields of a client see every sample in every context between them)."""
    start = field * per_field
    chosen = [SAMPLES[(start + i) % len(SAMPLES)] for i in range(per_field)]
    names = COMPACT_CONTEXTS
    return "\n".join(
        CONTEXTS[names[(start + i) % len(names)]](s.text) for i, s in enumerate(chosen)
    )


def _big_limits(home: Path, secrets: str = "redact") -> None:
    """No truncation: every secret must be redacted, not merely cut away."""
    config = home / "config.toml"
    text = config.read_text()
    text = text.replace(
        "[events]\n", "[events]\nmax_output_bytes = 4194304\nmax_prompt_bytes = 4194304\n"
    )
    text = text.replace("[gate]\n", f'[gate]\nsecrets = "{secrets}"\nmax_note_bytes = 400000\n')
    text = text.replace("[dream]\n", "[dream]\nauto = false\n")  # no detached dream mid-test
    config.write_text(text)


@pytest.mark.parametrize("per_field", SHARE)
@pytest.mark.parametrize("client", CLIENTS)
def test_no_secret_reaches_the_events_through_any_field(
    client: str, per_field: int, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _big_limits(home)
    monkeypatch.setenv("WIKIMEM_HOOK_DEADLINE", "10")
    fixtures = payloads(client)
    assert fixtures, f"no payload fixtures for the registered client {client!r}"
    fields = 0
    for base in fixtures:
        for path in _string_leaves(base):
            data = json.loads(json.dumps(base))
            _set(data, path, _corpus_text(fields, per_field))
            if isinstance(data.get("tool_input"), dict):  # a secret as a key, too
                data["tool_input"][SAMPLES[fields % len(SAMPLES)].text] = "x"
            hook.main([client], stdin=io.BytesIO(json.dumps(data).encode()), stdout=io.BytesIO())
            fields += 1
    assert fields > 20
    written = _home_text(home)
    assert "[REDACTED:" in written
    assert _leaks_in(written) == []


def _home_text(home: Path) -> str:
    """Every byte under the home (events, state with the index, memory with .git objects
    unpacked through git), every file name, and git's full history."""
    parts: list[str] = []
    for root, dirs, files in os.walk(home):
        parts.extend(dirs)
        parts.extend(files)
        if os.path.join(".git", "objects") in root:
            continue  # compressed: read through git below
        for name in files:
            parts.append(Path(root, name).read_bytes().decode("utf-8", "replace"))
    memory = home / "memory"
    if (memory / ".git").exists():
        log = subprocess.run(
            ["git", "-C", str(memory), "log", "--all", "-p", "--format=%H%n%an%n%B"],
            capture_output=True,
            text=True,
            check=True,
        )
        parts.append(log.stdout)
    return "\n".join(parts)


# -- remember, model operations ------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _hostile_operations() -> dict[str, Any]:
    ops: list[dict[str, Any]] = []
    for i, s in enumerate(SAMPLES):
        ops.append(
            {
                "op": "upsert",
                "path": f"general/corpus-{i}.md",
                "title": f"Note {i}: {_one_line(s.text)}"[:400],
                "kind": "general",
                "tags": ["corpus", _one_line(s.text)[:200]],
                "body": f"How it was set up:\n\n{s.text}\n\nThat is all.\n",
                "sources": [f"claude:{s.secret}" if redact(s.secret)[1] else "claude:x"],
            }
        )
        if not _self_identifying(s.secret):
            continue
        # the secret as the note's name, as a move target, in a delete's reason
        ops.append(
            {
                "op": "upsert",
                "path": f"general/{kebab(s.secret, 120)}.md",
                "title": "named after a secret",
                "kind": "general",
                "body": "x\n",
            }
        )
        ops.append(
            {
                "op": "upsert",
                "path": f"general/{s.secret}.md",
                "title": "t",
                "kind": "general",
                "body": "x\n",
            }
        )
        ops.append({"op": "move", "from": f"general/corpus-{i}.md", "to": f"general/{s.secret}.md"})
        ops.append({"op": "delete", "path": f"general/{s.secret}", "reason": s.text})
    return {"operations": ops}


def _self_identifying(secret: str) -> bool:
    """Whether a secret can be told out of context, as a bare name: by its prefix or its shape.
    A UUID-shaped key or a short password cannot be told from an identifier, and as a note's
    name it is allowed (docs/security.md says so)."""
    return bool(redact(secret)[1]) or token_shaped(secret)


def _dream_with_hostile_model(home: Path) -> tuple[FakeBackend, dict[str, Any]]:
    # events for the dream to read (and to put in the model's prompt)
    for i, s in enumerate(SAMPLES[:40]):
        data = {
            "session_id": f"sess-{i}",
            "hook_event_name": "UserPromptSubmit",
            "cwd": str(home),
            "prompt": f"please remember this: {s.text}",
        }
        hook.main(["claude"], stdin=io.BytesIO(json.dumps(data).encode()), stdout=io.BytesIO())
    backend = FakeBackend([_hostile_operations()])
    result = run_dream(Home(str(home)), backend)
    return backend, result.as_dict()


def _through_mcp(home: Path, remembered: list[Sample]) -> list[str]:
    """Each remembered sample written through the MCP tools (a whole note, and as a statement),
    and named as a path; what the tools answered, refusals included."""
    tools = MemoryTools(Home(str(home)))
    answers: list[str] = []
    for i, s in enumerate(remembered):
        calls: list[dict[str, Any]] = [
            {
                "text": f"How to deploy:\n\n{s.text}\n",
                "path": f"general/mcp-{i}.md",
                "title": f"MCP {i}: {_one_line(s.text)}"[:200],
                "replace": True,
            },
            {"text": f"remember that {_one_line(s.text)}"[:300]},
        ]
        if _self_identifying(s.secret):
            calls.append({"text": "named after it", "path": f"general/{s.secret}.md"})
        for call in calls:
            try:
                answers.append(json.dumps(tools.write(**call)))
            except WikimemError as exc:
                answers.append(str(exc))
    return answers


@pytest.mark.parametrize("remembered", REMEMBER)
def test_no_secret_reaches_memory_git_the_index_or_a_model(
    home: Path, remembered: list[Sample]
) -> None:
    _big_limits(home)
    wiki = Wiki(Home(str(home)))
    for s in remembered:
        text = f"Remember for deploys: {_one_line(s.text)}"
        if len(text) <= statements.MAX_STATEMENT:  # longer ones `remember` refuses as such
            try:
                remember(wiki, text, project="corpus")
            except NotAClaim as refused:  # nothing but a secret: no claim, nothing written
                assert _leaked(s, str(refused)) == []
    mcp_answers = _through_mcp(home, remembered)
    backend, report = _dream_with_hostile_model(home)
    assert report["created"], report  # the notes themselves were written, redacted
    assert report["rejected"] or report["blocked"]
    leaks = {
        "home (events, state, index, memory, names, git)": _leaks_in(_home_text(home)),
        "dream report": _leaks_in(json.dumps(report)),
        "model prompts": _leaks_in("\n".join(p.system + p.user for p in backend.prompts)),
        "MCP answers": _leaks_in("\n".join(mcp_answers)),
    }
    assert backend.prompts
    assert leaks == {k: [] for k in leaks}
    # nothing in history claims to be a trailer it is not
    log = subprocess.run(
        ["git", "-C", str(home / "memory"), "log", "--format=%B"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert log.count("Wikimem-Watermark:") <= 1


@pytest.mark.parametrize("remembered", REMEMBER)
def test_block_mode_refuses_without_echoing(home: Path, remembered: list[Sample]) -> None:
    _big_limits(home, secrets="block")
    wiki = Wiki(Home(str(home)))
    refused = 0
    for s in remembered:
        with pytest.raises(WikimemError) as err:
            remember(wiki, f"Remember: {_one_line(s.text)}", project="corpus")
        assert _leaked(s, str(err.value)) == []
        refused += 1
    for answer in _through_mcp(home, remembered):
        assert not answer.startswith("{"), answer  # a refusal, never a write
        assert _leaks_in(answer) == []
    _, report = _dream_with_hostile_model(home)
    # every note holding a sample was refused; what was written is a bare name the case-folded,
    # kebab-cased form of a secret turned into (which no rule can know), holding nothing
    assert not [p for p in report["created"] + report["updated"] if "corpus-" in p]
    assert report["blocked"] or report["rejected"]
    assert _leaks_in(_home_text(home)) == []
    assert _leaks_in(json.dumps(report)) == []
    assert refused == len(remembered)
