"""Deadlines as data: nudges at offsets, the right audience, daily nags until done."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from bot.clock import FixedClock
from bot.services.deadlines import service as deadlines
from storage.models import Deadline, OutboxMessage
from tests.conftest import CHANNELS, GUILD, SampleLeague
from tests.harness import Harness

HAWKS_CHANNEL = 600_000_000_000_000_001
HAWKS_CAPTAIN = 500_000_000_000_000_001
WOLVES_CAPTAIN = 500_000_000_000_000_031


async def _team_id(h: Harness, name: str) -> int:
    from storage import lookups

    async with h.bot.sessions() as s:
        team = await lookups.team_by_name(s, h.bot.league_ids[GUILD], name)
        assert team is not None
        return team.id


async def create(h: Harness, *, due_in: timedelta, audience_kind: str = "commissioners",
                 audience_id: int | None = None, offsets: tuple[timedelta, ...] | None = None,
                 ref: str | None = None, nag: bool = False, subject: str = "Decide dispute 12") -> Deadline:
    now = h.bot.clock.now()
    async with h.bot.sessions.begin() as s:
        return await deadlines.create_deadline(
            s, h.bot.settings.leagues[0], h.bot.league_ids[GUILD], kind="custom", subject=subject,
            due_at=now + due_in, audience_kind=audience_kind, audience_id=audience_id, now=now,
            offsets=offsets, ref=ref, nag_until_done=nag)


async def complete(h: Harness, ref: str) -> Deadline | None:
    async with h.bot.sessions.begin() as s:
        return await deadlines.complete_deadline(s, h.bot.league_ids[GUILD], ref, now=h.bot.clock.now(),
                                                 note="decided")


async def run_for(h: Harness, clock: FixedClock, hours: float, step_minutes: int = 30) -> None:
    """Let time pass, delivering whatever falls due on the way."""
    steps = int(hours * 60 // step_minutes)
    for _ in range(steps):
        clock.advance(minutes=step_minutes)
        await h.bot.courier.deliver_due()


async def test_nudges_go_out_at_each_offset_and_not_again(harness: Harness, clock: FixedClock) -> None:
    await create(harness, due_in=timedelta(hours=80), offsets=(timedelta(hours=72), timedelta(hours=2)))
    admin = CHANNELS["announcements"]  # no admin channel configured: announcements
    await run_for(harness, clock, 7)
    assert harness.discord.channel_messages(admin) == []
    await run_for(harness, clock, 2)
    (first,) = harness.discord.channel_messages(admin)
    assert "Decide dispute 12" in first.content and "is due <t:" in first.content
    await run_for(harness, clock, 68)
    assert len(harness.discord.channel_messages(admin)) == 1
    await run_for(harness, clock, 2)
    assert len(harness.discord.channel_messages(admin)) == 2
    await run_for(harness, clock, 48)
    assert len(harness.discord.channel_messages(admin)) == 2, "no nag unless asked"


async def test_an_overdue_nag_deadline_nudges_daily_and_stops_once_done(harness: Harness, clock: FixedClock) -> None:
    await create(harness, due_in=timedelta(hours=3), offsets=(timedelta(hours=2),), ref="dispute:12", nag=True)
    admin = CHANNELS["announcements"]
    await run_for(harness, clock, 1.5)
    assert len(harness.discord.channel_messages(admin)) == 1
    await run_for(harness, clock, 2)  # the due time passes
    texts = [c.content for c in harness.discord.channel_messages(admin)]
    assert len(texts) == 2 and "isn't done yet" in texts[1]
    await run_for(harness, clock, 24 * 3)
    assert len(harness.discord.channel_messages(admin)) == 5  # one a day
    done = await complete(harness, "dispute:12")
    assert done is not None and done.done_at is not None
    await run_for(harness, clock, 24 * 3)
    assert len(harness.discord.channel_messages(admin)) == 5
    async with harness.bot.sessions() as s:
        pending = (await s.scalars(select(OutboxMessage).where(OutboxMessage.status == "pending"))).all()
    assert pending == []


async def test_a_nudge_rendered_after_completion_sends_nothing(harness: Harness, clock: FixedClock) -> None:
    await create(harness, due_in=timedelta(hours=3), offsets=(timedelta(hours=2),), ref="pay:1")
    async with harness.bot.sessions.begin() as s:  # done, but a row slipped past the cancel
        row = (await s.scalars(select(OutboxMessage))).one()
        row.status = "pending"
        dl = await deadlines.deadline_by_ref(s, harness.bot.league_ids[GUILD], "pay:1")
        assert dl is not None
        dl.done_at = clock.now()
    clock.advance(hours=1)
    stats = await harness.bot.courier.deliver_due()
    assert stats.skipped == 1 and harness.discord.channel_messages() == []


async def test_a_team_deadline_goes_to_the_team_channel(league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    await create(h, due_in=timedelta(hours=5), audience_kind="team", audience_id=await _team_id(h, "Hawks"),
                 offsets=(timedelta(hours=4),), subject="Hand in waivers")
    await run_for(h, clock, 1)
    (msg,) = h.discord.channel_messages(HAWKS_CHANNEL)
    assert "Hawks" in msg.content and "Hand in waivers" in msg.content


async def test_a_team_without_a_channel_hears_through_its_captains(league: SampleLeague,
                                                                   clock: FixedClock) -> None:
    h = league.h
    await create(h, due_in=timedelta(hours=5), audience_kind="team", audience_id=await _team_id(h, "Wolves"),
                 offsets=(timedelta(hours=4),))
    await run_for(h, clock, 1)
    assert len(h.discord.dms(WOLVES_CAPTAIN)) == 1
    assert h.discord.channel_messages() == []


async def test_a_player_deadline_is_a_dm_and_a_role_deadline_names_the_role_without_pinging(
        harness: Harness, clock: FixedClock) -> None:
    await create(harness, due_in=timedelta(hours=5), audience_kind="player", audience_id=HAWKS_CAPTAIN,
                 offsets=(timedelta(hours=4),), subject="Pay your fees")
    await create(harness, due_in=timedelta(hours=5), audience_kind="role", audience_id=1001,
                 offsets=(timedelta(hours=4),), subject="Submit lineups")
    await run_for(harness, clock, 1)
    assert "Pay your fees" in harness.discord.dms(HAWKS_CAPTAIN)[0].content
    (announcement,) = harness.discord.channel_messages(CHANNELS["announcements"])
    assert "<@&1001>" in announcement.content
    assert announcement.allowed_mentions == {"parse": [], "users": []}


async def test_missed_nudges_are_sent_late_once(harness: Harness, clock: FixedClock) -> None:
    await create(harness, due_in=timedelta(hours=80),
                 offsets=(timedelta(hours=72), timedelta(hours=48), timedelta(hours=24)))
    clock.advance(hours=60)  # the bot was down through two nudges
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.channel_messages(CHANNELS["announcements"])) == 1


async def test_creating_with_an_existing_ref_reschedules(harness: Harness, clock: FixedClock) -> None:
    first = await create(harness, due_in=timedelta(hours=10), offsets=(timedelta(hours=2),), ref="trade:1")
    second = await create(harness, due_in=timedelta(hours=20), offsets=(timedelta(hours=2),), ref="trade:1")
    assert first.id == second.id
    async with harness.bot.sessions() as s:
        pending = (await s.scalars(select(OutboxMessage).where(OutboxMessage.status == "pending"))).all()
    assert [r.due_at for r in pending] == [clock.now() + timedelta(hours=18)]


async def test_completing_an_unknown_ref_is_none(harness: Harness) -> None:
    assert await complete(harness, "nothing:1") is None


async def test_a_nudge_at_the_due_time_is_sent(harness: Harness, clock: FixedClock) -> None:
    await create(harness, due_in=timedelta(hours=3), offsets=(timedelta(0),))
    clock.advance(hours=3)
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.channel_messages(CHANNELS["announcements"])) == 1


async def test_a_deadline_created_overdue_with_nagging_nudges_now_then_daily(harness: Harness,
                                                                             clock: FixedClock) -> None:
    await create(harness, due_in=timedelta(hours=-30), offsets=(timedelta(hours=2),), nag=True)
    await run_for(harness, clock, 0.5)
    assert len(harness.discord.channel_messages(CHANNELS["announcements"])) == 1
    await run_for(harness, clock, 17)  # the next whole day after the due time is 18 h away
    assert len(harness.discord.channel_messages(CHANNELS["announcements"])) == 1
    await run_for(harness, clock, 1)
    assert len(harness.discord.channel_messages(CHANNELS["announcements"])) == 2


async def test_a_1d_nudge_is_the_day_before_at_the_same_local_time(harness: Harness, league: SampleLeague) -> None:
    """Days are calendar days in the league's zone for deadline nudges too; hours stay real time.
    Deadlines made before days meant that keep their minutes (elapsed time)."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    toronto = ZoneInfo("America/Toronto")
    due = datetime(2030, 3, 10, 19, 0, tzinfo=toronto)  # the Sunday the clocks spring forward
    h = league.h
    nudges = {}
    for offsets in ("1d", "24h"):
        async with h.bot.sessions.begin() as s:
            deadline = await deadlines.create_deadline(
                s, h.bot.settings.leagues[0], h.bot.league_ids[GUILD], kind="custom", subject=f"Fees {offsets}",
                due_at=due, audience_kind="commissioners", audience_id=None, now=h.bot.clock.now(),
                offsets=deadlines.parse_nudges(offsets))
            row = await s.scalar(select(OutboxMessage).where(
                OutboxMessage.send_key.startswith(deadlines.key_prefix(deadline.id))))
            nudges[offsets] = (list(deadline.offsets), row.due_at.astimezone(toronto).hour,
                               due.astimezone(UTC) - row.due_at)
    assert nudges == {"1d": (["1d"], 19, timedelta(hours=23)), "24h": ([1440], 18, timedelta(hours=24))}
    listed = await h.slash("/deadline list", as_=league.commissioner())
    assert "nudges 1d before" in listed.text and "nudges 24h before" in listed.text
