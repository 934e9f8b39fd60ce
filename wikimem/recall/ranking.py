"""How a passage is ranked for a prompt: the one scoring function (docs/recall.md, "Ranking").

Contract:
  - `FIELDS`: what the index matches a prompt's words against, and how much each counts in the
    BM25 score (SQLite FTS5's `bm25()` with these column weights): a note's title, tags and the
    words of its path; a section heading; the subjects of the claims in a passage
    (`- **Staging port**: …`); the text; and the `**About:**` line a model dream may write
    under a digest turn (a few names: as telling as a heading).
  - `score(bm25, line, own, age_days)`: the rank of one candidate (a living note's passage, or
    one turn of a session digest), larger is better:

        (bm25 + LINE × line) × (OWN if the note is this project's or the prompt names its
        project) × recency(age_days)

    where `line` is, for a digest turn, `line_score` of its best line (what was asked, done or
    answered): a turn whose words sit in one line beats one whose words are spread over its
    parts (0 for a living note's passage, which is given whole). `recency` is 1 for living notes (what is true
    now) and for the newest digest among the candidates, and falls towards 1 − `RECENCY` for
    older digests, halving its distance every `HALF_LIFE_DAYS`: a tie-breaker, never a filter.
  - `line_score(text, weights, average)`: BM25 of one line against the prompt's words, each
    matched by `stem`, weighted by `weights` (their inverse document frequency in the index).
  - `stem(word)`: a crude stem the index's porter stemmer agrees with often enough to find a word
    again in a line (`runs`, `running` → `run…`).

Hook-path module: standard library only, no regular expressions.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# (column, weight) in the order of the index's FTS5 table after `path` and `ordinal`
FIELDS = (
    ("title", 6.0),
    ("tags", 4.0),
    ("pathwords", 3.0),
    ("heading", 2.0),
    ("subjects", 2.0),
    ("body", 1.0),
    ("about", 2.0),
)
BM25_WEIGHTS = (0.0, 0.0, *(w for _, w in FIELDS))  # path and ordinal are not indexed
LINE = 1.0  # the best line's BM25, beside the passage's
OWN = 1.5  # this project's notes, or the notes of a project the prompt names
RECENCY = 0.2  # the most an old digest turn loses against the newest one
HALF_LIFE_DAYS = 30.0
K1, B = 1.2, 0.75  # BM25's usual term-frequency saturation and length normalisation


def score(bm25: float, line: float, own: bool, age_days: float) -> float:
    return (bm25 + LINE * line) * (OWN if own else 1.0) * recency(age_days)


def recency(age_days: float) -> float:
    if age_days <= 0:
        return 1.0
    return 1.0 - RECENCY * (1.0 - float(0.5 ** (age_days / HALF_LIFE_DAYS)))


def stem(word: str) -> str:
    word = word.lower()
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:6] if len(word) > 6 else word


LABELS = ("**asked:**", "**did:**", "**answered:**")  # a digest line's label is no word of it


def line_score(text: str, weights: Mapping[str, float], average: float) -> float:
    """BM25 of `text` for the stems in `weights`; `average`: the mean length of such lines."""
    lowered = text.lower().lstrip("- ")
    for label in LABELS:
        if lowered.startswith(label):
            lowered = lowered[len(label) :]
            break
    size = len(lowered) / max(average, 1.0)
    total = 0.0
    for s, weight in weights.items():
        tf = occurrences(lowered, s)
        if tf:
            total += weight * tf * (K1 + 1) / (tf + K1 * (1 - B + B * size))
    return total


def occurrences(lowered: str, s: str, cap: int = 8) -> int:
    """How many words of `lowered` start with `s` (at most `cap`)."""
    n = 0
    i = lowered.find(s)
    while i != -1 and n < cap:
        if i == 0 or not lowered[i - 1].isalnum():
            n += 1
        i = lowered.find(s, i + len(s))
    return n


def idf(total: int, df: int) -> float:
    return math.log(1.0 + total / max(df, 1))


def day_number(day: str) -> int | None:
    """`YYYY-MM-DD` as a number of days (for differences only), None if it is not a date."""
    if len(day) < 10 or day[4] != "-" or day[7] != "-":
        return None
    try:
        y, m, d = int(day[:4]), int(day[5:7]), int(day[8:10])
    except ValueError:
        return None
    if not (1 <= m <= 12 and 1 <= d <= 31):
        return None
    # days from a fixed epoch, by the civil calendar (no datetime import on the hook path)
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe


def digest_day(path: str) -> str | None:
    """The date of a session digest from its path (`…/sessions/YYYY-MM-DD-<id>.md`)."""
    i = path.find("/sessions/")
    if i == -1:
        return None
    day = path[i + 10 : i + 20]
    return day if day_number(day) is not None else None
