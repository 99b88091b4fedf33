"""Youth 1.9's trades as pure rules: the notice, the time asked, the deadline week, the veto's window.

The season starts Monday 7 January 2030 (Toronto): week 10 ends at local midnight starting Monday 18 March.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.deadlines import trade_deadline
from bot.league.rules import RulesError, build_rules, preset
from bot.league.trades import (
    MAX_PLAYERS_PER_SIDE,
    OPEN,
    STATES,
    TradeRules,
    check_effect,
    check_sides,
    effect_time,
    vetoable,
)

TZ = ZoneInfo("America/Toronto")
YOUTH = preset("youth-ball-hockey")
DEADLINE = trade_deadline(date(2030, 1, 7), TZ, YOUTH.deadlines)
moments = st.datetimes(min_value=datetime(2029, 1, 1), max_value=datetime(2031, 1, 1), timezones=st.just(UTC))


def test_the_presets_follow_their_rulebooks() -> None:
    assert (YOUTH.trades.trades_only_after_draft, YOUTH.trades.trade_notice_hours) == (True, 24)
    assert YOUTH.trades.trade_citations.trade == "Youth 1.9"
    for name in ("coed-ball-hockey", "indoor-soccer"):
        rules = preset(name).trades
        assert not rules.trades_only_after_draft and rules.trade_citations.trade == ""
    assert datetime(2030, 3, 18, 0, 0, tzinfo=TZ) == DEADLINE


def test_settings_are_checked() -> None:
    assert build_rules("youth-ball-hockey", {"trade_notice_hours": 48}).trades.trade_notice_hours == 48
    assert not build_rules("youth-ball-hockey", {"trades_only_after_draft": False}).trades.trades_only_after_draft
    with pytest.raises(RulesError, match="trade_notice_hours"):
        build_rules("youth-ball-hockey", {"trade_notice_hours": -1})
    with pytest.raises(RulesError, match="trades_only_after_draft"):
        build_rules("youth-ball-hockey", {"trades_only_after_draft": "yes"})
    with pytest.raises(ValueError, match="negative"):
        TradeRules(trade_notice_hours=-1)


@given(submitted=moments, asked=st.none() | moments, hours=st.integers(0, 336))
def test_a_trade_takes_effect_at_the_later_of_the_notice_and_the_time_asked(
        submitted: datetime, asked: datetime | None, hours: int) -> None:
    rules = TradeRules(trade_notice_hours=hours)
    effect = effect_time(submitted, rules, asked)
    assert effect >= submitted + timedelta(hours=hours)
    assert effect in {submitted + timedelta(hours=hours), asked}
    if asked is not None:
        assert effect >= asked


def test_23_hours_before_a_game_the_trade_takes_effect_an_hour_after_it_starts() -> None:
    game = datetime(2030, 1, 18, 19, 0, tzinfo=TZ)
    assert effect_time(game - timedelta(hours=23), YOUTH.trades) == game + timedelta(hours=1)


@given(effect=moments)
def test_only_a_trade_taking_effect_before_the_end_of_week_10_is_allowed(effect: datetime) -> None:
    problem = check_effect(effect, DEADLINE, 10, YOUTH.trades)
    assert (problem is None) == (effect < DEADLINE)
    if problem is not None:
        assert problem.rule == "Youth 1.9" and "end of week 10" in problem.message
        assert problem.cited().endswith("(Youth 1.9)")


def test_without_a_deadline_week_any_time_is_allowed() -> None:
    assert check_effect(datetime(2031, 1, 1, tzinfo=UTC), None, None, preset("coed-ball-hockey").trades) is None


def code(out_ids: list[int], in_ids: list[int]) -> str | None:
    problem = check_sides(out_ids, in_ids)
    return problem.code if problem is not None else None


def test_sides() -> None:
    assert code([1], []) is None and code([1, 2], [3]) is None
    assert code([], []) == "empty"
    assert code([1, 1], [2]) == "twice" and code([1], [1]) == "twice"
    assert code(list(range(MAX_PLAYERS_PER_SIDE + 1)), []) == "too_many"


@given(state=st.sampled_from(STATES), effect=moments, now=moments)
def test_a_veto_comes_while_the_trade_is_open_and_before_its_effect(state: str, effect: datetime,
                                                                    now: datetime) -> None:
    assert vetoable(state, effect, now) == (state in OPEN and now < effect)


def test_naive_times_are_refused() -> None:
    with pytest.raises(ValueError):
        effect_time(datetime(2030, 1, 1), YOUTH.trades)
