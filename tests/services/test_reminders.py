"""Game reminders, captain alerts and notices on real games, with a clock the tests move."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.delivery.courier import STUCK_AFTER
from bot.run.app import create_bot
from bot.services import outbox
from storage.db import create_engine
from storage.models import CaptainAlert, OutboxMessage, RosterEntry, Team
from tests.conftest import CHANNELS, SampleLeague, allow_double_booking, league_config, make_settings
from tests.harness import Call, Fault, Harness

TORONTO = ZoneInfo("America/Toronto")
G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)  # 2030-01-11 19:00 in Toronto
G2_START = G1_START + timedelta(hours=1)  # Bears vs Wolves (Wolves have no channel)
HAWKS, OWLS, BEARS = 600_000_000_000_000_001, 600_000_000_000_000_002, 600_000_000_000_000_003
ALICE = 500_000_000_000_000_001  # Hawks captain
HAWKS_PLAYERS = [500_000_000_000_000_000 + i for i in range(1, 9)]
WOLVES_PLAYERS = [500_000_000_000_000_031 + i for i in range(6)]


def mentions(text: str) -> list[int]:
    import re

    return [int(m) for m in re.findall(r"<@!?(\d+)>", text)]


async def at(h: Harness, clock: FixedClock, when: datetime) -> None:
    clock.set(when)
    await h.bot.courier.deliver_due()


async def rows(h: Harness, prefix: str) -> list[OutboxMessage]:
    async with h.bot.sessions() as s:
        return list((await s.scalars(select(OutboxMessage).where(OutboxMessage.send_key.startswith(prefix))
                                     .order_by(OutboxMessage.send_key))).all())


async def league_with(db_url: str, clock: FixedClock, **reminders: list[str]) -> SampleLeague:
    """The sample league on a bot whose league sets these reminder offsets."""
    settings = make_settings(league_config(reminders=reminders), url=db_url)
    bot = create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    return await SampleLeague(await Harness(bot).start()).load()


# --- planning ------------------------------------------------------------------------------------
async def test_importing_games_plans_reminders_and_lineup_checks(league: SampleLeague) -> None:
    planned = await rows(league.h, "game-reminders:")
    keys = [r.send_key for r in planned]
    # 6 games, 2 teams, 3 reminders + 2 captain checks; and each game's card for its officials
    assert len(keys) == 6 * 2 * (3 + 2) + 6
    cards = [r for r in planned if r.kind == "game_card"]
    assert {r.send_key.split(":", 2)[2] for r in cards} == {"card:120m"} and len(cards) == 6
    g1_card = {r.due_at for r in cards if r.args["game_id"] == planned[0].args["game_id"]}
    assert g1_card == {G1_START - timedelta(hours=2)}
    g1 = [r for r in planned if r.args["game_id"] == planned[0].args["game_id"] and r.kind == "game_reminder"]
    assert sorted(G1_START - r.due_at for r in g1 if r.channel_id == HAWKS) == [
        timedelta(hours=2), timedelta(hours=24), timedelta(hours=48)]
    assert all(r.expires_at == G1_START for r in g1)


async def test_reimporting_the_same_games_changes_nothing(league: SampleLeague) -> None:
    before = [(r.send_key, r.due_at) for r in await rows(league.h, "game-reminders:")]
    await SampleLeague(league.h).load()
    assert [(r.send_key, r.due_at) for r in await rows(league.h, "game-reminders:")] == before


async def test_reimporting_a_game_at_a_new_time_moves_its_pending_reminders(league: SampleLeague) -> None:
    from tests.conftest import DATA

    h = league.h
    moved = (DATA / "games.csv").read_text().replace("G1,2030-01-11 19:00", "G1,2030-01-11 21:00")
    report = await h.bot.services.imports.importer.run("games", moved.encode(), h.bot.settings.leagues[0],
                                                now=h.bot.clock.now())
    assert (report.updated, report.unchanged) == (1, 5)
    g1 = [r for r in await rows(h, "game-reminders:1:") if r.kind == "game_reminder"]
    new_start = G1_START + timedelta(hours=2)
    assert sorted(new_start - r.due_at for r in g1 if r.channel_id == HAWKS) == [
        timedelta(hours=2), timedelta(hours=24), timedelta(hours=48)]
    assert {r.expires_at for r in g1} == {new_start}


async def test_a_team_given_a_new_channel_gets_its_pending_reminders_and_nudges_there(
        league: SampleLeague, clock: FixedClock) -> None:
    """Teams set up before their channels existed (or moved to new ones): what is already queued
    follows the team, while what was sent stays sent and other teams are untouched."""
    from tests.conftest import DATA

    h = league.h
    new_channel = 600_000_000_000_000_099
    await h.slash("/deadline add", as_=league.commissioner(), name="Hawks fees", due="2030-01-11 12:00",
                  audience="team:Hawks", nudges="2h")
    await at(h, clock, G1_START - timedelta(hours=48))  # the first G1 reminder goes to the old channel
    assert len(h.discord.channel_messages(HAWKS)) == 1
    teams = (DATA / "teams.csv").read_text().replace(f"Hawks,North,{ALICE},{HAWKS}",
                                                     f"Hawks,North,{ALICE},{new_channel}")
    report = await h.bot.services.imports.importer.run("teams", teams.encode(), h.bot.settings.leagues[0],
                                                       now=clock.now())
    assert (report.updated, report.unchanged) == (1, 3)

    hawks_rows = [r for r in await rows(h, "game-reminders:") if r.args.get("team_id") == await _team_id(h, "Hawks")
                  and r.kind == "game_reminder"]
    assert {r.channel_id for r in hawks_rows if r.status == "pending"} == {new_channel}
    assert {r.channel_id for r in hawks_rows if r.status == "sent"} == {HAWKS}, "sent stays as sent"
    nudges = [r for r in await rows(h, "deadline:") if r.status == "pending"]
    assert nudges and {r.channel_id for r in nudges} == {new_channel}
    owls = [r for r in await rows(h, "game-reminders:") if r.args.get("team_id") == await _team_id(h, "Owls")
            and r.kind == "game_reminder"]
    assert {r.channel_id for r in owls} == {OWLS}

    h.discord.clear()
    await at(h, clock, G1_START - timedelta(hours=24))
    assert len(h.discord.channel_messages(new_channel)) == 1 and h.discord.channel_messages(HAWKS) == []


async def _team_id(h: Harness, name: str) -> int:
    async with h.bot.sessions() as s:
        return (await s.scalars(select(Team.id).where(Team.name == name))).one()


# --- the reminder itself --------------------------------------------------------------------------
async def test_reminder_goes_to_the_team_channel_with_buttons_and_pings_only_non_responders(
        league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    clock.set(G1_START - timedelta(hours=50))
    await h.slash("/checkin", as_=league.player("Bea Quinn"), status="in", game="G1")
    await h.slash("/checkin", as_=league.player("Carl Diaz"), status="out", game="G1")
    await h.slash("/checkin", as_=league.player("Dan Roy"), status="maybe", game="G1")
    await at(h, clock, G1_START - timedelta(hours=48))
    (msg,) = h.discord.channel_messages(HAWKS)
    assert f"<t:{int(G1_START.timestamp())}:F>" in msg.content and "`G1`" in msg.content
    waiting = [p for p in HAWKS_PLAYERS if p not in (500_000_000_000_000_002, 500_000_000_000_000_003,
                                                      500_000_000_000_000_004)]
    assert sorted(mentions(msg.content)) == sorted(waiting)
    assert len(mentions(msg.content)) == len(set(mentions(msg.content))), "nobody twice"
    assert msg.allowed_mentions is not None and msg.allowed_mentions["parse"] == []
    assert sorted(msg.allowed_mentions["users"]) == sorted(waiting)
    league_id = h.bot.league_ids[h.default_guild]
    assert msg.custom_ids() == [f"sideline:checkin@{league_id}:G1:{s}" for s in ("in", "out", "maybe")]
    assert len(h.discord.channel_messages(OWLS)) == 1


async def test_when_everyone_answered_nobody_is_pinged(league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    clock.set(G1_START - timedelta(hours=50))
    for name, row in league.players.items():
        if row["team"] == "Hawks":
            await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
    await at(h, clock, G1_START - timedelta(hours=48))
    (msg,) = h.discord.channel_messages(HAWKS)
    assert mentions(msg.content) == [] and msg.allowed_mentions["users"] == []
    assert "Everyone has answered" in msg.content



async def test_a_team_with_an_empty_roster_is_told_so_not_thanked(league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    async with h.bot.sessions.begin() as s:
        hawks = await s.scalar(select(Team.id).where(Team.name == "Hawks"))
        await s.execute(delete(RosterEntry).where(RosterEntry.team_id == hawks))
    await at(h, clock, G1_START - timedelta(hours=48))
    (msg,) = h.discord.channel_messages(HAWKS)
    assert "Everyone has answered" not in msg.content
    assert "Nobody is on the roster yet" in msg.content and "/roster add" in msg.content
    assert mentions(msg.content) == [] and msg.allowed_mentions["users"] == []

async def test_a_team_without_a_channel_gets_dms_and_closed_dms_are_counted(
        league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    clock.set(G2_START - timedelta(hours=50))
    await h.slash("/checkin", as_=league.player("Cat Rhee"), status="in", game="G2")
    h.discord.closed_dms.add(WOLVES_PLAYERS[1])
    clock.set(G2_START - timedelta(hours=48))
    stats = await h.bot.courier.deliver_due()
    dmed = {u for u in WOLVES_PLAYERS if h.discord.dms(u)}
    assert dmed == set(WOLVES_PLAYERS[2:]), "not Cat (answered), not Don (DMs closed)"
    assert all(len(h.discord.dms(u)) == 1 for u in dmed)
    league_id = h.bot.league_ids[h.default_guild]
    assert h.discord.dms(WOLVES_PLAYERS[2])[0].custom_ids()[0] == f"sideline:checkin@{league_id}:G2:in"
    assert stats.failed == 1
    failed = [r for r in await rows(h, "game-reminders:") if r.status == "failed"]
    assert [r.user_id for r in failed] == [WOLVES_PLAYERS[1]]
    assert h.discord.channel_messages(CHANNELS["announcements"]) == [], "a closed DM is not a channel problem"


async def test_each_reminder_time_posts_at_most_once_the_message_then_the_last_call(
        league: SampleLeague, clock: FixedClock) -> None:
    """48 h posts the team's message, 24 h only keeps it up to date, 2 h posts the last call."""
    h = league.h
    for hours in (49, 48, 47, 25, 24, 23, 3, 2, 1):
        await at(h, clock, G1_START - timedelta(hours=hours))
    posted = h.discord.channel_messages(HAWKS)
    assert len(posted) == 2 and posted[0].content.startswith("🏒 Hawks") and posted[1].content.startswith("⏰")
    await at(h, clock, G1_START + timedelta(hours=1))
    assert len(h.discord.channel_messages(HAWKS)) == 2


async def test_after_downtime_only_the_latest_due_reminder_goes_out(league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    await at(h, clock, G1_START - timedelta(hours=10))  # down through the 48 h and 24 h reminders
    assert len(h.discord.channel_messages(HAWKS)) == 1
    await at(h, clock, G1_START - timedelta(hours=1))
    assert len(h.discord.channel_messages(HAWKS)) == 2


async def test_a_reminder_due_while_down_until_after_the_start_is_skipped(
        league: SampleLeague, clock: FixedClock, caplog: pytest.LogCaptureFixture) -> None:
    h = league.h
    caplog.set_level("INFO", logger="sideline.courier")
    clock.set(G1_START + timedelta(minutes=5))
    stats = await h.bot.courier.deliver_due()
    assert h.discord.channel_messages(HAWKS) == [] and stats.skipped > 0
    assert "no longer useful" in caplog.text


# --- Discord faults on real reminders ----------------------------------------------------------------
@pytest.mark.parametrize("fault", ["missing", "forbidden"])
async def test_a_deleted_or_forbidden_team_channel_fails_once_and_admins_hear_once(
        league: SampleLeague, clock: FixedClock, fault: str) -> None:
    h = league.h
    getattr(h.discord, f"{fault}_channels").add(HAWKS)
    for hours in (48, 24, 2):
        await at(h, clock, G1_START - timedelta(hours=hours))
    attempts = [c for c in h.discord.calls if c.channel_id == HAWKS]
    assert len(attempts) == 3, "one try per reminder, no retry storm"
    notices = [c for c in h.discord.channel_messages(CHANNELS["announcements"]) if f"<#{HAWKS}>" in c.content]
    assert len(notices) == 1
    assert {r.status for r in await rows(h, "game-reminders:") if r.channel_id == HAWKS and r.kind ==
            "game_reminder" and r.args["offset"] in (2880, 1440, 120) and r.due_at < G1_START} >= {"failed"}
    assert len(h.discord.channel_messages(OWLS)) == 2, "Owls: their message, then the last call"


@pytest.mark.parametrize("status", [503, 429])
async def test_server_errors_and_rate_limits_are_retried_not_lost(
        league: SampleLeague, clock: FixedClock, status: int) -> None:
    h = league.h
    body = {"message": "slow down", "retry_after": 0.01, "global": False} if status == 429 else None
    h.discord.faults.append(Fault("POST", rf"^/channels/{HAWKS}/messages$", status, times=3, body=body))
    await at(h, clock, G1_START - timedelta(hours=48))
    for minutes in (5, 10, 20, 40, 80):
        await at(h, clock, G1_START - timedelta(hours=48) + timedelta(minutes=minutes))
    assert len(h.discord.channel_messages(HAWKS)) == 1


# --- daylight saving ---------------------------------------------------------------------------------
@pytest.mark.parametrize("day", ["2030-03-10", "2030-11-03"])
async def test_a_24h_reminder_on_the_day_clocks_change_is_24_real_hours_before(
        db_url: str, clock: FixedClock, day: str) -> None:
    """Offsets in hours stay elapsed time ("1d" is the one that keeps the local time of day)."""
    league = await league_with(db_url, clock, game_offsets=["48h", "24h", "2h"])
    h = league.h
    try:
        reply = await h.slash("/game add", as_=league.commissioner(), home="Hawks", away="Owls",
                              starts_at=f"{day} 19:00", code="DST")
        assert "Added `DST`" in reply.content
        start = datetime.fromisoformat(f"{day} 19:00").replace(tzinfo=TORONTO).astimezone(UTC)
        reminders = {r.args["offset"]: r for r in await rows(h, "game-reminders:") if r.kind == "game_reminder"
                     and r.channel_id == HAWKS and r.due_at > G1_START + timedelta(days=30)}
        assert start - reminders[1440].due_at == timedelta(hours=24)
        local_day_before = reminders[1440].due_at.astimezone(TORONTO)
        assert local_day_before.hour == (18 if day.endswith("03-10") else 20), "wall clock differs, real time doesn't"
        await at(h, clock, reminders[1440].due_at)
        (msg,) = [c for c in h.discord.channel_messages(HAWKS) if "`DST`" in c.content]
        assert f"<t:{int(start.timestamp())}:F>" in msg.content
    finally:
        await h.close()


# --- captain alerts ----------------------------------------------------------------------------------
async def test_captains_hear_each_lineup_problem_once_while_it_stays_the_same(
        league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    clock.set(G1_START - timedelta(hours=30))
    for name in ("Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole"):  # four men, no goalie
        await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
    await at(h, clock, G1_START - timedelta(hours=24))
    alerts = h.discord.dms(ALICE)
    texts = " ".join(c.content for c in alerts)
    assert len(alerts) == 2 and "goalie" in texts.lower() and "non-binary" in texts
    await at(h, clock, G1_START - timedelta(hours=3))
    assert len(h.discord.dms(ALICE)) == 2, "same problems: not repeated"
    async with h.bot.sessions() as s:
        codes = set((await s.scalars(select(CaptainAlert.problem_code))).all())
    assert {"no_goalie", "short_of_women"} <= codes


async def test_after_downtime_only_the_latest_lineup_check_runs(league: SampleLeague, clock: FixedClock) -> None:
    """Down through the 1d check until after the 3h one was due: one check, not two."""
    h = league.h
    clock.set(G1_START - timedelta(hours=30))
    for name in ("Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole"):  # four men, no goalie
        await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
    await at(h, clock, G1_START - timedelta(hours=2, minutes=30))
    checks = {r.args["offset"]: r.status for r in await rows(h, "game-reminders:1:")
              if r.kind == "captain_alert_check" and r.args["team_id"] == await _team_id(h, "Hawks")}
    assert checks == {1440: "skipped", 180: "sent"}
    assert len(h.discord.dms(ALICE)) == 2, "each problem once"


async def test_a_fixed_lineup_sends_no_alert(league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    clock.set(G1_START - timedelta(hours=30))
    for name in ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee"):
        await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
    await at(h, clock, G1_START - timedelta(hours=24))
    assert h.discord.dms(ALICE) == []


async def test_a_late_dropout_alerts_the_captains(league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    clock.set(G1_START - timedelta(hours=30))
    for name in ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee"):
        await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
    await at(h, clock, G1_START - timedelta(hours=12))
    assert h.discord.dms(ALICE) == []
    reply = await h.slash("/checkin", as_=league.player("Bea Quinn"), status="out", game="G1")
    assert "captains are told" in reply.content
    await h.bot.courier.deliver_due()
    texts = [c.content for c in h.discord.dms(ALICE)]
    assert any("Bea Quinn dropped out" in t for t in texts)
    assert any("non-binary" in t for t in texts), "the lineup check runs at once"


async def test_an_early_switch_to_out_is_not_a_late_dropout(league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    clock.set(G1_START - timedelta(hours=60))
    await h.slash("/checkin", as_=league.player("Bea Quinn"), status="in", game="G1")
    await h.slash("/checkin", as_=league.player("Bea Quinn"), status="out", game="G1")
    await h.bot.courier.deliver_due()
    assert h.discord.dms(ALICE) == []


# --- restarts ----------------------------------------------------------------------------------------
def bulk_settings(url: str) -> Settings:
    return make_settings(league_config(reminders={"game_offsets": ["2h"], "captain_alert_offsets": []}), url=url)


def bulk_games_csv(n: int) -> bytes:
    teams = ("Hawks", "Owls", "Bears")
    lines = ["game_id,starts_at,home,away,venue,kind"]
    for i in range(n):
        home, away = teams[i % 3], teams[(i + 1) % 3]
        lines.append(f"B{i},2030-01-10 19:{i % 60:02d},{home},{away},Rink,regular")
    return ("\n".join(lines) + "\n").encode()


async def load_bulk(h: Harness, n: int) -> None:
    from tests.conftest import DATA

    league = h.bot.settings.leagues[0]
    importer = h.bot.services.imports.importer
    for kind in ("teams", "players"):
        await importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league, now=h.bot.clock.now())
    await importer.run("games", bulk_games_csv(n), league, now=h.bot.clock.now())


BULK_DUE = datetime(2030, 1, 10, 19, 0, tzinfo=TORONTO).astimezone(UTC) - timedelta(hours=2) + timedelta(minutes=61)


class Stop(BaseException):
    """The process dies here (not an error the courier could catch and retry)."""


async def test_500_reminders_with_stops_at_random_points_are_each_sent_once(
        db_url: str, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> None:
    allow_double_booking(monkeypatch)
    settings = bulk_settings(db_url)
    bot = create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start()
    fake = h.discord
    await load_bulk(h, 250)
    clock.set(BULK_DUE)
    rng = random.Random(7)
    countdown = [0]

    def tick() -> None:
        countdown[0] -= 1
        if countdown[0] == 0:
            raise Stop

    def after_accepted(call: Call) -> None:  # Discord created the message; the bot dies before recording it
        if call.method == "POST" and call.channel_id in (HAWKS, OWLS, BEARS) and rng.random() < 0.5:
            tick()

    real_render = bot.courier.kinds.renderers["game_reminder"]

    async def render_or_die(session: AsyncSession, row: OutboxMessage, now: datetime) -> outbox.Rendered:
        if rng.random() < 0.5:  # dies mid-render, inside a transaction
            tick()
        return await real_render(session, row, now)

    kinds = bot.courier.kinds
    monkeypatch.setattr(bot.courier, "kinds", outbox.OutboxKinds({**kinds.renderers, "game_reminder": render_or_die},
                                                                 kinds.failure_hooks))
    fake.hooks.append(after_accepted)
    stops = 0
    for _round in range(6):
        countdown[0] = rng.randint(1, 120)
        try:
            await bot.courier.deliver_due()
        except Stop:
            stops += 1
        await bot.close()
        clock.advance(seconds=STUCK_AFTER.total_seconds() + 1)
        bot = create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
        restarted = Harness(bot)
        restarted.discord = fake  # the same Discord, which remembers nonces
        await restarted.start()
        await bot.courier.recover()
    countdown[0] = 0
    await bot.courier.deliver_due()
    assert stops >= 4
    sent = [c for c in fake.channel_messages() if c.channel_id in (HAWKS, OWLS, BEARS)]
    per_game_team = Counter((c.content.split("`")[1], c.channel_id) for c in sent)
    assert len(sent) == 500 and set(per_game_team.values()) == {1}
    assert any(c.duplicate for c in fake.calls), "some sends were repeated after a stop, and Discord refused them"
    async with bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(OutboxMessage)
                              .where(OutboxMessage.status != "sent")) == 0
    await bot.close()


# --- sideline reminders list --------------------------------------------------------------------------
def test_reminders_list_shows_pending_and_sent_messages(tmp_path: Path) -> None:
    from tests.cli.test_cli import DATA as CLI_DATA
    from tests.cli.test_cli import sideline, write_config

    config = str(write_config(tmp_path))
    for kind in ("teams", "players", "games"):
        result = sideline("--config", config, "import", kind, str(CLI_DATA / f"{kind}.csv"), "--league", "coed")
        assert result.returncode == 0, result.stderr
    listed = sideline("--config", config, "reminders", "list", "--league", "coed", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert len(rows) == 6 * 2 * 5 + 6 and {r["status"] for r in rows} == {"pending"}
    cards = [r for r in rows if r["kind"] == "game_card"]
    assert len(cards) == 6 and {r["what"] for r in cards} == {"officials' game card"}
    assert {r["to"] for r in cards} == {"DMs decided at send time"}
    first = rows[0]
    assert first["kind"] == "game_reminder" and first["key"].endswith(":remind:2880m")
    assert first["due_at"] == "2030-01-10T00:00:00+00:00"
    human = sideline("--config", config, "reminders", "list", "--league", "coed", "--status", "sent")
    assert human.returncode == 0 and human.stdout.startswith("coed: 0 message(s) (sent)")
    text = sideline("--config", config, "reminders", "list", "--league", "coed")
    assert ("Wed 2030-01-09 19:00 EST  pending   game reminder for G1: Hawks vs Owls (Fri 2030-01-11 19:00), "
            "team Hawks") in text.stdout


# --- reminder offsets and scheduling -------------------------------------------------------
@pytest.mark.parametrize(("day", "clocks"), [("2030-03-10", "spring forward"), ("2030-11-03", "fall back")])
async def test_1d_means_the_day_before_at_the_same_local_time(
        db_url: str, clock: FixedClock, day: str, clocks: str) -> None:
    """A "1d" reminder for a 19:00 game the day the clocks change goes out at
    19:00 the day before (23 or 25 real hours), not at 18:00 or 20:00."""
    league = await league_with(db_url, clock, game_offsets=["2d", "1d"], captain_alert_offsets=["1d"])
    h = league.h
    try:
        reply = await h.slash("/game add", as_=league.commissioner(), home="Hawks", away="Owls",
                              starts_at=f"{day} 19:00", code="DST")
        assert "Added `DST`" in reply.content
        start = datetime.fromisoformat(f"{day} 19:00").replace(tzinfo=TORONTO)
        day_before = datetime.combine(start.date() - timedelta(days=1), start.timetz())
        await at(h, clock, datetime.combine(start.date() - timedelta(days=2), start.timetz()).astimezone(UTC)
                 + timedelta(minutes=90))  # the 2d reminder is out of the way
        h.discord.clear()
        await at(h, clock, (day_before - timedelta(minutes=30)).astimezone(UTC))
        assert [c for c in h.discord.channel_messages(HAWKS) if "`DST`" in c.content] == [], "not an hour early"
        await at(h, clock, day_before.astimezone(UTC))
        (msg,) = [c for c in h.discord.channel_messages(HAWKS) if "`DST`" in c.content]  # the last call
        assert f"<t:{int(start.timestamp())}:R>" in msg.content
        real = start.astimezone(UTC) - day_before.astimezone(UTC)
        assert real == timedelta(hours=23 if clocks == "spring forward" else 25)
        two_days = [r for r in await rows(h, "game-reminders:") if r.kind == "game_reminder"
                    and r.args["offset"] == 2880 and r.due_at > G1_START + timedelta(days=30)]
        assert {r.due_at.astimezone(TORONTO).hour for r in two_days} == {19}
        checks = [r for r in await rows(h, "game-reminders:") if r.kind == "captain_alert_check"
                  and r.due_at > G1_START + timedelta(days=30)]
        assert {r.due_at for r in checks} == {day_before.astimezone(UTC)}, "captains' 1d likewise"
    finally:
        await h.close()


async def test_the_default_reminders_are_the_same_time_two_days_and_one_day_before(
        db_url: str, clock: FixedClock) -> None:
    """Players expect "the day before" at the game's time of day, so the defaults are written in days."""
    league = await league_with(db_url, clock)
    h = league.h
    try:
        await h.slash("/game add", as_=league.commissioner(), home="Hawks", away="Owls",
                      starts_at="2030-03-10 19:00", code="DST")
        due = sorted(r.due_at.astimezone(TORONTO) for r in await rows(h, "game-reminders:") if r.kind ==
                     "game_reminder" and r.channel_id == HAWKS and r.due_at > G1_START + timedelta(days=30))
        assert [(d.day, d.hour) for d in due] == [(8, 19), (9, 19), (10, 17)]
    finally:
        await h.close()


def games_csv(games: dict[str, datetime]) -> bytes:
    teams = ("Hawks", "Owls", "Bears")
    lines = ["game_id,starts_at,home,away,venue,kind"]
    for i, (code, starts_at) in enumerate(games.items()):
        lines.append(f"{code},{starts_at.astimezone(TORONTO):%Y-%m-%d %H:%M},{teams[i % 3]},{teams[(i + 1) % 3]},"
                     "Rink,regular")
    return ("\n".join(lines) + "\n").encode()


async def test_past_reminders_do_not_all_arrive_at_once(
        league: SampleLeague, clock: FixedClock, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """150 games imported to start within the hour (and a few within a day or two):
    each team hears once per game now, the nearest reminder still meaningful; the rest is dropped
    with a log line. Captains' lineup checks likewise."""
    h = league.h
    allow_double_booking(monkeypatch)
    caplog.set_level("INFO", logger="sideline.reminders")
    now = clock.now()
    games = {f"S{i}": now + timedelta(minutes=10 + i % 50) for i in range(150)}
    games |= {f"D{i}": now + timedelta(hours=23, minutes=i) for i in range(3)}  # past 2d and 1d; 2h ahead
    games |= {f"T{i}": now + timedelta(hours=47, minutes=i) for i in range(3)}  # past 2d; 1d and 2h ahead
    h.discord.clear()
    await h.bot.services.imports.importer.run("games", games_csv(games), h.bot.settings.leagues[0], now=now)
    await h.bot.courier.deliver_due()
    sent = [c for c in h.discord.channel_messages() if c.channel_id in (HAWKS, OWLS, BEARS)]
    per_game_team = Counter((c.content.split("`")[1], c.channel_id) for c in sent)
    assert set(per_game_team) == {(code, ch) for code in games for ch in (HAWKS, OWLS, BEARS)
                                  if per_game_team.get((code, ch))}
    assert len(per_game_team) == 2 * len(games) and set(per_game_team.values()) == {1}, \
        "one reminder per game and team, now: not three, not none"
    checks = [r for r in await rows(h, "game-reminders:") if r.kind == "captain_alert_check"
              and r.args["game_id"] > 6 and r.status != "cancelled"]
    assert Counter((r.args["game_id"], r.args["team_id"]) for r in checks if r.due_at <= now).most_common(1)[0][1] == 1
    assert "dropped" in caplog.text and "S0" in caplog.text

    for hours in range(1, 49):  # the rest of their reminders come at their times, once
        await at(h, clock, now + timedelta(hours=hours))
    sent = [c for c in h.discord.channel_messages() if c.channel_id in (HAWKS, OWLS, BEARS)]
    totals = Counter(c.content.split("`")[1] for c in sent)
    assert {totals[code] for code in games if code.startswith("S")} == {2}, "one per team, nothing later"
    assert {totals[code] for code in games if code.startswith("D")} == {4}, "late 1d now, then 2h"
    assert {totals[code] for code in games if code.startswith("T")} == {4}, "late 2d now, 1d an edit, 2h last call"
