"""The scripted cases: what happens in which project, client and day, and what the next session
should be given.

A case is a short history (sessions through the hooks, `wikimem remember`/`forget` at the command
line) and one question asked in a new session afterwards. All cases share ONE home with six
projects; days are a fixed calendar (day 1 = Monday 2026-03-02), and a dream runs after each day.

What a case expects (every value is matched loosely: case, spacing and punctuation between its
words do not matter, see `scoring.matcher`):
  - `expect`: groups of alternatives; the answer is present when every group has one alternative
    in the injected text (outside the `### <path>` heading lines; with `same_line`, all on one
    line, so a date counts only beside its subject);
  - `claims`: the same shape, what a living note (not a digest) visible from the question's
    project must hold; defaults to `expect`;
  - `old`: values superseded or retracted: they must not be offered as current;
  - `foreign`: another project's values: injecting them is bleed;
  - `junk`: text that must never reach a living note (nor be injected);
  - `keys`: words tying a living-note line to this case, for the junk report.

`Turn.model` is what a good model would write for that turn (`Put` a claim on a subject, `Drop`
one); the scripted model backend answers with it, the offline backend never sees it.

Prompts and paths may name a project's slug as `{{key}}` (slugs come from the real git remotes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from wikimem.evaluate.clients import Edit, Run, Turn

DAYS = {
    1: "2026-03-02",  # Monday
    2: "2026-03-03",
    3: "2026-03-04",
    4: "2026-03-05",
    5: "2026-03-06",  # days 5 and 6: only the profile-slots case, so its effect stays its own
    6: "2026-03-07",
    7: "2026-03-08",  # questions are asked on day 7, after the last dream
}
QUESTION_DAY = 7


@dataclass(frozen=True)
class Project:
    key: str
    directory: str
    remote: str | None  # None: a repository without a remote (slug from its directory)


PROJECTS = (
    Project("api", "api", "git@github.com:acme/api.git"),
    Project("web", "web", "https://github.com/acme/web"),
    Project("pipeline", "pipeline", "git@gitlab.com:globex/pipeline.git"),
    Project("billing", "billing", "https://github.com/initech/billing.git"),
    Project("dotfiles", "dotfiles-tools", None),
    Project("infra", "infra", "git@github.com:acme/infra.git"),
)


@dataclass(frozen=True)
class World:
    """Where a set's cases happen: its repositories and its calendar (day number -> date; a
    dream after each day; the questions asked on `question_day`). The Python sets share the
    default one; a data-file set brings its own."""

    projects: tuple[Project, ...] = PROJECTS
    days: Mapping[int, str] = field(default_factory=lambda: dict(DAYS))
    question_day: str = DAYS[QUESTION_DAY]


@dataclass(frozen=True)
class Put:
    """A good model's claim: replace the bullet on `subject` (a regex) in `note`, or add one.
    `note` is `P/<name>.md` for the session's project, or a path like `profile/x.md`."""

    note: str
    subject: str
    line: str


@dataclass(frozen=True)
class Drop:
    """A good model's retraction: remove the bullet on `subject` from `note`."""

    note: str
    subject: str


@dataclass(frozen=True)
class Session:
    client: str
    project: str
    day: int
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Cli:
    """`wikimem <args>` run in the project's directory."""

    project: str
    day: int
    args: tuple[str, ...]


@dataclass(frozen=True)
class Query:
    client: str
    project: str
    prompt: str


Values = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Case:
    id: str
    category: str
    what: str
    history: tuple[Session | Cli, ...]
    query: Query
    expect: Values = ()
    claims: Values | None = None
    old: tuple[str, ...] = ()
    foreign: tuple[str, ...] = ()
    junk: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    same_line: bool = False  # every expected value on one line (a date next to its subject)
    needs_client: str = ""  # skipped unless wikimem supports this client
    also_visible: tuple[str, ...] = field(default=())  # projects the question names

    @property
    def claim_values(self) -> Values:
        return self.expect if self.claims is None else self.claims


def dates(day: str) -> tuple[str, ...]:
    """A date as people and models write it."""
    y, m, d = day.split("-")
    month = (
        "January February March April May June July August September October November December"
    ).split()[int(m) - 1]
    n = str(int(d))
    return (day, f"{n} {month} {y}", f"{month} {n}, {y}", f"{n} {month[:3]} {y}", f"{month} {n}")


def one(*alternatives: str) -> Values:
    return (tuple(alternatives),)


def S(client: str, project: str, day: int, *turns: Turn) -> Session:
    return Session(client, project, day, turns)


def T(
    prompt: str, *steps: Run | Edit, answer: str = "Done.", model: tuple[object, ...] = ()
) -> Turn:
    return Turn(prompt, tuple(steps), answer, tuple(model))
