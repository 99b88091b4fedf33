"""Youth 1.7: the draft lottery is reproducible from its seed, the pick order is the lottery's in odd rounds and
reversed in even rounds (snake), and fewer players than picks ends the draft (bot/league/draft/)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.draft.order import clock_ran_out, deadline, lottery, pick_order, progress
from bot.league.draft.presets import DraftRules
from bot.league.rules import RulesError, build_rules, preset

TEAMS = st.lists(st.text(alphabet="abcdefghij XYZ", min_size=1, max_size=8).filter(lambda t: t.strip()),
                 min_size=2, max_size=10, unique_by=lambda t: t.strip().casefold())


def test_the_youth_preset_drafts_in_snake_order_with_paid_registrants_only() -> None:
    rules = preset("youth-ball-hockey").draft
    assert (rules.draft_order, rules.draft_rounds, rules.draft_paid_only) == ("snake", 8, True)
    assert rules.draft_citations.order == "Youth 1.7" and rules.draft_citations.paid == "Youth 1.15"
    coed, soccer = preset("coed-ball-hockey").draft, preset("indoor-soccer").draft
    assert not coed.draft_paid_only and not coed.draft_auto_skip and soccer.draft_order == "snake"


def test_the_settings_are_checked_like_every_other() -> None:
    assert build_rules("youth-ball-hockey", {"draft_order": "straight"}).draft.draft_order == "straight"
    assert build_rules("youth-ball-hockey", {"draft": {"draft_pick_seconds": 60}}).draft.draft_pick_seconds == 60
    with pytest.raises(RulesError, match="draft_order"):
        build_rules("youth-ball-hockey", {"draft_order": "random"})
    with pytest.raises(RulesError, match="between 1 and 50"):
        build_rules("youth-ball-hockey", {"draft_rounds": 0})
    with pytest.raises(ValueError, match="snake or straight"):
        DraftRules(draft_order="zigzag")  # type: ignore[arg-type]


def test_four_teams_eight_rounds_snake_as_the_rulebook_says() -> None:
    slots = pick_order(["A", "B", "C", "D"], 8, "snake")
    rounds = [[s.team for s in slots if s.round == r] for r in range(1, 9)]
    assert rounds[0] == rounds[2] == rounds[4] == rounds[6] == ["A", "B", "C", "D"]
    assert rounds[1] == rounds[3] == rounds[5] == rounds[7] == ["D", "C", "B", "A"]
    assert [s.number for s in slots] == list(range(1, 33))
    assert [s.team for s in pick_order(["A", "B"], 3, "straight")] == ["A", "B"] * 3


@given(TEAMS, st.integers(1, 12), st.sampled_from(["snake", "straight"]))
def test_every_team_picks_once_a_round(teams: list[str], rounds: int, order: str) -> None:
    slots = pick_order(teams, rounds, order)  # type: ignore[arg-type]
    assert len(slots) == len(teams) * rounds
    for r in range(1, rounds + 1):
        this = [s.team for s in slots if s.round == r]
        expected = list(reversed(teams)) if order == "snake" and r % 2 == 0 else list(teams)
        assert this == expected
    assert [s.number for s in slots] == list(range(1, len(slots) + 1))


@given(TEAMS, st.text(alphabet="0123456789abcdef", min_size=1, max_size=16))
def test_the_lottery_is_a_reproducible_order_of_the_teams(teams: list[str], seed: str) -> None:
    drawn = lottery(seed, teams)
    assert sorted(drawn) == sorted(teams)
    assert lottery(seed, list(reversed(teams))) == drawn  # the listing order doesn't matter, only the seed
    by_hand = sorted(teams, key=lambda t: hashlib.sha256(f"{seed}:{t.strip().casefold()}".encode()).hexdigest())
    assert drawn == by_hand


def test_different_seeds_draw_different_orders() -> None:
    teams = ["Hawks", "Owls", "Bears", "Wolves"]
    assert len({tuple(lottery(f"{i:04x}", teams)) for i in range(50)}) > 5


@given(TEAMS, st.integers(1, 8), st.integers(0, 100), st.integers(0, 100))
def test_who_is_on_the_clock_and_when_the_draft_ends(teams: list[str], rounds: int, made: int, left: int) -> None:
    slots = pick_order(teams, rounds, "snake")
    made = min(made, len(slots))
    step = progress(slots, made, left)
    if made == len(slots):
        assert step.over and step.why_over == "all picks made" and step.on_the_clock is None
    elif left == 0:  # fewer players than picks: over cleanly, the rest of the picks not made
        assert step.over and step.why_over == "no players left" and step.on_the_clock is None
    else:
        assert not step.over and step.on_the_clock == slots[made]


def test_the_pick_clock() -> None:
    now = datetime(2030, 1, 5, 17, 0, tzinfo=UTC)
    due = deadline(now, 90)
    assert due == now + timedelta(seconds=90)
    assert not clock_ran_out(now + timedelta(seconds=89), due) and clock_ran_out(due, due)
    assert not clock_ran_out(now, None)
