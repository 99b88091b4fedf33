"""/tellcaptain: a private note to the team's captains, stored, with a fallback when a DM is refused."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.services.messages.notes import NOTES_PER_DAY
from storage.models import CaptainNote, OutboxMessage
from tests.conftest import SampleLeague
from tests.harness import Call, Harness

HAWKS_CAPTAIN = 500_000_000_000_000_001
HAWKS_CHANNEL = 600_000_000_000_000_001
BEARS_CAPTAINS = (500_000_000_000_000_021, 500_000_000_000_000_022)
WOLVES_CAPTAIN = 500_000_000_000_000_031


async def note_rows(h: Harness) -> list[tuple[Any, ...]]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(CaptainNote.sender_id, CaptainNote.sender_name, CaptainNote.message,
                                      CaptainNote.status, CaptainNote.fallback_thread_id).order_by(CaptainNote.id))
        return [tuple(r) for r in rows.all()]


def notes_to(h: Harness, user_id: int) -> list[Call]:
    return [c for c in h.discord.dms(user_id) if "Private note" in c.content]


async def test_a_players_note_reaches_the_captain_privately(harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    reply = await harness.slash("/tellcaptain", as_=bea, message="I'll be 10 minutes late on Saturday.")
    assert reply.ephemeral and reply.content.startswith(f"Your note went privately to <@{HAWKS_CAPTAIN}>")
    assert reply.last.allowed_mentions == {"parse": []}
    await harness.bot.courier.deliver_due()
    (dm,) = notes_to(harness, HAWKS_CAPTAIN)
    assert "from **Bea Quinn**" in dm.content and "> I'll be 10 minutes late on Saturday." in dm.content
    assert dm.allowed_mentions == {"parse": [], "users": []}
    assert harness.discord.channel_messages(HAWKS_CHANNEL) == []  # nothing public
    assert await note_rows(harness) == [(bea.id, "Bea Quinn", "I'll be 10 minutes late on Saturday.", "sent",
                                         None)]


async def test_every_captain_but_the_sender_gets_it(harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/tellcaptain", as_=league.player("Yuri Bell"), message="Can I play goalie?")
    await harness.bot.courier.deliver_due()
    assert [len(notes_to(harness, c)) for c in BEARS_CAPTAINS] == [1, 1]
    await harness.slash("/tellcaptain", as_=league.player("Walt Orr"), message="Co-captain to co-captain")
    await harness.bot.courier.deliver_due()
    assert [len(notes_to(harness, c)) for c in BEARS_CAPTAINS] == [1, 2]
    alone = await harness.slash("/tellcaptain", as_=league.player("Alice Hart"), message="me to me")
    assert alone.ephemeral and "You're Hawks's only captain" in alone.content


async def test_mentions_in_a_note_ping_nobody(harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/tellcaptain", as_=league.player("Bea Quinn"), message="@everyone <@&1001> hi")
    await harness.bot.courier.deliver_due()
    (dm,) = notes_to(harness, HAWKS_CAPTAIN)
    assert "@everyone" not in dm.content and "<@&1001>" not in dm.content
    assert dm.allowed_mentions == {"parse": [], "users": []}


async def test_someone_on_no_team_is_refused_and_nothing_is_stored(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/tellcaptain", as_=league.stranger(), message="hello")
    assert reply.ephemeral and "You're not on a team in this league" in reply.content
    blank = await harness.slash("/tellcaptain", as_=league.player("Bea Quinn"), message=" \u200b ")
    assert blank.ephemeral and "Write the note" in blank.content
    assert await note_rows(harness) == []
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "captain_note"))).all() == []


async def test_notes_are_limited_per_day(harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    for i in range(NOTES_PER_DAY):
        assert "went privately" in (await harness.slash("/tellcaptain", as_=bea, message=f"note {i}")).content
    reply = await harness.slash("/tellcaptain", as_=bea, message="one more")
    assert reply.ephemeral and f"You've sent {NOTES_PER_DAY} notes in the last 24 hours" in reply.content
    assert len(await note_rows(harness)) == NOTES_PER_DAY
    harness.bot.clock.advance(days=1)  # type: ignore[attr-defined]
    assert "went privately" in (await harness.slash("/tellcaptain", as_=bea, message="next day")).content


async def test_a_refused_dm_goes_to_a_private_thread_for_the_captain(harness: Harness, league: SampleLeague) -> None:
    harness.discord.closed_dms.add(HAWKS_CAPTAIN)
    await harness.slash("/tellcaptain", as_=league.player("Bea Quinn"), message="My knee is hurt, sub me out.")
    await harness.bot.courier.deliver_due()
    threads = f"/channels/{HAWKS_CHANNEL}/threads"
    (made,) = [c for c in harness.discord.calls if c.method == "POST" and c.path == threads]
    assert made.body["type"] == 12 and made.body["invitable"] is False  # private
    await harness.bot.courier.deliver_due()
    thread_id = (await note_rows(harness))[0][4]
    (posted,) = harness.discord.channel_messages(thread_id)
    assert posted.content.startswith(f"<@{HAWKS_CAPTAIN}>: your DMs are closed")
    assert "> My knee is hurt, sub me out." in posted.content
    assert posted.allowed_mentions == {"parse": [], "users": [HAWKS_CAPTAIN]}
    assert harness.discord.channel_messages(HAWKS_CHANNEL) == []  # never in the team channel itself
    assert (await note_rows(harness))[0][3:] == ("thread", thread_id)


async def test_a_captain_out_of_reach_is_reported_to_the_player(harness: Harness, league: SampleLeague) -> None:
    harness.discord.closed_dms.add(WOLVES_CAPTAIN)  # and Wolves have no team channel
    member = league.player("Don Pike")
    await harness.slash("/tellcaptain", as_=member, message="Where is the game?")
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    (notice,) = harness.discord.dms(member.id)
    assert "couldn't be delivered" in notice.content and "your team has no channel" in notice.content
    assert (await note_rows(harness))[0][3] == "undeliverable"
    assert not [c for c in harness.discord.calls if c.path.endswith("/threads")]
