"""The officials' game card (bot/league/officials.py): every clock, timeout and overtime setting shows on it,
so none of them is a number that changes nothing."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.discipline.cleanup import DutyRota
from bot.league.game_format import GAME_FORMAT_PRESETS, GameFormat, Overtime
from bot.league.officials import clock_text, duty_lines, equipment_text, format_lines, tied_text, timeouts_text
from bot.league.rules import build_rules, preset

COED, YOUTH, INDOOR = (GAME_FORMAT_PRESETS[p] for p in ("coed-ball-hockey", "youth-ball-hockey", "indoor-soccer"))


def lines(name: str, kind: str, **overrides: object) -> dict[str, str]:
    rules = build_rules(name, overrides) if overrides else preset(name)
    return {line.label: line.render() for line in format_lines(rules, kind)}  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "kind", "expected"), [
    ("coed-ball-hockey", "regular", {
        "Periods": "**Periods:** 2 halves of 20 min · breaks of up to 5 min (Co-ed rules: Game Structure)",
        "Clock": "**Clock:** running; stopped in the last 2 min of the final half (Co-ed rules: Game Structure)",
        "Timeouts": "**Timeouts:** 1 × 30 s per team per game (Co-ed rules: Game Structure)",
        "If tied": "**If tied:** 5 min overtime, sudden death: the first goal wins, so an overtime win is by one "
                   "goal, then a shootout (Co-ed rules: Overtime)"}),
    ("youth-ball-hockey", "regular", {
        "Periods": "**Periods:** 3 periods of 15 min · breaks of up to 1 min (Youth 2.5, 2.6)",
        "Clock": "**Clock:** running; stopped in the last 2 min of the final period (Youth 2.5, 2.6)",
        "Timeouts": "**Timeouts:** 2 × 30 s per team per game, at most 1 per period (Youth 2.10)",
        "If tied": "**If tied:** the tie stands (no overtime, no shootout) (Youth 2.13A)"}),
    ("youth-ball-hockey", "playoff", {
        "Timeouts": "**Timeouts:** 2 × 30 s per team per game, at most 1 per period; 1 × 30 s per team in "
                    "overtime (Youth 2.10)",
        "If tied": "**If tied:** 5 min overtime, played in full, then a shootout (Youth 1.19, 2.10)"}),
    ("indoor-soccer", "playoff", {
        "Timeouts": "**Timeouts:** none",
        "If tied": "**If tied:** 2 × 8 min overtime, played in full, then a shootout (Indoor soccer rules: Overtime)"}),
])
def test_each_preset_reads_its_rulebook(name: str, kind: str, expected: dict[str, str]) -> None:
    found = lines(name, kind)
    assert {k: found.get(k) for k in expected} == expected


def test_the_shootout_line_follows_the_kind_and_the_rules() -> None:
    assert "Shootout" not in lines("youth-ball-hockey", "regular"), "no shootout in a youth regular season"
    assert lines("youth-ball-hockey", "playoff")["Shootout"].startswith("**Shootout:** 5 shooters a team")
    assert "(at least 1 woman/non-binary)" in lines("coed-ball-hockey", "seeding")["Shootout"]
    indoor = lines("indoor-soccer", "playoff")["Shootout"]
    assert "only players on the floor at the end of overtime" in indoor and "the goalie may not change" in indoor


def test_indoor_soccer_has_no_clock_line_because_its_rulebook_gives_none() -> None:
    assert "Clock" not in lines("indoor-soccer", "regular")
    assert lines("indoor-soccer", "regular", running_clock=False)["Clock"].startswith("**Clock:** stopped clock")


@pytest.mark.parametrize(("running", "final", "text"), [
    (True, 2, "running; stopped in the last 2 min of the final half"),
    (True, None, "running throughout"),
    (True, 0, "running throughout"),
    (False, None, "stopped clock: stopped at every stoppage"),
    (None, 3, "stopped in the last 3 min of the final half"),
    (None, None, None),
])
def test_the_clock_settings_each_change_the_card(running: bool | None, final: int | None, text: str | None) -> None:
    fmt = dataclasses.replace(COED, running_clock=running, stopped_clock_final_minutes=final)
    assert clock_text(fmt) == text


@pytest.mark.parametrize(("changes", "kind", "text"), [
    ({}, "regular", "1 × 30 s per team per game"),
    ({"timeouts_per_game": 3}, "regular", "3 × 30 s per team per game"),
    ({"timeout_seconds": 60}, "regular", "1 × 60 s per team per game"),
    ({"timeout_seconds": None}, "regular", "1 per team per game"),
    ({"timeouts_per_period": 1}, "regular", "1 × 30 s per team per game, at most 1 per half"),
    ({"playoff_overtime_timeouts": 2}, "playoff", "1 × 30 s per team per game; 2 × 30 s per team in overtime"),
    ({"playoff_overtime_timeouts": 2}, "regular", "1 × 30 s per team per game"),
    ({"timeouts_per_game": 0, "playoff_overtime_timeouts": 1}, "playoff", "1 × 30 s per team in overtime"),
    ({"playoff_overtime_timeouts": 1, "playoff_overtime_periods": 0}, "playoff", "1 × 30 s per team per game"),
])
def test_the_timeout_settings_each_change_the_card(changes: dict[str, object], kind: str, text: str) -> None:
    assert timeouts_text(dataclasses.replace(COED, **changes), kind) == text  # type: ignore[arg-type]


@pytest.mark.parametrize(("changes", "kind", "text"), [
    ({"regular_overtime_sudden_death": False}, "regular", "5 min overtime, played in full, then a shootout"),
    ({"playoff_overtime_sudden_death": True}, "playoff",
     "5 min overtime, sudden death: the first goal wins, so an overtime win is by one goal, then a shootout"),
    ({"regular_shootout": False}, "regular",
     "5 min overtime, sudden death: the first goal wins, so an overtime win is by one goal, then the tie stands"),
    ({"regular_overtime_periods": 0}, "regular", "a shootout"),
])
def test_the_overtime_switches_each_change_the_card(changes: dict[str, object], kind: str, text: str) -> None:
    base = YOUTH if kind == "playoff" else COED
    assert tied_text(dataclasses.replace(base, **changes), kind) == text  # type: ignore[arg-type]


def test_duties_name_the_teams_and_who_put_them_there() -> None:
    rota = DutyRota(setup=(1, 2), cleanup=(2,), by_commissioner=frozenset({("cleanup", 2)}))
    found = [line.render() for line in duty_lines(rota, {1: "Hawks", 2: "Owls"},
                                                  {"setup": "Youth 2.1, 3.7 (6)", "cleanup": "Youth 2.15"})]
    assert found == ["**Set up:** Hawks, Owls (Youth 2.1, 3.7 (6))",
                     "**Clean up:** Owls (set by a commissioner)"]
    assert duty_lines(DutyRota(), {}, {}) == ()


def test_the_equipment_line_is_the_presets_list() -> None:
    assert equipment_text(preset("youth-ball-hockey").deadlines.mandatory_equipment) == (
        "eye protection, gloves that cover the entire hand, running shoes, hockey stick, shin pads")
    assert equipment_text(preset("coed-ball-hockey").deadlines.mandatory_equipment) is None


# --- an overtime win under sudden death is by exactly one goal -------------------------------------------
@given(home=st.integers(0, 99), away=st.integers(0, 99), periods=st.integers(0, 3), sudden=st.booleans())
def test_only_sudden_death_overtime_limits_the_margin(home: int, away: int, periods: int, sudden: bool) -> None:
    problem = Overtime(periods, 5, sudden, True).overtime_margin_problem(home, away)
    assert (problem is not None) == (periods > 0 and sudden and abs(home - away) != 1)
    if problem is not None:
        assert f"not {abs(home - away)}" in problem


def test_the_presets_sudden_death_switches_decide_it() -> None:
    assert COED.overtime_for("regular").overtime_margin_problem(5, 3) is not None
    assert YOUTH.overtime_for("playoff").overtime_margin_problem(5, 3) is None, "youth 1.19: played in full"
    assert INDOOR.overtime_for("playoff").overtime_margin_problem(5, 3) is None
    assert isinstance(COED, GameFormat) and COED.overtime_citation("seeding") == "Co-ed rules: Overtime"


def test_the_equipment_list_is_bounded() -> None:
    from bot.league.rules import RulesError

    assert build_rules("coed-ball-hockey", {"mandatory_equipment": ["helmet"]}).deadlines.mandatory_equipment == (
        "helmet",)
    for bad in (["x" * 61], [" "], ["glove"] * 13, "helmet"):
        with pytest.raises(RulesError, match="mandatory_equipment"):
            build_rules("coed-ball-hockey", {"mandatory_equipment": bad})


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(GameFormat) if f.name != "game_format_citations"])
def test_no_game_format_setting_is_a_number_that_changes_nothing(field: str) -> None:
    """Every clock, timeout and overtime setting shows on the card: changing any one changes the co-ed card of a
    regular-season or a playoff game (where every part of overtime is in play)."""
    rules = preset("coed-ball-hockey")
    value = getattr(rules.game_format, field)
    other = (not value if isinstance(value, bool) else 1 if value is None else value + 1)
    changed = dataclasses.replace(rules, game_format=dataclasses.replace(rules.game_format, **{field: other}))
    for kind in ("regular", "playoff"):
        if format_lines(changed, kind) != format_lines(rules, kind):  # type: ignore[arg-type]
            return
    pytest.fail(f"{field} {value!r} -> {other!r} changed nothing on the card")
