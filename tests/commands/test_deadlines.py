"""/deadline add|list|done through the real command tree: commissioners only; nudges until done."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from storage.models import Deadline, OutboxMessage
from tests.conftest import CHANNELS, GUILD, ROLES, SampleLeague
from tests.harness import Harness, Member

HAWKS = 600_000_000_000_000_001
DUE = datetime(2030, 1, 8, 17, 0, tzinfo=UTC)  # 2030-01-08 12:00 in Toronto


async def snapshot(h: Harness) -> tuple[list[tuple[int, str]], list[tuple[str, str]]]:
    async with h.bot.sessions() as s:
        deadlines = (await s.execute(select(Deadline.id, Deadline.subject).order_by(Deadline.id))).all()
        rows = (await s.execute(select(OutboxMessage.send_key, OutboxMessage.status)
                                .order_by(OutboxMessage.send_key))).all()
    return [tuple(d) for d in deadlines], [tuple(r) for r in rows]


async def add(h: Harness, league: SampleLeague, **options: object) -> str:
    values = {"name": "Team fees", "due": "2030-01-08 12:00", "audience": "team:Hawks", **options}
    return (await h.slash("/deadline add", as_=league.commissioner(), **values)).content


@pytest.mark.parametrize(("path", "options"), [
    ("/deadline add", {"name": "Fees", "due": "2030-01-08 12:00", "audience": "commissioners"}),
    ("/deadline list", {}),
    ("/deadline done", {"deadline": "1"}),
])
async def test_only_commissioners_handle_deadlines_and_nothing_is_written(
        harness: Harness, league: SampleLeague, path: str, options: dict[str, str]) -> None:
    await add(harness, league)
    before = await snapshot(harness)
    for member in (league.player("Bea Quinn"), league.captain("Hawks")):
        reply = await harness.slash(path, as_=member, **options)
        assert reply.ephemeral and "Only a commissioner" in reply.content
    assert await snapshot(harness) == before


async def test_a_team_deadline_nudges_the_team_channel_until_done(harness: Harness, league: SampleLeague,
                                                                  clock: FixedClock) -> None:
    text = await add(harness, league, nudges="48h, 2h", nag=True)
    assert "Added `#1` **Team fees**" in text and "for Hawks" in text and "3 nudges queued" in text
    assert "nudges 48h, 2h before, then daily until done" in text
    for when in (DUE - timedelta(hours=48), DUE - timedelta(hours=2), DUE, DUE + timedelta(days=1)):
        clock.set(when)
        await harness.bot.courier.deliver_due()
    sent = harness.discord.channel_messages(HAWKS)
    assert len(sent) == 4 and "Team fees" in sent[0].content and "isn't done yet" in sent[3].content
    done = await harness.slash("/deadline done", as_=league.commissioner(), deadline="1", note="all paid")
    assert done.ephemeral and "Done: `#1`" in done.content and "No more nudges" in done.content
    clock.set(DUE + timedelta(days=5))
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.channel_messages(HAWKS)) == 4
    again = await harness.slash("/deadline done", as_=league.commissioner(), deadline="1")
    assert "already marked done" in again.content


async def test_deadlines_are_listed_soonest_first(harness: Harness, league: SampleLeague) -> None:
    await add(harness, league, name="Later", due="2030-01-20 12:00", audience="commissioners")
    await add(harness, league, name="Sooner", due="2030-01-07 12:00", audience=f"<@&{ROLES['captain']}>")
    reply = await harness.slash("/deadline list", as_=league.commissioner())
    assert reply.ephemeral
    text = reply.text
    assert text.index("Sooner") < text.index("Later")
    assert f"for <@&{ROLES['captain']}>" in text and "for commissioners" in text
    await harness.slash("/deadline done", as_=league.commissioner(), deadline="2")
    open_only = await harness.slash("/deadline list", as_=league.commissioner())
    assert "Sooner" not in open_only.text
    everything = await harness.slash("/deadline list", as_=league.commissioner(), include_done=True)
    assert "Sooner" in everything.text and "✅ done" in everything.text


async def test_a_role_deadline_names_the_role_in_announcements_without_pinging(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    await add(harness, league, audience=f"role:{ROLES['captain']}", nudges="2h")
    clock.set(DUE - timedelta(hours=2))
    await harness.bot.courier.deliver_due()
    (msg,) = harness.discord.channel_messages(CHANNELS["announcements"])
    assert f"<@&{ROLES['captain']}>" in msg.content and msg.allowed_mentions == {"parse": [], "users": []}


async def test_a_member_deadline_is_a_dm(harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    member = harness.member("Volunteer Val").id  # on the server, on no roster, never used a command
    harness.discord.clear()
    await add(harness, league, audience=f"<@{member}>", nudges="2h", name="Bring the nets")
    assert harness.discord.sent(method="GET", path_prefix=f"/guilds/{GUILD}/members/{member}")  # asked Discord
    clock.set(DUE - timedelta(hours=2))
    await harness.bot.courier.deliver_due()
    (dm,) = harness.discord.dms(member)
    assert "Bring the nets" in dm.content


@pytest.mark.parametrize(("options", "expected"), [
    ({"due": "2030-01-01 12:00"}, "is in the past"),
    ({"due": "2030-03-10 02:15"}, "does not exist in America/Toronto"),
    ({"due": "tomorrow"}, "is not a date and time"),
    ({"nudges": "soon"}, "Nudges: 'soon' is not a duration"),
    ({"audience": "Ravens"}, "no team, role or member “Ravens”"),
    ({"audience": "role:123456789012345678"}, "There's no role with id 123456789012345678 on this server"),
    ({"audience": f"<@&{GUILD}>"}, f"There's no role with id {GUILD} on this server"),  # @everyone
    ({"audience": "<@123456789012345678>"}, "There's no member with id 123456789012345678 on this server"),
    ({"audience": "player:5"}, "There's no member with id 5 on this server"),
])
async def test_bad_deadlines_are_refused_and_nothing_is_written(harness: Harness, league: SampleLeague,
                                                                options: dict[str, str], expected: str) -> None:
    before = await snapshot(harness)
    assert expected in await add(harness, league, **options)
    assert await snapshot(harness) == before


async def test_unknown_deadline_numbers_are_refused(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/deadline done", as_=league.commissioner(), deadline="99")
    assert "no deadline #99" in reply.content
    reply = await harness.slash("/deadline done", as_=league.commissioner(), deadline="99999999999999999999")
    assert "no deadline #99999999999999999999" in reply.content
    reply = await harness.slash("/deadline done", as_=league.commissioner(), deadline="fees")
    assert "Pick a deadline from the suggestions" in reply.content


async def test_audience_suggests_commissioners_teams_and_roles(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.autocomplete("/deadline add", focused="audience", as_=league.commissioner(), audience="")
    values = [c["value"] for c in reply.autocomplete_choices]
    assert values[:2] == ["commissioners", "team:Bears"]
    assert f"role:{ROLES['captain']}" in values
    hawks = await harness.autocomplete("/deadline add", focused="audience", as_=league.commissioner(),
                                       audience="haw")
    assert [c["value"] for c in hawks.autocomplete_choices] == ["team:Hawks"]


async def test_done_suggests_open_deadlines_to_commissioners_only(harness: Harness, league: SampleLeague) -> None:
    await add(harness, league)
    reply = await harness.autocomplete("/deadline done", focused="deadline", as_=league.commissioner(), deadline="")
    assert [c["value"] for c in reply.autocomplete_choices] == ["1"]
    assert "Team fees" in reply.autocomplete_choices[0]["name"]
    player = await harness.autocomplete("/deadline done", focused="deadline", as_=league.player("Bea Quinn"),
                                        deadline="")
    assert player.autocomplete_choices == []


async def test_the_name_cannot_ping_anyone(harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    await add(harness, league, name="@everyone pay up", nudges="2h")
    clock.set(DUE - timedelta(hours=2))
    await harness.bot.courier.deliver_due()
    (msg,) = harness.discord.channel_messages(HAWKS)
    assert "@everyone" not in msg.content and msg.allowed_mentions == {"parse": [], "users": []}


async def test_a_manager_without_the_role_counts_as_commissioner(harness: Harness, league: SampleLeague) -> None:
    owner = Member(id=700_000_000_000_000_098, name="Owner Otto", manage_guild=True)
    reply = await harness.slash("/deadline list", as_=owner)
    assert reply.ephemeral and "No deadlines." in reply.text
