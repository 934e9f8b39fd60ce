"""Relative dates made absolute: a claim must still be true when read a month later.

Contract: `resolve(text, ref)` rewrites the relative date expressions of `text` ("yesterday",
"on Monday", "last week", "two days ago", "next Friday", "this morning", "last month") as
absolute dates computed from `ref`, the day the text was said, and leaves everything else as it
was. A weekday without "last"/"next" means the most recent one before `ref` (the day itself is
never meant: people say "today"), unless the sentence speaks of the future ("will", "going to",
"scheduled"), then the next one. Expressions it cannot pin down ("recently", "soon") stay.
`parse_day(text)` reads an ISO date or the dates people and LoCoMo write ("8 May 2023",
"1:56 pm on 8 May, 2023", "May 8, 2023").
"""

from __future__ import annotations

import re
from datetime import date, timedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_FUTURE = re.compile(
    r"\b(?:will|won't|going to|gonna|scheduled|planned|planning|plan to|upcoming|from now on)\b",
    re.IGNORECASE,
)
_WEEKDAY = "|".join(WEEKDAYS)
_MONTH = "|".join(m[:3] for m in MONTHS)
_COUNT = r"\d+|" + "|".join(NUMBERS)
_RELATIVE = re.compile(
    r"\b(?:"
    r"(?P<yesterday>yesterday)|(?P<today>today)|(?P<tomorrow>tomorrow)|"
    r"(?P<tonight>tonight)|(?P<daypart>this (?:morning|afternoon|evening))|"
    r"(?P<lastnight>last night)|"
    r"(?:(?P<on>on) )?(?P<which>last|next|this (?:past|coming)|this) (?P<wd>" + _WEEKDAY + r")|"
    r"(?P<on2>on) (?P<wd2>" + _WEEKDAY + r")|"
    r"(?:(?<=since )|(?<=as of )|(?<=from ))(?P<wd3>" + _WEEKDAY + r")|"
    r"(?:(?<=until )|(?<=till )|(?<=through )|(?<=by ))(?P<wd4>" + _WEEKDAY + r")|"
    r"(?P<ago_n>" + _COUNT + r") (?P<ago_unit>days?|weeks?|months?|years?) ago|"
    r"(?P<lastunit>last|next|this) (?P<unit>week|month|year|weekend)|"
    r"(?P<md_month>" + _MONTH + r")[a-z]*\.? (?P<md_day>\d{1,2})(?:st|nd|rd|th)?(?!\d|,? \d{4}|:)|"
    r"(?P<dm_day>\d{1,2})(?:st|nd|rd|th)? (?:of )?(?P<dm_month>" + _MONTH + r")[a-z]*(?!,? \d{4})"
    r")\b",
    re.IGNORECASE,
)
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_DAY_MONTH_YEAR = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(" + "|".join(m[:3] for m in MONTHS) + r")[a-z]*,?\s+(\d{4})\b",
    re.IGNORECASE,
)
_MONTH_DAY_YEAR = re.compile(
    r"\b(" + "|".join(m[:3] for m in MONTHS) + r")[a-z]*\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b",
    re.IGNORECASE,
)


def parse_day(text: str) -> date | None:
    """The first date written in `text`, or None."""
    m = _ISO.search(text)
    if m:
        try:
            return date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            pass
    for pattern, order in ((_DAY_MONTH_YEAR, "dmy"), (_MONTH_DAY_YEAR, "mdy")):
        m = pattern.search(text)
        if m:
            day, month, year = (m[1], m[2], m[3]) if order == "dmy" else (m[2], m[1], m[3])
            try:
                return date(int(year), _month_number(month), int(day))
            except ValueError:
                continue
    return None


def _month_number(name: str) -> int:
    return [m[:3] for m in MONTHS].index(name[:3].lower()) + 1


def iso(day: date) -> str:
    return day.isoformat()


def _weekday_before(ref: date, weekday: int) -> date:
    delta = (ref.weekday() - weekday) % 7 or 7
    return ref - timedelta(days=delta)


def _weekday_after(ref: date, weekday: int) -> date:
    delta = (weekday - ref.weekday()) % 7 or 7
    return ref + timedelta(days=delta)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS.get(word.lower(), 1)


def _shift_months(ref: date, months: int) -> date:
    index = ref.year * 12 + ref.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def annotate(text: str, ref: date | None) -> str:
    """`text` as it was said, each relative date followed by the absolute one in parentheses
    ("yesterday (2026-11-30)"): for quoting people, where rewriting their words would not do."""
    return resolve(text, ref, keep_words=True)


def resolve(text: str, ref: date | None, keep_words: bool = False) -> str:
    """`text` with its relative dates written as absolute ones (see the module contract)."""
    if ref is None or not text:
        return text
    future = bool(_FUTURE.search(text))

    def replace(m: re.Match[str]) -> str:
        said = m.group(0)
        if m["yesterday"]:
            return f"on {iso(ref - timedelta(days=1))}"
        if m["today"]:
            return f"on {iso(ref)}"
        if m["tomorrow"]:
            return f"on {iso(ref + timedelta(days=1))}"
        if m["tonight"]:
            return f"on the night of {iso(ref)}"
        if m["daypart"]:
            return f"on the {said.split()[-1].lower()} of {iso(ref)}"
        if m["md_month"] or m["dm_month"]:
            month = _month_number(m["md_month"] or m["dm_month"])
            try:
                day = date(ref.year, month, int(m["md_day"] or m["dm_day"]))
            except ValueError:
                return said
            return iso(day)
        if m["lastnight"]:
            return f"on the night of {iso(ref - timedelta(days=1))}"
        if m["wd"] or m["wd2"] or m["wd3"] or m["wd4"]:
            # "until Friday": the end of something still going on is ahead
            future_here = future or bool(m["wd4"])
            name = (m["wd"] or m["wd2"] or m["wd3"] or m["wd4"]).lower()
            weekday = WEEKDAYS.index(name)
            which = (m["which"] or "").lower()
            if (
                which.startswith("next")
                or which == "this coming"
                or (not which and future_here)
                or (which == "this" and future_here)
            ):
                day = _weekday_after(ref, weekday)
            else:
                day = _weekday_before(ref, weekday)
            # "on Monday" said on a Wednesday is a date; the weekday name would read as relative
            return f"on {iso(day)}"
        if m["ago_n"]:
            n = _count(m["ago_n"])
            unit = m["ago_unit"].lower().rstrip("s")
            if unit == "day":
                return f"on {iso(ref - timedelta(days=n))}"
            if unit == "week":
                return f"in the week of {iso(ref - timedelta(days=7 * n + ref.weekday()))}"
            if unit == "month":
                start = _shift_months(ref, -n)
                return f"in {MONTHS[start.month - 1].capitalize()} {start.year}"
            return f"in {ref.year - n}"
        unit = m["unit"].lower()
        step = {"last": -1, "next": 1, "this": 0}[m["lastunit"].lower()]
        if unit in ("week", "weekend"):
            monday = ref - timedelta(days=ref.weekday()) + timedelta(days=7 * step)
            if unit == "weekend":
                return f"on the weekend of {iso(monday + timedelta(days=5))}"
            return f"in the week of {iso(monday)}"
        if unit == "month":
            start = _shift_months(ref, step)
            return f"in {MONTHS[start.month - 1].capitalize()} {start.year}"
        return f"in {ref.year + step}"

    def at_start(m: re.Match[str]) -> str:
        out = replace(m)
        if keep_words:
            absolute = re.sub(r"^(?:on|in) (?:the )?(?:\w+day )?", "", out)
            return (
                f"{m.group(0)} ({absolute.strip('()')})"
                if absolute != out or "(" not in out
                else out
            )
        return out[0].upper() + out[1:] if m.start() == 0 else out

    # "since last Friday" -> "since 2026-02-27", not "since on 2026-02-27"
    return _AFTER_A_PREPOSITION.sub(r"\1 ", _RELATIVE.sub(at_start, text))


_AFTER_A_PREPOSITION = re.compile(
    r"\b(since|as of|until|till|through|from|before|after|by) (?:on|in) (?=(?:the week of )?\d{4}-)",
    re.IGNORECASE,
)
