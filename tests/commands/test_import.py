"""/import through the real command tree: a commissioner uploads CSVs, nobody else can."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SampleLeague
from tests.harness import Attachment, Harness
from tests.reliability.snapshot import changed_tables, snapshot

DATA = Path(__file__).resolve().parents[1] / "data"


async def test_a_commissioner_imports_games_from_an_attachment(harness: Harness, league: SampleLeague) -> None:
    csv = b"game_id,starts_at,home,away,venue,kind\nG7,2030-02-01 19:00,Hawks,Wolves,Rink C,regular\n"
    reply = await harness.slash("/import games", as_=league.commissioner(), file=Attachment("games.csv", csv))
    assert reply.ephemeral
    assert "games.csv: games: 1 created, 0 updated, 0 unchanged." in reply.text
    schedule = await harness.slash("/schedule", as_=league.player("Alice Hart"))
    assert "`G7`" in schedule.text


async def test_a_bad_csv_lists_the_problems_and_imports_nothing(harness: Harness, league: SampleLeague) -> None:
    before = await snapshot(harness.bot.sessions)
    csv = (b"game_id,starts_at,home,away,venue,kind\n"
           b"G8,2030-02-01 19:00,Hawks,Penguins,Rink C,regular\nG9,soon,Hawks,Owls,,\n")
    reply = await harness.slash("/import games", as_=league.commissioner(), file=Attachment("g.csv", csv))
    assert reply.ephemeral
    assert "Nothing was imported" in reply.text
    assert "line 3: starts_at 'soon' is not a date and time" in reply.text
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []


async def test_a_captain_cannot_import(harness: Harness, league: SampleLeague) -> None:
    before = await snapshot(harness.bot.sessions)
    reply = await harness.slash("/import teams", as_=league.captain("Hawks"),
                                file=Attachment("teams.csv", (DATA / "teams.csv").read_bytes()))
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert not [c for c in harness.discord.calls if c.method == "GET" and "attachments" in c.path]
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []
