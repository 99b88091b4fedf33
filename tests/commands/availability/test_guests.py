"""/guest add|clear through the real command tree. Indoor soccer rules, Game: "Guest players may play if
they have a stamped hand indicating that they have paid or an employee tells the referee directly
that they are cleared": an uncleared guest doesn't count in /lineup, a cleared one does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from bot.config.settings import Settings
from storage.models import Guest
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness, Member

THREE_IN = ("Alice Hart", "Carl Diaz", "Gus Lee")  # indoor needs 4 players to start


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config("indoor", preset="indoor-soccer"))


async def guests(h: Harness) -> list[tuple[str, bool]]:
    async with h.bot.sessions() as s:
        rows = (await s.execute(select(Guest.name, Guest.cleared_at).order_by(Guest.id))).all()
    return [(r.name, r.cleared_at is not None) for r in rows]


async def check_in(h: Harness, league: SampleLeague, names: tuple[str, ...]) -> None:
    for name in names:
        reply = await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
        assert "**in**" in reply.text, reply.text


async def test_an_uncleared_guest_does_not_count_and_a_cleared_one_does(harness: Harness,
                                                                         league: SampleLeague) -> None:
    await check_in(harness, league, THREE_IN)
    captain = league.captain("Hawks")
    added = await harness.slash("/guest add", as_=captain, game="G1", name_or_member="Jo Walker")
    assert added.ephemeral and "Jo Walker is added as a guest of Hawks for `G1` (pending" in added.text, added.text
    pending = await harness.slash("/lineup", as_=captain, game="G1")
    assert "Minimum to start\n❌ not enough to start" in pending.text, pending.text
    assert "Not enough to start: needs 4 players; has 3 players." in pending.text
    assert "Jo Walker (guest): Jo Walker (guest) is not on the roster and has no staff approval" in pending.text
    assert "Guests waiting to be cleared (not counted)\nJo Walker (guest)" in pending.text
    listed = await harness.slash("/whoisin", as_=league.player(THREE_IN[0]), game="G1")
    assert "Guests (1)\nJo Walker “waiting to be cleared”" in listed.text, listed.text

    cleared = await harness.slash("/guest clear", as_=league.referee(), game="G1", name_or_member="jo walker")
    assert cleared.ephemeral and "Jo Walker is cleared as a guest of Hawks for `G1` (counts in /lineup)" in cleared.text
    counted = await harness.slash("/lineup", as_=captain, game="G1")
    assert "Minimum to start\n✅ met" in counted.text, counted.text
    assert "In (4)" in counted.text and "Jo Walker (guest)" in counted.text
    assert "Excluded" not in counted.text and "waiting to be cleared" not in counted.text
    listed = await harness.slash("/whoisin", as_=league.player(THREE_IN[0]), game="G1")
    assert "Guests (1)\nJo Walker\n" in listed.text + "\n" and "waiting" not in listed.text, listed.text
    assert await guests(harness) == [("Jo Walker", True)]


async def test_cleared_guests_are_listed_in_the_results_attendance(harness: Harness, league: SampleLeague,
                                                                    clock: object) -> None:
    captain, kay = league.captain("Hawks"), league.commissioner()
    await harness.slash("/guest add", as_=captain, game="G1", name_or_member="Jo Walker")
    await harness.slash("/guest add", as_=captain, game="G1", name_or_member="Never Cleared")
    await harness.slash("/guest clear", as_=kay, game="G1", name_or_member="Jo Walker")
    harness.bot.clock.set(datetime(2030, 1, 12, 2, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    result = await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=2,
                                 decided="regulation")
    assert "Guests who played: Jo Walker (Hawks)." in result.text, result.text
    assert "Never Cleared" not in result.text


async def test_only_captains_add_and_only_referees_or_commissioners_clear(harness: Harness,
                                                                           league: SampleLeague) -> None:
    player = await harness.slash("/guest add", as_=league.player("Carl Diaz"), game="G1", name_or_member="Jo")
    assert player.ephemeral and "Only a team's captain or a commissioner can add a guest" in player.text
    other = await harness.slash("/guest add", as_=league.captain("Bears"), game="G1", name_or_member="Jo")
    assert other.ephemeral and "Only a captain of Hawks or Owls, or a commissioner" in other.text
    assert await guests(harness) == []
    await harness.slash("/guest add", as_=league.captain("Hawks"), game="G1", name_or_member="Jo")
    captain = await harness.slash("/guest clear", as_=league.captain("Hawks"), game="G1", name_or_member="Jo")
    assert captain.ephemeral and "Only a referee or commissioner" in captain.text
    assert await guests(harness) == [("Jo", False)]


async def test_a_rostered_player_a_duplicate_and_a_played_game_are_refused(harness: Harness,
                                                                           league: SampleLeague) -> None:
    captain = league.captain("Hawks")
    mention = f"<@{league.players['Omar Fox']['discord_id']}>"  # Owls: on a roster in G1
    rostered = await harness.slash("/guest add", as_=captain, game="G1", name_or_member=mention)
    assert "Omar Fox is on a roster in this game: they answer with /checkin." in rostered.text
    walt = f"<@{league.players['Walt Orr']['discord_id']}>"  # Bears: not in G1, may guest
    ok = await harness.slash("/guest add", as_=captain, game="G1", name_or_member=walt)
    assert "Walt Orr is added as a guest of Hawks" in ok.text, ok.text
    twice = await harness.slash("/guest add", as_=captain, game="G1", name_or_member="WALT ORR")
    assert "WALT ORR is already a guest of Hawks for G1" in twice.text
    harness.bot.clock.set(datetime(2030, 1, 12, 2, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    late = await harness.slash("/guest add", as_=captain, game="G1", name_or_member="Late Larry")
    assert "guests are added before a game starts" in late.text
    unknown = await harness.slash("/guest clear", as_=league.referee(), game="G1", name_or_member="Nobody")
    assert "G1 has no guest “Nobody” (its guests: Walt Orr)" in unknown.text
    assert await guests(harness) == [("Walt Orr", False)]


async def test_a_commissioner_names_the_team_when_they_captain_neither(harness: Harness,
                                                                        league: SampleLeague) -> None:
    kay = league.commissioner()
    unsure = await harness.slash("/guest add", as_=kay, game="G1", name_or_member="Jo")
    assert "Name the team the guest plays for" in unsure.text
    named = await harness.slash("/guest add", as_=kay, game="G1", name_or_member="Jo", team="Owls")
    assert "Jo is added as a guest of Owls" in named.text


@pytest.mark.parametrize("settings", [make_settings(league_config()),
                                      make_settings(league_config("youth", preset="youth-ball-hockey"))],
                         ids=["coed", "youth"])
async def test_leagues_whose_rulebook_has_no_guests_refuse_them_with_the_rule(harness: Harness,
                                                                             league: SampleLeague) -> None:
    reply = await harness.slash("/guest add", as_=league.captain("Hawks"), game="G1", name_or_member="Jo")
    # Neither the co-ed nor the youth rulebook has guests (Teams and 1.7 said nothing of them).
    assert reply.ephemeral and ("has no guest players: only players on a roster play (the rulebook has none: league "
                                "setting guests_allowed)") in reply.text
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(Guest)) == 0


async def test_a_suspended_league_player_as_guest_stays_excluded(harness: Harness, league: SampleLeague) -> None:
    walt = Member(int(league.players["Walt Orr"]["discord_id"]), "Walt Orr")
    suspended = await harness.slash("/suspend", as_=league.commissioner(), player=walt, games=2, reason="Roughing")
    assert "Suspension #" in suspended.text, suspended.text
    await harness.slash("/guest add", as_=league.captain("Hawks"), game="G1", name_or_member=f"<@{walt.id}>")
    await harness.slash("/guest clear", as_=league.referee(), game="G1", name_or_member="Walt Orr")
    lineup = await harness.slash("/lineup", as_=league.captain("Hawks"), game="G1")
    assert "Walt Orr (guest) is suspended and cannot play" in lineup.text, lineup.text
