"""Arena duties: setting the arena up (youth 2.1: "It is the responsibility of Coaches/Captains of both
teams to assist in the setup of the arena") and clearing it after the week's last game (youth 2.15), and the
bench minor for a team that "does not participate ... when they are scheduled" (youth 2.15, 3.7 (6)).

Choices the rulebook leaves open, decided here:
- Who is on duty for a game (the rota) comes from the schedule by the league's rule, unless a commissioner
  said otherwise for that game and team (``duty_rota``). Setup: the arena is set up once a day, before the
  day's first game, so the teams of the day's first game (or games, when several start together) are on
  duty (``setup_duty_first_game_each_day``). Cleanup: the teams of the week's last game
  (``cleanup_duty_last_game_each_week``; weeks as bot/league/seasons.py counts them).
- Only a team on the game's rota can be recorded; a missed cleanup once that game has started, a missed
  setup from the game's day on. The league must give a bench minor for it
  (``cleanup_missed_bench_minor_minutes``, ``setup_missed_bench_minor_minutes``; youth: 2).
- Where the bench minor is served: after a missed cleanup, at "the beginning of their next game" (2.15),
  the team's first game, of any kind, that starts after the one not cleaned up and isn't cancelled; after
  a missed setup, at the start of the game it was for (a bench minor of 3.7 is served in the game it is
  called in). Worked out whenever it is shown, never stored: a game moved, cancelled or added in between
  moves the bench minor with the schedule, and a team with no later game yet carries it to the next one.
- The bench minor is the team's, served by nobody in particular: like other bench minors it counts
  toward no player's game-misconduct or write-up count (youth 3.11 (3)).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal
from zoneinfo import ZoneInfo

from bot.league.discipline.infractions import DisciplineError
from bot.league.seasons import later_in_week

Duty = Literal["setup", "cleanup"]
DUTIES: tuple[Duty, ...] = ("setup", "cleanup")

DUTY_SETTING = "cleanup_duty_last_game_each_week"
MINUTES_SETTING = "cleanup_missed_bench_minor_minutes"
SETUP_DUTY_SETTING = "setup_duty_first_game_each_day"
SETUP_MINUTES_SETTING = "setup_missed_bench_minor_minutes"
#: The setting of each duty's rule, and of its bench minor.
RULE_SETTINGS: Mapping[Duty, str] = {"setup": SETUP_DUTY_SETTING, "cleanup": DUTY_SETTING}
MINUTE_SETTINGS: Mapping[Duty, str] = {"setup": SETUP_MINUTES_SETTING, "cleanup": MINUTES_SETTING}
#: How a duty reads: "help set up the arena before G1", "clear the arena after G2".
DOING: Mapping[Duty, str] = {"setup": "help set up the arena before", "cleanup": "clear the arena after"}
MISSED: Mapping[Duty, str] = {"setup": "did not help set up before", "cleanup": "did not clean up after"}
TITLES: Mapping[Duty, str] = {"setup": "Set up", "cleanup": "Clean up"}


@dataclass(frozen=True)
class TeamGame:
    """One of a team's games, as far as "their next game" needs it."""

    id: int
    starts_at: datetime
    cancelled: bool = False


@dataclass(frozen=True)
class RotaGame:
    """A game of the league as the rota reads it (cancelled games are left out by whoever lists them)."""

    id: int
    starts_at: datetime
    team_ids: tuple[int, int]


@dataclass(frozen=True)
class DutyWord:
    """A commissioner's word on one team's duty for one game: on duty, or off it."""

    team_id: int
    duty: Duty
    on_duty: bool


@dataclass(frozen=True)
class DutyRota:
    """Who is on duty for one game: team ids (home first) per duty, which of them a commissioner put there, and
    which teams a commissioner took off a duty the rule gave them."""

    setup: tuple[int, ...] = ()
    cleanup: tuple[int, ...] = ()
    by_commissioner: frozenset[tuple[Duty, int]] = frozenset()
    taken_off: frozenset[tuple[Duty, int]] = frozenset()

    def teams(self, duty: Duty) -> tuple[int, ...]:
        return self.setup if duty == "setup" else self.cleanup

    def duties_of(self, team_id: int) -> tuple[Duty, ...]:
        return tuple(d for d in DUTIES if team_id in self.teams(d))

    def __bool__(self) -> bool:
        return bool(self.setup or self.cleanup)


def first_of_day(game: RotaGame, others: Iterable[RotaGame], tz: ZoneInfo) -> bool:
    """No game of the league starts earlier on the game's (local) day: its teams set the arena up."""
    day = game.starts_at.astimezone(tz).date()
    return not any(o.id != game.id and o.starts_at < game.starts_at and o.starts_at.astimezone(tz).date() == day
                   for o in others)


def last_of_week(game: RotaGame, others: Iterable[RotaGame], tz: ZoneInfo, first_day: date | None) -> bool:
    """No game of the league starts later in the game's week: its teams clear the arena (youth 2.15)."""
    return later_in_week(game.starts_at, ((o, o.starts_at) for o in others if o.id != game.id), tz,
                         first_day) is None


def duty_rota(game: RotaGame, others: Iterable[RotaGame], tz: ZoneInfo, first_day: date | None, *,
              setup_first_game_each_day: bool, cleanup_last_game_each_week: bool,
              words: Iterable[DutyWord] = ()) -> DutyRota:
    """The game's rota: the league's rules over the schedule (``others``: the league's games around it),
    then each commissioner's word for this game, which wins for its team and duty."""
    around = list(others)
    derived: dict[Duty, bool] = {
        "setup": setup_first_game_each_day and first_of_day(game, around, tz),
        "cleanup": cleanup_last_game_each_week and last_of_week(game, around, tz, first_day),
    }
    said = {(w.duty, w.team_id): w.on_duty for w in words if w.team_id in game.team_ids}
    on: dict[Duty, tuple[int, ...]] = {
        duty: tuple(t for t in game.team_ids if said.get((duty, t), derived[duty])) for duty in DUTIES}
    return DutyRota(on["setup"], on["cleanup"], frozenset(k for k, v in said.items() if v),
                    frozenset(k for k, v in said.items() if not v))


def cited(citation: str, setting: str) -> str:
    """The rulebook section, or the setting a league turned on by itself (no rulebook says it)."""
    return citation or f"league setting {setting}"


def bench_minor_minutes(duty: Duty, minutes: int | None) -> int:
    """The minutes of the bench minor for missing the duty, or a DisciplineError when the league gives none."""
    if minutes is None:
        what = "setting up the arena" if duty == "setup" else "cleanup duty"
        raise DisciplineError(f"This league gives no bench minor for missing {what}: the setting "
                              f"{MINUTE_SETTINGS[duty]} is not set (a commissioner can set it with /setup rule).")
    return minutes


def check_scheduled_to_clean_up(*, team: str, game: str, later_game: str | None, citation: str) -> None:
    """Only the teams of the week's last game clear the arena: ``later_game`` is a game later in the same
    week as ``game`` (None when ``game`` is the week's last)."""
    if later_game is not None:
        raise DisciplineError(
            f"{game} isn't the last game of its week ({later_game} follows it), so {team} weren't scheduled to "
            "clear the arena after it: that falls to the teams of the week's last game.",
            citation=cited(citation, DUTY_SETTING))


def check_on_duty(rota: DutyRota, duty: Duty, *, team_id: int, team: str, game: str, rule_on: bool,
                  citation: str) -> None:
    """Refuse a team the game's rota doesn't put on this duty (the cleanup rule's own refusal, which names
    the game that follows, is ``check_scheduled_to_clean_up``)."""
    if team_id in rota.teams(duty):
        return
    if (duty, team_id) in rota.taken_off:
        raise DisciplineError(f"A commissioner took {team} off duty to {DOING[duty]} {game}, so there was nothing "
                              "for them to miss.")
    if rule_on and duty == "setup":
        raise DisciplineError(f"{game} isn't the first game of its day, so {team} weren't scheduled to help set "
                              "the arena up before it: that falls to the teams of the day's first game.",
                              citation=cited(citation, SETUP_DUTY_SETTING))
    raise DisciplineError(f"{team} weren't on duty to {DOING[duty]} {game}: nobody put them on it (a "
                          "commissioner can, with /game duty).", citation=cited(citation, RULE_SETTINGS[duty]))


def check_duty_can_be_missed(duty: Duty, *, now: datetime, starts_at: datetime, tz: ZoneInfo) -> str | None:
    """Why it is too early to record the duty missed (None: it isn't): a cleanup once the game has started,
    a setup from the game's own day."""
    if duty == "cleanup":
        return None if now >= starts_at else "Cleanup is recorded after the game."
    return None if now.astimezone(tz).date() >= starts_at.astimezone(tz).date() else \
        "A missed setup is recorded on the game's day."


def next_game(missed: TeamGame, team_games: Iterable[TeamGame]) -> TeamGame | None:
    """The team's first game after the one it didn't clean up after: where the bench minor is served.

    None while no such game is scheduled (the bench minor waits for it).
    """
    later = [g for g in team_games if not g.cancelled and g.id != missed.id and g.starts_at > missed.starts_at]
    return min(later, key=lambda g: (g.starts_at, g.id), default=None)


def bench_minor_text(minutes: int, missed_game: str, citation: str, duty: Duty = "cleanup") -> str:
    """How the lineup and the penalty log say it."""
    return (f"starts with a {minutes}-minute bench minor: {MISSED[duty]} {missed_game} "
            f"({cited(citation, MINUTE_SETTINGS[duty])})")
