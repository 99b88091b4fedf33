"""The cleanup-duty use cases (bot/services/discipline/cleanup.py) on SQLite and PostgreSQL: the week's last
game is the one the reminders name, "their next game" is read from the schedule, a record is stored once.

Sample schedule (Toronto): G2 Bears v Wolves on Friday 11 January at 20:00, G4 Wolves v Bears on the 18th.
"""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from bot.access import Caller
from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.errors import Conflict
from bot.services.discipline.cleanup import bench_minors_at_start
from storage.models import Game, MissedCleanup
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

YOUTH = make_settings(league_config(preset="youth-ball-hockey"))
AFTER_G2 = datetime(2030, 1, 12, 3, 0, tzinfo=UTC)
BEARS, WOLVES = 600_000_000_000_000_003, 500_000_000_000_000_031
REFEREE, COMMISSIONER = 700_000_000_000_000_001, 700_000_000_000_000_002


@pytest.fixture
def settings() -> Settings:
    return YOUTH


def as_referee(h: Harness) -> Caller:
    league = h.bot.settings.leagues[0]
    return Caller(REFEREE, "Ref Rita", league, h.bot.league_ids[league.guild_id],
                  frozenset({league.roles.referee or 0}))


async def game(h: Harness, code: str) -> Game:
    async with h.bot.sessions() as s:
        found = await s.scalar(select(Game).where(Game.code == code))
        assert found is not None
        return found


async def test_two_referees_at_the_same_moment_store_it_once(harness: Harness, league: SampleLeague,
                                                             clock: FixedClock) -> None:
    clock.set(AFTER_G2)
    service = harness.bot.services.cleanup
    outcomes = await asyncio.gather(*(service.missed(as_referee(harness), game_code="G2", team_name="Bears")
                                      for _ in range(2)), return_exceptions=True)
    recorded = [o for o in outcomes if not isinstance(o, BaseException)]
    assert all(isinstance(o, Conflict) for o in outcomes if isinstance(o, BaseException))
    assert [o.already for o in recorded].count(False) <= 1 and recorded
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(MissedCleanup)) == 1


async def test_the_bench_minor_is_read_for_the_next_games_teams_only(harness: Harness, league: SampleLeague,
                                                                      clock: FixedClock) -> None:
    clock.set(AFTER_G2)
    recorded = await harness.bot.services.cleanup.missed(as_referee(harness), game_code="G2", team_name="Bears")
    assert recorded.lands_on is not None and recorded.lands_on.code == "G4"
    lg = harness.bot.settings.leagues[0]
    league_id = harness.bot.league_ids[lg.guild_id]
    g4, g5 = await game(harness, "G4"), await game(harness, "G5")
    async with harness.bot.sessions() as s:
        at_g4 = await bench_minors_at_start(s, lg, league_id, game_id=g4.id, starts_at=g4.starts_at,
                                            team_ids=g4.team_ids())
        wolves_only = await bench_minors_at_start(s, lg, league_id, game_id=g4.id, starts_at=g4.starts_at,
                                                  team_ids=[g4.home_team_id])
        at_g5 = await bench_minors_at_start(s, lg, league_id, game_id=g5.id, starts_at=g5.starts_at,
                                            team_ids=g5.team_ids())
        other_league = await bench_minors_at_start(s, lg, league_id + 1, game_id=g4.id, starts_at=g4.starts_at,
                                                   team_ids=g4.team_ids())
    assert [(b.team, b.minutes, b.missed_game, b.citation) for b in at_g4] == [("Bears", 2, "G2", "Youth 2.15")]
    assert wolves_only == () and at_g5 == () and other_league == ()


async def test_the_minutes_recorded_stay_when_the_setting_changes(harness: Harness, league: SampleLeague,
                                                                  clock: FixedClock) -> None:
    clock.set(AFTER_G2)
    await harness.bot.services.cleanup.missed(as_referee(harness), game_code="G2", team_name="Bears")
    lg = harness.bot.settings.leagues[0]
    four = dataclasses.replace(lg, rules=dataclasses.replace(lg.rules, deadlines=dataclasses.replace(
        lg.rules.deadlines, cleanup_missed_bench_minor_minutes=4)))
    g4 = await game(harness, "G4")
    async with harness.bot.sessions() as s:
        (served,) = await bench_minors_at_start(s, four, harness.bot.league_ids[lg.guild_id], game_id=g4.id,
                                                starts_at=g4.starts_at, team_ids=g4.team_ids())
    assert served.minutes == 2, "a recorded penalty is what it was when recorded"


async def test_the_reminders_and_the_record_agree_on_the_weeks_last_game(harness: Harness, league: SampleLeague,
                                                                          clock: FixedClock) -> None:
    """A season from Friday 4 January counts Friday-to-Thursday weeks: a game on Monday the 14th is then in
    G2's week and the last of it, so its teams are reminded, and Bears (G2) weren't scheduled to clean up."""
    kay = league.commissioner()
    started = await harness.slash("/season start", as_=kay, name="Winter 2030", first_day="2030-01-04", weeks=8)
    assert "Started **Winter 2030**" in started.content
    added = await harness.slash("/game add", as_=kay, home="Hawks", away="Owls", starts_at="2030-01-14 19:00",
                                code="M1")
    assert "Added `M1`" in added.content
    m1, g2 = await game(harness, "M1"), await game(harness, "G2")
    for before in (g2, m1):  # each game's reminder two hours before it
        clock.set(before.starts_at - timedelta(hours=2))
        await harness.bot.courier.deliver_due()
    hawks_channel = int(league.teams["Hawks"]["channel_id"])
    bears_channel = int(league.teams["Bears"]["channel_id"])
    m1_reminders = [m for m in harness.discord.channel_messages(hawks_channel) if "`M1`" in m.content]
    g2_reminders = [m for m in harness.discord.channel_messages(bears_channel) if "`G2`" in m.content]
    assert m1_reminders and all("🧹 Cleanup duty" in m.content for m in m1_reminders)
    assert g2_reminders and all("Cleanup" not in m.content for m in g2_reminders)
    with pytest.raises(Conflict, match=r"G2 isn't the last game of its week \(M1 follows it\)"):
        await harness.bot.services.cleanup.missed(as_referee(harness), game_code="G2", team_name="Bears")
    clock.set(m1.starts_at + timedelta(hours=2))
    recorded = await harness.bot.services.cleanup.missed(as_referee(harness), game_code="M1", team_name="Owls")
    assert recorded.lands_on is not None and recorded.lands_on.code == "G3"
