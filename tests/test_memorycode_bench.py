"""The MemoryCode benchmark's replay and scorer (bench/memorycode.py) on a tiny dialogue written
for it (tests/fixtures/memorycode/): a variable-name prefix changed from 'x_' to 'y_' while 'x_'
becomes the function-name prefix, a decorator, small talk. The scorer is checked on texts whose
right answer is known; the replay end to end on what holds whatever the dream's rules are."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO
from wikimem.evaluate.scoring import Note

sys.path.insert(0, str(REPO / "bench"))
import memorycode  # bench/memorycode.py

DIALOGUE = FIXTURES / "memorycode" / "dialogue_1.json"


@pytest.fixture(scope="module")
def dialogue() -> memorycode.Dialogue:
    return memorycode.load_dialogue(DIALOGUE)


def by_kind(scored: list[memorycode.Scored]) -> dict[str, memorycode.Scored]:
    return {s.kind: s for s in scored}


def test_the_dialogue_is_read_as_sessions_of_prompts_and_replies(
    dialogue: memorycode.Dialogue,
) -> None:
    first, second = dialogue.sessions
    assert len(first) == 2 and first[1].prompt.endswith("This keeps our code consistent.")
    assert second[0].prompt == "" and second[0].answer == "Good morning, Ana."  # mentee opened
    assert "'y_' instead" in second[1].prompt and "'@timer'" in second[1].prompt  # one turn
    variable = {i.latest.kind: i for i in dialogue.instructions}["variable"]
    assert variable.updated and [o.needles for o in variable.old] == [("x_",)]
    assert dialogue.queries == ("function that computes the mean of a list of numbers",)


def test_the_latest_value_and_an_old_one_offered_as_current(
    dialogue: memorycode.Dialogue,
) -> None:
    clean = (
        "- Variable names start with 'y_' (was 'x_' until 2026-01-05).\n"
        "- Put the @timer decorator from pedantic on every function.\n"
        "- Function names start with 'x_'."
    )
    stale = "- Start variable names with 'x_'.\n- Variable names start with 'y_'."
    got = by_kind(memorycode.score_texts(dialogue, [clean, stale]))
    variable = got["variable"]
    assert variable.present and variable.present_per_query == [True, True]
    assert variable.old_offered == ["variable names start with 'x_'"]  # from the second text
    assert variable.old_lines == ["- Start variable names with 'x_'."]
    assert variable.old_per_query == [False, True]
    assert not variable.clean
    assert got["function decorator"].present_per_query == [True, False]
    assert got["function"].present_per_query == [True, False]

    only_clean = by_kind(memorycode.score_texts(dialogue, [clean]))["variable"]
    assert only_clean.clean and not only_clean.old_offered  # "was 'x_'", and 'x_' of functions


def test_a_value_is_counted_for_the_object_it_is_said_of(dialogue: memorycode.Dialogue) -> None:
    text = "- When naming functions, always start them with 'x_'.\n- A pomodoro timer helps."
    got = by_kind(memorycode.score_texts(dialogue, [text]))
    assert got["function"].present
    assert not got["variable"].old_offered  # 'x_' here is the functions' prefix
    assert not got["function decorator"].present  # a timer, not the decorator


def test_failures_are_told_apart_from_the_notes(dialogue: memorycode.Dialogue) -> None:
    day2 = "([[projects/p/sessions/2026-01-06-proj-session-2-abcdef|claude 2026-01-06]])"
    notes = [
        Note(
            "projects/p/conventions.md",
            "project",
            f"- Variable names start with 'y_'. {day2}\n"
            f"- I want to update a previous instruction. {day2}\n"
            f"- When naming functions, start them with 'x_'. {day2}\n"
            f"- Our team lunch is on Thursdays. {day2}\n",
        ),
        Note("projects/p/sessions/2026-01-06-x.md", "session", "- Add the @timer decorator.\n"),
    ]
    lines = memorycode.living_lines(notes)
    assert [line for _, line in lines if not memorycode.holds_any_value(line, dialogue)] == [
        f"- I want to update a previous instruction. {day2}",
        f"- Our team lunch is on Thursdays. {day2}",
    ]  # the chit-chat lines; the digest is no living note
    scored = memorycode.score_texts(dialogue, ["- Start variable names with 'x_'."])
    memorycode.classify(dialogue, scored, lines)
    got = by_kind(scored)
    assert got["variable"].failure == "not injected"  # the note has 'y_', the text did not
    assert got["function decorator"].failure == "value mangled"  # only "update an instruction"
    assert got["function decorator"].notes_held == [
        f"- I want to update a previous instruction. {day2}"
    ]
    assert got["function"].failure == "not injected"  # the text's 'x_' is said of variables

    scored = memorycode.score_texts(dialogue, ["- Variable names start with 'y_' or 'x_'."])
    memorycode.classify(dialogue, scored, [])
    got = by_kind(scored)
    assert got["variable"].failure == "old still current"
    assert got["function decorator"].failure == "not captured"


def test_replay_and_score_end_to_end(tmp_path: Path) -> None:
    result = memorycode.run_dialogue(str(DIALOGUE), str(tmp_path))
    assert result["cli_errors"] == [] and result["errors_log"] == []
    assert result["dreams"] == 2
    # 2 turns + start and end, 3 turns (the mentee opened it) + start and end, one task opened
    assert result["hook_calls"] == 6 + 8 + 2
    (given,) = result["injected"]
    assert given["start_chars"] <= memorycode.START_CHARS
    assert given["prompt_chars"] <= memorycode.PROMPT_CHARS
    for s in result["wikimem"]:
        assert s["failure"] in (*memorycode.FAILURES, None)
        assert (s["failure"] is None) == (s["present"] and not s["old_offered"])
    # The raw turns state the old prefix as current: the baseline offers it.
    bm25 = {s["kind"]: s for s in result["bm25"]}
    assert bm25["variable"]["present"] and bm25["variable"]["old_offered"]
    assert not bm25["variable"]["clean"]
    assert result["bm25_chars"][0] <= memorycode.BUDGET
    assert result["chit_chat"] == [
        c for c in result["chit_chat"] if "'x_'" not in c["line"] and "'y_'" not in c["line"]
    ]
