"""Who someone is in a league, the question every command asks first (storage/repos/core.py)."""

from __future__ import annotations

from sqlalchemy import select

from storage.models import Player, Team, TeamCaptain
from storage.repos.core import roster_place_and_captained
from tests.conftest import SampleLeague
from tests.harness import Harness

ALICE = 500_000_000_000_000_001  # on the Hawks' roster and their captain (tests/data)


async def test_a_player_who_captains_two_teams_gets_both(harness: Harness, league: SampleLeague) -> None:
    league_id = next(iter(harness.bot.league_ids.values()))
    async with harness.bot.sessions.begin() as session:
        teams = {t.name: t.id for t in (await session.scalars(select(Team))).all()}
        session.add(TeamCaptain(league_id=league_id, team_id=teams["Owls"], discord_id=ALICE))
    async with harness.bot.sessions() as session:
        alice = await session.scalar(select(Player.id).where(Player.discord_id == ALICE))
        assert await roster_place_and_captained(session, league_id, ALICE) == (
            teams["Hawks"], alice, {teams["Hawks"], teams["Owls"]})


async def test_a_stranger_has_no_place_and_no_team(harness: Harness, league: SampleLeague) -> None:
    league_id = next(iter(harness.bot.league_ids.values()))
    async with harness.bot.sessions() as session:
        assert await roster_place_and_captained(session, league_id, 700_000_000_000_000_003) == (None, None, set())
        assert await roster_place_and_captained(session, league_id + 1, ALICE) == (None, None, set())  # no league
