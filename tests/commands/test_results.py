"""/result enter|forfeit|fix through the real command tree: who may, what is refused, what is stored."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from sqlalchemy import func, select, update

from bot.clock import FixedClock
from bot.errors import Conflict
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import Game, Result, ResultChange, StandingsPost
from tests.conftest import (
    CHANNELS,
    OTHER_CHANNELS,
    OTHER_GUILD,
    OTHER_ROLES,
    SampleLeague,
    league_config,
    make_settings,
)
from tests.harness import Fault, Harness

YOUTH = make_settings(league_config(preset="youth-ball-hockey"))
STANDINGS_CHANNEL = CHANNELS["standings"]
GAMES_HEADER = b"game_id,starts_at,home,away,venue,kind\n"


def after_first_week(h: Harness) -> None:
    """G1 and G2 (Saturday 11 January 2030) are over; G3-G6 are still to come."""
    h.bot.clock.advance(days=7)  # type: ignore[attr-defined]


async def stored(h: Harness) -> list[tuple]:
    async with h.bot.sessions() as s:
        rows = await s.execute(
            select(Game.code, Game.status, Result.home_score, Result.away_score, Result.decided,
                   Result.shootout_home, Result.shootout_away, Result.entered_by)
            .join(Result, Result.game_id == Game.id).order_by(Game.code))
        return [tuple(r) for r in rows.all()]


async def statuses(h: Harness) -> dict[str, str]:
    async with h.bot.sessions() as s:
        return dict((await s.execute(select(Game.code, Game.status))).all())  # type: ignore[arg-type]


async def audit(h: Harness) -> list[tuple]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(ResultChange.action, ResultChange.old, ResultChange.new,
                                      ResultChange.changed_by, ResultChange.reason).order_by(ResultChange.id))
        return [tuple(r) for r in rows.all()]


async def test_referee_enters_a_result_and_the_game_is_final(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    referee = league.referee()
    reply = await harness.slash("/result enter", as_=referee, game="G1", home=3, away=2, decided="regulation")
    assert reply.ephemeral
    assert reply.content.startswith("Recorded game G1: Hawks 3-2 Owls.")
    assert await stored(harness) == [("G1", "final", 3, 2, "regulation", None, None, referee.id)]
    assert (await audit(harness))[0][:2] == ("entered", None)


async def test_a_shootout_keeps_its_goals_apart_from_the_score(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    reply = await harness.slash("/result enter", as_=league.commissioner(), game="G2", home=2, away=2,
                                decided="shootout", shootout_home=1, shootout_away=3)
    assert "Bears 2-2 Wolves (shootout 1-3)" in reply.content
    assert (await stored(harness))[0][2:7] == (2, 2, "shootout", 1, 3)


async def test_a_player_cannot_enter_a_result_and_nothing_is_written(harness: Harness,
                                                                   league: SampleLeague) -> None:
    after_first_week(harness)
    before = await statuses(harness)
    reply = await harness.slash("/result enter", as_=league.player("Alice Hart"), game="G1", home=9, away=0,
                                decided="regulation")
    assert reply.ephemeral and "Only a referee or commissioner" in reply.content
    assert await stored(harness) == []
    assert await statuses(harness) == before
    assert await audit(harness) == []
    assert harness.discord.channel_messages(STANDINGS_CHANNEL) == []


async def test_a_captain_cannot_record_a_forfeit(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    reply = await harness.slash("/result forfeit", as_=league.captain("Hawks"), game="G1", team="Owls")
    assert "Only a referee or commissioner" in reply.content
    assert await stored(harness) == []


@pytest.mark.parametrize(("options", "message"), [
    ({"home": 2, "away": 2, "decided": "shootout"}, "needs the shootout goals"),
    ({"home": 2, "away": 2, "decided": "shootout", "shootout_home": 1}, "needs the shootout goals"),
    ({"home": 2, "away": 2, "decided": "shootout", "shootout_home": 1, "shootout_away": 1}, "can't be equal"),
    ({"home": 3, "away": 2, "decided": "shootout", "shootout_home": 1, "shootout_away": 0}, "only from a tie"),
    ({"home": -1, "away": 2, "decided": "regulation"}, "whole numbers from 0 to 99"),
    ({"home": 1, "away": 100, "decided": "regulation"}, "whole numbers from 0 to 99"),
    ({"home": 1, "away": 1, "decided": "overtime"}, "needs a winner"),
    ({"home": 1, "away": 1, "decided": "regulation"}, "can't end tied"),
    ({"home": 3, "away": 1, "decided": "regulation", "shootout_home": 1, "shootout_away": 0}, "only for games"),
    ({"home": 3, "away": 1, "decided": "penalty-shots"}, "Decided must be one of"),
], ids=["shootout-no-goals", "shootout-half-goals", "shootout-equal", "shootout-untied", "negative", "over-99",
        "overtime-tie", "coed-regulation-tie", "regulation-with-shootout", "unknown-decided"])
async def test_bad_results_are_refused_and_change_nothing(harness: Harness, league: SampleLeague,
                                                          options: dict, message: str) -> None:
    after_first_week(harness)
    before = await statuses(harness)
    reply = await harness.slash("/result enter", as_=league.referee(), game="G1", forged=True, **options)
    assert reply.ephemeral
    assert message in reply.content
    assert await stored(harness) == []
    assert await statuses(harness) == before
    assert await audit(harness) == []


async def test_no_result_before_the_game_has_started(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    reply = await harness.slash("/result enter", as_=league.referee(), game="G3", home=1, away=0,
                                decided="regulation")
    assert reply.ephemeral and "G3 hasn't been played yet: it starts <t:" in reply.content
    forfeit = await harness.slash("/result forfeit", as_=league.referee(), game="G3", team="Owls")
    assert "hasn't been played yet" in forfeit.content
    assert await stored(harness) == []
    assert (await statuses(harness))["G3"] == "scheduled"


async def test_a_cancelled_game_has_no_result(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    async with harness.bot.sessions.begin() as s:
        await s.execute(update(Game).where(Game.code == "G1").values(status="cancelled"))
    reply = await harness.slash("/result enter", as_=league.referee(), game="G1", home=1, away=0,
                                decided="regulation")
    assert reply.ephemeral and "G1 was cancelled" in reply.content
    assert await stored(harness) == []
    assert (await statuses(harness))["G1"] == "cancelled"


@asynccontextmanager
async def two_leagues(db_url: str, clock: FixedClock) -> AsyncIterator[Harness]:
    """Two servers, each with its own league and the sample teams and games."""
    settings = make_settings(
        league_config(),
        league_config(key="other", guild=OTHER_GUILD, roles=OTHER_ROLES, channels=OTHER_CHANNELS),
    )
    bot = create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    try:
        yield h
    finally:
        await h.close()


async def test_a_game_of_another_server_is_refused(db_url: str, clock: FixedClock) -> None:
    async with two_leagues(db_url, clock) as h:
        await SampleLeague(h).load()
        other = h.bot.settings.leagues[1]
        importer = h.bot.services.imports.importer
        await importer.run("teams", b"team,division,captain_discord_ids\nSharks,,1\nJets,,2\n", other,
                           now=clock.now())
        await importer.run("games", GAMES_HEADER + b"X1,2030-01-04 19:00,Sharks,Jets,,regular\n", other,
                           now=clock.now(), allow_past=True)
        referee = h.member("Ref Rita", roles=("referee",))
        reply = await h.slash("/result enter", as_=referee, game="X1", home=1, away=0, decided="regulation")
        assert reply.ephemeral and "There's no game “X1” in Coed League" in reply.content
        async with h.bot.sessions() as s:
            assert await s.scalar(select(func.count()).select_from(Result)) == 0
            assert await s.scalar(select(Game.status).where(Game.code == "X1")) == "scheduled"

        # The same game id on both servers: each server's referee reaches only its own league's game.
        await importer.run("teams", b"team,division,captain_discord_ids\nHawks,,3\nOwls,,4\n", other,
                           now=clock.now())
        await importer.run("games", GAMES_HEADER + b"G1,2030-01-04 19:00,Hawks,Owls,,regular\n", other,
                           now=clock.now(), allow_past=True)
        other_ref = h.member("Ref Otto", roles=("referee",), league=1)
        reply = await h.slash("/result enter", as_=other_ref, guild_id=OTHER_GUILD, game="G1", home=4, away=1,
                              decided="regulation")
        assert "Recorded game G1" in reply.content
        async with h.bot.sessions() as s:
            finals = (await s.execute(select(Game.league_id, Game.code).where(Game.status == "final"))).all()
        assert finals == [(h.bot.league_ids[OTHER_GUILD], "G1")]


async def test_a_second_entry_is_a_conflict_and_the_same_entry_is_harmless(harness: Harness,
                                                                          league: SampleLeague) -> None:
    after_first_week(harness)
    referee = league.referee()
    await harness.slash("/result enter", as_=referee, game="G1", home=3, away=2, decided="regulation")
    again = await harness.slash("/result enter", as_=referee, game="G1", home=3, away=2, decided="regulation")
    assert "already stands as Hawks 3-2 Owls" in again.content
    other = await harness.slash("/result enter", as_=referee, game="G1", home=2, away=3, decided="regulation")
    assert "already has a result (Hawks 3-2 Owls)" in other.content and "/result fix" in other.content
    assert await stored(harness) == [("G1", "final", 3, 2, "regulation", None, None, referee.id)]
    assert [a[0] for a in await audit(harness)] == ["entered"]


async def test_a_commissioner_fixes_a_result_and_the_old_values_are_logged(harness: Harness,
                                                                         league: SampleLeague) -> None:
    after_first_week(harness)
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=2, decided="regulation")
    commissioner = league.commissioner()
    reply = await harness.slash("/result fix", as_=commissioner, game="G1", away=4, decided="overtime",
                                reason="scoresheet said 3-4 OT")
    assert reply.content.startswith("Corrected game G1: Hawks 3-4 Owls (overtime) (was Hawks 3-2 Owls).")
    assert (await stored(harness))[0][2:5] == (3, 4, "overtime")
    action, old, new, by, reason = (await audit(harness))[-1]
    assert (action, by, reason) == ("fixed", commissioner.id, "scoresheet said 3-4 OT")
    assert (old["home_score"], old["away_score"], old["decided"]) == (3, 2, "regulation")
    assert (new["home_score"], new["away_score"], new["decided"]) == (3, 4, "overtime")
    async with harness.bot.sessions() as s:
        row = await s.scalar(select(Result))
        assert row is not None and row.updated_by == commissioner.id and row.updated_at is not None


async def test_a_referee_cannot_fix_a_result(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=2, decided="regulation")
    reply = await harness.slash("/result fix", as_=league.referee(), game="G1", home=0)
    assert "Only a commissioner" in reply.content
    assert (await stored(harness))[0][2:4] == (3, 2)


async def test_fixing_a_game_without_a_result_says_to_enter_it(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    reply = await harness.slash("/result fix", as_=league.commissioner(), game="G1", home=1)
    assert "G1 has no result yet" in reply.content
    assert await stored(harness) == []


@pytest.mark.parametrize("settings", [YOUTH])
async def test_youth_forfeit_is_5_0_and_costs_a_point(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    reply = await harness.slash("/result forfeit", as_=league.referee(), game="G1", team="owls")
    assert "Owls forfeited: Hawks win 5-0" in reply.content
    assert "Owls lose 1 standings point for the forfeit" in reply.content
    async with harness.bot.sessions() as s:
        row = await s.scalar(select(Result))
        assert row is not None
        assert (row.home_score, row.away_score, row.decided, row.forfeit_team.name, row.penalty_waived) == (
            5, 0, "forfeit", "Owls", False)
    table = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="senior")
    lines = table.text.splitlines()
    assert any(line.split()[:2] == ["1", "Hawks"] and line.split()[-1] == "2" for line in lines)
    assert any(line.split()[:2] == ["2", "Owls"] and line.split()[-1] == "-1" for line in lines)

    # An upheld appeal (youth rule 2.4): still a 5-0 loss, but no point lost.
    fixed = await harness.slash("/result fix", as_=league.commissioner(), game="G1", waive_penalty=True,
                                reason="appeal upheld: holiday weekend")
    assert "costs no standings point" in fixed.content
    table = await harness.slash("/standings show", as_=league.player("Alice Hart"), division="senior")
    assert any(line.split()[:2] == ["2", "Owls"] and line.split()[-1] == "0" for line in table.text.splitlines())


@pytest.mark.parametrize("settings", [YOUTH])
async def test_youth_regular_season_has_no_overtime(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    reply = await harness.slash("/result enter", as_=league.referee(), game="G1", home=2, away=1,
                                decided="overtime")
    assert "Regular-season games in this league have no overtime" in reply.content
    tie = await harness.slash("/result enter", as_=league.referee(), game="G1", home=2, away=2,
                              decided="regulation")
    assert "Recorded game G1: Hawks 2-2 Owls." in tie.content  # youth rule 2.13A: a tie stands


async def test_a_forfeit_names_a_team_of_the_game(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    reply = await harness.slash("/result forfeit", as_=league.referee(), game="G1", team="Bears")
    assert "Bears isn't playing in game G1 (Hawks vs Owls)" in reply.content
    assert await stored(harness) == []


async def test_the_standings_message_is_posted_once_then_edited_in_place(harness: Harness,
                                                                        league: SampleLeague) -> None:
    after_first_week(harness)
    referee = league.referee()
    await harness.slash("/result enter", as_=referee, game="G1", home=3, away=2, decided="regulation")
    await harness.slash("/result enter", as_=referee, game="G2", home=1, away=4, decided="regulation")
    await harness.slash("/result fix", as_=league.commissioner(), game="G2", home=5)
    to_channel = [c for c in harness.discord.calls if c.path.startswith(f"/channels/{STANDINGS_CHANNEL}/")]
    assert [c.method for c in to_channel] == ["POST", "PATCH", "PATCH", "PATCH"]  # the first PATCH: its picture
    async with harness.bot.sessions() as s:
        post = await s.scalar(select(StandingsPost))
    assert post is not None and post.channel_id == STANDINGS_CHANNEL
    assert {c.path for c in to_channel[1:]} == {f"/channels/{STANDINGS_CHANNEL}/messages/{post.message_id}"}
    last = to_channel[-1]
    assert "Wolves" in last.text and "Bears" in last.text and "```" in last.text
    assert all(c.allowed_mentions in ({"parse": []}, {"parse": [], "users": []}) for c in to_channel)  # no pings


async def test_a_deleted_standings_message_is_posted_again(harness: Harness, league: SampleLeague) -> None:
    after_first_week(harness)
    referee = league.referee()
    await harness.slash("/result enter", as_=referee, game="G1", home=3, away=2, decided="regulation")
    harness.discord.faults.append(Fault("PATCH", rf"^/channels/{STANDINGS_CHANNEL}/messages/\d+$", 404))
    await harness.slash("/result enter", as_=referee, game="G2", home=1, away=4, decided="regulation")
    await harness.slash("/result fix", as_=league.commissioner(), game="G2", home=0)
    calls = [c for c in harness.discord.calls if c.path.startswith(f"/channels/{STANDINGS_CHANNEL}/")]
    # each new message gets its picture at once (tests/commands/test_pictures.py): the PATCH after each POST
    assert [(c.method, c.status) for c in calls] == [("POST", 200), ("PATCH", 200), ("PATCH", 404), ("POST", 200),
                                                     ("PATCH", 200), ("PATCH", 200)]
    first_edit, last_edit = calls[2].path, calls[5].path
    assert first_edit != last_edit  # the last edit goes to the new message
    async with harness.bot.sessions() as s:
        post = await s.scalar(select(StandingsPost))
        assert post is not None and last_edit.endswith(f"/messages/{post.message_id}")


async def test_result_hooks_run_in_the_same_transaction(harness: Harness, league: SampleLeague,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    after_first_week(harness)
    seen: list[tuple[int, str]] = []

    async def count_down(session, league_id: int, game_id: int) -> None:  # type: ignore[no-untyped-def]
        status = await session.scalar(select(Game.status).where(Game.id == game_id))
        seen.append((league_id, status))

    monkeypatch.setattr(harness.bot.services.results, "on_result", count_down)
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=2, decided="regulation")
    await harness.slash("/result fix", as_=league.commissioner(), game="G1", home=4)
    assert seen == [(harness.bot.league_ids[harness.default_guild], "final")] * 2  # type: ignore[index]

    async def refuse(session, league_id: int, game_id: int) -> None:  # type: ignore[no-untyped-def]
        raise Conflict("Suspension records are locked for this game.")

    monkeypatch.setattr(harness.bot.services.results, "on_result", refuse)
    reply = await harness.slash("/result enter", as_=league.referee(), game="G2", home=1, away=0,
                                decided="regulation")
    assert "Suspension records are locked" in reply.content
    assert [r[0] for r in await stored(harness)] == ["G1"]
    assert (await statuses(harness))["G2"] == "scheduled"


async def test_game_autocomplete_offers_played_games_most_recent_first(harness: Harness,
                                                                      league: SampleLeague) -> None:
    after_first_week(harness)
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=2, decided="regulation")
    reply = await harness.autocomplete("/result enter", focused="game", as_=league.referee(), game="")
    choices = reply.autocomplete_choices
    assert [c["value"] for c in choices] == ["G2", "G1"]
    assert "final Hawks 3-2 Owls" in choices[1]["name"]
    assert all(len(c["name"]) <= 100 for c in choices)
