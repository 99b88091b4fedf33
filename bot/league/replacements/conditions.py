"""Youth 1.16's conditions for replacing a player, each with its verdict and the rule that sets it.

A captain may replace a player with a long-term injury (asked within 2 weeks of the injury's disclosure,
until the end of week 8) or a long-term absence (none of the team's first 3 games, or absent from 4 of its
first 8; asked by the end of week 8). Weeks are the season's (bot/league/seasons.py: week 1 starts on the
season's first day); "by the end of week n" is before bot/league/deadlines.py's ``week_end``. A game counts
once it has a result; a player not on their team's sheet of it was absent, and a game whose sheet the team
left empty says nothing either way (``present`` None).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, get_args
from zoneinfo import ZoneInfo

from bot.league.deadlines import week_end
from bot.league.replacements.presets import ReplacementRules
from bot.league.seasons import week_of

Reason = Literal["injury", "absence"]
REASONS: tuple[Reason, ...] = get_args(Reason)
LEAGUE_SETTING = "league setting"


@dataclass(frozen=True)
class Verdict:
    """One condition of the rule: whether it holds, in words, and where it comes from."""

    code: str
    holds: bool
    message: str
    rule: str


@dataclass(frozen=True)
class Attendance:
    """One of the team's played games, in order: was the player on the team's sheet (None: no sheet)."""

    code: str
    starts_at: datetime
    present: bool | None


@dataclass(frozen=True)
class Assessment:
    """Every condition checked for a request, and whether together they allow the replacement."""

    reason: Reason
    verdicts: tuple[Verdict, ...]
    week: int | None  # the season's week the request was made in (None: before the season)

    @property
    def met(self) -> bool:
        if self.reason == "injury":
            return all(v.holds for v in self.verdicts)
        deadline = [v for v in self.verdicts if v.code == "absence_week"]
        either = [v for v in self.verdicts if v.code != "absence_week"]
        return all(v.holds for v in deadline) and any(v.holds for v in either)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def season_week(first_day: date, moment: datetime, tz: ZoneInfo) -> int | None:
    """The season's week ``moment`` falls in (1 from its first day); None before the season."""
    return week_of(first_day, moment, tz)


def _week_verdict(code: str, last_week: int | None, first_day: date, now: datetime, tz: ZoneInfo,
                  what: str, rule: str) -> Verdict:
    week = season_week(first_day, now, tz)
    asked = f"week {week}" if week is not None else "before the season"
    if last_week is None:
        return Verdict(code, True, f"Asked in {asked}: {what} can be replaced all season.", rule)
    if now < week_end(first_day, last_week, tz):
        return Verdict(code, True, f"Asked in {asked}: before the end of week {last_week}, the last week {what} "
                                   "can be replaced.", rule)
    return Verdict(code, False, f"Asked in {asked}: after the end of week {last_week}, the last week {what} "
                                "can be replaced.", rule)


def injury_conditions(rules: ReplacementRules, disclosed_on: date, now: datetime, first_day: date,
                      tz: ZoneInfo) -> Assessment:
    """A long-term injury: asked within the window after its disclosure, and not after the last week."""
    rule = rules.replacement_citations.injury or LEAGUE_SETTING
    days = (now.astimezone(tz).date() - disclosed_on).days
    window = rules.replacement_injury_window_days
    said = f"Asked {_plural(days, 'day')} after the injury was disclosed ({disclosed_on.isoformat()})"
    if window is None:
        timely = Verdict("injury_window", True, f"{said}: there is no time limit.", rule)
    elif days <= window:
        timely = Verdict("injury_window", True, f"{said}: within the {_plural(window, 'day')} allowed.", rule)
    else:
        timely = Verdict("injury_window", False, f"{said}: more than the {_plural(window, 'day')} allowed.", rule)
    week = _week_verdict("injury_week", rules.replacement_injury_last_week, first_day, now, tz,
                         "an injured player", rule)
    return Assessment("injury", (timely, week), season_week(first_day, now, tz))


def _codes(games: Sequence[Attendance]) -> str:
    return ", ".join(g.code for g in games)


def absence_conditions(rules: ReplacementRules, played: Sequence[Attendance], now: datetime, first_day: date,
                       tz: ZoneInfo) -> Assessment:
    """A long-term absence: none of the team's first games, or absent from enough of its first games; and
    asked by the last week. ``played``: the team's games with a result this season, in any order."""
    rule = rules.replacement_citations.absence or LEAGUE_SETTING
    games = sorted(played, key=lambda g: (g.starts_at, g.code))
    first_n = rules.replacement_absence_first_games
    first = games[:first_n]
    if len(first) < first_n:
        none = Verdict("absence_first_games", False,
                       f"Only {_plural(len(first), 'game')} of the team's first {first_n} "
                       "have been played so far.", rule)
    elif all(g.present is False for g in first):
        none = Verdict("absence_first_games", True,
                       f"Played none of the team's first {first_n} games ({_codes(first)}).", rule)
    else:
        there = [g for g in first if g.present is not False]
        none = Verdict("absence_first_games", False,
                       f"Was on the sheet (or the sheet is missing) for {_plural(len(there), 'game')} of the "
                       f"team's first {first_n} ({_codes(there)}).", rule)
    window, needed = rules.replacement_absence_games, rules.replacement_absence_count
    absent = [g for g in games[:window] if g.present is False]
    so_far = min(len(games), window)
    listed = f" ({_codes(absent)})" if absent else ""
    count = Verdict("absence_count", len(absent) >= needed,
                    f"Absent from {len(absent)} of the team's first {window} games{listed}, {so_far} played so far: "
                    f"{needed} needed.", rule)
    week = _week_verdict("absence_week", rules.replacement_absence_last_week, first_day, now, tz,
                         "an absent player", rule)
    return Assessment("absence", (none, count, week), season_week(first_day, now, tz))


def prorated_fee_cents(season_fee_cents: int, games_left: int, season_games: int) -> int | None:
    """What a replacement pays: the season's fee times the games left over the season's games, to the cent
    (half a cent up); None when the season has no games to prorate by."""
    if season_games <= 0:
        return None
    left = max(0, min(games_left, season_games))
    return (2 * season_fee_cents * left + season_games) // (2 * season_games)


def money(cents: int) -> str:
    """Cents as an amount: 12345 -> "123.45"."""
    return f"{cents // 100}.{cents % 100:02d}"
