"""A game's two officials (youth 2.2: a referee and a timekeeper) through the real command tree: /setup roles
and /game referee role:, and the commissioners' notices about a game that lacks one, once at each moment,
across restarts.

G1 is Hawks v Owls at 00:00 UTC on 12 January 2030; the notices go to the announcements channel (the test
league has no admin channel) 24 hours before and at the start.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import OutboxMessage, RefereeAssignment
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Harness

YOUTH = make_settings(league_config("youth", preset="youth-ball-hockey"))
G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)
AHEAD = G1_START - timedelta(hours=24)
ANNOUNCEMENTS = CHANNELS["announcements"]


@pytest.fixture
def settings() -> Settings:
    return YOUTH


def notices(h: Harness, code: str = "G1") -> list[str]:
    return [c.content for c in h.discord.channel_messages(ANNOUNCEMENTS) if f"`{code}`" in c.content]


async def restart(h: Harness, settings: Settings, db_url: str, clock: FixedClock) -> Harness:
    """The bot stops and starts again on the same database and the same Discord."""
    await h.bot.close()
    bot = create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    again = Harness(bot)
    again.discord = h.discord
    await again.start()
    await bot.courier.recover()
    return again


async def start(db_url: str, clock: FixedClock) -> tuple[Harness, SampleLeague]:
    """A youth league's bot, run by the test itself (it restarts it), with the sample league."""
    bot = create_bot(YOUTH, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    return h, await SampleLeague(h).load()


async def test_game_referee_assigns_a_timekeeper_and_one_role_per_person(harness: Harness,
                                                                          league: SampleLeague) -> None:
    kay, tom = league.commissioner(), league.timekeeper()
    made = await harness.slash("/game referee", as_=kay, game="G1", member=tom, role="timekeeper")
    assert made.ephemeral and "Timekeeper Tom is now a timekeeper of `G1` (Hawks vs Owls)" in made.text, made.text
    assert "Referees of this game now: nobody. Timekeepers: Timekeeper Tom." in made.text
    assert "Relays" not in made.text and "don't have" not in made.text
    ref = await harness.slash("/game referee", as_=kay, game="G1", member=league.referee())
    assert "Ref Rita is now a referee of `G1`" in ref.text and "Timekeepers: Timekeeper Tom." in ref.text
    switched = await harness.slash("/game referee", as_=kay, game="G1", member=tom)
    assert "Timekeeper Tom is now a referee of `G1`" in switched.text, switched.text
    assert "(They were its timekeeper: one role per game.)" in switched.text
    assert "They don't have the league's referee role" in switched.text
    async with harness.bot.sessions() as s:
        rows = (await s.execute(select(RefereeAssignment.referee_name, RefereeAssignment.role)
                                .order_by(RefereeAssignment.id))).all()
    assert [tuple(r) for r in rows] == [("Timekeeper Tom", "referee"), ("Ref Rita", "referee")]
    gone = await harness.slash("/game referee", as_=kay, game="G1", member=tom, role="timekeeper", remove=True)
    assert "Timekeeper Tom wasn't a timekeeper of `G1`" in gone.text


async def test_a_timekeeper_keeps_the_sheet_but_is_no_referee(harness: Harness, league: SampleLeague) -> None:
    tom = league.timekeeper()
    added = await harness.slash("/gamesheet add", as_=tom, game="G1", player=league.player("Dan Roy"))
    assert "Dan Roy is on Hawks's sheet for `G1`." in added.text, added.text
    harness.bot.clock.set(G1_START + timedelta(hours=2))  # type: ignore[attr-defined]
    result = await harness.slash("/result enter", as_=tom, game="G1", home=1, away=0, decided="regulation")
    assert result.ephemeral and "Only a referee or commissioner" in result.text, result.text


async def test_a_game_without_a_timekeeper_is_told_once_at_each_moment_across_restarts(
        db_url: str, clock: FixedClock) -> None:
    h, league = await start(db_url, clock)
    await h.slash("/game referee", as_=league.commissioner(), game="G1", member=league.referee())
    for member, role in ((league.referee(), "referee"), (league.timekeeper(), "timekeeper")):
        await h.slash("/game referee", as_=league.commissioner(), game="G2", member=member, role=role)
    clock.set(AHEAD - timedelta(minutes=1))
    await h.bot.courier.deliver_due()
    assert notices(h) == []

    clock.set(AHEAD)
    await h.bot.courier.deliver_due()
    (ahead,) = notices(h)
    assert "`G1` Hawks vs Owls" in ahead and "has no timekeeper assigned" in ahead, ahead
    assert "A game can't begin without both officials (Youth 2.2, 1.14)" in ahead
    assert "Assign a timekeeper with `/game referee`" in ahead and "starts now" not in ahead
    h = await restart(h, YOUTH, db_url, clock)
    await h.bot.courier.deliver_due()
    assert len(notices(h)) == 1, "nothing again after a restart"

    clock.set(G1_START + timedelta(minutes=1))
    h = await restart(h, YOUTH, db_url, clock)
    await h.bot.courier.deliver_due()
    assert len(notices(h)) == 2
    assert "**starts now**, has no timekeeper assigned" in notices(h)[1]
    h = await restart(h, YOUTH, db_url, clock)
    await h.bot.courier.deliver_due()
    assert len(notices(h)) == 2
    assert notices(h, "G2") == [], "G2 has both officials"
    assert notices(h, "G3") == [], "G3 is a week later"
    await h.close()


async def test_an_official_assigned_in_time_or_a_cancelled_game_means_no_notice(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    youth = harness
    kay = league.commissioner()
    await youth.slash("/game cancel", as_=kay, game="G2")
    clock.set(AHEAD + timedelta(hours=2))
    await youth.bot.courier.deliver_due()
    (g1,) = notices(youth)
    assert "has no referee and no timekeeper assigned" in g1 and "Assign a referee or a timekeeper" in g1
    for member, role in ((league.referee(), "referee"), (league.timekeeper(), "timekeeper")):
        await youth.slash("/game referee", as_=kay, game="G1", member=member, role=role)
    clock.set(G1_START + timedelta(hours=1))
    await youth.bot.courier.deliver_due()
    assert len(notices(youth)) == 1 and notices(youth, "G2") == []


async def test_a_moved_game_is_told_about_for_its_new_time(harness: Harness, league: SampleLeague,
                                                            clock: FixedClock) -> None:
    youth = harness
    clock.set(AHEAD)
    await youth.bot.courier.deliver_due()
    assert len(notices(youth)) == 1
    moved = await youth.slash("/game move", as_=league.commissioner(), game="G1", starts_at="2030-01-18 21:00")
    assert "Moved `G1`" in moved.text, moved.text
    clock.set(G1_START + timedelta(hours=1))
    await youth.bot.courier.deliver_due()
    assert len(notices(youth)) == 1, "the old start time tells nobody"
    new_start = datetime(2030, 1, 19, 2, 0, tzinfo=UTC)  # 21:00 Toronto on the 18th
    clock.set(new_start - timedelta(hours=24))
    await youth.bot.courier.deliver_due()
    assert len(notices(youth)) == 2
    clock.set(new_start)
    await youth.bot.courier.deliver_due()
    assert len(notices(youth)) == 3 and "**starts now**" in notices(youth)[2]


async def test_games_planned_before_the_notices_existed_get_them_at_start(db_url: str, clock: FixedClock) -> None:
    youth, _ = await start(db_url, clock)
    async with youth.bot.sessions.begin() as s:
        await s.execute(delete(OutboxMessage).where(OutboxMessage.send_key.startswith("officials:")))
    h = await restart(youth, YOUTH, db_url, clock)
    async with h.bot.sessions() as s:
        keys = (await s.scalars(select(OutboxMessage.send_key).where(
            OutboxMessage.send_key.startswith("officials:")))).all()
    assert len(keys) == 12, "two notices for each of the six games"
    clock.set(AHEAD)
    await h.bot.courier.deliver_due()
    assert len(notices(h)) == 1
    await h.close()


@pytest.mark.parametrize("preset", ["coed-ball-hockey", "indoor-soccer"])
async def test_leagues_that_need_no_timekeeper_hear_nothing(db_url: str, clock: FixedClock, preset: str) -> None:
    bot = create_bot(make_settings(league_config(preset=preset)), engine=create_engine(db_url), clock=clock,
                     run_scheduler=False)
    h = await Harness(bot).start()
    await SampleLeague(h).load()
    clock.set(G1_START + timedelta(minutes=5))
    await bot.courier.deliver_due()
    assert notices(h) == []
    async with bot.sessions() as s:
        assert (await s.scalars(select(OutboxMessage.id).where(
            OutboxMessage.send_key.startswith("officials:")))).all() == []
    await h.close()


async def test_setup_roles_names_the_timekeeper_role_and_the_config_file_may_too(harness: Harness) -> None:
    import discord

    from tests.commands.empty_server import ROLE_IDS, open_server

    server = open_server(harness)
    admin = server.admin()
    await server.slash("/setup league", as_=admin, preset="youth-ball-hockey", name="Youth Nights",
                       timezone="America/Toronto")
    picked = await server.slash("/setup roles", as_=admin, timekeeper=discord.Object(ROLE_IDS["timekeeper"]))
    assert picked.content == f"Roles for Youth Nights:\n• Timekeeper role: not set → <@&{ROLE_IDS['timekeeper']}>"
    league = harness.bot.settings.league_for_guild(server.guild_id)
    assert league is not None and league.roles.timekeeper == ROLE_IDS["timekeeper"]
    shown = await server.slash("/setup show", as_=admin)
    assert f"**Timekeeper role** = <@&{ROLE_IDS['timekeeper']}> · set in Discord" in shown.text
    from_file = make_settings(league_config(roles={"captain": 1, "timekeeper": 4})).leagues[0]
    assert from_file.roles.timekeeper == 4 and from_file.roles.referee is None
