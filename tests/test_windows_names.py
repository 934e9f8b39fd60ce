"""Names the wiki can hold everywhere (issue 29, item 8): memory/ is cloned on Windows too, where
CON, PRN, AUX, NUL, COM1–9 and LPT1–9 (any case, any extension) are devices and a name cannot end
in a dot or a space. No writer may create such a path, so the clone never fails there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.test_bad_days import Scripted
from tests.test_dream import wikimem
from wikimem.config import load_config
from wikimem.dream.runner import run_dream
from wikimem.home import Home
from wikimem.wiki.gate import Gate, MemoryWrite

NOTE = "---\ntitle: T\nkind: {kind}\n---\n- a fact\n"


def dream_once(home: Path, ops: list[dict[str, object]]) -> object:
    (home / "events" / "2026-11-30.jsonl").write_text(
        json.dumps(
            {"v": 1, "ts": "2026-11-30T10:00:00Z", "client": "claude", "session": "s1",
             "event": "UserPromptSubmit", "project": "p", "prompt": "note it"}
        ) + "\n"
    )  # fmt: skip
    return run_dream(Home(str(home)), Scripted(ops))


def test_a_model_cannot_create_general_con_md(home: Path) -> None:
    ops = [
        {"op": "upsert", "path": "general/con.md", "title": "Con", "kind": "general",
         "body": "- the console is on ttyS0\n"},
        {"op": "upsert", "path": "general/console.md", "title": "Console", "kind": "general",
         "body": "- the console is on ttyS0\n"},
    ]  # fmt: skip
    result = dream_once(home, ops)
    assert not (home / "memory" / "general" / "con.md").exists()
    assert (home / "memory" / "general" / "console.md").exists()  # a name that merely starts so
    rejected = dict(getattr(result, "rejected", []))
    assert "Windows" in rejected["general/con.md"]


@pytest.mark.parametrize(
    "path",
    [
        "general/con.md",
        "general/prn.md",
        "general/aux.md",
        "general/nul.md",
        "general/com1.md",
        "general/lpt9.md",
        "projects/aux/notes.md",
        "tools/nul/usage.md",
        "projects/com3/sessions/2026-11-30-abc.md",
    ],
)
def test_the_gate_refuses_every_reserved_name_in_any_segment(home: Path, path: str) -> None:
    gate = Gate(str(home / "memory"), load_config(Home(str(home))))
    for source in ("dream", "mcp", "import", "remember"):
        kind = {"projects": "project", "tools": "tool"}.get(path.split("/")[0], "general")
        result = gate.check(MemoryWrite(path, "create", NOTE.format(kind=kind), source))
        assert result.status == "blocked" and "Windows" in result.reason, (source, result)


@pytest.mark.parametrize(
    "path", ["general/CON.md", "general/Aux.Notes.md", "general/Lpt1.md", "general/v1./notes.md"]
)
def test_a_person_naming_a_note_by_hand_is_refused_too(home: Path, path: str) -> None:
    done = wikimem("remember", "--path", path, "The console is on ttyS0")
    assert done.returncode == 1 and "Windows" in done.stderr, done.stderr
    assert (
        subprocess.run(
            ["git", "-C", str(home / "memory"), "ls-files", path], capture_output=True, text=True
        ).stdout
        == ""
    )


def test_a_project_folder_named_aux_gets_a_name_windows_can_hold(tmp_path: Path) -> None:
    from wikimem.capture.project import project_slug

    folder = tmp_path / "aux"
    folder.mkdir()
    assert project_slug(str(folder)) == "aux-project"
    assert project_slug(str(tmp_path / "console")) == "console"


def test_no_project_slug_is_a_reserved_name() -> None:
    from wikimem.capture.project import slugify
    from wikimem.wiki.portable import reserved

    names = ["con", "PRN", "Aux", "nul", *(f"{p}{n}" for p in ("com", "LPT") for n in range(10))]
    for name in names:
        assert not reserved(slugify(name)), name
        assert not reserved(slugify(f"  {name}  ")), name
