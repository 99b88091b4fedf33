"""The iCalendar file itself (bot/services/calendar/feed.py): parsed back with ``icalendar``."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from bot.league.calendar import CalendarGame
from bot.league.rules import preset
from bot.services.calendar.feed import FeedLeague, build_feed

TORONTO = ZoneInfo("America/Toronto")
LEAGUE = FeedLeague("coed", "Coed League", TORONTO, preset("coed-ball-hockey"))
GAME_LENGTH = timedelta(minutes=55)


def local(*args: int, fold: int = 0) -> datetime:
    return datetime(*args, tzinfo=TORONTO, fold=fold).astimezone(UTC)


def game(game_id: int, starts: datetime, *, status: str = "scheduled", sequence: int = 0, venue: str = "Rink A",
         home: str = "Hawks", away: str = "Owls") -> CalendarGame:
    return CalendarGame(game_id, f"G{game_id}", home, away, starts, venue, "regular", status, sequence,
                        datetime(2026, 9, 1, tzinfo=UTC))


def events(body: bytes) -> dict[str, object]:
    cal = Calendar.from_ical(body)
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


def test_the_feed_parses_and_round_trips() -> None:
    body = build_feed(LEAGUE, "Hawks · Coed League", [game(1, local(2026, 10, 24, 19)),
                                                     game(2, local(2026, 10, 31, 19), home="Owls", away="Hawks")])
    cal = Calendar.from_ical(body)
    assert cal.to_ical() == body  # what we wrote is exactly what icalendar reads back
    assert str(cal["X-WR-CALNAME"]) == "Hawks · Coed League"
    found = events(body)
    assert set(found) == {"game-1@sideline-coed", "game-2@sideline-coed"}
    first = found["game-1@sideline-coed"]
    assert str(first["SUMMARY"]) == "Hawks vs Owls" and str(first["LOCATION"]) == "Rink A"
    assert str(found["game-2@sideline-coed"]["SUMMARY"]) == "Owls vs Hawks"
    assert str(first["STATUS"]) == "CONFIRMED" and first["SEQUENCE"] == 0
    assert first.decoded("DTEND") - first.decoded("DTSTART") == GAME_LENGTH


def test_the_same_games_give_the_same_bytes() -> None:
    """Nothing reads the clock: the feed server's ETag stays the same until a game changes."""
    games = [game(1, local(2026, 10, 24, 19))]
    assert build_feed(LEAGUE, "t", games) == build_feed(LEAGUE, "t", list(games))
    assert build_feed(LEAGUE, "t", games) != build_feed(LEAGUE, "t", [game(1, local(2026, 10, 24, 19), sequence=1)])


def test_events_are_in_the_leagues_time_zone_with_its_vtimezone() -> None:
    body = build_feed(LEAGUE, "t", [game(1, local(2026, 10, 24, 19))])
    cal = Calendar.from_ical(body)
    zones = [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")]
    assert zones == ["America/Toronto"]
    assert b"DTSTART;TZID=America/Toronto:20261024T190000" in body


def test_a_dst_week_in_toronto_keeps_each_games_local_time() -> None:
    """Clocks go back on 2026-11-01 at 02:00: 19:00 stays 19:00 on both sides, in UTC an hour apart."""
    before, after = local(2026, 10, 31, 19), local(2026, 11, 2, 19)
    assert (before.hour, after.hour) == (23, 0)  # 19:00 EDT = 23:00 UTC; 19:00 EST = 00:00 UTC
    body = build_feed(LEAGUE, "t", [game(1, before), game(2, after)])
    assert b"DTSTART;TZID=America/Toronto:20261031T190000" in body
    assert b"DTSTART;TZID=America/Toronto:20261102T190000" in body
    found = events(body)
    for uid, utc in (("game-1@sideline-coed", before), ("game-2@sideline-coed", after)):
        start = found[uid].decoded("DTSTART")
        assert start == utc and start.astimezone(UTC) == utc
        assert start.astimezone(TORONTO).hour == 19
    assert [o.total_seconds() / 3600 for o in (found["game-1@sideline-coed"].decoded("DTSTART").utcoffset(),
                                               found["game-2@sideline-coed"].decoded("DTSTART").utcoffset())] \
        == [-4, -5]


def test_a_game_in_the_repeated_hour_is_written_in_utc() -> None:
    """01:30 happens twice on 2026-11-01; a calendar would read a local 01:30 as the first (EDT)."""
    second = local(2026, 11, 1, 1, 30, fold=1)  # 01:30 EST = 06:30 UTC
    across = local(2026, 11, 1, 0, 50)  # 00:50 EDT; its 55 minutes end at 01:45 EDT, an ambiguous hour
    body = build_feed(LEAGUE, "t", [game(1, second), game(2, across)])
    found = events(body)
    assert found["game-1@sideline-coed"].decoded("DTSTART") == second == datetime(2026, 11, 1, 6, 30, tzinfo=UTC)
    assert b"DTSTART:20261101T063000Z" in body
    assert found["game-2@sideline-coed"].decoded("DTEND") == across + GAME_LENGTH
    assert b"DTSTART;TZID=America/Toronto:20261101T005000" in body


def test_a_cancelled_game_stays_in_the_feed_marked_cancelled() -> None:
    body = build_feed(LEAGUE, "t", [game(1, local(2026, 10, 24, 19), status="cancelled", sequence=1)])
    event = events(body)["game-1@sideline-coed"]
    assert str(event["STATUS"]) == "CANCELLED" and event["SEQUENCE"] == 1
    assert str(event["SUMMARY"]) == "Cancelled: Hawks vs Owls"


def test_an_empty_feed_is_still_a_calendar() -> None:
    cal = Calendar.from_ical(build_feed(LEAGUE, "My games · Coed League", []))
    assert cal.walk("VEVENT") == [] and str(cal["VERSION"]) == "2.0"


def whole(league: FeedLeague, title: str, games: list[CalendarGame]) -> bytes:
    """The calendar as the library writes it kept whole: every event added, then its VTIMEZONE."""
    from bot.services.calendar.feed import PRODID, REFRESH, game_event

    cal = Calendar()
    for name, value in (("prodid", PRODID), ("version", "2.0"), ("calscale", "GREGORIAN"), ("x-wr-calname", title),
                        ("x-wr-timezone", league.timezone.key)):
        cal.add(name, value)
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", REFRESH)
    for g in sorted(games, key=lambda g: (g.starts_at, g.id)):
        cal.add_component(game_event(league, g))
    if games:
        first = min(g.starts_at for g in games).astimezone(league.timezone).year
        last = max(g.starts_at for g in games).astimezone(league.timezone).year
        cal.add_missing_timezones(first_date=date(first - 1, 1, 1), last_date=date(last + 2, 1, 1))
    return bytes(cal.to_ical())


@pytest.mark.parametrize("zone", ["America/Toronto", "America/Regina", "UTC", "Australia/Lord_Howe"])
@pytest.mark.parametrize("starts", [
    [],
    [local(2026, 10, 24, 19)],
    [local(2026, 11, 1, 1, 30, fold=1), local(2026, 11, 1, 1, 30, fold=0)],  # in the repeated hour
    [local(2026, 11, 1, 0, 50), local(2026, 11, 1, 3)],  # one ends in the repeated hour
    [local(2026, 3, 8, 1, 30), local(2027, 12, 31, 23, 30), local(2029, 6, 1, 12)],  # years apart
])
def test_the_file_written_an_event_at_a_time_is_the_librarys_whole_calendar(zone: str,
                                                                           starts: list[datetime]) -> None:
    league = FeedLeague("coed", "Coed League", ZoneInfo(zone), preset("coed-ball-hockey"))
    games = [game(i, when) for i, when in enumerate(reversed(starts), start=1)]
    assert parts(build_feed(league, "Hawks · Coed League", games)) == parts(whole(league, "Hawks · Coed League", games))


def parts(ics: bytes) -> tuple[list[tuple[str, bytes]], list[bytes]]:
    """A calendar's own properties in order and its components as a multiset: RFC 5545 gives the order of
    a calendar's components no meaning (icalendar 6.1 adds the time zones after the events, 7 before)."""
    calendar = Calendar.from_ical(ics)
    return ([(k, v if isinstance(v, bytes) else v.to_ical()) for k, v in calendar.property_items(recursive=False)],
            sorted(c.to_ical() for c in calendar.subcomponents))
