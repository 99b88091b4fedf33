"""/appeal file and /appeal decide through the real command tree (youth rules 1.12, 1.20-1.21)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from bot.clock import FixedClock
from storage.models import Appeal, Deadline, OutboxMessage, Suspension
from tests.conftest import CHANNELS, SampleLeague
from tests.harness import Harness

ANNOUNCEMENTS = CHANNELS["announcements"]  # no admin channel: commissioners' nudges go here


async def suspend(h: Harness, league: SampleLeague, name: str = "Alice Hart", games: int = 3) -> int:
    reply = await h.slash("/suspend", as_=league.commissioner(), player=league.player(name), games=games,
                          reason="Roughing after the whistle")
    assert "Suspension #" in reply.content, reply.content
    return int(reply.content.split("#")[1].split()[0])


async def file(h: Harness, league: SampleLeague, suspension: int, *, as_name: str = "Alice Hart",
               reason: str = "It was an accident") -> str:
    member = league.player(as_name)
    reply = await h.slash("/appeal file", as_=member, suspension=suspension, reason=reason)
    assert reply.ephemeral and reply.first.allowed_mentions == {"parse": []}
    return reply.content


async def decide(h: Harness, league: SampleLeague, appeal: int, outcome: str, games: int | None = None) -> str:
    reply = await h.slash("/appeal decide", as_=league.commissioner(), appeal=appeal, outcome=outcome, games=games)
    assert reply.ephemeral
    return reply.content


async def appeals(h: Harness) -> list[tuple[int, str | None, int | None]]:
    async with h.bot.sessions() as s:
        found = (await s.scalars(select(Appeal).order_by(Appeal.id))).unique().all()
        return [(a.suspension_id, a.outcome, a.games) for a in found]


async def suspension(h: Harness, suspension_id: int) -> tuple[int, str]:
    async with h.bot.sessions() as s:
        row = await s.scalar(select(Suspension).where(Suspension.id == suspension_id))
        assert row is not None
        return row.games, row.status


async def deadline(h: Harness, ref: str) -> Deadline:
    async with h.bot.sessions() as s:
        found = await s.scalar(select(Deadline).where(Deadline.ref == ref))
        assert found is not None
        return found


async def run_for(h: Harness, clock: FixedClock, hours: float, step_minutes: int = 60) -> None:
    for _ in range(int(hours * 60 // step_minutes)):
        clock.advance(minutes=step_minutes)
        await h.bot.courier.deliver_due()


def nudges(h: Harness, appeal: int) -> list[str]:
    return [c.content for c in h.discord.channel_messages(ANNOUNCEMENTS) if f"Decide appeal #{appeal} " in c.content]


async def test_the_player_appeals_within_the_window(harness: Harness, league: SampleLeague) -> None:
    sid = await suspend(harness, league)
    text = await file(harness, league, sid)
    assert f"Appeal #1 of suspension #{sid} is filed" in text and "decide by <t:" in text
    assert await appeals(harness) == [(sid, None, None)]
    decision = await deadline(harness, "appeal:1")
    assert decision.kind == "appeal_decision" and decision.audience_kind == "commissioners"
    assert decision.nag_until_done and decision.due_at == harness.bot.clock.now() + timedelta(days=5)
    assert (await deadline(harness, f"suspension:{sid}:appeal-window")).done_at is not None
    await harness.bot.courier.deliver_due()
    (filed,) = [c for c in harness.discord.channel_messages(ANNOUNCEMENTS) if "was filed" in c.content]
    assert "accident" not in filed.content and "Alice" not in filed.content, "no details in a shared channel"
    listing = (await harness.slash("/suspensions", as_=league.commissioner())).text
    assert "appeal #1 waiting for the commissioners' decision: “It was an accident”" in listing
    assert "accident" not in (await harness.slash("/suspensions", as_=league.player("Omar Fox"))).text


async def test_a_second_appeal_is_refused(harness: Harness, league: SampleLeague) -> None:
    sid = await suspend(harness, league)
    await file(harness, league, sid)
    waiting = await file(harness, league, sid, reason="again")
    assert "already waiting for the league's decision" in waiting
    assert "Appeal upheld" in await decide(harness, league, 1, "upheld")
    again = await file(harness, league, sid, reason="once more")
    assert "already been appealed" in again and "once" in again and "Youth" not in again  # co-ed: league default
    assert await appeals(harness) == [(sid, "upheld", 3)]


async def test_an_appeal_after_the_window_is_refused_and_the_suspension_is_final(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    sid = await suspend(harness, league)
    clock.advance(days=7, minutes=1)
    late = await file(harness, league, sid)
    assert "window to appeal this suspension closed" in late and "it is final" in late
    assert await appeals(harness) == []
    details = (await harness.slash("/suspensions", as_=league.player("Alice Hart"))).text
    assert "final" in details


async def test_an_appeal_on_the_last_day_of_the_window_is_accepted(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    sid = await suspend(harness, league)
    clock.advance(days=7)
    assert "is filed" in await file(harness, league, sid)


async def test_the_captain_may_appeal_but_nobody_else(harness: Harness, league: SampleLeague) -> None:
    sid = await suspend(harness, league, "Yuri Bell")  # Bears: captains Walt Orr and Xena Pope
    for member in (league.player("Zed Lowe"), league.captain("Owls"), league.referee(), league.commissioner(),
                   league.captain("Bears", with_role=False)):
        reply = await harness.slash("/appeal file", as_=member, suspension=sid, reason="please")
        assert reply.ephemeral and "Only the suspended player or their captain" in reply.content
    assert await appeals(harness) == []
    reply = await harness.slash("/appeal file", as_=league.captain("Bears"), suspension=sid, reason="team appeal")
    assert "is filed for Yuri Bell" in reply.content
    await harness.bot.courier.deliver_due()
    yuri = league.player("Yuri Bell")
    assert any("Your captain appealed" in dm.content for dm in harness.discord.dms(yuri.id))
    await decide(harness, league, 1, "upheld")
    await harness.bot.courier.deliver_due()
    captain = league.captain("Bears")
    assert any("Yuri Bell's suspension" in dm.content for dm in harness.discord.dms(captain.id))


async def test_a_player_cannot_decide_and_nothing_changes(harness: Harness, league: SampleLeague) -> None:
    sid = await suspend(harness, league)
    await file(harness, league, sid)
    reply = await harness.slash("/appeal decide", as_=league.player("Alice Hart"), appeal=1, outcome="overturned")
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert await appeals(harness) == [(sid, None, None)]
    assert await suspension(harness, sid) == (3, "active")


async def test_every_outcome_is_told_to_the_player(harness: Harness, league: SampleLeague) -> None:
    alice, omar, bea = league.player("Alice Hart"), league.player("Omar Fox"), league.player("Bea Quinn")
    upheld = await suspend(harness, league, "Alice Hart", 2)
    reduced = await suspend(harness, league, "Omar Fox", 3)
    overturned = await suspend(harness, league, "Bea Quinn", 2)
    for sid, name in ((upheld, "Alice Hart"), (reduced, "Omar Fox"), (overturned, "Bea Quinn")):
        await file(harness, league, sid, as_name=name)
    assert "Appeal upheld: the suspension stays at 2 games" in await decide(harness, league, 1, "upheld")
    assert "reduced from 3 to 1 game" in await decide(harness, league, 2, "reduced", 1)
    assert "overturned" in await decide(harness, league, 3, "overturned")
    assert [await suspension(harness, s) for s in (upheld, reduced, overturned)] == [
        (2, "active"), (1, "active"), (0, "overturned")]
    await harness.bot.courier.deliver_due()
    for member, words in ((alice, "Appeal upheld"), (omar, "reduced from 3 to 1 game"), (bea, "overturned")):
        (told,) = [dm.content for dm in harness.discord.dms(member.id) if "⚖️" in dm.content]
        assert words in told and "This decision is final." in told
    changes = [c.content for c in harness.discord.channel_messages(ANNOUNCEMENTS) if "On appeal" in c.content]
    assert len(changes) == 2 and all(c.endswith(".") for c in changes)
    assert "can't" not in (await harness.slash("/checkin", as_=bea, status="in", game="G1")).content
    assert "Bea Quinn" not in (await harness.slash("/suspensions", as_=alice)).text


async def test_a_reduction_must_shorten_the_suspension(harness: Harness, league: SampleLeague) -> None:
    sid = await suspend(harness, league, games=2)
    await file(harness, league, sid)
    assert "between 1 and 1" in await decide(harness, league, 1, "reduced", 2)
    assert "between 1 and 1" in await decide(harness, league, 1, "reduced")
    assert await appeals(harness) == [(sid, None, None)]
    assert "overturned" in await decide(harness, league, 1, "overturned")
    assert "was already decided (overturned)" in await decide(harness, league, 1, "upheld")


async def test_the_decision_deadline_nudges_the_commissioners_until_decided(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    sid = await suspend(harness, league)
    await file(harness, league, sid)
    await run_for(harness, clock, 5 * 24 - 1)
    before_due = nudges(harness, 1)
    assert len(before_due) == 3 and all("is due" in n for n in before_due)  # 72 h, 24 h and 2 h before
    await run_for(harness, clock, 2 * 24 + 2)
    assert len(nudges(harness, 1)) == 6 and "isn't done yet" in nudges(harness, 1)[-1]  # at due, then daily
    await decide(harness, league, 1, "upheld")
    assert (await deadline(harness, "appeal:1")).done_at is not None
    await run_for(harness, clock, 4 * 24)
    assert len(nudges(harness, 1)) == 6, "the nudges stop once the appeal is decided"
    async with harness.bot.sessions() as s:
        pending = await s.scalar(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.status == "pending", OutboxMessage.kind == "deadline_nudge"))
    assert pending == 0


async def test_a_late_decision_is_allowed_and_said(harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    sid = await suspend(harness, league)
    await file(harness, league, sid)
    clock.advance(days=9)  # the window closed too, but the appeal was in time
    text = await decide(harness, league, 1, "reduced", 1)
    assert "reduced from 3 to 1 game" in text and "after the decision was due" in text


async def test_autocomplete_offers_your_suspensions_and_waiting_appeals(harness: Harness,
                                                                        league: SampleLeague) -> None:
    sid = await suspend(harness, league)
    await suspend(harness, league, "Omar Fox", 1)
    mine = await harness.autocomplete("/appeal file", focused="suspension", as_=league.player("Alice Hart"),
                                      suspension="")
    assert [c["value"] for c in mine.autocomplete_choices] == [sid]
    captains = await harness.autocomplete("/appeal file", focused="suspension", as_=league.captain("Owls"),
                                          suspension="")
    assert [c["name"].split(" · ")[1] for c in captains.autocomplete_choices] == ["Omar Fox"]
    await file(harness, league, sid)
    waiting = await harness.autocomplete("/appeal decide", focused="appeal", as_=league.commissioner(), appeal="")
    assert [c["value"] for c in waiting.autocomplete_choices] == [1]
    hidden = await harness.autocomplete("/appeal decide", focused="appeal", as_=league.player("Alice Hart"),
                                        appeal="")
    assert hidden.autocomplete_choices == []


async def test_appealing_an_unknown_or_served_suspension_is_refused(harness: Harness, league: SampleLeague) -> None:
    unknown = await file(harness, league, 999)
    assert "There's no suspension #999" in unknown
    sid = await suspend(harness, league, games=1)
    harness.bot.clock.set(harness.bot.clock.now() + timedelta(days=6, hours=14))  # type: ignore[attr-defined]
    entered = await harness.slash("/result enter", as_=league.referee(), game="G1", home=1, away=0,
                                  decided="regulation")
    assert "Recorded" in entered.content
    served = await file(harness, league, sid)
    assert "has been served" in served
