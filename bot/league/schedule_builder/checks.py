"""The checks a list of games must pass: the clash checks every games import makes (a team or a venue
in two games at once), and the whole set a generated schedule keeps to (bot/league/schedule_builder/generator.py).

Pure: games in, problems out, each saying which teams, week or slot it is about.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

from bot.league.seasons import calendar_week


class GameLike(Protocol):
    @property
    def starts_at(self) -> datetime: ...
    @property
    def venue(self) -> str: ...
    @property
    def home(self) -> str: ...
    @property
    def away(self) -> str: ...


@dataclass(frozen=True)
class Clash:
    """Two bookings of one team or venue starting less than a game's length apart (``first`` starts first)."""

    key: Hashable
    first: str | int
    second: str | int


def venue_key(venue: str) -> str | None:
    """A venue as compared for clashes: any case and spacing; an empty venue is unknown, never a clash."""
    key = " ".join(venue.split()).casefold()
    return key or None


def clashes(bookings: Iterable[tuple[Hashable, datetime, str | int]], length: timedelta) -> list[Clash]:
    """Every pair of neighbouring bookings (key, start, ref) of one key that start less than ``length``
    apart: the shortest a game can last, so the clash is certain, never guessed."""
    by_key: dict[Hashable, list[tuple[datetime, str | int]]] = {}
    for key, start, ref in bookings:
        by_key.setdefault(key, []).append((start, ref))
    found = []
    for key, booked in by_key.items():
        booked.sort(key=lambda b: (b[0], str(b[1])))
        found += [Clash(key, a, b) for (start_a, a), (start_b, b) in itertools.pairwise(booked)
                  if start_b - start_a < length]
    return found


def week_start(moment: datetime, tz: ZoneInfo, first_day: date | None = None) -> date:
    """The first day of the week ``moment`` falls in, by the league's calendar: the season's week from its first
    day, else Monday (bot/league/seasons.py)."""
    local = moment.astimezone(tz).date()
    if first_day is not None:
        return first_day + timedelta(days=7 * calendar_week(moment, tz, first_day)[1])
    return local - timedelta(days=local.weekday())


def check_schedule(games: Sequence[GameLike], teams: Sequence[str], *, meetings: int, per_week: int,
                   tz: ZoneInfo, game_minutes: int, first_day: date | None = None,
                   citation: str = "") -> list[str]:
    """Everything wrong with ``games`` as a division's schedule: each pair of ``teams`` meets exactly
    ``meetings`` times; no team plays more than ``per_week`` games in a week or two at once; no venue holds
    two games at once; each team's home games are within one of its away games, and each pair's as even as
    the meetings allow; after every week, the games any two teams have played differ by at most one (rests
    spread evenly when the count is odd)."""
    problems: list[str] = []
    length = timedelta(minutes=game_minutes)
    known = {t.casefold(): t for t in teams}
    strange = sorted({name for g in games for name in (g.home, g.away) if name.casefold() not in known})
    if strange:
        problems.append(f"teams not in the division: {', '.join(strange)}")
    problems += [f"{g.home} plays itself at {_when(g.starts_at, tz)}" for g in games
                 if g.home.casefold() == g.away.casefold()]
    home_of = Counter((g.home.casefold(), g.away.casefold()) for g in games)
    for a, b in itertools.combinations(sorted(known), 2):
        met = home_of[a, b] + home_of[b, a]
        if met != meetings:
            problems.append(f"{known[a]} and {known[b]} meet {met} times, not {meetings}")
        elif abs(home_of[a, b] - home_of[b, a]) > 1:
            problems.append(f"{known[a]} is at home {home_of[a, b]} times against {known[b]}, who is at home "
                            f"{home_of[b, a]} times")
    home = Counter(g.home.casefold() for g in games)
    away = Counter(g.away.casefold() for g in games)
    problems += [f"{known[t]} has {home[t]} home games and {away[t]} away" for t in sorted(known)
                 if abs(home[t] - away[t]) > 1]
    weekly = Counter((week_start(g.starts_at, tz, first_day), name.casefold())
                     for g in games for name in (g.home, g.away))
    rule = f" ({citation})" if citation else ""
    problems += [f"{known.get(t, t)} plays {n} games in the week of {week}; at most {per_week}{rule}"
                 for (week, t), n in sorted(weekly.items()) if n > per_week]
    slots = Counter((g.starts_at, venue_key(g.venue)) for g in games if venue_key(g.venue))
    problems += [f"the slot {_when(start, tz)} at {venue} is used {n} times"
                 for (start, venue), n in sorted(slots.items(), key=str) if n > 1]
    indexed = list(enumerate(games))
    for clash in clashes(((name.casefold(), g.starts_at, i) for i, g in indexed for name in (g.home, g.away)),
                         length):
        one, other = games[int(clash.first)], games[int(clash.second)]
        problems.append(f"{known.get(str(clash.key), clash.key)} plays at {_when(one.starts_at, tz)} and at "
                        f"{_when(other.starts_at, tz)}, less than {game_minutes} minutes apart")
    for clash in clashes(((venue_key(g.venue), g.starts_at, i) for i, g in indexed if venue_key(g.venue)),
                         length):
        one, other = games[int(clash.first)], games[int(clash.second)]
        if one.starts_at != other.starts_at:  # the same start twice is a slot used twice, above
            problems.append(f"{one.venue} holds games at {_when(one.starts_at, tz)} and at "
                            f"{_when(other.starts_at, tz)}, "
                            f"less than {game_minutes} minutes apart")
    played = Counter[str]()
    for week in sorted({w for w, _ in weekly}):
        played.update({t: n for (w, t), n in weekly.items() if w == week})
        counts = [played[t] for t in known]
        if counts and max(counts) - min(counts) > 1:
            most, least = max(known, key=lambda t: played[t]), min(known, key=lambda t: played[t])
            problems.append(f"after the week of {week}, {known[most]} has played {played[most]} games and "
                            f"{known[least]} {played[least]}")
    return problems


def _when(moment: datetime, tz: ZoneInfo) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")
