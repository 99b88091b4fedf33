"""The late-start prompts through the real command tree and courier (youth 2.4: a 5-minute grace period, then a
2-minute bench minor to start the game; still short after 10 minutes, a forfeit): a prompt to the game's
officials at each moment, once, across restarts; each press a real record, with an Undo; nothing without a press.

G1 is Hawks v Owls at 00:00 UTC on 12 January 2030. Owls come with one skater and their goalie: short.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import BenchPenalty, Game, LateStart, OutboxMessage, Result, ResultChange, Team
from tests.commands.messages.test_relays import press_on
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Call, Harness

YOUTH = make_settings(league_config("youth", preset="youth-ball-hockey"))
G1 = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)
HAWKS_IN = ("Alice Hart", "Carl Diaz", "Dan Roy", "Gus Lee")
OWLS_IN = ("Omar Fox", "Uma Reed")


@pytest.fixture
def settings() -> Settings:
    return YOUTH


async def start(db_url: str, clock: FixedClock) -> tuple[Harness, SampleLeague]:
    bot = create_bot(YOUTH, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    return h, await SampleLeague(h).load()


async def restart(h: Harness, db_url: str, clock: FixedClock) -> Harness:
    await h.bot.close()
    bot = create_bot(YOUTH, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    again = Harness(bot)
    again.discord = h.discord
    await again.start()
    await bot.courier.recover()
    return again


async def ready(h: Harness, league: SampleLeague, *, officials: bool = True) -> None:
    for name in (*HAWKS_IN, *OWLS_IN):
        await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
    if officials:
        for member, role in ((league.referee(), "referee"), (league.timekeeper(), "timekeeper")):
            await h.slash("/game referee", as_=league.commissioner(), game="G1", member=member, role=role)


def prompts(h: Harness, user_id: int, stage: str) -> list[Call]:
    return [c for c in h.discord.dms(user_id) if any(i.endswith(f":{stage}") for i in c.custom_ids())]


def late_start_posts(h: Harness) -> list[Call]:
    """The referees channel's late-start prompts (other games' officials' cards go there too)."""
    return [c for c in h.discord.channel_messages(CHANNELS["referees"]) if c.content.startswith("⏱️")]


async def ids(h: Harness) -> tuple[int, int, int]:
    async with h.bot.sessions() as s:
        game = await s.scalar(select(Game.id).where(Game.code == "G1"))
        owls = await s.scalar(select(Team.id).where(Team.name == "Owls"))
        league = await s.scalar(select(Game.league_id).where(Game.code == "G1"))
    assert game and owls and league
    return league, game, owls


async def test_a_restart_between_the_two_marks_loses_neither_prompt_nor_sends_one_twice(
        db_url: str, clock: FixedClock) -> None:
    h, league = await start(db_url, clock)
    await ready(h, league)
    rita, tom = league.referee(), league.timekeeper()
    clock.set(G1 + timedelta(minutes=4, seconds=59))
    await h.bot.courier.deliver_due()
    assert prompts(h, rita.id, "minor") == []

    clock.set(G1 + timedelta(minutes=5))
    await h.bot.courier.deliver_due()
    await h.bot.courier.deliver_due()  # the DMs the prompt fanned out to
    (minor,) = prompts(h, rita.id, "minor")
    assert len(prompts(h, tom.id, "minor")) == 1
    assert "`G1` Hawks vs Owls" in minor.content
    assert "**Owls**: Not enough to start: needs 3 skaters and a goalie" in minor.content
    assert "Hawks**" not in minor.content and "Nothing happens until you press" in minor.content
    league_id, game_id, owls = await ids(h)
    assert minor.custom_ids() == [f"sideline:late@{league_id}:{game_id}:{owls}:minor"]
    assert minor.components[0]["components"][0]["label"] == "Assess the 2-minute bench minor to Owls"

    h = await restart(h, db_url, clock)
    clock.set(G1 + timedelta(minutes=7))
    await h.bot.courier.deliver_due()
    await h.bot.courier.deliver_due()
    assert len(prompts(h, rita.id, "minor")) == 1 and prompts(h, rita.id, "forfeit") == []

    clock.set(G1 + timedelta(minutes=10))
    h = await restart(h, db_url, clock)
    await h.bot.courier.deliver_due()
    await h.bot.courier.deliver_due()
    (forfeit,) = prompts(h, rita.id, "forfeit")
    assert forfeit.components[0]["components"][0]["label"] == "Record a forfeit by Owls"
    h = await restart(h, db_url, clock)
    await h.bot.courier.deliver_due()
    await h.bot.courier.deliver_due()
    assert len(prompts(h, rita.id, "minor")) == 1 and len(prompts(h, rita.id, "forfeit")) == 1
    assert len(prompts(h, tom.id, "forfeit")) == 1
    async with h.bot.sessions() as s:  # nothing happened without a press
        assert (await s.scalars(select(BenchPenalty))).all() == [] and (await s.scalars(select(Result))).all() == []
    await h.close()


async def test_each_press_is_a_real_record_with_an_undo(db_url: str, clock: FixedClock) -> None:
    h, league = await start(db_url, clock)
    await ready(h, league)
    rita = league.referee()
    league_id, game_id, owls = await ids(h)
    clock.set(G1 + timedelta(minutes=5))
    await h.bot.courier.deliver_due()
    await h.bot.courier.deliver_due()
    (prompt,) = prompts(h, rita.id, "minor")

    stranger = await press_on(h, prompt, prompt.custom_ids()[0], as_=league.player("Carl Diaz"), in_dm=True)
    assert "Only the game's officials or a commissioner can answer this" in stranger.text, stranger.text
    minor = await press_on(h, prompt, prompt.custom_ids()[0], as_=rita, in_dm=True)
    assert "Recorded: Owls serve a 2-minute bench minor to start `G1` (bench penalty B1; Youth 2.4)" in minor.text, \
        minor.text
    assert minor.first.custom_ids() == [f"sideline:late@{league_id}:{game_id}:{owls}:undo-minor"]
    again = await press_on(h, prompt, prompt.custom_ids()[0], as_=league.timekeeper(), in_dm=True)
    assert "already recorded" in again.text
    log = await h.slash("/penalties", as_=rita, game="G1")
    assert "Bench minors (1)\nB1 · min 0 · Owls: Bench minor: team not ready at start: bench minor, 2 minutes" \
        in log.text, log.text
    assert "Hawks 0 · Owls 2" in log.text
    undone = await press_on(h, minor.first, minor.first.custom_ids()[0], as_=rita, in_dm=True)
    assert "Undone: Owls's late-start bench minor in `G1` is withdrawn" in undone.text, undone.text
    assert "Bench minors" not in (await h.slash("/penalties", as_=rita, game="G1")).text

    clock.set(G1 + timedelta(minutes=10))
    await h.bot.courier.deliver_due()
    await h.bot.courier.deliver_due()
    (ask,) = prompts(h, rita.id, "forfeit")
    forfeit = await press_on(h, ask, ask.custom_ids()[0], as_=rita, in_dm=True)
    assert "Recorded: Owls forfeited: Hawks win 5-0 (Youth 2.4). Owls lose 1 standings point." in forfeit.text, \
        forfeit.text
    table = await h.slash("/standings show", as_=rita)
    assert "Hawks" in table.text
    async with h.bot.sessions() as s:
        result = await s.scalar(select(Result))
        assert result is not None and result.decided == "forfeit" and result.forfeit_team_id == owls
    back = await press_on(h, forfeit.first, forfeit.first.custom_ids()[0], as_=league.timekeeper(), in_dm=True)
    assert "Undone: Owls's forfeit of `G1` is taken back; the game has no result again" in back.text, back.text
    async with h.bot.sessions() as s:
        assert (await s.scalars(select(Result))).all() == []
        assert await s.scalar(select(Game.status).where(Game.id == game_id)) == "scheduled"
        log = (await s.execute(select(ResultChange.action).order_by(ResultChange.id))).scalars().all()
        assert log == ["entered", "withdrawn"]
        standing = (await s.execute(select(LateStart.action, LateStart.undone_at.is_not(None)))).all()
        assert sorted(tuple(r) for r in standing) == [("forfeit", True), ("minor", True)]
    await h.close()


async def test_without_officials_the_prompt_goes_to_the_referees_channel_and_a_full_team_gets_none(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    await ready(harness, league, officials=False)
    clock.set(G1 + timedelta(minutes=5))
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    (posted,) = late_start_posts(harness)
    assert "**Owls**" in posted.content and len(posted.custom_ids()) == 1
    for name in ("Pia Lund", "Quin Ash"):  # too late to check in: an official adds them to the sheet
        await harness.slash("/gamesheet add", as_=league.timekeeper(), game="G1", player=league.player(name))
    clock.set(G1 + timedelta(minutes=10))
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    assert len(late_start_posts(harness)) == 1, "Owls have enough by now"


@pytest.mark.parametrize("preset", ["coed-ball-hockey", "indoor-soccer"])
async def test_leagues_without_a_grace_period_get_no_prompts(db_url: str, clock: FixedClock, preset: str) -> None:
    bot = create_bot(make_settings(league_config(preset=preset)), engine=create_engine(db_url), clock=clock,
                     run_scheduler=False)
    h = await Harness(bot).start()
    await SampleLeague(h).load()
    async with bot.sessions() as s:
        assert (await s.scalars(select(OutboxMessage.id).where(
            OutboxMessage.send_key.startswith("late-start:")))).all() == []
    await h.close()


async def test_a_bench_minor_against_a_team_with_penalty_and_no_player(harness: Harness, league: SampleLeague,
                                                                       clock: FixedClock) -> None:
    clock.set(G1 + timedelta(minutes=20))
    rita = league.referee()
    called = await harness.slash("/penalty", as_=rita, game="G1", infraction="bench_minor_too_many_players",
                                 team="Owls", minute=12)
    assert called.ephemeral and called.text == (
        "Bench penalty B1 recorded: Owls, game G1, minute 12.\n**Bench minor: too many players: bench minor, "
        "2 minutes** — Youth 3.7 (2). It counts in Owls's penalty minutes, in no player's."), called.text
    player_call = await harness.slash("/penalty", as_=rita, game="G1", infraction="tripping", team="Owls")
    assert "Tripping is called against a player, not a team" in player_call.text
    both = await harness.slash("/penalty", as_=rita, game="G1", infraction="tripping", team="Owls",
                               player=league.player("Omar Fox"))
    assert "or for a bench minor the team: one of the two" in both.text
    neither = await harness.slash("/penalty", as_=league.player("Omar Fox"), game="G1", infraction="tripping")
    assert "Only a referee or commissioner" in neither.text
    async with harness.bot.sessions() as s:
        assert [(b.minutes, b.minute) for b in (await s.scalars(select(BenchPenalty))).unique().all()] == [(2, 12)]
