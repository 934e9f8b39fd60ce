"""Relative dates resolved against the day they were said."""

from __future__ import annotations

from datetime import date

import pytest

from wikimem.dream.dates import annotate, parse_day, resolve

TUESDAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    "said,written",
    [
        ("it broke yesterday", "it broke on 2026-11-30"),
        ("moved on Monday", "moved on 2026-11-30"),
        ("moved last Tuesday", "moved on 2026-11-24"),  # never the day itself
        ("we will deploy on Friday", "we will deploy on 2026-12-04"),
        ("it broke two days ago", "it broke on 2026-11-29"),
        ("we switched last week", "we switched in the week of 2026-11-23"),
        ("we migrate next month", "we migrate in January 2027"),
        ("Yesterday we moved", "On 2026-11-30 we moved"),
        ("nothing relative here, recently", "nothing relative here, recently"),
    ],
)
def test_resolve(said: str, written: str) -> None:
    assert resolve(said, TUESDAY) == written


def test_annotate_keeps_the_words() -> None:
    assert annotate("I went yesterday", TUESDAY) == "I went yesterday (2026-11-30)"
    assert resolve("yesterday", None) == "yesterday"


def test_parse_day() -> None:
    assert parse_day("1:56 pm on 8 May, 2023") == date(2023, 5, 8)
    assert parse_day("May 8, 2023") == date(2023, 5, 8)
    assert parse_day("2026-11-30T10:00:00Z") == date(2026, 11, 30)
    assert parse_day("no date") is None


def test_since_a_weekday_is_a_date_and_reads_without_on() -> None:
    said = date(2026, 3, 5)  # a Thursday
    assert resolve("since Tuesday all traffic goes through lb-2", said) == (
        "since 2026-03-03 all traffic goes through lb-2"
    )
    assert resolve("As of last Friday the cron runs hourly", said) == (
        "As of 2026-02-27 the cron runs hourly"
    )
