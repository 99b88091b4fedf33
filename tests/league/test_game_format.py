"""Game format per preset, one test per rulebook rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.league.game_format import GAME_FORMAT_PRESETS, GameFormat, Overtime

COED = GAME_FORMAT_PRESETS["coed-ball-hockey"]
YOUTH = GAME_FORMAT_PRESETS["youth-ball-hockey"]
SOCCER = GAME_FORMAT_PRESETS["indoor-soccer"]


def test_presets_match_the_lineup_presets() -> None:
    from bot.league.checkins.presets import LINEUP_PRESETS

    assert set(GAME_FORMAT_PRESETS) == set(LINEUP_PRESETS)


@pytest.mark.parametrize(
    ("game_format", "periods", "minutes", "running", "stopped_last"),
    [
        (COED, 2, 20, True, 2),  # Co-ed rules: Game Structure — two 20-minute halves, running
        (YOUTH, 3, 15, True, 2),  # Youth 2.5, 2.6 — three 15-minute periods, stoppage last 2 min
        (SOCCER, 2, 25, None, None),  # Indoor soccer rules: Game — two 25-minute halves
    ],
    ids=["coed-game-structure", "youth-2.5-2.6", "indoor-soccer-game"],
)
def test_periods_and_clock(
    game_format: GameFormat, periods: int, minutes: int, running: bool | None,
    stopped_last: int | None,
) -> None:
    assert (game_format.periods, game_format.period_minutes) == (periods, minutes)
    assert game_format.running_clock is running
    assert game_format.stopped_clock_final_minutes == stopped_last
    assert game_format.regulation_minutes == periods * minutes


@pytest.mark.parametrize(
    ("game_format", "kind", "overtime"),
    [
        # Co-ed rules: Overtime (OT) — 5-minute sudden death, then a shootout, in every game.
        (COED, "seeding", Overtime(1, 5, sudden_death=True, shootout=True)),
        (COED, "regular", Overtime(1, 5, sudden_death=True, shootout=True)),
        (COED, "playoff", Overtime(1, 5, sudden_death=True, shootout=True)),
        # Youth 2.13A — a regular-season tie stands; Youth 1.19 — playoffs: 5 minutes, shootout.
        (YOUTH, "regular", Overtime(0, 0, sudden_death=False, shootout=False)),
        (YOUTH, "playoff", Overtime(1, 5, sudden_death=False, shootout=True)),
        # Indoor soccer rules: Overtime — none in the regular season; playoffs 2 x 8 in full.
        (SOCCER, "regular", Overtime(0, 0, sudden_death=False, shootout=False)),
        (SOCCER, "playoff", Overtime(2, 8, sudden_death=False, shootout=True)),
    ],
    ids=[
        "coed-ot-seeding", "coed-ot-regular", "coed-ot-playoff", "youth-2.13A-regular",
        "youth-1.19-playoff", "soccer-overtime-regular", "soccer-overtime-playoff",
    ],
)
def test_overtime_by_kind_of_game(game_format: GameFormat, kind, overtime: Overtime) -> None:
    assert game_format.overtime_for(kind) == overtime


def test_a_tie_stands_without_overtime_or_shootout() -> None:
    assert YOUTH.overtime_for("regular").tie_stands
    assert SOCCER.overtime_for("regular").tie_stands
    assert not COED.overtime_for("regular").tie_stands


def test_unknown_game_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="game kind"):
        COED.overtime_for("exhibition")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game_format", "per_game", "per_period", "seconds", "playoff_ot"),
    [
        (COED, 1, None, 30, 0),  # Co-ed rules: Game Structure — one thirty-second time out
        (YOUTH, 2, 1, 30, 1),  # Youth 2.10 — two 30 s per game, one per period, one in playoff OT
        (SOCCER, 0, None, None, 0),  # Indoor soccer rules: no time-outs
    ],
    ids=["coed-game-structure", "youth-2.10", "indoor-soccer"],
)
def test_timeouts(
    game_format: GameFormat, per_game: int, per_period: int | None, seconds: int | None,
    playoff_ot: int,
) -> None:
    assert game_format.timeouts_per_game == per_game
    assert game_format.timeouts_per_period == per_period
    assert game_format.timeout_seconds == seconds
    assert game_format.playoff_overtime_timeouts == playoff_ot


@pytest.mark.parametrize(
    ("game_format", "minutes"),
    [(COED, 5), (YOUTH, 1), (SOCCER, 5)],
    ids=["coed-game-structure-5", "youth-2.11-1", "indoor-soccer-game-0-to-5"],
)
def test_intermissions(game_format: GameFormat, minutes: int) -> None:
    assert game_format.intermission_minutes == minutes


def test_negative_settings_are_refused_naming_the_key() -> None:
    with pytest.raises(ValueError, match=r"rules\.timeouts_per_game"):
        replace(COED, timeouts_per_game=-1)
