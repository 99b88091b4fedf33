"""/bracket show|create|advance and playoff results moving winners on, through the real command tree."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.config.settings import Settings
from storage.models import Game, PlayoffBracket, Result
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

#: A co-ed league whose commissioners changed "every team qualifies" (co-ed: each team's guaranteed
#: playoff game) so that a bracket may leave teams out.
SOME_QUALIFY = pytest.mark.parametrize("settings", [{"standings_all_teams_qualify": False}], indirect=True)


@pytest.fixture
def settings(request: pytest.FixtureRequest) -> Settings:
    return make_settings(league_config(rules=getattr(request, "param", {})))

PLAYOFF_GAMES = (b"game_id,starts_at,home,away,venue,kind\n"
                 b"P1,2030-02-01 19:00,Wolves,Hawks,Rink A,playoff\n"  # seed 1 v seed 4: R1-M1
                 b"P2,2030-02-01 20:00,Owls,Bears,Rink B,playoff\n"  # seed 2 v seed 3: R1-M2
                 b"P3,2030-02-08 19:00,Wolves,Owls,Rink A,playoff\n")  # a possible final


async def season_played(h: Harness, league: SampleLeague) -> None:
    """Everyone 1-1; goals scored seed them: Wolves 6, Owls 5, Bears 3, Hawks 2 (co-ed: record, then goals)."""
    h.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    ref = league.referee()
    for game, home, away, extra in [("G1", 1, 0, {}), ("G3", 5, 1, {}), ("G4", 4, 1, {}),
                                    ("G2", 2, 2, {"decided": "shootout", "shootout_home": 1, "shootout_away": 0})]:
        options = {"decided": "regulation", **extra}
        reply = await h.slash("/result enter", as_=ref, game=game, home=home, away=away, **options)
        assert "Recorded" in reply.content, reply.content


async def schedule_playoffs(h: Harness) -> None:
    await h.bot.services.imports.importer.run("games", PLAYOFF_GAMES, h.bot.settings.leagues[0], now=h.bot.clock.now(),
                                       allow_past=True)


async def stored_bracket(h: Harness) -> tuple[list[str], dict] | None:
    async with h.bot.sessions() as s:
        row = await s.scalar(select(PlayoffBracket))
        return (row.seeds, row.winners) if row else None


async def test_commissioner_seeds_the_bracket_from_the_standings(harness: Harness, league: SampleLeague) -> None:
    await season_played(harness, league)
    reply = await harness.slash("/bracket create", as_=league.commissioner(), teams=4)
    assert reply.ephemeral
    assert "```" in reply.text and "== Semifinals ==" in reply.text and "== Final ==" in reply.text
    assert "`R1-M1` Wolves v Hawks" in reply.text and "`R1-M2` Owls v Bears" in reply.text
    assert await stored_bracket(harness) == (["Wolves", "Owls", "Bears", "Hawks"], {})
    shown = await harness.slash("/bracket show", as_=league.player("Alice Hart"))
    assert shown.ephemeral and "  1 Wolves" in shown.text and "  4 Hawks" in shown.text


async def test_a_player_cannot_create_a_bracket(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/bracket create", as_=league.player("Alice Hart"), teams=4)
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert await stored_bracket(harness) is None


@SOME_QUALIFY
async def test_three_teams_give_the_top_seed_a_bye(harness: Harness, league: SampleLeague) -> None:
    await season_played(harness, league)
    reply = await harness.slash("/bracket create", as_=league.commissioner(), teams=3)
    assert "Bye: seed 1" in reply.text
    assert "`R1-M1` Owls v Bears" in reply.text
    assert "winner R1-M1" in reply.text
    assert (await stored_bracket(harness)) == (["Wolves", "Owls", "Bears"], {})


async def test_bracket_sizes_are_checked(harness: Harness, league: SampleLeague) -> None:
    too_many = await harness.slash("/bracket create", as_=league.commissioner(), teams=17,
                                    forged=True)  # Discord stops it
    assert "2 to 16 teams" in too_many.content
    more_than_the_league = await harness.slash("/bracket create", as_=league.commissioner(), teams=5)
    assert "has only 4 teams" in more_than_the_league.content
    assert await stored_bracket(harness) is None


@SOME_QUALIFY
async def test_an_existing_bracket_is_replaced_only_on_request(harness: Harness, league: SampleLeague) -> None:
    commissioner = league.commissioner()
    await harness.slash("/bracket create", as_=commissioner, teams=4)
    again = await harness.slash("/bracket create", as_=commissioner, teams=2)
    assert "already has a bracket" in again.content and "replace:True" in again.content
    assert len((await stored_bracket(harness))[0]) == 4  # type: ignore[index]
    replaced = await harness.slash("/bracket create", as_=commissioner, teams=2, replace=True)
    assert "== Final ==" in replaced.text
    assert len((await stored_bracket(harness))[0]) == 2  # type: ignore[index]


async def test_coed_every_team_gets_its_playoff_game(harness: Harness, league: SampleLeague) -> None:
    # Co-ed Game Structure: "Each team is guaranteed 2 games for seeding and one playoff game".
    await season_played(harness, league)
    commissioner = league.commissioner()
    three = await harness.slash("/bracket create", as_=commissioner, teams=3)
    assert three.ephemeral
    assert three.content == ("No bracket for the league: every team qualifies for the playoffs (Co-ed rules: Game "
                             "Structure 8): a bracket of 3 would leave out Hawks; take all 4. Nothing was created.")
    assert await stored_bracket(harness) is None
    every = await harness.slash("/bracket create", as_=commissioner)  # teams left out: the whole draw
    assert "Playoff bracket: 4 teams seeded" in every.text and "Seeded before" not in every.text
    assert await stored_bracket(harness) == (["Wolves", "Owls", "Bears", "Hawks"], {})


async def test_coed_seeding_early_names_the_teams_short_of_their_two_games(harness: Harness,
                                                                          league: SampleLeague) -> None:
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    reply = await harness.slash("/result enter", as_=league.referee(), game="G1", home=1, away=0,
                                decided="regulation")
    assert "Recorded" in reply.content
    created = await harness.slash("/bracket create", as_=league.commissioner(), teams=4)
    assert created.ephemeral and "== Semifinals ==" in created.text  # a warning, not a refusal
    assert ("Seeded before every team has played its 2 seeding games (Co-ed rules: Game Structure 8: each team "
            "is guaranteed 2). Games played so far: ") in created.text
    assert "Hawks 1" in created.text and "Owls 1" in created.text
    assert "Bears 0" in created.text and "Wolves 0" in created.text


@SOME_QUALIFY
async def test_a_league_without_the_guarantee_needs_a_size(harness: Harness, league: SampleLeague) -> None:
    await season_played(harness, league)
    asked = await harness.slash("/bracket create", as_=league.commissioner())
    assert "say how many teams make the playoffs (2 to 16)" in asked.content
    assert await stored_bracket(harness) is None


async def test_show_without_a_bracket(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/bracket show", as_=league.player("Alice Hart"))
    assert reply.ephemeral and "no playoff bracket yet" in reply.content


async def test_a_playoff_result_moves_the_winner_on(harness: Harness, league: SampleLeague) -> None:
    await season_played(harness, league)
    await harness.slash("/bracket create", as_=league.commissioner(), teams=4)
    await schedule_playoffs(harness)
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    reply = await harness.slash("/result enter", as_=league.referee(), game="P1", home=1, away=3,
                                decided="regulation")
    assert "Bracket: Hawks win R1-M1 and go on to R2-M1 (Final)." in reply.content
    assert (await stored_bracket(harness))[1] == {"R1-M1": {"team": "Hawks", "game": "P1"}}  # type: ignore[index]
    shown = await harness.slash("/bracket show", as_=league.player("Alice Hart"))
    assert ">  4 Hawks" in shown.text


async def test_a_playoff_game_cannot_end_tied(harness: Harness, league: SampleLeague) -> None:
    await season_played(harness, league)
    await harness.slash("/bracket create", as_=league.commissioner(), teams=4)
    await schedule_playoffs(harness)
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    reply = await harness.slash("/result enter", as_=league.referee(), game="P1", home=2, away=2,
                                decided="regulation")
    assert "Playoff games in this league can't end tied" in reply.content
    assert (await stored_bracket(harness))[1] == {}  # type: ignore[index]


async def test_fixing_a_playoff_result_corrects_the_bracket_until_the_next_round(harness: Harness,
                                                                              league: SampleLeague) -> None:
    await season_played(harness, league)
    commissioner, ref = league.commissioner(), league.referee()
    await harness.slash("/bracket create", as_=commissioner, teams=4)
    await schedule_playoffs(harness)
    harness.bot.clock.advance(days=21)  # type: ignore[attr-defined]
    await harness.slash("/result enter", as_=ref, game="P1", home=1, away=3, decided="regulation")
    fixed = await harness.slash("/result fix", as_=commissioner, game="P1", home=4, reason="goal disallowed")
    assert "Bracket: Wolves win R1-M1" in fixed.content
    await harness.slash("/result enter", as_=ref, game="P2", home=2, away=1, decided="overtime")
    final = await harness.slash("/result enter", as_=ref, game="P3", home=3, away=3, decided="shootout",
                                shootout_home=2, shootout_away=1)
    assert "Bracket: Wolves win the Final: champions!" in final.content
    shown = await harness.slash("/bracket show", as_=league.player("Alice Hart"))
    assert "Champion: Wolves" in shown.text

    too_late = await harness.slash("/result fix", as_=commissioner, game="P1", home=0)
    assert "R2-M1 already has a winner" in too_late.content
    async with harness.bot.sessions() as s:
        p1 = await s.scalar(select(Result.home_score).join(Game, Game.id == Result.game_id).where(Game.code == "P1"))
    assert p1 == 4  # the correction was refused: nothing changed


async def test_commissioner_advances_a_matchup_by_hand(harness: Harness, league: SampleLeague) -> None:
    await season_played(harness, league)
    commissioner = league.commissioner()
    await harness.slash("/bracket create", as_=commissioner, teams=4)
    player = await harness.slash("/bracket advance", as_=league.player("Alice Hart"), matchup="R1-M2",
                                 winner="Bears")
    assert "Only a commissioner" in player.content
    not_set = await harness.slash("/bracket advance", as_=commissioner, matchup="R2-M1", winner="Wolves")
    assert "R2-M1 isn't set yet: waiting for the winner of R1-M1 and R1-M2" in not_set.content
    wrong = await harness.slash("/bracket advance", as_=commissioner, matchup="R1-M2", winner="Hawks")
    assert "Hawks isn't playing in R1-M2: it's Owls v Bears" in wrong.content
    unknown = await harness.slash("/bracket advance", as_=commissioner, matchup="R9-M9", winner="Hawks")
    assert "no matchup 'R9-M9'" in unknown.content
    assert (await stored_bracket(harness))[1] == {}  # type: ignore[index]

    done = await harness.slash("/bracket advance", as_=commissioner, matchup="r1-m2", winner="bears")
    assert done.ephemeral and done.content == "Bears win R1-M2 and go on to R2-M1 (Final)."
    assert (await stored_bracket(harness))[1] == {"R1-M2": {"team": "Bears", "game": None}}  # type: ignore[index]


async def test_matchup_and_winner_autocomplete(harness: Harness, league: SampleLeague) -> None:
    await season_played(harness, league)
    commissioner = league.commissioner()
    await harness.slash("/bracket create", as_=commissioner, teams=4)
    matchups = await harness.autocomplete("/bracket advance", focused="matchup", as_=commissioner, matchup="")
    assert [c["value"] for c in matchups.autocomplete_choices] == ["R1-M1", "R1-M2"]
    winners = await harness.autocomplete("/bracket advance", focused="winner", as_=commissioner, matchup="R1-M2",
                                         winner="")
    assert [c["value"] for c in winners.autocomplete_choices] == ["Owls", "Bears"]
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(PlayoffBracket)) == 1
