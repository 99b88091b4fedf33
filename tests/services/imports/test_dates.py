"""Game times as spreadsheets write them; a slashed date is read only where it can mean one day."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.services.imports.dates import DAY_FIRST, MONTH_FIRST, file_order, read_local_time, weekday_of

TORONTO = ZoneInfo("America/Toronto")
DEC_3_7PM = datetime(2026, 12, 4, 0, 0, tzinfo=UTC)  # 19:00 in Toronto


@pytest.mark.parametrize("word", ["Thursday", "thursday", "Thursdays", "THURSDAYS", "Thu", "thu.", "Thurs"])
def test_a_weekday_is_read_as_people_write_it(word: str) -> None:
    assert weekday_of(word) == 3


@pytest.mark.parametrize("word", ["Th", "T", "Thorsday", "Sundaes"])
def test_a_word_that_is_no_weekday_or_could_be_two_is_not(word: str) -> None:
    assert weekday_of(word) is None


@pytest.mark.parametrize("cell", [
    "2026-12-03 19:00", "2026/12/03 19:00", "2026-12-03T19:00:00", "Thursday 2026-12-03 19:00",
    "12/3/2026 19:00", "Thursdays, 12/3/2026 7:00 PM",
    "Thu 12/3/2026 7 pm", "3/12/2026 19:00",
])
def test_the_usual_spreadsheet_forms_of_one_game_time(cell: str) -> None:
    # "12/3/2026" alone could be either; here the month-first order comes from the file (see below)
    order = MONTH_FIRST if "12/3/" in cell else DAY_FIRST
    assert read_local_time(cell, TORONTO, order) == DEC_3_7PM


def test_numbers_over_twelve_tell_the_order_without_help() -> None:
    assert read_local_time("12/13/2026 19:00", TORONTO) == datetime(2026, 12, 14, 0, 0, tzinfo=UTC)
    assert read_local_time("13/12/2026 7:30 pm", TORONTO) == datetime(2026, 12, 14, 0, 30, tzinfo=UTC)
    assert file_order(["12/13/2026 19:00", "12/3/2026 19:00", "2026-01-01 10:00"]) == MONTH_FIRST
    assert file_order(["12/13/2026 19:00", "13/12/2026 19:00"]) is None  # the file contradicts itself


def test_an_ambiguous_date_is_refused_saying_how_to_write_it() -> None:
    with pytest.raises(ValueError) as err:
        read_local_time("12/3/2026 19:00", TORONTO)
    assert str(err.value) == (
        "'12/3/2026 19:00' could be 3 December or 12 March, and the league has no date order set, so I read only "
        "dates that can mean one day: write it year first (2026-12-03 or 2026-03-12) or with its weekday")


def test_a_weekday_decides_an_ambiguous_date_only_when_one_reading_has_it() -> None:
    # 5 March 2026 is a Thursday, 3 May a Sunday
    assert read_local_time("Thu 3/5/2026 19:00", TORONTO) == datetime(2026, 3, 6, 0, 0, tzinfo=UTC)
    with pytest.raises(ValueError, match="could be 3 December or 12 March"):
        read_local_time("Thursday 12/3/2026 19:00", TORONTO)  # both Thursdays


def test_a_weekday_that_does_not_fit_the_date_is_refused() -> None:
    with pytest.raises(ValueError) as err:
        read_local_time("Fri 2026-12-03 19:00", TORONTO)
    assert str(err.value) == "'Fri 2026-12-03 19:00': 2026-12-03 is a Thursday, not a Friday"


@pytest.mark.parametrize(("cell", "why"), [
    ("soon", "is not a date and time like 2026-12-03 19:00"),
    ("2026-12-03", "is not a date and time like"),
    ("2026-02-30 19:00", "is not a date"),
    ("2026-12-03 13:00 pm", "13 is not an hour of a 12-hour clock"),
    ("Someday 2026-12-03 19:00", "'someday' is not a day of the week"),
    ("2030-03-10 02:30", "does not exist in America/Toronto"),
])
def test_what_is_not_a_game_time_says_why(cell: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        read_local_time(cell, TORONTO)
