"""Deadlines: offsets, nudges, the season calendar and the youth rulebook's deadlines."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.deadlines import (
    DEADLINE_PRESETS,
    MAX_OFFSET,
    DeadlineRules,
    Offset,
    check_relay,
    dispute_decision_due,
    format_offset,
    nudge_times,
    parse_offset,
    parse_offsets,
    relay_window,
    trade_deadline,
    week_end,
)
from bot.league.seasons import week_of

TORONTO = ZoneInfo("America/Toronto")
COED = DEADLINE_PRESETS["coed-ball-hockey"]
YOUTH = DEADLINE_PRESETS["youth-ball-hockey"]
SOCCER = DEADLINE_PRESETS["indoor-soccer"]
H = timedelta(hours=1)

# --------------------------------------------------------------------------- offsets


def hours(n: float) -> Offset:
    return Offset(elapsed=timedelta(hours=n))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("48h", hours(48)),
        ("30m", Offset(elapsed=timedelta(minutes=30))),
        ("2d", Offset(days=2)),
        ("1w", Offset(days=7)),
        (" 2H ", hours(2)),
        ("1d12h", Offset(days=1, elapsed=timedelta(hours=12))),
        ("1h 30m", Offset(elapsed=timedelta(hours=1, minutes=30))),
        ("2 d", Offset(days=2)),
        ("90m", Offset(elapsed=timedelta(minutes=90))),
        ("0m", Offset()),
        ("366d", Offset(days=MAX_OFFSET.days)),
        (timedelta(hours=3), hours(3)),
        (timedelta(days=2), hours(48)),
    ],
)
def test_parse_offset(text: str, expected: Offset) -> None:
    assert parse_offset(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", " ", "h", "48", "48x", "-2h", "2.5h", "1h1d", "2h2h", "4 8h", "٤٨h", "48h!", "367d", "1e3m"],
)
def test_parse_offset_refuses_garbage_clearly(text: str) -> None:
    with pytest.raises(ValueError, match=r"duration|longer than"):
        parse_offset(text)


@pytest.mark.parametrize("value", [48, None, 2.0, ["48h"], timedelta(hours=-1)])
def test_parse_offset_refuses_non_durations(value: object) -> None:
    with pytest.raises(ValueError):
        parse_offset(value)  # type: ignore[arg-type]


@given(st.one_of(st.text(max_size=20), st.text(alphabet="0123456789mhdwMHDW .-+_\n٤", max_size=12)))
def test_parse_offset_garbage_is_a_value_error_or_a_sane_duration(text: str) -> None:
    try:
        offset = parse_offset(text)
    except ValueError:
        return
    assert timedelta(0) <= offset.length <= MAX_OFFSET


@given(
    st.integers(min_value=0, max_value=999),
    st.sampled_from(["m", "h", "d", "w", "M", "H", "D"]),
    st.sampled_from(["", " "]),
)
def test_parse_offset_reads_number_and_unit(amount: int, unit: str, pad: str) -> None:
    size = {"m": 1, "h": 60, "d": 1440, "w": 10080}[unit.lower()]
    text = f"{pad}{amount}{pad}{unit}{pad}"
    if amount * size > MAX_OFFSET.total_seconds() // 60:
        with pytest.raises(ValueError):
            parse_offset(text)
    else:
        offset = parse_offset(text)
        assert offset.length == timedelta(minutes=amount * size)
        assert offset.days == (amount * size // 1440 if unit.lower() in "dw" else 0), "days stay calendar days"


@given(st.integers(min_value=0, max_value=366), st.integers(min_value=0, max_value=24 * 60 * 3))
def test_format_offset_round_trips(days: int, minutes: int) -> None:
    offset = Offset(days=days, elapsed=timedelta(minutes=minutes))
    if offset.length <= MAX_OFFSET:
        assert parse_offset(format_offset(offset)) == offset


def test_format_offset_never_writes_hours_as_days() -> None:
    assert [format_offset(parse_offset(t)) for t in ("48h", "2d", "36h", "90m", "0m", "1w", "1d12h", "1d30m")] == [
        "48h",
        "2d",
        "36h",
        "90m",
        "0m",
        "7d",
        "1d12h",
        "1d30m",
    ]
    assert format_offset(timedelta(hours=24)) == "24h"
    with pytest.raises(ValueError):
        format_offset(timedelta(seconds=30))


def test_parse_offsets_longest_first_without_duplicates() -> None:
    assert parse_offsets(["2h", "48h", "3d", "30m", "2h"]) == (
        Offset(days=3), hours(48), hours(2), Offset(elapsed=timedelta(minutes=30)))
    with pytest.raises(ValueError, match="list"):
        parse_offsets("48h")


def test_1d_and_24h_in_one_list_are_refused() -> None:
    """They would be the same reminder twice, a few real hours apart on a clock-change weekend."""
    with pytest.raises(ValueError, match="1d and 24h name the same reminder"):
        parse_offsets(["1d", "24h", "2h"])


# --------------------------------------------------------------------------- nudges

DUE = datetime(2024, 6, 10, 19, 0, tzinfo=TORONTO)
OFFSETS = ("72h", "24h", "2h")


def test_nudges_before_a_deadline_earliest_first() -> None:
    now = DUE - timedelta(days=5)
    assert nudge_times(DUE, OFFSETS, now) == [DUE - 72 * H, DUE - 24 * H, DUE - 2 * H]


def test_past_nudges_are_dropped() -> None:
    assert nudge_times(DUE, OFFSETS, DUE - 30 * H) == [DUE - 24 * H, DUE - 2 * H]


def test_nudge_at_exactly_now_is_kept() -> None:
    assert nudge_times(DUE, OFFSETS, DUE - 24 * H) == [DUE - 24 * H, DUE - 2 * H]


def test_one_late_nudge_when_all_are_overdue_but_the_deadline_is_not() -> None:
    """docs/product.md §5: missed while the bot was down: sent late, once, if still useful."""
    now = DUE - H
    assert nudge_times(DUE, OFFSETS, now) == [now]


def test_no_nudge_after_the_deadline() -> None:
    assert nudge_times(DUE, OFFSETS, DUE) == []
    assert nudge_times(DUE, OFFSETS, DUE + H) == []


def test_no_offsets_no_nudges() -> None:
    assert nudge_times(DUE, (), DUE - 100 * H) == []


def test_nudges_accept_timedeltas_and_drop_duplicates() -> None:
    now = DUE - 100 * H
    assert nudge_times(DUE, [2 * H, "2h", "120m"], now) == [DUE - 2 * H]


def test_nudge_offsets_are_elapsed_hours_across_dst() -> None:
    """24h before noon on the day clocks spring forward is 11:00 the day before (real hours)."""
    due = datetime(2024, 3, 10, 12, 0, tzinfo=TORONTO)
    (nudge,) = nudge_times(due, ["24h"], due - 48 * H)
    assert nudge.tzinfo is TORONTO
    assert (nudge.hour, nudge.day) == (11, 9)
    assert due.astimezone(UTC) - nudge.astimezone(UTC) == 24 * H


def test_nudges_need_aware_datetimes() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        nudge_times(datetime(2024, 6, 10, 19), OFFSETS, DUE - 100 * H)
    with pytest.raises(ValueError, match="timezone-aware"):
        nudge_times(DUE, OFFSETS, datetime(2024, 6, 1))


def test_bad_offset_in_nudges() -> None:
    with pytest.raises(ValueError, match="duration"):
        nudge_times(DUE, ["soon"], DUE - 100 * H)


# --------------------------------------------------------------------------- season calendar

WINTER_START = date(2024, 1, 8)  # a Monday; Toronto springs forward on 10 March 2024
FALL_START = date(2024, 9, 2)  # Toronto falls back on 3 November 2024


def test_week_end_is_local_midnight_after_dst_starts() -> None:
    """Youth 1.9: "end of week 10" in the league's zone, after the spring-forward change."""
    end = week_end(WINTER_START, 10, "America/Toronto")
    assert end == datetime(2024, 3, 18, 0, 0, tzinfo=TORONTO)
    assert end.utcoffset() == timedelta(hours=-4)
    assert end.astimezone(UTC) == datetime(2024, 3, 18, 4, 0, tzinfo=UTC)
    # Naively adding 70 * 24 hours to the start would land at 01:00 local.
    week0 = datetime(2024, 1, 8, tzinfo=TORONTO).astimezone(UTC)
    assert end.astimezone(UTC) - week0 == timedelta(days=70) - H


def test_week_end_before_dst_change() -> None:
    end = week_end(WINTER_START, 1, TORONTO)
    assert end.astimezone(UTC) == datetime(2024, 1, 15, 5, 0, tzinfo=UTC)


def test_week_end_after_dst_ends() -> None:
    end = week_end(FALL_START, 10, TORONTO)
    assert end == datetime(2024, 11, 11, 0, 0, tzinfo=TORONTO)
    assert end.astimezone(UTC) == datetime(2024, 11, 11, 5, 0, tzinfo=UTC)


def test_week_end_reads_a_start_datetime_in_the_league_zone() -> None:
    """03:00 UTC on 8 Jan is 22:00 on 7 Jan in Toronto: the season started on the 7th."""
    start = datetime(2024, 1, 8, 3, 0, tzinfo=UTC)
    assert week_end(start, 1, TORONTO) == datetime(2024, 1, 14, 0, 0, tzinfo=TORONTO)


@pytest.mark.parametrize("week", [0, -1, True, 2.0])
def test_week_end_refuses_bad_weeks(week: object) -> None:
    with pytest.raises(ValueError, match="week_n"):
        week_end(WINTER_START, week, TORONTO)  # type: ignore[arg-type]


@pytest.mark.parametrize("zone", ["Mars/Olympus", "America", "", "../etc"])
def test_week_end_refuses_unknown_zones(zone: str) -> None:
    with pytest.raises(ValueError, match="time zone"):
        week_end(WINTER_START, 1, zone)


def test_week_end_refuses_naive_start() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        week_end(datetime(2024, 1, 8), 1, TORONTO)


@pytest.mark.parametrize(
    ("when", "week"),
    [
        (datetime(2024, 1, 8, 0, 0, tzinfo=TORONTO), 1),
        (datetime(2024, 1, 14, 23, 59, tzinfo=TORONTO), 1),
        (datetime(2024, 1, 15, 0, 0, tzinfo=TORONTO), 2),
        (datetime(2024, 3, 17, 23, 59, tzinfo=TORONTO), 10),
        (datetime(2024, 3, 18, 0, 0, tzinfo=TORONTO), 11),
        (datetime(2024, 1, 7, 12, 0, tzinfo=TORONTO), None),  # the day before the season
        # 02:00 UTC on 15 Jan is still 14 Jan in Toronto.
        (datetime(2024, 1, 15, 2, 0, tzinfo=UTC), 1),
    ],
)
def test_week_of(when: datetime, week: int | None) -> None:
    assert week_of(WINTER_START, when, TORONTO) == week


# --------------------------------------------------------------------------- youth deadlines


def test_dispute_decision_due_in_five_days() -> None:
    """Youth 2.2: disputes concluded within 5 days; co-ed and indoor use the same default."""
    filed = datetime(2024, 9, 1, 12, 0, tzinfo=UTC)
    for rules in (YOUTH, COED, SOCCER):
        assert dispute_decision_due(filed, rules) == filed + timedelta(days=5)
    assert YOUTH.deadline_citations.dispute == "Youth 2.2"
    assert "silent" in COED.deadline_citations.dispute


def test_trade_deadline_is_end_of_week_10() -> None:
    """Youth 1.9: the deadline for trades is at the end of week 10."""
    assert trade_deadline(WINTER_START, TORONTO, YOUTH) == datetime(2024, 3, 18, tzinfo=TORONTO)
    assert trade_deadline(WINTER_START, TORONTO, COED) is None


# --------------------------------------------------------------------------- relays

GAME = datetime(2024, 6, 10, 19, 0, tzinfo=TORONTO)


def test_relay_window() -> None:
    assert relay_window(GAME, COED) == (GAME - 24 * H, GAME + 24 * H)


@pytest.mark.parametrize(
    ("now", "sent", "codes"),
    [
        (GAME, 0, []),
        (GAME - 24 * H, 4, []),
        (GAME + 24 * H, 0, []),
        (GAME - 25 * H, 0, ["relay_not_open"]),
        (GAME + 25 * H, 0, ["relay_closed"]),
        (GAME, 5, ["relay_limit"]),
        (GAME + 25 * H, 5, ["relay_closed", "relay_limit"]),
    ],
)
def test_check_relay(now: datetime, sent: int, codes: list[str]) -> None:
    """Co-ed rules: Ref interaction: captains relay; window and limit are league settings."""
    assert [v.code for v in check_relay(GAME, now, sent, COED)] == codes


# --------------------------------------------------------------------------- rules data


def test_presets() -> None:
    assert set(DEADLINE_PRESETS) == {"coed-ball-hockey", "youth-ball-hockey", "indoor-soccer"}
    assert (
        YOUTH.trade_deadline_week,
        YOUTH.dispute_decision_days,
        YOUTH.relay_limit_per_game,
        YOUTH.cleanup_duty_last_game_each_week,
    ) == (10, 5, 5, True)
    for rules in DEADLINE_PRESETS.values():
        assert parse_offsets(rules.default_nudge_offsets) == (hours(72), hours(24), hours(2))
        assert parse_offsets(rules.game_reminder_offsets) == (Offset(days=2), Offset(days=1), hours(2))
        assert parse_offsets(rules.captain_alert_lead_times) == (Offset(days=1), hours(3))


def test_rules_validation_names_the_key() -> None:
    with pytest.raises(ValueError, match=r"rules\.game_reminder_offsets"):
        replace(COED, game_reminder_offsets=("48h", "soon"))
    with pytest.raises(ValueError, match=r"rules\.trade_deadline_week"):
        DeadlineRules(trade_deadline_week=0)
    with pytest.raises(ValueError, match=r"rules\.relay_limit_per_game"):
        DeadlineRules(relay_limit_per_game=-1)


@pytest.mark.parametrize("removed", ["payment_due_days_after_registration",
                                     "injury_replacement_until_week", "injury_replacement_decision_days"])
def test_settings_that_did_nothing_are_unknown_now(removed: str) -> None:
    """These had no effect (trade_notice_hours is back: the trades' own, bot/league/trades.py)."""
    from bot.league.rules import RulesError, build_rules

    with pytest.raises(RulesError, match="unknown rule setting"):
        build_rules("youth-ball-hockey", {removed: 5})
