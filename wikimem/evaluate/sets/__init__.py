"""The case sets, by name.

  - `main`: the cases the memory's rules were built and tuned on;
  - `heldout`: 20 cases written after that tuning, in new phrasings, to estimate how much of
    the main set's score is fitted to its sentences;
  - `heldout2`: 40 cases written before a later round of judgment changes and never tuned on;
  - `heldout3`: 20 cases written as the final check of the work tuned on `heldout2`;
  - `heldout4`: 20 cases written blind (without reading the judgment code or any evaluation
    output) as a second final check;
  - `blindA`: 56 cases in seven repositories over ten days, written blind on 2026-12-05 by
    someone who read no wikimem code, a data file (`blindA.json`); its first figure was taken
    on the code before the "precise or silent" judgment, then it was tuned on;
  - `blindB`: 58 cases written the same way by a second writer, run twice only: on the code
    before that judgment and on the code at its end, never tuned on (its classes of failure
    were read after that, so it is no longer blind);
  - `blindC`: 60 cases in seven repositories over ten days, written blind on 2026-12-06 by a
    third writer from a brief and the format alone, run first on the code of that day before
    any change, then tuned on from a line-by-line reader's report.

A set is built only when asked for (`build(name)`): the sets are large literal tables. A set
written as data (`datafile`, a JSON file beside this module) brings its own repositories and
calendar (`world(name)`).
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from wikimem.evaluate.cases import Case, World

# name -> (module, builder, what a report calls it)
_SETS = {
    "main": ("main", "build_cases", "main set"),
    "heldout": ("heldout", "build_heldout_cases", "held-out cases"),
    "heldout2": ("heldout2", "build_heldout2_cases", "second held-out set"),
    "heldout3": ("heldout3", "build_heldout3_cases", "third held-out set"),
    "heldout4": ("heldout4", "build_heldout4_cases", "fourth held-out set"),
    "blindA": ("blindA.json", "", "blind set A (tuned on after its first run)"),
    "blindB": ("blindB.json", "", "blind set B (its failure classes since read)"),
    "blindC": ("blindC.json", "", "blind set C (first run recorded, then tuned on)"),
}
NAMES = tuple(_SETS)


def label(name: str) -> str:
    return _SETS[name][2]


def build(name: str) -> list[Case]:
    """The cases of set `name` (KeyError for a name not in `NAMES`)."""
    module, builder, _ = _SETS[name]
    if module.endswith(".json"):
        return _from_file(module)[1]
    cases: list[Case] = getattr(import_module(f"wikimem.evaluate.sets.{module}"), builder)()
    return cases


def world(name: str) -> World:
    """The repositories and calendar of set `name`."""
    module = _SETS[name][0]
    return _from_file(module)[0] if module.endswith(".json") else World()


def _from_file(file: str) -> tuple[World, list[Case]]:
    from wikimem.evaluate.sets import datafile

    w, cases, _ = datafile.load(Path(__file__).with_name(file))
    return w, cases
