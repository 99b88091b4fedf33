"""Youth 1.20.2: an unfinished suspension "will continue the subsequent season in which that particular
player registers" (suspensions_carry_into_next_season); with the setting off it ends at the next season.

Hawks play G1, G3, G5; Owls G1, G3, G6 (tests/data/games.csv). Winter 2030 holds G1 and G2; Spring
2030 starts on 14 January.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.commands.discipline.test_suspensions import enter_result, rows, suspend
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

YOUTH = make_settings(league_config(preset="youth-ball-hockey"))
NO_CARRY = make_settings(league_config(preset="youth-ball-hockey",
                                       rules={"suspensions_carry_into_next_season": False}))


async def winter_then_spring(h: Harness, league: SampleLeague, spring_started_on: datetime | None = None,
                             **rosters: str) -> str:
    """Alice (Hawks) suspended for 3 games in Winter 2030, one served there (G1); Spring 2030 starts
    (``rosters="clear"``: with every player off their team), on ``spring_started_on`` if given, else
    right after G1. Returns the start's answer."""
    boss = league.commissioner()
    started = await h.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=1)
    assert "Started" in started.content, started.content
    await suspend(h, league, "Alice Hart", 3)
    await enter_result(h, league, "G1")
    assert await rows(h) == [("Alice Hart", 3, 1, "active")]
    assert "Ended" in (await h.slash("/season end", as_=boss)).content
    if spring_started_on is not None:
        h.bot.clock.set(spring_started_on)  # type: ignore[attr-defined]
    started = await h.slash("/season start", as_=boss, name="Spring 2030", first_day="2030-01-14", weeks=2, **rosters)
    assert "Started" in started.content, started.content
    return started.content


@pytest.mark.parametrize("settings", [YOUTH])
async def test_the_rest_is_served_in_the_next_season_she_is_rostered_in(harness: Harness,
                                                                        league: SampleLeague) -> None:
    await winter_then_spring(harness, league)
    boss, alice = league.commissioner(), league.player("Alice Hart")
    # She doesn't register at first: Hawks' Spring game G3 is not hers to sit out.
    removed = await harness.slash("/roster remove", as_=boss, player=alice)
    assert "was removed from Hawks" in removed.content, removed.content
    await enter_result(harness, league, "G3")
    assert await rows(harness) == [("Alice Hart", 3, 1, "active")]
    # She registers with Owls: their games take the two games left, and she can't check in for them.
    harness.bot.clock.set(datetime(2030, 1, 20, 12, tzinfo=UTC))  # type: ignore[attr-defined]
    added = await harness.slash("/roster add", as_=boss, player=alice, team="Owls")
    assert "is now on Owls" in added.content, added.content
    refused = await harness.slash("/checkin", as_=alice, status="in", game="G6")
    assert refused.ephemeral and "You can't check in for G6" in refused.content, refused.content
    await enter_result(harness, league, "G6")
    assert await rows(harness) == [("Alice Hart", 3, 2, "active")]
    listing = (await harness.slash("/suspensions", as_=boss)).text
    assert "Alice Hart (Owls) · 1 of 3 games left" in listing


@pytest.mark.parametrize("settings", [NO_CARRY])
async def test_with_the_setting_off_it_ends_when_the_next_season_plays(harness: Harness,
                                                                       league: SampleLeague) -> None:
    await winter_then_spring(harness, league)
    alice = league.player("Alice Hart")
    # Spring's first game hasn't been played: nothing ends before then, and G3 is not hers to sit out.
    assert await rows(harness) == [("Alice Hart", 3, 1, "active")]
    await enter_result(harness, league, "G3")
    assert await rows(harness) == [("Alice Hart", 3, 1, "served")]
    checked = await harness.slash("/checkin", as_=alice, status="in", game="G5")
    assert "can't" not in checked.content, checked.content


@pytest.mark.parametrize("settings", [YOUTH])
@pytest.mark.parametrize("started_on", [None, datetime(2030, 1, 15, 12, tzinfo=UTC)],
                         ids=["before-its-first-day", "after-its-first-day"])
async def test_after_the_rosters_are_cleared_it_waits_until_she_is_on_a_team_again(
        harness: Harness, league: SampleLeague, started_on: datetime | None) -> None:
    """Youth 1.20.2 with Spring started rosters:clear (on 12 January, or back-dated from the 15th): her
    old team's games don't count while she is on no roster; the rest resumes once she is added back."""
    boss, alice = league.commissioner(), league.player("Alice Hart")
    answer = await winter_then_spring(harness, league, started_on, rosters="clear")
    assert "Rosters cleared: 28 players left their teams (4 teams)" in answer, answer
    assert await rows(harness) == [("Alice Hart", 3, 1, "active")]
    # Hawks play G3 in Spring: she is on no roster, so it is not hers to sit out.
    await enter_result(harness, league, "G3")
    assert await rows(harness) == [("Alice Hart", 3, 1, "active")]
    listing = (await harness.slash("/suspensions", as_=boss)).text
    assert "Alice Hart" in listing and "2 of 3 games left" in listing, listing
    # She registers with Hawks again: their next game takes the next of her two games, and she can't play it.
    harness.bot.clock.set(datetime(2030, 1, 20, 12, tzinfo=UTC))  # type: ignore[attr-defined]
    added = await harness.slash("/roster add", as_=boss, player=alice, team="Hawks")
    assert added.content == "Alice Hart is now on Hawks (1 player).", added.content
    refused = await harness.slash("/checkin", as_=alice, status="in", game="G5")
    assert refused.ephemeral and "You can't check in for G5" in refused.content, refused.content
    await enter_result(harness, league, "G5")
    assert await rows(harness) == [("Alice Hart", 3, 2, "active")]
    listing = (await harness.slash("/suspensions", as_=boss)).text
    assert "Alice Hart (Hawks) · 1 of 3 games left" in listing, listing
    # Moved on to Owls: her history keeps the gap before she came back to Hawks, so G3 stays not hers.
    assert "was removed from Hawks" in (await harness.slash("/roster remove", as_=boss, player=alice)).content
    assert "is now on Owls" in (await harness.slash("/roster add", as_=boss, player=alice, team="Owls")).content
    listing = (await harness.slash("/suspensions", as_=boss)).text
    assert "Alice Hart (Owls) · 1 of 3 games left" in listing, listing


@pytest.mark.parametrize("settings", [YOUTH])
async def test_with_the_rosters_kept_her_teams_next_game_counts(harness: Harness, league: SampleLeague) -> None:
    answer = await winter_then_spring(harness, league, rosters="keep")
    assert "Rosters kept: 28 players stay on their teams (4 teams)." in answer, answer
    await enter_result(harness, league, "G3")
    assert await rows(harness) == [("Alice Hart", 3, 2, "active")]
