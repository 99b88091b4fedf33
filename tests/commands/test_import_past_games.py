"""/import games with games that already started: refused in Discord's words, imported with allow_past:True."""

from __future__ import annotations

from sqlalchemy import func, select

from storage.models import Game
from tests.conftest import SampleLeague
from tests.harness import Attachment, Harness

PAST = b"game_id,starts_at,home,away,venue,kind\nP1,2029-12-01 19:00,Hawks,Owls,Rink C,regular\n"


async def games(harness: Harness) -> int:
    async with harness.bot.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(Game)) or 0)


async def test_a_game_in_the_past_is_refused_with_the_discord_way_to_import_it(
        harness: Harness, league: SampleLeague) -> None:
    before = await games(harness)
    reply = await harness.slash("/import games", as_=league.commissioner(), file=Attachment("old.csv", PAST))
    assert reply.ephemeral
    assert reply.content == ("Nothing was imported. Fix these and upload the file again:\n"
                             "• line 2: starts_at 2029-12-01 19:00 is in the past (allow past games to import it)\n"
                             "To import games that already started, upload the file again with "
                             "`/import games file: allow_past:True`.")
    assert await games(harness) == before


async def test_allow_past_imports_the_games_that_already_started(harness: Harness, league: SampleLeague) -> None:
    before = await games(harness)
    reply = await harness.slash("/import games", as_=league.commissioner(), file=Attachment("old.csv", PAST),
                                allow_past=True)
    assert reply.content == "old.csv: games: 1 created, 0 updated, 0 unchanged."
    assert await games(harness) == before + 1


async def test_other_problems_do_not_suggest_allowing_past_games(harness: Harness, league: SampleLeague) -> None:
    csv = b"game_id,starts_at,home,away,venue,kind\nP2,soon,Hawks,Owls,,\n"
    reply = await harness.slash("/import games", as_=league.commissioner(), file=Attachment("g.csv", csv))
    assert "line 2: starts_at 'soon' is not a date and time" in reply.content
    assert "allow_past" not in reply.content
