"""A `Check`: one finding of `wikimem doctor`, made by whichever module knows the area.

Contract: `area` names what was checked (`git`, `sync`, `gemini`, a harness…), `status` is one
of ok / warn / fail / info, `detail` says what was found in one line, and `fix`, when there is
something to do, the one line that does it. Frozen: a check is a value the doctor collects from
its own probes, `wikimem.sync.health` and the installers' checks, and the CLI prints.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    area: str
    status: str  # ok | warn | fail | info
    detail: str
    fix: str = ""
