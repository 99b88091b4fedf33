"""Arena duties (youth 2.1 set up, 2.15 clean up, 3.7 (6) the bench minor): who is on a game's rota, from the
schedule by the league's rule and a commissioner's word (bot/league/discipline/cleanup.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.league.discipline.cleanup import (
    DutyRota,
    DutyWord,
    RotaGame,
    check_duty_can_be_missed,
    check_on_duty,
    duty_rota,
)
from bot.league.discipline.infractions import DisciplineError

TORONTO = ZoneInfo("America/Toronto")
FRI = datetime(2030, 1, 11, 19, tzinfo=TORONTO)  # Friday 11 January, 19:00
G1 = RotaGame(1, FRI, (10, 20))  # Hawks v Owls, 19:00
G2 = RotaGame(2, FRI + timedelta(hours=1), (30, 40))  # Bears v Wolves, 20:00: the week's last
SAT = RotaGame(3, FRI + timedelta(days=1), (10, 30))  # Saturday 19:00: the first of its own day
SAME_TIME = RotaGame(4, FRI, (50, 60))  # a second rink at 19:00
NEXT_WEEK = RotaGame(5, FRI + timedelta(days=7), (20, 40))


def rota(game: RotaGame, others: list[RotaGame], *, setup: bool = True, cleanup: bool = True,
         words: tuple[DutyWord, ...] = (), first_day: date | None = None) -> DutyRota:
    return duty_rota(game, others, TORONTO, first_day, setup_first_game_each_day=setup,
                     cleanup_last_game_each_week=cleanup, words=words)


@pytest.mark.parametrize(("game", "others", "setup", "cleanup"), [
    (G1, [G2], (10, 20), ()),  # first of the day, not last of the week
    (G2, [G1], (), (30, 40)),  # last of the week
    (G2, [G1, SAT], (), ()),  # Saturday follows it in the same (calendar) week
    (SAT, [G1, G2], (10, 30), (10, 30)),  # first of its day and last of the week
    (G1, [G2, SAME_TIME], (10, 20), ()),  # two games start together: both first
    (SAME_TIME, [G1, G2], (50, 60), ()),
    (G1, [], (10, 20), (10, 20)),  # alone in its week
    (G2, [G1, NEXT_WEEK], (), (30, 40)),  # next week's game doesn't count
], ids=["first-of-day", "last-of-week", "saturday-follows", "both", "tie-a", "tie-b", "alone", "next-week"])
def test_the_rule_reads_the_schedule(game: RotaGame, others: list[RotaGame], setup: tuple[int, ...],
                                     cleanup: tuple[int, ...]) -> None:
    found = rota(game, others)
    assert (found.setup, found.cleanup) == (setup, cleanup)
    assert found.by_commissioner == frozenset()


def test_weeks_count_from_the_seasons_first_day() -> None:
    """A season from Saturday 5 January counts Saturday-to-Friday weeks: Saturday the 12th is next week, so
    Friday's 20:00 game is the last of its week again."""
    assert rota(G2, [G1, SAT]).cleanup == ()
    assert rota(G2, [G1, SAT], first_day=date(2030, 1, 5)).cleanup == (30, 40)


def test_a_league_without_the_rules_has_an_empty_rota() -> None:
    found = rota(SAT, [G1, G2], setup=False, cleanup=False)
    assert not found and found.duties_of(10) == ()


def test_a_commissioners_word_wins_for_its_team_and_duty() -> None:
    words = (DutyWord(20, "setup", False), DutyWord(20, "cleanup", True), DutyWord(99, "setup", True))
    found = rota(G1, [G2], words=words)
    assert found.setup == (10,), "Owls taken off setup; a team not in the game is ignored"
    assert found.cleanup == (20,), "Owls put on cleanup though G1 isn't the week's last"
    assert found.by_commissioner == frozenset({("cleanup", 20)})
    assert found.duties_of(20) == ("cleanup",) and found.duties_of(10) == ("setup",)
    # Without any rule, a commissioner's word is the whole rota.
    only = rota(G1, [G2], setup=False, cleanup=False, words=(DutyWord(10, "setup", True),))
    assert (only.setup, only.cleanup) == ((10,), ())


def test_a_team_off_the_rota_is_refused_in_the_rules_words() -> None:
    found = rota(G2, [G1])
    check_on_duty(found, "cleanup", team_id=30, team="Bears", game="G2", rule_on=True, citation="Youth 2.15")
    with pytest.raises(DisciplineError) as setup:
        check_on_duty(found, "setup", team_id=30, team="Bears", game="G2", rule_on=True, citation="Youth 2.1")
    assert "G2 isn't the first game of its day, so Bears weren't scheduled to help set the arena up" in str(setup.value)
    assert setup.value.citation == "Youth 2.1"
    with pytest.raises(DisciplineError) as nobody:
        check_on_duty(DutyRota(), "cleanup", team_id=30, team="Bears", game="G2", rule_on=False, citation="")
    assert "Bears weren't on duty to clear the arena after G2" in str(nobody.value)
    assert nobody.value.citation == "league setting cleanup_duty_last_game_each_week"


@pytest.mark.parametrize(("duty", "now", "early"), [
    ("cleanup", FRI - timedelta(minutes=1), True),
    ("cleanup", FRI, False),
    ("setup", FRI - timedelta(hours=12), False),  # 07:00 the same day
    ("setup", datetime(2030, 1, 11, 4, 59, tzinfo=UTC), True),  # 23:59 the day before, in Toronto
    ("setup", FRI + timedelta(days=1), False),
])
def test_when_a_missed_duty_can_be_recorded(duty: str, now: datetime, early: bool) -> None:
    found = check_duty_can_be_missed(duty, now=now, starts_at=FRI, tz=TORONTO)  # type: ignore[arg-type]
    assert (found is not None) == early


def test_a_team_a_commissioner_took_off_duty_is_told_so() -> None:
    found = rota(G1, [G2], words=(DutyWord(10, "setup", False),))
    assert found.taken_off == frozenset({("setup", 10)})
    with pytest.raises(DisciplineError, match="A commissioner took Hawks off duty to help set up the arena before G1"):
        check_on_duty(found, "setup", team_id=10, team="Hawks", game="G1", rule_on=True, citation="Youth 2.1")
