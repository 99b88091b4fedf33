"""/season start|end|show and standings by season through the real command tree."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from storage.models import Season
from tests.conftest import SampleLeague
from tests.harness import Harness


def first_column(text: str) -> list[list[str]]:
    rows = []
    for block in re.findall(r"```\n(.*?)\n```", text, re.S):
        rows += [line.split()[1:4] for line in block.splitlines()[1:]]
    return rows


async def seasons_stored(h: Harness) -> list[tuple[str, bool]]:
    async with h.bot.sessions() as session:
        rows = (await session.execute(select(Season.name, Season.ended_at).order_by(Season.starts_at))).all()
    return [(name, ended is not None) for name, ended in rows]


async def test_a_commissioner_starts_a_season_and_everyone_sees_its_week(harness: Harness,
                                                                          league: SampleLeague) -> None:
    started = await harness.slash("/season start", as_=league.commissioner(), name="Winter 2030",
                                  first_day="2030-01-01", weeks=8)
    assert started.ephemeral
    assert started.content == ("Started **Winter 2030**: from 2030-01-01, 8 regular-season weeks, 6 games; "
                               "week 1 of 8.\nRosters kept: 28 players stay on their teams (4 teams).")
    harness.bot.clock.advance(days=10)  # type: ignore[attr-defined]  # 15 January: week 3
    shown = await harness.slash("/season show", as_=league.player("Alice Hart"))
    assert shown.ephemeral and "Current season: **Winter 2030**" in shown.content and "week 3 of 8" in shown.content
    assert await seasons_stored(harness) == [("Winter 2030", False)]


async def test_a_player_cannot_start_or_end_a_season(harness: Harness, league: SampleLeague) -> None:
    refused = await harness.slash("/season start", as_=league.player("Alice Hart"), name="Mine",
                                  first_day="2030-01-01", weeks=8)
    assert refused.ephemeral and "Only a commissioner" in refused.content
    refused = await harness.slash("/season end", as_=league.player("Alice Hart"))
    assert refused.ephemeral and "Only a commissioner" in refused.content
    assert await seasons_stored(harness) == []
    shown = await harness.slash("/season show", as_=league.player("Alice Hart"))
    assert "no seasons yet" in shown.content


async def test_bad_input_is_refused_politely_and_changes_nothing(harness: Harness, league: SampleLeague) -> None:
    boss = league.commissioner()
    bad_day = await harness.slash("/season start", as_=boss, name="Winter", first_day="1/7/2030", weeks=8)
    assert bad_day.ephemeral and "YYYY-MM-DD" in bad_day.content
    await harness.slash("/season start", as_=boss, name="Winter", first_day="2030-01-07", weeks=2)
    running = await harness.slash("/season start", as_=boss, name="Spring", first_day="2030-03-01", weeks=8)
    assert running.content == "Winter is still running: end it first with /season end."
    await harness.slash("/season end", as_=boss)
    again = await harness.slash("/season end", as_=boss)
    assert again.ephemeral and "No season is running" in again.content
    same = await harness.slash("/season start", as_=boss, name="winter", first_day="2030-03-01", weeks=8)
    assert "already has a season called “winter”" in same.content
    earlier = await harness.slash("/season start", as_=boss, name="Before", first_day="2030-01-01", weeks=8)
    assert "must start after Winter started (2030-01-07)" in earlier.content
    assert await seasons_stored(harness) == [("Winter", True)]


async def test_standings_count_the_current_season_and_show_an_earlier_one(harness: Harness,
                                                                          league: SampleLeague) -> None:
    boss, ref, alice = league.commissioner(), league.referee(), league.player("Alice Hart")
    await harness.slash("/season start", as_=boss, name="Winter 2030", first_day="2030-01-07", weeks=1)
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]  # 12 January
    entered = await harness.slash("/result enter", as_=ref, game="G1", home=1, away=0, decided="regulation")
    assert "Recorded" in entered.content
    await harness.slash("/season end", as_=boss)
    # G1 (11 January) has a result: a season starting before it would take it from Winter 2030.
    taking = await harness.slash("/season start", as_=boss, name="Late Winter", first_day="2030-01-10", weeks=2)
    assert taking.ephemeral and "already have results (1)" in taking.content
    await harness.slash("/season start", as_=boss, name="Late Winter", first_day="2030-01-14", weeks=2)
    harness.bot.clock.advance(days=7)  # type: ignore[attr-defined]  # 19 January
    await harness.slash("/result enter", as_=ref, game="G3", home=5, away=1, decided="regulation")  # Owls beat Hawks

    now = await harness.slash("/standings show", as_=alice, division="North")
    assert "Late Winter" in now.first.embeds[0]["title"]
    assert first_column(now.text) == [["Owls", "1", "1"], ["Hawks", "1", "0"]]  # team, GP, W: G3 only
    before = await harness.slash("/standings show", as_=alice, division="North", season="winter 2030")
    assert "Winter 2030" in before.first.embeds[0]["title"]
    assert first_column(before.text) == [["Hawks", "1", "1"], ["Owls", "1", "0"]]  # G1 only
    unknown = await harness.slash("/standings show", as_=alice, season="Summer")
    assert unknown.ephemeral
    assert unknown.content == "There's no season “Summer” (seasons: Winter 2030, Late Winter)."

    choices = await harness.autocomplete("/standings show", focused="season", as_=alice, season="win")
    assert [c["value"] for c in choices.autocomplete_choices] == ["Late Winter", "Winter 2030"]
    shown = await harness.slash("/season show", as_=alice)
    assert "Current season: **Late Winter**" in shown.content and "Earlier: Winter 2030" in shown.content


async def test_a_league_without_seasons_counts_every_game(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=1, away=0, decided="regulation")
    await harness.slash("/result enter", as_=league.referee(), game="G3", home=1, away=0, decided="regulation")
    reply = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="North")
    assert first_column(reply.text) == [["Hawks*", "2", "1"], ["Owls*", "2", "1"]]  # level: both games count
    async with harness.bot.sessions() as session:
        assert await session.scalar(select(func.count(Season.id))) == 0
