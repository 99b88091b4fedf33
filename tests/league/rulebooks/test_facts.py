"""The league's own numbers beside a rulebook answer come from its rules, overrides included."""

from __future__ import annotations

import pytest

from bot.league.rulebooks.facts import FACTS, fact_lines
from bot.league.rules import PRESET_NAMES, build_rules, preset


@pytest.mark.parametrize(("preset_name", "name", "says"), [
    ("youth-ball-hockey", "start", "To start a game a team needs 3 players and a goalie. A short team gets 5 minutes "
                                   "of grace, then starts with a 2-minute bench minor. Still short 10 minutes after "
                                   "the start, it forfeits."),
    ("indoor-soccer", "start", "To start a game a team needs at least 4 players."),
    ("coed-ball-hockey", "start", "This league sets no minimum number of players to start a game."),
    ("coed-ball-hockey", "court", "6 players on the court at once, the goalie included. At least 2 women/non-binary "
                                  "players on the court at all times, the goalie not counted. A team without enough "
                                  "plays short."),
    ("indoor-soccer", "overtime", "A tied game in the regular season: a tie stands; in the playoffs: two 8-minute "
                                  "overtime periods (played in full), then a shootout."),
    ("coed-ball-hockey", "overtime", "A tied game: one 5-minute overtime period (sudden death), then a shootout."),
    ("youth-ball-hockey", "timeouts", "2 timeouts of 30 seconds a team per game, at most 1 a period."),
    ("coed-ball-hockey", "length", "Games are two 20-minute halves, running clock. The clock stops in the last "
                                   "2 minutes."),
    ("indoor-soccer", "tiebreakers", "The table is ordered by points; teams level on points go by goal differential "
                                     "(shootout goals excluded), then most goals scored."),
    ("coed-ball-hockey", "tiebreakers", "The table is ordered by winning percentage (a tie counts as half a win); "
                                        "teams level on that go by most goals scored."),
])
def test_a_fact_states_the_presets_number(preset_name: str, name: str, says: str) -> None:
    assert fact_lines(preset(preset_name), [name]) == (says,)


def test_a_commissioners_override_is_the_number_stated() -> None:
    rules = build_rules("youth-ball-hockey", {"min_skaters_to_start": 4, "forfeit_after_minutes": 15})
    (line,) = fact_lines(rules, ["start"])
    assert line.startswith("To start a game a team needs 4 players and a goalie.")
    assert "Still short 15 minutes after the start" in line


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_every_fact_reads_for_every_preset_once_each_and_unknown_names_are_left_out(preset_name: str) -> None:
    rules = preset(preset_name)
    lines = fact_lines(rules, [*FACTS, "start", "no such fact"])
    assert len(lines) == len(set(lines)) and all(line.endswith(".") for line in lines)
    assert fact_lines(rules, ["no such fact"]) == ()


def test_a_fact_the_league_has_no_number_for_is_left_out() -> None:
    assert fact_lines(preset("indoor-soccer"), ["roster", "trades"]) == ()
