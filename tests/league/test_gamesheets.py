"""Who is on a game sheet and who may change it (bot/league/gamesheets/sheet.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.gamesheets.goals import (
    Credit,
    GoalError,
    check_period,
    credits_in_order,
    game_minute,
    read_clock,
    rule_goal,
    score_differences,
)
from bot.league.gamesheets.late_start import applies, prompts, question
from bot.league.gamesheets.officials import START_NOTICE_USEFUL_FOR, missing, notices, officials_line, role_words
from bot.league.gamesheets.presets import GameSheetRules
from bot.league.gamesheets.sheet import (
    Candidate,
    Changer,
    Entry,
    lines,
    may_change,
    may_confirm,
    played_ids,
    sync,
)
from bot.league.rules import preset

ALICE = Candidate(1, None, "Alice Hart", "skater", "checkin")
GUS = Candidate(7, None, "Gus Lee", "goalie", "checkin")
WENDY = Candidate(40, None, "Wendy Spare", "skater", "spare")
JO = Candidate(None, 3, "Jo Walker", "skater", "guest")


def entry(n: int, c: Candidate, *, source: str | None = None, removed: bool = False) -> Entry:
    return Entry(n, c.player_id, c.guest_id, c.name, c.position, source or c.source, removed=removed)  # type: ignore[arg-type]


@pytest.mark.parametrize(("answers", "stored", "added", "dropped"), [
    # nothing stored yet: everyone the answers name is pre-filled
    ([ALICE, GUS], [], ["Alice Hart", "Gus Lee"], []),
    # already stored: nothing to do
    ([ALICE], [entry(1, ALICE)], [], []),
    # Alice answered "out" since: her pre-filled line goes
    ([GUS], [entry(1, ALICE), entry(2, GUS)], [], [1]),
    # added by hand: stays whatever she answers
    ([], [entry(1, ALICE, source="added")], [], []),
    # taken off by hand: her "in" doesn't bring her back, and the removed row isn't dropped
    ([ALICE], [entry(1, ALICE, removed=True)], [], []),
    # a spare and a guest who count are pre-filled; one who no longer does goes
    ([WENDY, JO], [], ["Wendy Spare", "Jo Walker"], []),
    ([WENDY], [entry(5, WENDY), entry(6, JO)], [], [6]),
])
def test_sync_prefills_the_answers_and_keeps_what_people_decided(
        answers: list[Candidate], stored: list[Entry], added: list[str], dropped: list[int]) -> None:
    plan = sync(answers, stored)
    assert [c.name for c in plan.add] == added
    assert list(plan.drop) == dropped


def test_a_read_shows_what_a_sync_would_store_and_a_frozen_sheet_only_what_is_stored() -> None:
    stored = [entry(1, ALICE), entry(2, WENDY, source="added")]
    open_sheet = lines([GUS, WENDY], stored, frozen=False)  # Alice answered "out"; Gus "in"
    assert [line.label for line in open_sheet] == ["Wendy Spare", "Gus Lee (goalie)"]  # added by hand
    frozen = lines([GUS], stored, frozen=True)
    assert [line.label for line in frozen] == ["Alice Hart", "Wendy Spare"]
    assert [line.label for line in lines([WENDY], [], frozen=False)] == ["Wendy Spare (spare)"]


def test_labels_show_numbers_goalies_spares_and_guests() -> None:
    numbered = lines([], [Entry(1, 9, None, "Dan Roy", "skater", "added", number=17)], frozen=True)
    assert [line.label for line in numbered] == ["#17 Dan Roy"]
    assert [line.label for line in lines([JO], [], frozen=False)] == ["Jo Walker (guest)"]


CAPTAIN_OF_HAWKS = Changer(captain_of=frozenset({1}))


@pytest.mark.parametrize(("who", "team", "started", "refusal"), [
    (CAPTAIN_OF_HAWKS, 1, False, None),
    (CAPTAIN_OF_HAWKS, 1, True, "started"),
    (CAPTAIN_OF_HAWKS, 2, False, "other_team"),
    (Changer(official=True), 2, True, None),
    (Changer(commissioner=True), 1, True, None),
    (Changer(), 1, False, "not_allowed"),
])
def test_captains_change_their_own_sheet_before_the_start_officials_any_time(
        who: Changer, team: int, started: bool, refusal: str | None) -> None:
    assert may_change(who, team, started=started) == refusal


def test_a_captain_confirms_until_the_result() -> None:
    assert may_confirm(CAPTAIN_OF_HAWKS, 1, final=False) is None
    assert may_confirm(CAPTAIN_OF_HAWKS, 1, final=True) == "started"
    assert may_confirm(Changer(official=True), 1, final=True) is None


people = st.builds(Candidate, st.integers(1, 30), st.none(), st.sampled_from(["A", "B", "C"]),
                   st.sampled_from(["skater", "goalie"]), st.sampled_from(["checkin", "spare"]))


@given(st.lists(people, max_size=12), st.lists(people, max_size=12), st.sets(st.integers(1, 30)))
def test_after_a_sync_the_sheet_is_what_the_answers_say_minus_removals(
        before: list[Candidate], now: list[Candidate], removed: set[int]) -> None:
    """Store the sheet for the old answers, remove some by hand, then sync to the new answers: the lines are
    exactly the new answers' players, less those removed by hand; reading it beforehand said the same."""
    stored = []
    for i, c in enumerate({c.key: c for c in before}.values(), start=1):
        stored.append(entry(i, c, removed=c.player_id in removed))
    expected = {c.player_id for c in now} - {e.player_id for e in stored if e.removed}
    shown = played_ids(lines(now, stored, frozen=False))
    plan = sync(now, stored)
    after = [e for e in stored if e.id not in plan.drop and not e.removed]
    after += [entry(100 + i, c) for i, c in enumerate(plan.add)]
    assert {e.player_id for e in after} == expected == shown
    assert sync(now, after + [e for e in stored if e.removed]).changes is False


# --- officials (youth 2.2, 1.14) ---------------------------------------------------------------------------

YOUTH = preset("youth-ball-hockey").gamesheets
START = datetime(2030, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(("rules", "assigned", "lacking"), [
    (YOUTH, [], ("referee", "timekeeper")),
    (YOUTH, ["referee"], ("timekeeper",)),
    (YOUTH, ["timekeeper", "referee"], ()),
    (YOUTH, ["referee", "referee"], ("timekeeper",)),
    (preset("coed-ball-hockey").gamesheets, [], ()),
])
def test_which_officials_a_game_lacks(rules: GameSheetRules, assigned: list[str], lacking: tuple[str, ...]) -> None:
    assert missing(rules, assigned) == lacking


@pytest.mark.parametrize(("now", "moments"), [
    (START - timedelta(days=3), [("ahead", START - timedelta(hours=24)), ("start", START)]),
    # planned inside the lead time: the first notice goes now
    (START - timedelta(hours=2), [("ahead", START - timedelta(hours=2)), ("start", START)]),
    (START + timedelta(minutes=5), [("start", START)]),
    (START + START_NOTICE_USEFUL_FOR, []),
])
def test_two_notices_ahead_and_at_the_start(now: datetime, moments: list[tuple[str, datetime]]) -> None:
    found = notices(YOUTH, START, now)
    assert [(n.moment, n.due_at) for n in found] == moments
    assert all(n.due_at < n.expires_at for n in found)


def test_no_notices_where_one_official_is_enough_and_the_lead_time_is_a_setting() -> None:
    assert notices(preset("indoor-soccer").gamesheets, START, START - timedelta(days=2)) == ()
    six = GameSheetRules(officials_both_required=True, warn_unassigned_hours_before=6)
    assert notices(six, START, START - timedelta(days=2))[0].due_at == START - timedelta(hours=6)
    assert role_words(("referee", "timekeeper")) == "a referee or a timekeeper"


COED = preset("coed-ball-hockey").gamesheets


@pytest.mark.parametrize(("rules", "assigned", "line", "rule"), [
    (COED, [], "no referee assigned yet", ""),
    (COED, [("referee", "Rita"), ("referee", "Ray")], "Rita, Ray", ""),
    (COED, [("referee", "Rita"), ("timekeeper", "Tom")], "Referee: Rita · Timekeeper: Tom", ""),
    (YOUTH, [("referee", "Rita"), ("timekeeper", "Tom")], "Referee: Rita · Timekeeper: Tom", ""),
    (YOUTH, [("timekeeper", "Tom")],
     "Referee: not assigned · Timekeeper: Tom — a game can't begin without both officials; without a referee "
     "the commissioners take the duties", "Youth 2.2, 1.14"),
])
def test_the_card_names_officials_by_role_where_timekeepers_count(
        rules: GameSheetRules, assigned: list[tuple[str, str]], line: str, rule: str) -> None:
    assert officials_line(rules, assigned) == (line, rule)


# --- goals (youth 3.4 (1), 2.14, 2.4) ---------------------------------------------------------------------
ON, OFF = True, False


@pytest.mark.parametrize(("credits", "counts", "minors"), [
    ([Credit(1, "Alice", ON)], True, []),
    ([Credit(1, "Alice", ON), Credit(2, "Bea", OFF)], False, ["Bea"]),  # a teammate not on the sheet
    ([Credit(1, "Alice", OFF), Credit(2, "Bea", OFF)], False, ["Alice", "Bea"]),
])
def test_youth_disallows_a_goal_credited_to_someone_off_the_sheet_with_a_minor_each(
        credits: list[Credit], counts: bool, minors: list[str]) -> None:
    ruling = rule_goal(YOUTH, credits)
    assert ruling.counts is counts and [c.name for c in ruling.minors_to] == minors
    assert ruling.citation == ("Youth 3.4 (1)" if minors else "")


def test_elsewhere_such_a_goal_is_refused_naming_who_isnt_on_the_sheet() -> None:
    with pytest.raises(GoalError, match="Bea and Cy are not on the team's game sheet"):
        rule_goal(preset("coed-ball-hockey").gamesheets,
                  [Credit(1, "Alice", ON), Credit(2, "Bea", OFF), Credit(3, "Cy", OFF)])


def test_credits_clock_period_and_minute() -> None:
    assert credits_in_order(1, (None, 3)) == (1, 3)  # a lone second assist is the first
    with pytest.raises(GoalError):
        credits_in_order(1, (2, 2))
    assert read_clock(" 7:05 ", 15) == "07:05" and read_clock(None, 15) is None and read_clock("15:00", 15) == "15:00"
    for bad in ("15:01", "7", "7:5", "-1:00", "7:60"):
        with pytest.raises(GoalError):
            read_clock(bad, 15)
    check_period(3, 3)
    with pytest.raises(GoalError):
        check_period(4, 3)
    assert game_minute(2, "05:30", 15) == 20 and game_minute(None, "05:30", 15) is None


def test_the_score_and_the_recorded_goals_compared() -> None:
    assert score_differences("Hawks", "Owls", (3, 1), (3, 1)) == ()
    assert score_differences("Hawks", "Owls", (3, 1), (2, 2)) == (
        "Hawks: 3 in the score, 2 in the recorded goals", "Owls: 1 in the score, 2 in the recorded goals")


# --- late starts (youth 2.4) --------------------------------------------------------------------------------
def test_a_late_start_prompts_at_the_grace_periods_end_and_at_the_forfeit_time() -> None:
    youth = preset("youth-ball-hockey").lineup
    found = prompts(youth, START, START - timedelta(days=1))
    assert [(p.stage, p.due_at - START) for p in found] == [("minor", timedelta(minutes=5)),
                                                            ("forfeit", timedelta(minutes=10))]
    assert all(p.expires_at == START + timedelta(hours=2) for p in found)
    assert prompts(youth, START, START + timedelta(hours=2)) == ()  # long under way: no use
    assert not applies(preset("coed-ball-hockey").lineup) and prompts(preset("indoor-soccer").lineup, START,
                                                                      START) == ()
    assert question("minor", "Owls", 2) == "Assess the 2-minute bench minor to Owls"
    assert question("forfeit", "Owls", None) == "Record a forfeit by Owls"
