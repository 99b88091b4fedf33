"""What a short team is missing, and which spares may be offered it (bot/league/spares)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.checkins.lineup import CheckedInPlayer, check_lineup
from bot.league.checkins.presets import LINEUP_PRESETS, lineup_rules_for
from bot.league.spares.matching import (
    SpareCandidate,
    Waves,
    days_text,
    fits,
    free_on,
    offer_waves,
    parse_days,
    role_for,
)
from bot.league.spares.needs import FIXABLE, Need, what_is_missing

COED = LINEUP_PRESETS["coed-ball-hockey"]
YOUTH = lineup_rules_for(LINEUP_PRESETS["youth-ball-hockey"], "senior")
INDOOR = LINEUP_PRESETS["indoor-soccer"]
FRIDAY = 4


def player(n: int, position: str = "skater", gender: str | None = "man") -> CheckedInPlayer:
    return CheckedInPlayer(player_id=n, name=f"P{n}", position=position, gender=gender)  # type: ignore[arg-type]


def men(count: int, start: int = 1) -> list[CheckedInPlayer]:
    return [player(start + i) for i in range(count)]


def need_of(rules: object, players: list[CheckedInPlayer]) -> Need:
    return what_is_missing(rules, check_lineup(rules, players))  # type: ignore[arg-type]


def test_coed_short_of_one_woman_needs_one_woman_nonbinary_skater() -> None:
    players = [player(1, gender="woman"), *men(4, 2), player(9, "goalie")]
    need = need_of(COED, players)
    assert need == Need(women_nonbinary=1)
    assert need.describe() == "1 woman/non-binary skater"


def test_coed_with_no_goalie_and_no_women_needs_both() -> None:
    need = need_of(COED, men(5))  # one of them stands in goal
    assert need.women_nonbinary == 2 and need.goalie and need.skaters == 0
    assert need.describe() == "2 women/non-binary skaters and a goalie"


def test_coed_full_and_legal_needs_nothing() -> None:
    players = [player(1, gender="woman"), player(2, gender="non-binary"), *men(3, 3), player(9, "goalie")]
    assert need_of(COED, players).met
    assert need_of(COED, players).describe() == "nothing"


def test_indoor_two_players_short_of_the_minimum_of_four() -> None:
    need = need_of(INDOOR, [player(1), player(9, "goalie")])
    assert need.minimum == 4 and need.short_of_minimum == 2
    assert need.skaters == 4  # to fill the court: 2 of them reach the minimum
    assert "2 to reach the minimum of 4" in need.describe()


def test_indoor_exactly_short_of_the_minimum_reads_as_the_issue_says() -> None:
    need = replace(Need(), skaters=2, minimum=4, short_of_minimum=2)
    assert need.describe() == "2 players to reach the minimum of 4"


def test_youth_without_a_goalie_needs_a_goalie() -> None:
    need = need_of(YOUTH, men(5))
    assert need.goalie and need.women_nonbinary == 0 and need.skaters == 0


def test_youth_three_players_and_no_goalie_need_a_goalie_not_a_fourth_player_to_start() -> None:
    # Youth 2.4 "3 players and one goalie": the one who would stand in goal skates once a goalie comes.
    need = need_of(YOUTH, men(3))
    assert need.describe() == "a goalie and 2 skaters to fill the court"
    assert need_of(YOUTH, men(2)).describe() == "a goalie and 3 players (1 to reach the minimum of 3, the rest to " \
                                                  "fill the court)"


@given(st.lists(st.tuples(st.sampled_from(["skater", "goalie"]),
                          st.sampled_from(["woman", "non-binary", "man", "prefer-not-to-say", None])),
                max_size=9),
       st.sampled_from([COED, YOUTH, INDOOR]))
def test_filling_the_need_clears_every_fixable_finding(roster: list[tuple[str, str | None]], rules: object) -> None:
    """The need is exact enough: spares of the kinds it names make the lineup legal."""
    players = [player(i + 1, pos, gender) for i, (pos, gender) in enumerate(roster)]
    need = need_of(rules, players)
    added = [player(100 + i, "skater", "woman") for i in range(need.women_nonbinary)]
    added += [player(200, "goalie", "man")] if need.goalie else []
    added += [player(300 + i, "skater", "man") for i in range(need.skaters)]
    report = check_lineup(rules, players + added)  # type: ignore[arg-type]
    assert not report.codes & FIXABLE, (need, report.findings)
    assert need.met == (not check_lineup(rules, players).codes & FIXABLE)  # type: ignore[arg-type]


def spare(n: int, *, positions: tuple[str, ...] = ("skater",), counts: bool = False, days: frozenset[int] = frozenset(),
          **flags: bool) -> SpareCandidate:
    return SpareCandidate(player_id=n, positions=frozenset(positions), counts_toward_women_nonbinary=counts,
                          free_days=days, **flags)


def test_a_missing_category_is_offered_only_to_spares_who_fill_it() -> None:
    need = Need(women_nonbinary=1)
    woman, man = spare(1, counts=True, days=frozenset({FRIDAY})), spare(2, days=frozenset({FRIDAY}))
    assert fits(need, woman) and not fits(need, man)
    assert offer_waves(need, [woman, man], FRIDAY) == Waves((1,), (), best=True)


def test_best_matches_are_free_that_day_the_rest_come_in_the_second_wave() -> None:
    need = Need(women_nonbinary=1)
    friday, monday = spare(1, counts=True, days=frozenset({FRIDAY})), spare(3, counts=True, days=frozenset({0}))
    assert offer_waves(need, [friday, monday], FRIDAY) == Waves((1,), (3,), best=True)


def test_a_spare_who_named_no_days_is_free_every_day() -> None:
    any_day, monday = spare(2, counts=True), spare(3, counts=True, days=frozenset({0}))
    assert all(free_on(any_day, day) for day in range(7))
    assert offer_waves(Need(women_nonbinary=1), [any_day, monday], FRIDAY) == Waves((2,), (3,), best=True)
    assert offer_waves(Need(skaters=1), [spare(4)], 6) == Waves((4,), (), best=True)


def test_with_no_best_match_everyone_who_fits_is_the_first_wave() -> None:
    monday, tuesday = spare(1, counts=True, days=frozenset({0})), spare(2, counts=True, days=frozenset({1}))
    assert offer_waves(Need(women_nonbinary=1), [monday, tuesday], FRIDAY) == Waves((1, 2), (), best=False)


@pytest.mark.parametrize("flag", ["busy", "suspended", "on_either_team"])
def test_busy_suspended_or_on_a_team_is_never_offered(flag: str) -> None:
    candidate = spare(1, counts=True, days=frozenset({FRIDAY}), **{flag: True})
    assert role_for(Need(women_nonbinary=1, skaters=2), candidate) is None
    assert offer_waves(Need(women_nonbinary=1), [candidate], FRIDAY) == Waves((), (), best=False)


def test_a_goalie_only_spare_fills_a_goalie_spot_not_a_skater_one() -> None:
    goalie = spare(1, positions=("goalie",), counts=True)
    assert role_for(Need(women_nonbinary=1), goalie) is None
    assert role_for(Need(goalie=True), goalie) == "goalie"
    both = spare(2, positions=("skater", "goalie"), counts=True)
    assert role_for(Need(women_nonbinary=1, goalie=True), both) == "skater"  # the category is scarcer
    assert role_for(Need(goalie=True, skaters=1), spare(3, positions=("skater", "goalie"))) == "goalie"


def test_days_are_read_in_any_reasonable_spelling() -> None:
    assert parse_days("Mon, wednesday SAT") == frozenset({0, 2, 5})
    assert parse_days("tues thurs") == frozenset({1, 3})
    assert parse_days("") == parse_days("any") == parse_days(None) == frozenset()
    assert days_text({5, 0}) == "Mon, Sat" and days_text(()) == "any day"
    for bad in ("someday", "m", "mond4y", "friyay"):
        with pytest.raises(ValueError):
            parse_days(bad)
