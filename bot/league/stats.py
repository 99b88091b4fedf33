"""Player statistics as the youth rulebook keeps them: games played, goals, assists, points, penalty
minutes, shoot-out goals apart, goalies' goals against and shutouts; leaders with ties shown as ties;
games played and missed.

Youth 2.16: "Game sheets are to be handed over to the league statistician who will update statistics and
sub sequentially post them the following week." Youth 2.14: a shoot-out goal "is not counted in the
individual 'Goal Scored' statistic ... but will be recorded as a separate statistic". Youth 2.4: a
forfeit's "individual stats [are] not counted".

Choices the rulebooks leave open, decided here:
- What counts: games with a played result (regulation, overtime or shootout; never a forfeit), their game
  sheets (games played), their goals neither disallowed nor taken back (goals, assists; goals against for
  the goalie scored upon) and their penalties (penalty minutes, a player's own: a team's bench minors are
  nobody's). Shoot-out attempts and goals count apart, from the shoot-out's record.
- A shutout is a game a goalie played as their team's only goalie on its sheet and the other team scored
  nothing (the result's score, which holds no shoot-out goals).
- Leaders: the top ``TOP`` by one category, ranked 1, 2, 2, 4 (players level share a rank, shown "T2"),
  everyone level with the last place included, at most ``SHOWN`` lines and a count of the others level
  beyond them; a player with nothing in the category isn't a leader. Level players are listed by name.
- Attendance: a player's team's counted games since they joined it, played (on that game's sheet) or
  missed; missed games where the team had no spare are what the replacement rules (youth 1.16) count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Literal, get_args
from zoneinfo import ZoneInfo

Category = Literal["points", "goals", "assists", "pim", "gp"]
CATEGORIES: tuple[Category, ...] = get_args(Category)
CATEGORY_WORDS: dict[str, str] = {"points": "Points", "goals": "Goals", "assists": "Assists",
                                  "pim": "Penalty minutes", "gp": "Games played"}
TOP = 10
SHOWN = 20


@dataclass(frozen=True)
class PlayerStats:
    """One player's numbers over a stretch of games."""

    gp: int = 0
    goals: int = 0
    assists: int = 0
    pim: int = 0
    so_goals: int = 0
    so_attempts: int = 0
    goalie_gp: int = 0
    goals_against: int = 0
    shutouts: int = 0

    @property
    def points(self) -> int:
        return self.goals + self.assists

    def value(self, category: Category) -> int:
        return {"points": self.points, "goals": self.goals, "assists": self.assists, "pim": self.pim,
                "gp": self.gp}[category]


@dataclass(frozen=True)
class Tally:
    """A player's value in one category (what the leaders are ranked on)."""

    player_id: int
    name: str
    value: int


@dataclass(frozen=True)
class Ranked:
    rank: int
    tied: bool
    tally: Tally

    @property
    def place(self) -> str:
        """"1", "T2"."""
        return f"T{self.rank}" if self.tied else str(self.rank)


@dataclass(frozen=True)
class Board:
    """A category's leaders: the lines shown, and how many more players are level with the last of them."""

    category: Category
    rows: tuple[Ranked, ...]
    more_level: int = 0


def rank(category: Category, tallies: Sequence[Tally], *, top: int = TOP, shown: int = SHOWN) -> Board:
    """The leaders among ``tallies``: competition ranking (1, 2, 2, 4), ties as ties, down to ``top`` and
    everyone level with it, at most ``shown`` lines."""
    ordered = sorted((t for t in tallies if t.value > 0), key=lambda t: (-t.value, t.name.casefold(), t.player_id))
    counts: dict[int, int] = {}
    for t in ordered:
        counts[t.value] = counts.get(t.value, 0) + 1
    rows: list[Ranked] = []
    place = 1
    for i, t in enumerate(ordered):
        if i and t.value != ordered[i - 1].value:
            place = i + 1
        if place > top:
            break
        rows.append(Ranked(place, counts[t.value] > 1, t))
    return Board(category, tuple(rows[:shown]), max(0, len(rows) - shown))


@dataclass(frozen=True)
class Attendance:
    """A player's team's counted games: played, missed, and missed with no spare in their place."""

    played: int
    missed: int
    missed_without_spare: int

    @property
    def games(self) -> int:
        return self.played + self.missed


def attendance(games: Sequence[tuple[bool, bool]]) -> Attendance:
    """From (on the sheet, the team had a spare) for each of the team's counted games."""
    played = sum(1 for on_sheet, _ in games if on_sheet)
    missed = [spare for on_sheet, spare in games if not on_sheet]
    return Attendance(played, len(missed), sum(1 for spare in missed if not spare))


#: The weekly statistics post goes out at this time of day, league time (youth 2.16: "the following week").
POST_AT = time(9, 0)


def next_post(weekday: int, tz: ZoneInfo, after: datetime) -> datetime:
    """The first ``weekday`` (0 = Monday) at ``POST_AT`` in the league's time zone strictly after ``after``,
    in UTC: a calendar day, so a daylight-saving change never moves it off 9:00."""
    local = after.astimezone(tz)
    day = local.date() + timedelta(days=(weekday - local.weekday()) % 7)
    due = datetime.combine(day, POST_AT, tzinfo=tz)
    if due <= local:
        due = datetime.combine(day + timedelta(days=7), POST_AT, tzinfo=tz)
    return due.astimezone(UTC)
