"""Who someone is in a league, the question every command asks first (storage/lookups.py)."""

from __future__ import annotations

from sqlalchemy import select

from storage.lookups import TeamRef, roster_place_and_captained, team_by_name, team_ref_by_id, team_ref_by_name
from storage.models import Player, Team, TeamCaptain
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


async def test_a_team_ref_reads_what_the_team_row_holds(harness: Harness, league: SampleLeague) -> None:
    """The plain-column team lookups (/schedule, /whoisin) agree with the ORM's, names case-blind."""
    league_id = next(iter(harness.bot.league_ids.values()))
    async with harness.bot.sessions() as session:
        hawks = await team_by_name(session, league_id, "Hawks")
        assert hawks is not None
        expected = TeamRef(hawks.id, "Hawks", "North")
        assert TeamRef.of(hawks) == expected
        assert await team_ref_by_name(session, league_id, "  hAWKS ") == expected
        assert await team_ref_by_id(session, league_id, hawks.id) == expected
        assert await team_ref_by_id(session, league_id + 1, hawks.id) is None  # another league's view
        assert await team_ref_by_name(session, league_id, "Nobody") is None
