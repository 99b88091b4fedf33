"""/lineup through the real command tree: captains and commissioners, the preset's rules applied."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select, update

from bot.clock import FixedClock
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import Division, Player
from tests.commands.checkins.test_checkin import checkin_rows
from tests.conftest import SampleLeague, league_config, make_settings, suspend_by_check
from tests.harness import Harness

HAWKS_SHORT_OF_WOMEN = ("Alice Hart", "Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole", "Gus Lee")


async def check_in(h: Harness, league: SampleLeague, names: tuple[str, ...], game: str = "G1") -> None:
    for name in names:
        reply = await h.slash("/checkin", as_=league.player(name), status="in", game=game)
        assert "**in**" in reply.content, reply.content


async def test_coed_captain_with_one_woman_checked_in_plays_four_skaters_plus_the_goalie(
        harness: Harness, league: SampleLeague) -> None:
    await check_in(harness, league, HAWKS_SHORT_OF_WOMEN)
    reply = await harness.slash("/lineup", as_=league.captain("Hawks"))
    assert reply.ephemeral
    text = reply.text
    assert "Hawks lineup · Hawks vs Owls" in text
    assert "**4** of 5 skaters + goalie — short by 1 (1 for the women/non-binary rule)" in text
    assert ("1 woman/non-binary skater checked in; 2 required on the court (the goalie does not count): "
            "play short, at most 4 skaters plus the goalie. — *Co-ed rules: Teams; Co-ed rules: Game Structure "
            "reads it the other way: this league doesn't count the goalie*") in text  # both sections cited
    assert "Goalie\n✅ Gus Lee" in text
    assert "Alice Hart (W/NB), Carl Diaz, Dan Roy" in text  # who counts, not anyone's gender word
    assert "Minimum to start\n✅ none in the rulebook (a short team plays short)" in text  # co-ed: none to meet
    assert "Owls lineup" not in text  # a captain sees their own team only


async def test_a_player_is_refused_and_nothing_changes(harness: Harness, league: SampleLeague) -> None:
    await check_in(harness, league, HAWKS_SHORT_OF_WOMEN)
    before = await checkin_rows(harness)
    reply = await harness.slash("/lineup", as_=league.player("Carl Diaz"))
    assert reply.ephemeral
    assert "Only a team's captain or a commissioner can check a lineup" in reply.content
    assert "Gus Lee" not in reply.text
    assert await checkin_rows(harness) == before


async def test_a_captain_without_the_role_or_of_another_team_is_refused(harness: Harness,
                                                                         league: SampleLeague) -> None:
    reply = await harness.slash("/lineup", as_=league.captain("Hawks", with_role=False))
    assert "Only a team's captain or a commissioner" in reply.content
    reply = await harness.slash("/lineup", as_=league.captain("Bears"), game="G1")
    assert reply.ephemeral and "Only a captain of Hawks or Owls, or a commissioner" in reply.content


async def test_a_commissioner_sees_both_teams(harness: Harness, league: SampleLeague) -> None:
    await check_in(harness, league, ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee"))
    await check_in(harness, league, ("Omar Fox", "Pia Lund"))
    reply = await harness.slash("/lineup", as_=league.commissioner(), game="G1")
    text = reply.text
    assert reply.ephemeral
    assert "Hawks lineup" in text and "Owls lineup" in text
    assert "**5** of 5 skaters + goalie" in text and "✅ Nothing wrong." in text  # Hawks: a full legal unit
    assert "Only 1 eligible skater checked in" in text  # Owls: Omar stands in goal, Pia skates
    assert "no goalie checked in" in text


async def test_a_commissioner_must_name_a_game(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/lineup", as_=league.commissioner())
    assert reply.ephemeral and "Name the game" in reply.content


async def test_suspended_players_are_excluded_with_the_rule(harness: Harness, league: SampleLeague,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    await check_in(harness, league, HAWKS_SHORT_OF_WOMEN)

    async def suspended(session: Any, *, league_id: int, player_id: int, game_id: int | None) -> str | None:
        name = await session.scalar(select(Player.name).where(Player.id == player_id))
        return "suspended" if name == "Carl Diaz" else None

    suspend_by_check(monkeypatch, harness.bot, suspended)  # after Carl checked in
    reply = await harness.slash("/lineup", as_=league.captain("Hawks"))
    text = reply.text
    assert "Excluded\nCarl Diaz: Carl Diaz is suspended and cannot play." in text
    assert "*Co-ed rules: Major offenses, severe offenses*" in text
    assert "**4** of 5 skaters + goalie" in text  # 4 eligible skaters, 1 woman: still 4


async def test_lineup_for_an_unknown_game_is_a_polite_error(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/lineup", as_=league.captain("Hawks"), game="G42")
    assert reply.ephemeral and "There's no game “G42”" in reply.content


@pytest.fixture
async def youth(db_url: str, clock: FixedClock) -> AsyncIterator[tuple[Harness, SampleLeague]]:
    """The sample teams under the youth preset, in divisions (North, South) that have no court size:
    the import refuses those now, but a database from before it may hold them."""
    settings = make_settings(league_config("youth", preset="youth-ball-hockey"))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock)).start()
    try:
        sample = await SampleLeague(h).load()
        async with h.bot.sessions.begin() as s:
            await s.execute(update(Division).where(Division.name == "senior").values(name="North"))
            await s.execute(update(Division).where(Division.name == "junior").values(name="South"))
        yield h, sample
    finally:
        await h.close()


async def test_a_division_without_a_court_size_is_explained(youth: tuple[Harness, SampleLeague]) -> None:
    h, sample = youth
    reply = await h.slash("/lineup", as_=sample.captain("Hawks"))
    assert reply.ephemeral
    assert reply.content == ("Hawks's division “North” has no court size in the league's rules. A commissioner can "
                             "move the team to a division that has one with `/setup team division:`, or give this "
                             "one a size with `/setup rule key:court_sizes_by_division`.")
