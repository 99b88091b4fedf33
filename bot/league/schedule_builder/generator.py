"""A division's schedule from the league's booked slots: every pair of teams meets exactly N times.

The method, and so what it needs (the refusal states it in these words):

* The circle method splits each round robin into rounds in which every team plays once (one team rests
  each round when the count is odd, each team once per round robin, so rests are spread evenly). N round
  robins make ``N × (teams - 1)`` rounds (``N × teams`` when odd) of ``teams // 2`` games each.
* Each round is played within one week of the league's calendar (Monday to Sunday in the league's time
  zone, or the season's weeks), on as many slots as it has games, so no team plays twice in it; a week
  holds at most the preset's games per team per week rounds (youth 1.8: one), and a round starts only once
  every game of the round before it has begun at least a game's length earlier (no team in two places).
* Rounds take the earliest slots that can hold them, in order. Taking the earliest is never worse than any
  other choice, so when the slots can't hold the rounds this way, no choice of them can.

Home and away: in the first round robin each team is at home within one of its away games (a fixed
orientation of every pairing); the next round robin swaps every pairing's home side, and so on, so each
pair's home games are as even as N allows and each team's stay within one. Deterministic: the same teams,
slots and settings give the same schedule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.league.schedule_builder.checks import venue_key, week_start

#: At most this many games in one generated schedule (a 40-team division meeting 5 times is 3,900).
MAX_GAMES = 5_000


class ScheduleRefused(ValueError):
    """The schedule can't be made from these teams and slots; the message says exactly why."""


@dataclass(frozen=True)
class Slot:
    """A booked time at a venue (UTC), for one division or for any (``division`` None); ``line`` in its file."""

    starts_at: datetime
    venue: str
    division: str | None = None
    line: int = 0


@dataclass(frozen=True)
class PlannedGame:
    code: str
    starts_at: datetime
    venue: str
    home: str
    away: str
    week: date  # the first day of its week, league-local
    round: int  # 1 for the first round


def rounds(teams: Sequence[str], meetings: int) -> list[list[tuple[str, str]]]:
    """Every round of ``meetings`` round robins of ``teams``, each game as (home, away)."""
    n = len(teams)
    seats: list[int | None] = [*range(n), *([None] if n % 2 else [])]
    m = len(seats)
    one_robin: list[list[tuple[int, int]]] = []
    for r in range(m - 1):
        rest = seats[1:]
        turned = [seats[0], *rest[r:], *rest[:r]] if r else list(seats)
        pairs = [(turned[i], turned[m - 1 - i]) for i in range(m // 2)]
        one_robin.append([_oriented(a, b, n) for a, b in pairs if a is not None and b is not None])
    out = []
    for robin in range(meetings):
        for games in one_robin:
            out.append([(teams[h], teams[a]) if robin % 2 == 0 else (teams[a], teams[h]) for h, a in games])
    return out


def _oriented(a: int, b: int, n: int) -> tuple[int, int]:
    """Who is at home in a pairing's first meeting: with an odd count ``n``, a team is at home against the
    next (n-1)/2 teams round the circle, so every team has as many home games as away; with an even count,
    the last team is at home against the even-numbered ones, so every team is within one."""
    i, j = min(a, b), max(a, b)
    odd = n if n % 2 else n - 1
    if n % 2 == 0 and j == n - 1:
        return (j, i) if i % 2 == 0 else (i, j)
    return (i, j) if 1 <= (j - i) % odd <= (odd - 1) // 2 else (j, i)


def generate(teams: Sequence[str], slots: Sequence[Slot], *, meetings: int, per_week: int, tz: ZoneInfo,
             game_minutes: int, division: str | None = None, first_day: date | None = None,
             citation: str = "", code_prefix: str = "G") -> list[PlannedGame]:
    """The schedule, or ScheduleRefused naming what is missing (the module's docstring says what it needs)."""
    if len(teams) < 2:
        raise ScheduleRefused(f"a schedule needs at least 2 teams{_in(division)}; found {len(teams)}")
    twice = sorted({t for t in teams if sum(o.casefold() == t.casefold() for o in teams) > 1})
    if twice:
        raise ScheduleRefused(f"two teams have the same name: {', '.join(twice)}")
    if meetings < 1 or per_week < 1:
        raise ScheduleRefused("the meetings and the games per team per week must be at least 1")
    g = len(teams) // 2
    all_rounds = rounds(sorted(teams, key=str.casefold), meetings)
    if len(all_rounds) * g > MAX_GAMES:
        raise ScheduleRefused(f"that is {len(all_rounds) * g} games; a schedule holds at most {MAX_GAMES}")
    usable = sorted((s for s in slots if division is None or s.division is None
                     or s.division.casefold() == division.casefold()), key=lambda s: (s.starts_at, s.venue, s.line))
    length = timedelta(minutes=game_minutes)
    _check_slots(usable, length, tz)
    blocks = _blocks(usable, g, per_week, length, tz, first_day, len(all_rounds))
    if len(blocks) < len(all_rounds):
        raise ScheduleRefused(_missing(usable, len(all_rounds), g, per_week, len(blocks), tz, first_day,
                                       citation, division, len(teams) % 2 == 1))
    games: list[tuple[Slot, str, str, int]] = []
    for number, (played, block) in enumerate(zip(all_rounds, blocks, strict=False)):
        turn = number % len(played)
        for slot, (home, away) in zip(block, played[turn:] + played[:turn], strict=True):
            games.append((slot, home, away, number + 1))
    games.sort(key=lambda x: (x[0].starts_at, x[0].venue))
    width = max(2, len(str(len(games))))
    return [PlannedGame(f"{code_prefix}{i:0{width}d}", slot.starts_at, slot.venue, home, away,
                        week_start(slot.starts_at, tz, first_day), number)
            for i, (slot, home, away, number) in enumerate(games, start=1)]


def _check_slots(slots: Sequence[Slot], length: timedelta, tz: ZoneInfo) -> None:
    """A slot listed twice, or two slots of one venue closer than a game lasts, is a mistake in the list."""
    last: dict[str, Slot] = {}
    for slot in slots:
        key = venue_key(slot.venue)
        if key is None:
            raise ScheduleRefused(f"{_line(slot)}the slot at {_when(slot.starts_at, tz)} has no venue")
        before = last.get(key)
        if before is not None and slot.starts_at - before.starts_at < length:
            same = "is the same slot as" if slot.starts_at == before.starts_at else "overlaps"
            raise ScheduleRefused(f"{_line(slot)}{before.venue} at {_when(slot.starts_at, tz)} {same} "
                                  f"{_line(before, 'the one on ')}{_when(before.starts_at, tz)} (a game lasts at "
                                  f"least {length.seconds // 60} minutes)")
        last[key] = slot


def _blocks(slots: Sequence[Slot], g: int, per_week: int, length: timedelta, tz: ZoneInfo,
            first_day: date | None, wanted: int) -> list[list[Slot]]:
    """The earliest rounds' worth of slots: ``g`` slots of one week each, at most ``per_week`` a week, each
    starting at least a game's length after every start of the one before."""
    blocks: list[list[Slot]] = []
    free_from: datetime | None = None
    in_week: dict[date, int] = {}
    i = 0
    while i < len(slots) and len(blocks) < wanted:
        week = week_start(slots[i].starts_at, tz, first_day)
        if in_week.get(week, 0) >= per_week or (free_from is not None and slots[i].starts_at < free_from):
            i += 1
            continue
        block = [s for s in slots[i:i + g] if week_start(s.starts_at, tz, first_day) == week]
        if len(block) < g:
            i += 1
            continue
        blocks.append(block)
        in_week[week] = in_week.get(week, 0) + 1
        free_from = block[-1].starts_at + length
        i += g
    return blocks


def _missing(slots: Sequence[Slot], wanted: int, g: int, per_week: int, held: int, tz: ZoneInfo,
             first_day: date | None, citation: str, division: str | None, odd: bool) -> str:
    weeks: dict[date, int] = {}
    for s in slots:
        week = week_start(s.starts_at, tz, first_day)
        weeks[week] = weeks.get(week, 0) + 1
    need_weeks = math.ceil(wanted / per_week)
    rule = f", {citation}" if citation else ""
    rest = ", one team resting" if odd else ""
    short = [f"{week:%Y-%m-%d} ({n})" for week, n in sorted(weeks.items()) if n < g]
    shown = (f" Weeks with fewer than {g} slots, by their first day: {', '.join(short[:6])}"
             + (f" and {len(short) - 6} more" if len(short) > 6 else "") + ".") if short else ""
    return (f"needs {wanted * g} slots in {need_weeks} distinct weeks{_in(division)}; got {len(slots)} "
            f"slot{'s' if len(slots) != 1 else ''} in {len(weeks)} week{'s' if len(weeks) != 1 else ''}, room for "
            f"{held} of the {wanted} rounds. Each round is {g} game{'s' if g != 1 else ''}, one for every team{rest}, "
            f"played within one week; a week holds at most {per_week} round{'s' if per_week != 1 else ''} (games "
            f"per team per week{rule}), and a round starts once the one before has been under way a game's length."
            + shown)


def _in(division: str | None) -> str:
    return f" in the {division} division" if division else ""


def _line(slot: Slot, prefix: str = "") -> str:
    if not slot.line:
        return ""
    return f"{prefix}line {slot.line}: " if not prefix else f"{prefix}line {slot.line}, "


def _when(moment: datetime, tz: ZoneInfo) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")
