"""/join and /team invite through the real tree: captains approve with buttons, nobody types an id."""

from __future__ import annotations

from sqlalchemy import func, select

from storage.models import OutboxMessage, Player, RosterEntry
from tests.conftest import SampleLeague
from tests.harness import Harness, Member

HAWKS_CHANNEL = 600_000_000_000_000_001
NORA = Member(id=810_000_000_000_000_001, name="Nora New")


def buttons(call: object) -> dict[str, str]:
    rows = call.payload["components"]
    return {b["label"]: b["custom_id"] for row in rows for b in row["components"]}


async def rows(h: Harness) -> tuple[int, int, int]:
    async with h.bot.sessions() as s:
        return (await s.scalar(select(func.count()).select_from(Player)) or 0,
                await s.scalar(select(func.count()).select_from(RosterEntry)) or 0,
                await s.scalar(select(func.count()).select_from(OutboxMessage)) or 0)


async def ask(h: Harness, player: Member = NORA, **options: object) -> dict[str, str]:
    reply = await h.slash("/join", as_=player, team="Hawks", **options)
    assert reply.ephemeral and reply.content == (f"Asked Hawks's captains (in <#{HAWKS_CHANNEL}>); "
                                                 "you'll hear back privately."), reply.content
    await h.bot.courier.deliver_due()
    (posted,) = h.discord.channel_messages(HAWKS_CHANNEL)[-1:]
    assert f"<@{player.id}>" in posted.payload["content"] and "woman" not in posted.payload["content"]
    return buttons(posted)


async def test_a_player_joins_when_a_captain_approves(harness: Harness, league: SampleLeague) -> None:
    harness.join(NORA, harness.default_guild or 0)
    pressed = await ask(harness, position="goalie", gender="woman")
    assert set(pressed) == {"Approve", "Decline"}
    approved = await harness.press(pressed["Approve"], as_=league.captain("Hawks"), channel_id=HAWKS_CHANNEL)
    edit = approved.responses[0]
    assert "Nora New's request to join Hawks was approved by Hawks Captain" in edit.payload["content"]
    assert edit.payload["components"] == []
    async with harness.bot.sessions() as s:
        entry = await s.scalar(select(RosterEntry).join(Player).where(Player.discord_id == NORA.id))
        assert entry is not None and entry.position == "goalie" and entry.player.gender == "woman"
    await harness.bot.courier.deliver_due()
    (told,) = harness.discord.dms(NORA.id)
    assert "You're on **Hawks** now" in told.payload["content"]


async def test_a_declined_player_is_told_privately_and_not_added(harness: Harness, league: SampleLeague) -> None:
    pressed = await ask(harness)
    before = await rows(harness)
    declined = await harness.press(pressed["Decline"], as_=league.captain("Hawks"), channel_id=HAWKS_CHANNEL)
    assert "was declined by Hawks Captain" in declined.responses[0].payload["content"]
    assert (await rows(harness))[:2] == before[:2]
    await harness.bot.courier.deliver_due()
    assert "was declined" in harness.discord.dms(NORA.id)[0].payload["content"]


async def test_only_the_teams_captains_or_a_commissioner_may_answer(harness: Harness, league: SampleLeague) -> None:
    pressed = await ask(harness)
    before = await rows(harness)
    for who in (league.player("Alice Hart"), league.captain("Owls"), league.captain("Hawks", with_role=False)):
        reply = await harness.press(pressed["Approve"], as_=who, channel_id=HAWKS_CHANNEL)
        assert reply.ephemeral and "Only the team's captains or a commissioner" in reply.content
    assert await rows(harness) == before
    ok = await harness.press(pressed["Approve"], as_=league.commissioner(), channel_id=HAWKS_CHANNEL)
    assert "approved by Commish Kay" in ok.responses[0].payload["content"]


async def test_join_to_a_full_roster_is_refused_and_nothing_is_written(harness: Harness, league: SampleLeague) -> None:
    captain = league.captain("Hawks")
    for i in range(12):  # 8 on the sample roster + 12 = the co-ed limit of 20
        await harness.slash("/roster add", as_=captain, player=Member(id=820_000_000_000_000_000 + i, name=f"X{i}"))
    before = await rows(harness)
    reply = await harness.slash("/join", as_=NORA, team="Hawks")
    assert reply.ephemeral and reply.content == "Hawks's roster is full (20 players; the limit is 20)."
    assert await rows(harness) == before


async def test_a_player_already_on_a_team_is_refused(harness: Harness, league: SampleLeague) -> None:
    before = await rows(harness)
    reply = await harness.slash("/join", as_=league.player("Omar Fox"), team="Hawks")
    assert reply.ephemeral and "You're already on Owls" in reply.content
    assert await rows(harness) == before


async def test_team_invite_posts_a_join_button_that_asks_the_captains(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/team invite", as_=league.captain("Hawks"))
    assert reply.ephemeral and reply.content == f"Posted a Join button in <#{HAWKS_CHANNEL}>."
    await harness.bot.courier.deliver_due()
    (posted,) = harness.discord.channel_messages(HAWKS_CHANNEL)
    pressed = await harness.press(buttons(posted)["Join"], as_=NORA, channel_id=HAWKS_CHANNEL)
    assert pressed.ephemeral and "Asked Hawks's captains" in pressed.content
    refused = await harness.slash("/team invite", as_=league.player("Alice Hart"))
    assert "Only Hawks's captain or a commissioner" in refused.content
