"""Youth playoffs per division (1.1 junior and senior divisions, 1.18 all teams qualify): each division's
bracket is drawn apart. In a youth league the sample's divisions are senior (Hawks, Owls) and junior (Bears,
Wolves); brackets are listed by division name."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import PlayoffBracket
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

PLAYOFFS = (b"game_id,starts_at,home,away,venue,kind\n"
            b"P1,2030-02-01 19:00,Hawks,Owls,Rink A,playoff\n"
            b"P2,2030-02-01 20:00,Wolves,Bears,Rink B,playoff\n")


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey"))


async def brackets(h: Harness) -> dict[str, tuple[list[str], dict]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(PlayoffBracket).order_by(PlayoffBracket.division))).all()
        return {r.division: (list(r.seeds), dict(r.winners)) for r in rows}


async def test_each_division_is_drawn_apart_and_moves_on_by_itself(harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    for game, home, away in (("G1", 1, 3), ("G3", 2, 0), ("G2", 4, 1), ("G4", 2, 1)):
        await harness.slash("/result enter", as_=league.referee(), game=game, home=home, away=away,
                            decided="regulation")
    # senior: Owls 2 wins (G1 3-1, G3 2-0 at home); junior: Bears 4-1, Wolves 2-1: 1-1 each, goal diff Bears.
    too_many = await harness.slash("/bracket create", as_=league.commissioner(), teams=4)
    assert too_many.ephemeral and "The junior division has only 2 teams in the draw" in too_many.content
    assert await brackets(harness) == {}
    created = await harness.slash("/bracket create", as_=league.commissioner(), teams=2)
    assert created.ephemeral and len(created.first.embeds) == 2
    assert await brackets(harness) == {"senior": (["Owls", "Hawks"], {}), "junior": (["Bears", "Wolves"], {})}
    titles = [e["title"] for e in created.first.embeds]
    assert titles == ["Playoff bracket: 2 teams seeded · junior", "Playoff bracket: 2 teams seeded · senior"]

    shown = await harness.slash("/bracket show", as_=league.player("Alice Hart"))
    assert [e["title"] for e in shown.first.embeds] == ["Playoff bracket · junior", "Playoff bracket · senior"]

    await harness.bot.services.imports.importer.run("games", PLAYOFFS, harness.bot.settings.leagues[0],
                                                    now=harness.bot.clock.now(), allow_past=True)
    harness.bot.clock.advance(days=30)  # type: ignore[attr-defined]
    won = await harness.slash("/result enter", as_=league.referee(), game="P2", home=3, away=2, decided="regulation")
    assert "Recorded" in won.content
    drawn = await brackets(harness)
    assert drawn["junior"][1] == {"R1-M1": {"team": "Wolves", "game": "P2"}} and drawn["senior"][1] == {}

    by_hand = await harness.slash("/bracket advance", as_=league.commissioner(), matchup="R1-M1", winner="Hawks")
    assert "Hawks win the Final" in by_hand.content
    assert (await brackets(harness))["senior"][1] == {"R1-M1": {"team": "Hawks", "game": None}}

    one = await harness.slash("/bracket create", as_=league.commissioner(), teams=2, division="Junior", replace=True)
    assert [e["title"] for e in one.first.embeds] == ["Playoff bracket: 2 teams seeded · junior"]
    assert (await brackets(harness))["senior"][1] != {}, "the other division's bracket is untouched"
    nowhere = await harness.slash("/bracket create", as_=league.commissioner(), teams=2, division="East")
    assert "There's no playoff draw for “East”" in nowhere.content


@pytest.mark.parametrize("settings", [make_settings(league_config())], ids=["coed"])
async def test_coed_draws_one_bracket_for_the_whole_league(harness: Harness, league: SampleLeague) -> None:
    created = await harness.slash("/bracket create", as_=league.commissioner(), teams=4)
    assert created.ephemeral and len(created.first.embeds) == 1
    assert list(await brackets(harness)) == [""]


async def test_each_divisions_bracket_gets_a_picture_of_its_own(harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/bracket create", as_=league.commissioner())  # youth 1.18: every team, per division
    shown = await harness.slash("/bracket show", as_=league.player("Alice Hart"), picture=True)
    assert list(shown.last.files) == ["bracket-junior.png", "bracket-senior.png"]  # as the embeds: by division
    assert all(data.startswith(b"\x89PNG\r\n\x1a\n") for data in shown.last.files.values())
    assert [a["description"].split(" as a picture")[0] for a in shown.last.payload["attachments"]] == [
        "Playoff bracket of junior", "Playoff bracket of senior"]
