"""A suspension belongs to the person (youth 1.20.1): it follows a player moved to another team.

The scenario through the command tree: a player suspended for 2 games on Hawks, moved to
Wolves by the commissioner, is refused for Wolves' next game; Hawks' games no longer count her
suspension down, and Wolves' do.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from storage.models import RosterDeparture, Suspension
from tests.commands.discipline.test_suspensions import STARTS, enter_result, rows, suspend
from tests.conftest import SampleLeague
from tests.harness import Harness

# Hawks play G1, G3, G5; Wolves G2, G4, G6 (tests/data/games.csv).


async def move(h: Harness, league: SampleLeague, name: str, to: str) -> None:
    commissioner = league.commissioner()
    removed = await h.slash("/roster remove", as_=commissioner, player=league.player(name))
    assert "was removed from" in removed.content, removed.content
    added = await h.slash("/roster add", as_=commissioner, player=league.player(name), team=to)
    assert f"is now on {to}" in added.content, added.content


async def test_moved_before_any_game_her_suspension_follows_her_to_wolves(
        harness: Harness, league: SampleLeague) -> None:
    alice = league.player("Alice Hart")
    await suspend(harness, league, "Alice Hart", 2)
    await move(harness, league, "Alice Hart", "Wolves")

    refused = await harness.slash("/checkin", as_=alice, status="in", game="G2")
    assert refused.ephemeral and "You can't check in for G2" in refused.content, refused.content
    listing = (await harness.slash("/suspensions", as_=league.commissioner())).text
    assert "Alice Hart (Wolves)" in listing and "Sits out: G2" in listing and "G4" in listing
    assert "G1" not in listing, "Hawks' games are no longer hers to sit out"

    await enter_result(harness, league, "G1")  # Hawks' game: doesn't count any more
    assert await rows(harness) == [("Alice Hart", 2, 0, "active")]
    await enter_result(harness, league, "G2")  # Wolves' game: counts
    assert await rows(harness) == [("Alice Hart", 2, 1, "active")]
    assert "You can't check in for G4" in (await harness.slash("/checkin", as_=alice, status="in",
                                                                 game="G4")).content
    await enter_result(harness, league, "G3")  # Hawks again: nothing
    assert await rows(harness) == [("Alice Hart", 2, 1, "active")]
    await enter_result(harness, league, "G4")
    assert await rows(harness) == [("Alice Hart", 2, 2, "served")]
    assert "can't" not in (await harness.slash("/checkin", as_=alice, status="in", game="G6")).content

    await harness.bot.courier.deliver_due()
    dms = [dm.content for dm in harness.discord.dms(alice.id)]
    countdown = [d for d in dms if d.startswith("⏳")]
    assert len(countdown) == 1 and "1 of 2 games served" in countdown[0]
    assert "Still to sit out: G4 (Wolves vs Bears" in countdown[0]
    assert any("is served" in d for d in dms)


async def test_a_game_served_on_hawks_before_the_move_still_counts(harness: Harness, league: SampleLeague) -> None:
    alice = league.player("Alice Hart")
    await suspend(harness, league, "Alice Hart", 3)
    await enter_result(harness, league, "G1")  # on Hawks: served there
    assert await rows(harness) == [("Alice Hart", 3, 1, "active")]
    # G2 (Wolves) was played while she was on Hawks: it never counts.
    await enter_result(harness, league, "G2")
    harness.bot.clock.set(datetime(2030, 1, 14, 12, tzinfo=UTC))  # type: ignore[attr-defined]
    await move(harness, league, "Alice Hart", "Wolves")
    assert await rows(harness) == [("Alice Hart", 3, 1, "active")]
    async with harness.bot.sessions() as s:
        (left,) = (await s.scalars(select(RosterDeparture))).all()
    assert left.left_at == datetime(2030, 1, 14, 12, tzinfo=UTC)

    assert "You can't check in for G4" in (await harness.slash("/checkin", as_=alice, status="in",
                                                                 game="G4")).content
    await enter_result(harness, league, "G3")  # Hawks, after she left
    await enter_result(harness, league, "G4")  # Wolves
    assert await rows(harness) == [("Alice Hart", 3, 2, "active")]
    listing = (await harness.slash("/suspensions", as_=alice)).text
    assert "1 of 3 games left" in listing and "Sits out: G6 (Owls vs Wolves" in listing
    await enter_result(harness, league, "G6")
    assert await rows(harness) == [("Alice Hart", 3, 3, "served")]


async def test_a_lineup_on_the_new_team_leaves_her_out(harness: Harness, league: SampleLeague) -> None:
    from storage.models import CheckIn, Game, Player

    await suspend(harness, league, "Alice Hart", 1)
    await move(harness, league, "Alice Hart", "Wolves")
    async with harness.bot.sessions.begin() as s:  # an answer she gave before she was suspended
        alice = await s.scalar(select(Player).where(Player.name == "Alice Hart"))
        g2 = await s.scalar(select(Game).where(Game.code == "G2"))
        s.add(CheckIn(league_id=alice.league_id, game_id=g2.id, player_id=alice.id, status="in"))
    lineup = await harness.slash("/lineup", as_=league.captain("Wolves"), game="G2")
    assert "Alice Hart is suspended and cannot play" in lineup.text, lineup.text


async def test_unserved_games_on_the_old_team_carry_into_the_new_teams_playoffs(
        harness: Harness, league: SampleLeague) -> None:
    from storage.models import Game, League, Team

    async with harness.bot.sessions.begin() as s:
        league_id = await s.scalar(select(League.id).where(League.key == "coed"))
        wolves = await s.scalar(select(Team).where(Team.name == "Wolves"))
        bears = await s.scalar(select(Team).where(Team.name == "Bears"))
        s.add(Game(league_id=league_id, code="P1", home_team_id=wolves.id, away_team_id=bears.id,
                   starts_at=STARTS["P1"], kind="playoff"))
    await suspend(harness, league, "Alice Hart", 4)
    await move(harness, league, "Alice Hart", "Wolves")
    for code in ("G2", "G4", "G6"):
        await enter_result(harness, league, code)
    assert await rows(harness) == [("Alice Hart", 4, 3, "active")]
    harness.bot.clock.set(STARTS["P1"] - timedelta(days=1))  # type: ignore[attr-defined]
    refused = await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in", game="P1")
    assert "You can't check in for P1" in refused.content
    await enter_result(harness, league, "P1")
    assert await rows(harness) == [("Alice Hart", 4, 4, "served")]
    async with harness.bot.sessions() as s:
        row = await s.scalar(select(Suspension))
    assert row.team.name == "Hawks", "the suspension still says where it was issued"


async def test_the_new_teams_captain_sees_and_may_appeal_it(harness: Harness, league: SampleLeague) -> None:
    await suspend(harness, league, "Alice Hart", 2)
    await move(harness, league, "Alice Hart", "Wolves")
    wolves = league.captain("Wolves")
    offered = await harness.autocomplete("/appeal file", focused="suspension", as_=wolves, suspension="")
    assert [c["value"] for c in offered.autocomplete_choices] == [1]
    filed = await harness.slash("/appeal file", as_=wolves, suspension=1, reason="She wasn't there")
    assert "Appeal #" in filed.content and "is filed for Alice Hart" in filed.content
    owls = await harness.autocomplete("/appeal file", focused="suspension", as_=league.captain("Owls"),
                                       suspension="")
    assert owls.autocomplete_choices == []
