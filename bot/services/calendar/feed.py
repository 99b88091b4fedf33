"""A league's games as an iCalendar file (RFC 5545), written with the ``icalendar`` library.

Pure: games and the league's settings in, bytes out, nothing read or written elsewhere, so the
file the bot attaches, the feed server answers and ``sideline calendar export`` prints are the same
bytes for the same games (the feed server's ETag relies on it: nothing here reads the clock).

Why here and not in bot/league: the rules layer depends on nothing but the standard library;
iCalendar is an output format (like the CSV exports), so the library stays in the layer that shapes
results. What the calendar says of a game (length, UID, title, a player's games) is decided in
bot/league/calendar.py. The library loads with the first feed built: 3 MB that an idle bot
(bench/idle.py) needn't hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from bot.league.calendar import CalendarGame, event_uid, game_length
from bot.league.rules import Rules

if TYPE_CHECKING:
    from icalendar import Event

PRODID = "-//Sideline//Sideline league calendar//EN"
#: DTSTAMP of a game stored before games kept a revision time: fixed, so the file stays the same.
NEVER_REVISED = datetime(2026, 1, 1, tzinfo=UTC)
#: How often subscribed calendars should fetch again (most clients decide for themselves).
REFRESH = timedelta(hours=1)


@dataclass(frozen=True)
class FeedLeague:
    """What the file needs of the league."""

    key: str
    name: str
    timezone: ZoneInfo
    rules: Rules


def build_feed(league: FeedLeague, title: str, games: Sequence[CalendarGame]) -> bytes:
    """The calendar: one event per game, in the league's time zone, with its VTIMEZONE."""
    from icalendar import Calendar

    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", title)
    cal.add("x-wr-timezone", league.timezone.key)
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", REFRESH)
    for game in sorted(games, key=lambda g: (g.starts_at, g.id)):
        cal.add_component(game_event(league, game))
    if games:
        # Only the years the games span: the VTIMEZONE's rules stay short and cover every game.
        first = min(g.starts_at for g in games).astimezone(league.timezone).year
        last = max(g.starts_at for g in games).astimezone(league.timezone).year
        cal.add_missing_timezones(first_date=date(first - 1, 1, 1), last_date=date(last + 2, 1, 1))
    return bytes(cal.to_ical())


def unambiguous(when: datetime) -> datetime:
    """Local time, unless the clocks show it twice (the autumn's repeated hour): a calendar reads a
    repeated local time as the first of the two (RFC 5545 3.3.5), so those are written in UTC."""
    other = when.replace(fold=1 - when.fold)
    return when.astimezone(UTC) if other.utcoffset() != when.utcoffset() else when


def game_event(league: FeedLeague, game: CalendarGame) -> Event:
    tz = league.timezone
    starts = game.starts_at.astimezone(tz)
    # Real time: a game that spans the clock change still lasts its length.
    ends = (game.starts_at + game_length(league.rules.game_format, game.kind)).astimezone(tz)
    from icalendar import Event

    event = Event()
    event.add("uid", event_uid(game.id, league.key))
    event.add("dtstamp", (game.revised_at or NEVER_REVISED).astimezone(UTC))
    event.add("dtstart", unambiguous(starts))
    event.add("dtend", unambiguous(ends))
    event.add("sequence", game.sequence)
    event.add("summary", game.summary())
    if game.venue:
        event.add("location", game.venue)
    kind = "" if game.kind == "regular" else f" ({game.kind})"
    event.add("description", f"{league.name}: game {game.code}{kind}, {game.home} vs {game.away}.")
    event.add("status", "CANCELLED" if game.cancelled else "CONFIRMED")
    event.add("transp", "TRANSPARENT" if game.cancelled else "OPAQUE")
    return event
