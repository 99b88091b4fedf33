"""The schedule generator and its checker: every constraint of a generated schedule, on random teams and
slot lists, or a refusal saying exactly what the slots lack."""

from __future__ import annotations

import math
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from bot.league.rules import preset
from bot.league.schedule_builder.checks import check_schedule, clashes, week_start
from bot.league.schedule_builder.generator import PlannedGame, ScheduleRefused, Slot, generate, rounds

TORONTO = ZoneInfo("America/Toronto")
FIRST_MONDAY = date(2027, 1, 4)
MINUTES = 50


def local(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=TORONTO).astimezone(UTC)


def weekly_slots(weeks: int, per_week: int, venue: str = "Rink") -> list[Slot]:
    return [Slot(local(FIRST_MONDAY + timedelta(weeks=w, days=5), 18 + h), venue, line=2 + w * per_week + h)
            for w in range(weeks) for h in range(per_week)]


@st.composite
def season(draw: st.DrawFn) -> tuple[list[str], list[Slot], int, int]:
    n = draw(st.integers(3, 10))
    meetings = draw(st.integers(1, 5))
    per_week = draw(st.integers(1, 3))
    g, rounds_needed = n // 2, meetings * (n - 1 + n % 2)
    weeks = draw(st.integers(max(1, math.ceil(rounds_needed / per_week) - 2), math.ceil(rounds_needed / per_week) + 3))
    slots = []
    for w in range(weeks):
        count = max(0, g * per_week - draw(st.sampled_from([0] * 8 + [1, 2, g])))
        cells = draw(st.lists(st.tuples(st.integers(0, 6), st.integers(17, 22), st.sampled_from("ABC")),
                              min_size=count, max_size=count, unique=True))
        slots += [Slot(local(FIRST_MONDAY + timedelta(weeks=w, days=d), h), f"Rink {v}", line=len(slots) + i + 2)
                  for i, (d, h, v) in enumerate(cells)]
    order = draw(st.permutations(slots))  # the file's order doesn't matter
    return [f"Team {i}" for i in range(n)], list(order), meetings, per_week


@given(season())
def test_every_generated_schedule_keeps_every_rule_or_the_refusal_says_what_is_missing(
        case: tuple[list[str], list[Slot], int, int]) -> None:
    teams, slots, meetings, per_week = case
    g, wanted = len(teams) // 2, meetings * (len(teams) - 1 + len(teams) % 2)
    weeks = Counter(week_start(s.starts_at, TORONTO) for s in slots)
    try:
        games = generate(teams, slots, meetings=meetings, per_week=per_week, tz=TORONTO, game_minutes=MINUTES)
    except ScheduleRefused as refusal:
        event("refused")
        text = str(refusal)
        assert text.startswith(f"needs {wanted * g} slots in {math.ceil(wanted / per_week)} distinct weeks; "
                               f"got {len(slots)} slot")
        assert f"in {len(weeks)} week" in text
        held = int(text.split("room for ")[1].split(" of ")[0])
        assert held < wanted
        # A week holds at most per_week rounds, and a round needs g of its slots.
        assert held <= sum(min(per_week, n // g) for n in weeks.values())
        if per_week == 1:  # one round a week: exactly the weeks with a round's worth of slots
            assert held == sum(1 for n in weeks.values() if n >= g)
        return
    event("made")
    if per_week == 1:
        assert sum(1 for n in weeks.values() if n >= g) >= wanted
    assert len(games) == wanted * g
    assert check_schedule(games, teams, meetings=meetings, per_week=per_week, tz=TORONTO,
                          game_minutes=MINUTES) == []
    assert {(s.starts_at, s.venue) for s in slots} >= {(x.starts_at, x.venue) for x in games}
    assert len({x.code for x in games}) == len(games)
    again = generate(teams, list(reversed(slots)), meetings=meetings, per_week=per_week, tz=TORONTO,
                     game_minutes=MINUTES)
    assert again == games  # deterministic, whatever order the slots came in


def test_four_youth_teams_over_fifteen_weeks_of_two_slots_meet_five_times() -> None:
    teams = ["Hawks", "Owls", "Bears", "Lynx"]
    rules = preset("youth-ball-hockey")
    games = generate(teams, weekly_slots(15, 2), meetings=5, tz=TORONTO, game_minutes=MINUTES,
                     per_week=rules.schedule_builder.games_per_team_per_week)
    assert len(games) == 30
    per_team = Counter(t for x in games for t in (x.home, x.away))
    assert per_team == dict.fromkeys(teams, 15)
    assert all(n == 1 for n in Counter((x.week, t) for x in games for t in (x.home, x.away)).values())
    pairs = Counter(frozenset((x.home, x.away)) for x in games)
    assert set(pairs.values()) == {5} and len(pairs) == 6
    home = Counter(x.home for x in games)
    assert all(abs(home[t] - (15 - home[t])) <= 1 for t in teams)


def test_too_few_slots_are_refused_naming_what_is_missing() -> None:
    with pytest.raises(ScheduleRefused) as refused:
        generate(["Hawks", "Owls", "Bears", "Lynx"], weekly_slots(15, 2)[:28], meetings=5, per_week=1,
                 tz=TORONTO, game_minutes=MINUTES, citation="Youth 1.8")
    assert str(refused.value).startswith("needs 30 slots in 15 distinct weeks; got 28 slots in 14 weeks, "
                                         "room for 14 of the 15 rounds")
    assert "Youth 1.8" in str(refused.value)


def test_a_week_short_of_a_round_is_named() -> None:
    slots = weekly_slots(3, 2)
    del slots[3]  # the second week keeps one slot
    with pytest.raises(ScheduleRefused) as refused:
        generate(["A", "B", "C", "D"], slots, meetings=1, per_week=1, tz=TORONTO, game_minutes=MINUTES)
    assert "needs 6 slots in 3 distinct weeks; got 5 slots in 3 weeks" in str(refused.value)
    assert "2027-01-11 (1)" in str(refused.value)


def test_a_slot_listed_twice_or_overlapping_at_one_venue_is_refused_by_line() -> None:
    first = Slot(local(FIRST_MONDAY, 19), "Rink", line=2)
    with pytest.raises(ScheduleRefused, match="line 3: Rink at 2027-01-04 19:00 is the same slot as the one on "
                                              "line 2"):
        generate(["A", "B"], [first, Slot(first.starts_at, "rink ", line=3)], meetings=1, per_week=1,
                 tz=TORONTO, game_minutes=MINUTES)
    with pytest.raises(ScheduleRefused, match="line 3: Rink at 2027-01-04 19:30 overlaps"):
        generate(["A", "B"], [first, Slot(local(FIRST_MONDAY, 19, 30), "Rink", line=3)], meetings=1,
                 per_week=1, tz=TORONTO, game_minutes=MINUTES)


def test_slots_of_another_division_are_left_alone() -> None:
    slots = [Slot(local(FIRST_MONDAY, 18), "Rink", "Senior"), Slot(local(FIRST_MONDAY, 19), "Rink", "junior"),
             Slot(local(FIRST_MONDAY, 20), "Rink")]
    games = generate(["A", "B"], slots, meetings=2, per_week=2, tz=TORONTO, game_minutes=MINUTES,
                     division="Junior")
    assert [x.starts_at for x in games] == [slots[1].starts_at, slots[2].starts_at]
    assert {(x.home, x.away) for x in games} == {("A", "B"), ("B", "A")}


def test_weeks_are_the_league_calendar_across_the_clock_change() -> None:
    # Sunday 8 March 2027 23:30 in Toronto (the day the clocks go forward) is still that week: 04:30 UTC Monday.
    sunday = datetime(2027, 3, 14, 23, 30, tzinfo=TORONTO)
    assert week_start(sunday, TORONTO) == date(2027, 3, 8)
    assert week_start(sunday + timedelta(minutes=30), TORONTO) == date(2027, 3, 15)


def test_odd_counts_rest_each_team_once_a_round_robin() -> None:
    played = rounds(["A", "B", "C", "D", "E"], 2)
    assert len(played) == 10
    resting = [({"A", "B", "C", "D", "E"} - {t for game in r for t in game}).pop() for r in played]
    assert sorted(resting[:5]) == sorted(resting[5:]) == ["A", "B", "C", "D", "E"]


def test_the_checker_finds_what_a_hand_made_schedule_gets_wrong() -> None:
    at = local(FIRST_MONDAY, 19)
    games = [PlannedGame("G1", at, "Rink", "A", "B", FIRST_MONDAY, 1),
             PlannedGame("G2", at, "rink", "C", "A", FIRST_MONDAY, 1),
             PlannedGame("G3", at + timedelta(days=7), "Rink", "A", "B", FIRST_MONDAY, 2)]
    problems = check_schedule(games, ["A", "B", "C"], meetings=1, per_week=1, tz=TORONTO, game_minutes=MINUTES,
                              citation="Youth 1.8")
    assert "A and B meet 2 times, not 1" in problems
    assert "B and C meet 0 times, not 1" in problems
    assert "A plays 2 games in the week of 2027-01-04; at most 1 (Youth 1.8)" in problems
    assert "the slot 2027-01-04 19:00 at rink is used 2 times" in problems
    assert any(p.startswith("A plays at 2027-01-04 19:00 and at 2027-01-04 19:00") for p in problems)
    assert "A has 3 home games and 0 away" not in problems  # 2 home, 1 away: within one
    assert "B has 0 home games and 2 away" in problems
    assert check_schedule(games[:1], ["A", "B"], meetings=1, per_week=1, tz=TORONTO, game_minutes=MINUTES) == []
    twice_at_home = [games[0], games[2]]
    assert check_schedule(twice_at_home, ["A", "B"], meetings=2, per_week=1, tz=TORONTO, game_minutes=MINUTES) == [
        "A is at home 2 times against B, who is at home 0 times", "A has 2 home games and 0 away",
        "B has 0 home games and 2 away"]


def test_clashes_are_neighbours_closer_than_a_game() -> None:
    at = local(FIRST_MONDAY, 19)
    found = clashes([("rink", at, "G1"), ("rink", at + timedelta(minutes=49), "G2"),
                     ("rink", at + timedelta(minutes=100), "G3")], timedelta(minutes=MINUTES))
    assert [(c.first, c.second) for c in found] == [("G1", "G2")]
