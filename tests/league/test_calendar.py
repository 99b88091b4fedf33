"""What a calendar shows of a game: its length from the preset, a stable UID, a player's games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.league.calendar import Away, CalendarGame, event_uid, game_length, player_games
from bot.league.rules import build_rules, preset


@pytest.mark.parametrize(("name", "kind", "minutes"), [
    ("coed-ball-hockey", "regular", 2 * 20 + 5 + 5 + 5),  # halves, halftime, break, 5' overtime
    ("coed-ball-hockey", "playoff", 55),
    ("youth-ball-hockey", "regular", 3 * 15 + 2 * 1),  # a tie stands: no overtime
    ("youth-ball-hockey", "seeding", 47),
    ("youth-ball-hockey", "playoff", 47 + 1 + 5),
    ("indoor-soccer", "regular", 2 * 25 + 5),
    ("indoor-soccer", "playoff", 55 + 5 + 2 * 8),
])
def test_a_game_lasts_what_its_format_can_take(name: str, kind: str, minutes: int) -> None:
    assert game_length(preset(name).game_format, kind) == timedelta(minutes=minutes)


def test_the_length_follows_a_leagues_overrides() -> None:
    rules = build_rules("coed-ball-hockey", {"period_minutes": 25, "intermission_minutes": 0})
    assert game_length(rules.game_format, "regular") == timedelta(minutes=2 * 25 + 5)


def test_the_uid_names_the_game_row_and_the_league() -> None:
    assert event_uid(42, "coed") == "game-42@sideline-coed"
    assert event_uid(42, "coed") != event_uid(42, "youth")


def game(game_id: int, starts: datetime, status: str = "scheduled") -> CalendarGame:
    return CalendarGame(game_id, f"G{game_id}", "Hawks", "Owls", starts, "Rink A", "regular", status, 0, None)


def test_the_summary_names_both_teams_and_says_when_cancelled() -> None:
    when = datetime(2030, 1, 12, tzinfo=UTC)
    assert game(1, when).summary() == "Hawks vs Owls"
    assert game(1, when, "cancelled").summary() == "Cancelled: Hawks vs Owls"


def test_a_players_feed_leaves_out_the_games_they_are_away_for() -> None:
    jan = [game(i, datetime(2030, 1, 5 + 7 * i, 19, tzinfo=UTC)) for i in range(4)]  # 5, 12, 19, 26 Jan
    away = [Away(datetime(2030, 1, 10, tzinfo=UTC), datetime(2030, 1, 19, 19, tzinfo=UTC))]  # ends as G2 starts
    assert [g.id for g in player_games(jan, away)] == [0, 3]
    assert [g.id for g in player_games(jan)] == [0, 1, 2, 3]
