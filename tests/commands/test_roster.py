"""/roster through the real command tree: captains and commissioners only, limits enforced."""

from __future__ import annotations

from sqlalchemy import func, select

from storage.models import Player, RosterEntry
from tests.conftest import SampleLeague
from tests.harness import Harness, Member


async def roster_rows(h: Harness) -> list[tuple[int, int, str]]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(RosterEntry.team_id, RosterEntry.player_id, RosterEntry.position)
                               .order_by(RosterEntry.player_id))
        return [tuple(r) for r in rows.all()]


async def test_roster_add_by_a_plain_player_is_refused_and_nothing_changes(
        harness: Harness, league: SampleLeague) -> None:
    before = await roster_rows(harness)
    newcomer = Member(id=800_000_000_000_000_001, name="New Nora")
    reply = await harness.slash("/roster add", as_=league.player("Alice Hart"), player=newcomer)
    assert reply.ephemeral
    assert "Only Hawks's captain or a commissioner" in reply.content
    assert await roster_rows(harness) == before
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Player)
                              .where(Player.discord_id == newcomer.id)) == 0


async def test_captain_without_the_captain_role_is_refused(harness: Harness, league: SampleLeague) -> None:
    before = await roster_rows(harness)
    newcomer = Member(id=800_000_000_000_000_002, name="New Nick")
    reply = await harness.slash("/roster add", as_=league.captain("Hawks", with_role=False), player=newcomer)
    assert "Only Hawks's captain" in reply.content
    assert await roster_rows(harness) == before


async def test_captain_adds_a_player_to_their_own_team(harness: Harness, league: SampleLeague) -> None:
    newcomer = Member(id=800_000_000_000_000_003, name="New Nell")
    reply = await harness.slash("/roster add", as_=league.captain("Hawks"), player=newcomer,
                                position="goalie", gender="woman")
    assert reply.ephemeral
    assert reply.content == "New Nell is now on Hawks (9 of 20 players)."
    shown = await harness.slash("/roster show", as_=league.captain("Hawks"))
    assert "New Nell · woman" in shown.text


async def test_a_player_can_be_on_one_team_per_league(harness: Harness, league: SampleLeague) -> None:
    before = await roster_rows(harness)
    owl = Member(id=int(league.players["Omar Fox"]["discord_id"]), name="Omar Fox")
    reply = await harness.slash("/roster add", as_=league.captain("Hawks"), player=owl)
    assert "already on Owls" in reply.content
    assert await roster_rows(harness) == before


async def test_roster_limit_from_the_preset_is_enforced(harness: Harness, league: SampleLeague) -> None:
    captain = league.captain("Hawks")
    for i in range(12):  # 8 on the sample roster + 12 = the co-ed limit of 20
        reply = await harness.slash("/roster add", as_=captain,
                                    player=Member(id=810_000_000_000_000_000 + i, name=f"Extra {i}"))
        assert "is now on Hawks" in reply.content
    before = await roster_rows(harness)
    reply = await harness.slash("/roster add", as_=captain,
                                player=Member(id=820_000_000_000_000_000, name="One Too Many"))
    assert reply.ephemeral and "the limit is 20" in reply.content
    assert await roster_rows(harness) == before


async def test_commissioner_removes_a_player(harness: Harness, league: SampleLeague) -> None:
    alice = Member(id=int(league.players["Alice Hart"]["discord_id"]), name="Alice Hart")
    reply = await harness.slash("/roster remove", as_=league.commissioner(), player=alice)
    assert reply.content == "Alice Hart was removed from Hawks (7 players left)."


async def test_captain_of_another_team_cannot_remove(harness: Harness, league: SampleLeague) -> None:
    before = await roster_rows(harness)
    alice = Member(id=int(league.players["Alice Hart"]["discord_id"]), name="Alice Hart")
    reply = await harness.slash("/roster remove", as_=league.captain("Owls"), player=alice)
    assert "Only Hawks's captain" in reply.content
    assert await roster_rows(harness) == before


async def test_roster_show_is_refused_to_players(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/roster show", as_=league.player("Alice Hart"))
    assert reply.ephemeral and "Only Hawks's captain" in reply.content
    assert "woman" not in reply.text

