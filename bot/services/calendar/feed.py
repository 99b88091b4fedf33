"""A league's games as an iCalendar file (RFC 5545), written with the ``icalendar`` library.

Pure: games and the league's settings in, bytes out, nothing read or written elsewhere, so the
file the bot attaches, the feed server answers and ``sideline calendar export`` prints are the same
bytes for the same games (the feed's validator relies on it: nothing here reads the clock). It is
seconds of work for a league of 20,000 games, so it runs in a thread (bot/services/calendar/files.py).

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
#: Part of every feed's validator (bot/services/calendar/service.py): raise it when this file writes a
#: game differently, so that subscribed calendars take the new file rather than hear "not modified".
FORMAT = 1
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
    """The calendar: one event per game, in the league's time zone, with its VTIMEZONE.

    Each event is written as soon as it is made and let go, rather than the whole calendar kept as
    objects and written at the end: a league of 20,000 games would hold 180 MB of them, and the
    collector's full passes over them, each holding the interpreter, froze the event loop for up to
    2 s at a time. The bytes are the library's own for the whole calendar: its header, then the
    events, then its end; the VTIMEZONE comes from the library too, shown one event of each way
    the events write their times (local, or UTC in the repeated hour)."""
    from icalendar import Calendar

    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", title)
    cal.add("x-wr-timezone", league.timezone.key)
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", REFRESH)
    events: list[bytes] = []
    shown: dict[tuple[bool, bool], Event] = {}
    for game in sorted(games, key=lambda g: (g.starts_at, g.id)):
        event = game_event(league, game)
        shown.setdefault((event.decoded("dtstart").tzinfo is UTC, event.decoded("dtend").tzinfo is UTC), event)
        events.append(event.to_ical())
    if games:
        # Only the years the games span: the VTIMEZONE's rules stay short and cover every game.
        first = min(g.starts_at for g in games).astimezone(league.timezone).year
        last = max(g.starts_at for g in games).astimezone(league.timezone).year
        for event in shown.values():
            cal.add_component(event)
        cal.add_missing_timezones(first_date=date(first - 1, 1, 1), last_date=date(last + 2, 1, 1))
        for event in shown.values():
            cal.subcomponents.remove(event)
    head, end = bytes(cal.to_ical()).rsplit(b"END:VCALENDAR", 1)
    return b"".join([head, *events, b"END:VCALENDAR", end])


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
