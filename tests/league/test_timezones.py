"""Time zones as commissioners type them: abbreviations and cities lead to the places they mean."""

from __future__ import annotations

import zoneinfo

import pytest

from bot.league.setup.timezone_aliases import ALIASES, fold
from bot.league.setup.timezones import TimezoneError, parse_timezone, suggest_timezones, zone_names


@pytest.mark.parametrize(("typed", "first"), [
    ("EST", ["America/Toronto", "America/New_York"]),
    ("EDT", ["America/Toronto", "America/New_York"]),
    ("ET", ["America/Toronto", "America/New_York"]),
    ("est", ["America/Toronto", "America/New_York"]),
    ("CST", ["America/Winnipeg", "America/Chicago"]),
    ("CDT", ["America/Winnipeg", "America/Chicago"]),
    ("CT", ["America/Winnipeg", "America/Chicago"]),
    ("MST", ["America/Edmonton", "America/Denver", "America/Phoenix"]),
    ("MDT", ["America/Edmonton", "America/Denver", "America/Phoenix"]),
    ("MT", ["America/Edmonton", "America/Denver", "America/Phoenix"]),
    ("PST", ["America/Vancouver", "America/Los_Angeles"]),
    ("PDT", ["America/Vancouver", "America/Los_Angeles"]),
    ("PT", ["America/Vancouver", "America/Los_Angeles"]),
    ("AST", ["America/Halifax"]),
    ("ADT", ["America/Halifax"]),
    ("NST", ["America/St_Johns"]),
    ("NDT", ["America/St_Johns"]),
    ("Eastern", ["America/Toronto", "America/New_York"]),
])
def test_an_abbreviation_offers_its_places_first(typed: str, first: list[str]) -> None:
    assert suggest_timezones(typed)[:len(first)] == first


def test_est_no_longer_offers_creston_and_bucharest() -> None:
    offered = suggest_timezones("EST")
    assert offered == ["America/Toronto", "America/New_York"]
    assert "America/Creston" not in offered and "Europe/Bucharest" not in offered


@pytest.mark.parametrize(("typed", "zone"), [
    ("Toronto", "America/Toronto"), ("toronto", "America/Toronto"), ("Montreal", "America/Toronto"),
    ("Montréal", "America/Toronto"), ("Ottawa", "America/Toronto"), ("Quebec", "America/Toronto"),
    ("Québec City", "America/Toronto"), ("Calgary", "America/Edmonton"), ("Edmonton", "America/Edmonton"),
    ("Winnipeg", "America/Winnipeg"), ("Saskatoon", "America/Regina"), ("Vancouver", "America/Vancouver"),
    ("Halifax", "America/Halifax"), ("St. John's", "America/St_Johns"), ("New York", "America/New_York"),
    ("new york", "America/New_York"), ("Chicago", "America/Chicago"), ("Los Angeles", "America/Los_Angeles"),
])
def test_a_city_ranks_its_zone_first(typed: str, zone: str) -> None:
    assert suggest_timezones(typed)[0] == zone


def test_a_city_being_typed_already_leads_to_its_zone() -> None:
    assert suggest_timezones("mont")[0] == "America/Toronto"  # Montreal, before Montevideo and Monterrey
    assert "America/Montevideo" in suggest_timezones("mont")
    assert suggest_timezones("calg")[0] == "America/Edmonton"


def test_zone_names_still_match_as_before() -> None:
    assert suggest_timezones("toron") == ["America/Toronto"]
    assert suggest_timezones("Europe/Lon") == ["Europe/London"]
    assert suggest_timezones("")[:2] == ["America/Toronto", "America/New_York"]
    assert suggest_timezones("London")[0] == "Europe/London"  # no Canadian city takes it over


def test_every_place_an_alias_names_is_a_zone_a_league_can_pick() -> None:
    names = set(zone_names())
    assert all(zone in names for _, zones in ALIASES.values() for zone in zones)
    assert all(zone in zoneinfo.available_timezones() for _, zones in ALIASES.values() for zone in zones)


def test_fold_reads_punctuation_and_accents_as_typed() -> None:
    assert fold("St. John's") == fold("st johns") == "stjohns"
    assert fold("Québec") == "quebec"


@pytest.mark.parametrize(("typed", "message"), [
    ("EST", "'EST' is an abbreviation, which ignores daylight saving; pick the place instead: "
            "America/Toronto or America/New_York."),
    ("PST", "'PST' is an abbreviation, which ignores daylight saving; pick the place instead: "
            "America/Vancouver or America/Los_Angeles."),
    ("NST", "'NST' is an abbreviation, which ignores daylight saving; pick the place instead: America/St_Johns."),
    ("Eastern", "'Eastern' is a region; pick the place instead: America/Toronto or America/New_York."),
    ("Toronto", "Use the full name America/Toronto (Region/City), not 'Toronto'."),
    ("Montreal", "Montreal keeps the time of America/Toronto: pick America/Toronto."),
    ("UTC-5", "'UTC-5' is an abbreviation or a fixed offset, which ignores daylight saving; "
              "pick a place name such as America/Toronto."),
])
def test_an_abbreviation_or_city_as_the_value_is_refused_with_the_place_to_pick(typed: str, message: str) -> None:
    with pytest.raises(TimezoneError) as refused:
        parse_timezone(typed)
    assert str(refused.value) == message


def test_a_place_is_accepted_as_typed() -> None:
    assert parse_timezone("america/toronto") == "America/Toronto"
    assert parse_timezone(" America/St_Johns ") == "America/St_Johns"
