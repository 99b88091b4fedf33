"""/roster through the real command tree: captains and commissioners only, limits enforced."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage import lookups
from storage.models import Player, RosterEntry
from tests.conftest import SampleLeague
from tests.harness import Harness, Member, Reply
from tests.harness.fake_discord import settle


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



# --- two at once ----------------------------------------------------------------------------------
async def at_once(h: Harness, commands: list[tuple[str, Member, dict[str, Any]]]) -> list[Reply]:
    """Several slash commands arriving together, each reply told apart by its interaction."""
    guild = h.default_guild
    payloads = [h._base(2, actor, guild, None, h._command_data(path, options, guild))
                for path, actor, options in commands]
    start, baseline = len(h.discord.calls), set(asyncio.all_tasks())
    for payload in payloads:
        h.bot._connection.parsers["INTERACTION_CREATE"](payload)
    await settle(baseline)
    calls = h.discord.calls[start:]
    return [Reply([c for c in calls if c.path.startswith(f"/interactions/{p['id']}/")]) for p in payloads]


def side_by_side(monkeypatch: pytest.MonkeyPatch, discord_id: int) -> None:
    """Hold each unit of work that finds no player row for ``discord_id`` until two have looked (or
    a second passed): both then create one, as two captains pressing Enter together do."""
    real, looked, both = lookups.player_by_discord, [], asyncio.Event()

    async def player_by_discord(session: AsyncSession, league_id: int, wanted: int) -> Player | None:
        found = await real(session, league_id, wanted)
        if wanted == discord_id and found is None:
            looked.append(wanted)
            if len(looked) >= 2:
                both.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(both.wait(), 1)
        return found

    monkeypatch.setattr(lookups, "player_by_discord", player_by_discord)


async def newcomer_rows(h: Harness, discord_id: int) -> tuple[int, list[tuple[int, int, str]]]:
    async with h.bot.sessions() as s:
        players = await s.scalar(select(func.count()).select_from(Player).where(Player.discord_id == discord_id))
        entries = await s.execute(select(RosterEntry.team_id, RosterEntry.player_id, RosterEntry.position)
                                  .join(Player, RosterEntry.player_id == Player.id)
                                  .where(Player.discord_id == discord_id))
        return players or 0, [tuple(r) for r in entries.all()]


async def test_the_same_new_member_added_by_two_captains_at_once(
        harness: Harness, league: SampleLeague, monkeypatch: pytest.MonkeyPatch) -> None:
    """On PostgreSQL the second one's new player row broke the unique key and
    its captain read "something went wrong"; now it is told where the player went."""
    newcomer = Member(id=800_000_000_000_000_060, name="New Nico")
    side_by_side(monkeypatch, newcomer.id)
    hawks, owls = await at_once(harness, [("/roster add", league.captain("Hawks"), {"player": newcomer}),
                                          ("/roster add", league.captain("Owls"), {"player": newcomer})])
    answers = sorted([hawks.content, owls.content])
    assert hawks.ephemeral and owls.ephemeral, answers
    assert not any("went wrong" in a for a in answers), answers
    added = [a for a in answers if "is now on" in a]
    assert len(added) == 1, answers
    team = "Hawks" if "Hawks" in added[0] else "Owls"
    assert any(f"New Nico is already on {team}" in a for a in answers), answers
    players, entries = await newcomer_rows(harness, newcomer.id)
    assert players == 1 and len(entries) == 1


async def test_the_same_new_member_added_to_one_team_twice_at_once(
        harness: Harness, league: SampleLeague, monkeypatch: pytest.MonkeyPatch) -> None:
    """A captain and a commissioner adding the same newcomer to Hawks together: both are told it's done."""
    newcomer = Member(id=800_000_000_000_000_061, name="New Nina")
    side_by_side(monkeypatch, newcomer.id)
    replies = await at_once(harness, [
        ("/roster add", league.captain("Hawks"), {"player": newcomer}),
        ("/roster add", league.commissioner(), {"player": newcomer, "team": "Hawks", "position": "goalie"})])
    answers = sorted(r.content for r in replies)
    assert all(r.ephemeral for r in replies), answers
    assert [a.split(" (")[0] for a in answers] == ["New Nina is now on Hawks", "New Nina was already on Hawks"]
    players, entries = await newcomer_rows(harness, newcomer.id)
    assert players == 1 and len(entries) == 1
