"""/relay send|inbox, /game referee and the Acknowledge / Reply buttons, through the real command tree."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.run.app import create_bot
from bot.services.messages.relays import RelayService
from storage.db import create_engine
from storage.models import League, RefereeAssignment, Relay
from tests.conftest import (
    CHANNELS,
    GUILD,
    OTHER_CHANNELS,
    OTHER_GUILD,
    OTHER_ROLES,
    SampleLeague,
    league_config,
    make_settings,
)
from tests.harness import Call, Harness, Member, Reply
from tests.harness.fake_discord import next_id

REFS = CHANNELS["referees"]
HAWKS_CAPTAIN = 500_000_000_000_000_001
G1_SOON = datetime(2030, 1, 11, 23, 0, tzinfo=UTC)  # G1 starts 2030-01-11 19:00 Toronto = 00:00 UTC


# --- helpers ----------------------------------------------------------------------------------------
async def relay_rows(h: Harness) -> list[tuple[Any, ...]]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(Relay.id, Relay.captain_id, Relay.message, Relay.status, Relay.acknowledged_by,
                                      Relay.answered_by, Relay.answer).order_by(Relay.id))
        return [tuple(r) for r in rows.all()]


async def press_on(h: Harness, message: Call | None, custom_id: str, *, as_: Member,
                   guild_id: int | None = GUILD, in_dm: bool = False) -> Reply:
    """Press a button on a message the bot sent (its components as sent), in a server or in a DM.

    discord.py rebuilds a DynamicItem from the pressed message's components, so the message in the
    payload carries them (``Harness.press`` sends a message without any).
    """
    components = message.components if message is not None else [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Forged", "custom_id": custom_id}]}]
    channel = message.channel_id if message is not None and message.channel_id else REFS
    payload_message = {
        "id": str(next_id()), "channel_id": str(channel), "type": 0,
        "content": message.content if message is not None else "", "author": h.discord.bot_user, "embeds": [],
        "attachments": [], "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False,
        "tts": False, "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None, "flags": 0,
        "components": components,
    }
    data = {"custom_id": custom_id, "component_type": 2}
    payload = h._base(3, as_, None if in_dm else guild_id, None if in_dm else channel, data, payload_message)
    if in_dm:
        payload["channel"] = {"id": str(channel), "type": 1}
        payload["channel_id"] = str(channel)
    return await h._feed(payload)


async def send_relay(h: Harness, league: SampleLeague, message: str = "Number 7 on Owls has no helmet",
                     game: str = "G1") -> Reply:
    return await h.slash("/relay send", as_=league.captain("Hawks"), game=game, message=message)


async def delivered_relay(h: Harness, league: SampleLeague, message: str = "Number 7 on Owls has no helmet") -> Call:
    reply = await send_relay(h, league, message)
    assert reply.ephemeral and "sent to" in reply.content, reply.content
    await h.bot.courier.deliver_due()
    return relay_posts(h)[-1]


def relay_posts(h: Harness) -> list[Call]:
    """Relays in the referees channel (on game day the officials' game card is posted there too, when no
    referee is assigned to the game)."""
    return [c for c in h.discord.channel_messages(REFS) if "Relay #" in c.content]


def relay_dms(h: Harness, user_id: int) -> list[Call]:
    """DMs about relays (on game day the captain also gets game reminders and lineup alerts)."""
    return [c for c in h.discord.dms(user_id) if "relay #" in c.content.lower()]


@pytest.fixture
def game_day(clock: FixedClock) -> FixedClock:
    clock.set(G1_SOON)
    return clock


# --- who may relay ----------------------------------------------------------------------------------
async def test_a_players_relay_is_refused_and_nothing_is_stored(harness: Harness, league: SampleLeague,
                                                                game_day: FixedClock) -> None:
    reply = await harness.slash("/relay send", as_=league.player("Bea Quinn"), game="G1", message="ref!")
    assert reply.ephemeral and "Only a captain of Coed League" in reply.content
    assert await relay_rows(harness) == []
    await harness.bot.courier.deliver_due()
    assert relay_posts(harness) == []


async def test_captain_without_the_role_or_of_another_team_is_refused(harness: Harness, league: SampleLeague,
                                                                      game_day: FixedClock) -> None:
    reply = await harness.slash("/relay send", as_=league.captain("Hawks", with_role=False), game="G1", message="x")
    assert reply.ephemeral and "Only a captain" in reply.content
    reply = await harness.slash("/relay send", as_=league.captain("Bears"), game="G1", message="x")
    assert reply.ephemeral and "Only a captain of Hawks or Owls can relay about `G1`" in reply.content
    assert await relay_rows(harness) == []


async def test_relays_are_only_for_todays_game(harness: Harness, league: SampleLeague) -> None:
    reply = await send_relay(harness, league)  # the clock is six days before G1
    assert reply.ephemeral and "Relays for this game open 24 hours before it starts" in reply.content
    assert await relay_rows(harness) == []


# --- delivery and answers ---------------------------------------------------------------------------
async def test_a_captains_relay_reaches_the_referees_channel_with_buttons(harness: Harness, league: SampleLeague,
                                                                          game_day: FixedClock) -> None:
    reply = await send_relay(harness, league)
    assert reply.ephemeral
    assert reply.content.startswith(f"Relay #1 about `G1` (Hawks vs Owls) sent to <#{REFS}>")
    assert "1 of 5 relays used by Hawks" in reply.content
    assert reply.last.allowed_mentions == {"parse": []}
    await harness.bot.courier.deliver_due()
    (posted,) = relay_posts(harness)
    assert "Relay #1" in posted.content and "> Number 7 on Owls has no helmet" in posted.content
    assert posted.custom_ids() == ["sideline:relay:ack:1", "sideline:relay:reply:1"]
    assert [b["label"] for row in posted.components for b in row["components"]] == ["Acknowledge", "Reply"]
    assert posted.allowed_mentions == {"parse": [], "users": []}
    assert await relay_rows(harness) == [(1, HAWKS_CAPTAIN, "Number 7 on Owls has no helmet", "open", None,
                                          None, "")]


async def test_acknowledge_tells_the_captain_once(harness: Harness, league: SampleLeague,
                                                  game_day: FixedClock) -> None:
    posted = await delivered_relay(harness, league)
    ref = league.referee()
    reply = await press_on(harness, posted, "sideline:relay:ack:1", as_=ref)
    assert reply.ephemeral and reply.content == "Acknowledged relay #1. Hawks Captain is told by DM."
    await harness.bot.courier.deliver_due()
    (dm,) = relay_dms(harness, HAWKS_CAPTAIN)
    assert "Ref Rita acknowledged your relay #1 about `G1`" in dm.content
    assert dm.allowed_mentions == {"parse": [], "users": []}
    again = await press_on(harness, posted, "sideline:relay:ack:1", as_=league.commissioner())
    assert again.ephemeral and "already acknowledged by Ref Rita" in again.content
    await harness.bot.courier.deliver_due()
    assert len(relay_dms(harness, HAWKS_CAPTAIN)) == 1
    assert (await relay_rows(harness))[0][3:5] == ("acknowledged", ref.id)


async def test_a_reply_through_the_form_reaches_the_captain(harness: Harness, league: SampleLeague,
                                                            game_day: FixedClock) -> None:
    posted = await delivered_relay(harness, league)
    ref = league.referee()
    opened = await press_on(harness, posted, "sideline:relay:reply:1", as_=ref)
    assert opened.response_type == 9  # a modal
    form = opened.first.body["data"]
    assert form["custom_id"] == "sideline:relay:answer:1"
    field = form["components"][0]["components"][0]
    assert (field["custom_id"], field["max_length"]) == ("answer", 1000)
    done = await harness.submit_modal("sideline:relay:answer:1", {"answer": "Thanks, we'll check at the whistle."},
                                      as_=ref)
    assert done.ephemeral and done.content == "Reply sent to Hawks Captain (relay #1)."
    await harness.bot.courier.deliver_due()
    (dm,) = relay_dms(harness, HAWKS_CAPTAIN)
    assert "Ref Rita answered your relay #1" in dm.content and "> Thanks, we'll check at the whistle." in dm.content
    row = (await relay_rows(harness))[0]
    assert row[3:] == ("answered", ref.id, ref.id, "Thanks, we'll check at the whistle.")
    second = await press_on(harness, posted, "sideline:relay:reply:1", as_=ref)
    assert second.ephemeral and "already answered by Ref Rita" in second.content


async def test_the_reply_form_still_works_after_a_restart(harness: Harness, league: SampleLeague, db_url: str,
                                                          game_day: FixedClock) -> None:
    posted = await delivered_relay(harness, league)
    ref = league.referee()
    assert (await press_on(harness, posted, "sideline:relay:reply:1", as_=ref)).response_type == 9
    restarted = await Harness(create_bot(harness.bot.settings, engine=create_engine(db_url), clock=game_day,
                                         run_scheduler=False)).start()
    try:
        done = await restarted.submit_modal("sideline:relay:answer:1", {"answer": "Noted."}, as_=ref)
        assert done.ephemeral and "Reply sent" in done.content
        ack = await press_on(restarted, posted, "sideline:relay:ack:1", as_=ref)
        assert "already" in ack.content  # answering acknowledged it too
    finally:
        await restarted.close()
    assert (await relay_rows(harness))[0][3] == "answered"


async def test_an_empty_reply_sends_nothing(harness: Harness, league: SampleLeague, game_day: FixedClock) -> None:
    await delivered_relay(harness, league)
    done = await harness.submit_modal("sideline:relay:answer:1", {"answer": "  \u200b "}, as_=league.referee())
    assert done.ephemeral and "empty" in done.content
    assert (await relay_rows(harness))[0][3] == "open"


# --- safety -----------------------------------------------------------------------------------------
async def test_mentions_in_a_relay_ping_nobody(harness: Harness, league: SampleLeague, game_day: FixedClock) -> None:
    reply = await send_relay(harness, league, "@everyone <@&1001> @here <@500000000000000011> look at this")
    assert reply.last.allowed_mentions == {"parse": []}
    await harness.bot.courier.deliver_due()
    (posted,) = relay_posts(harness)
    assert posted.allowed_mentions == {"parse": [], "users": []}
    assert "@everyone" not in posted.content and "@here" not in posted.content
    assert "<@&1001>" not in posted.content and "<@500000000000000011>" not in posted.content
    assert "@\u200beveryone" in posted.content and "<@\u200b&1001>" in posted.content
    stored = (await relay_rows(harness))[0][2]
    assert stored.startswith("@\u200beveryone")


async def test_the_sixth_relay_in_a_game_is_refused_politely(harness: Harness, league: SampleLeague,
                                                             game_day: FixedClock) -> None:
    for i in range(5):
        reply = await send_relay(harness, league, f"note {i}")
        assert f"{i + 1} of 5 relays used" in reply.content
    sixth = await send_relay(harness, league, "one more")
    assert sixth.ephemeral
    assert sixth.content.startswith("Sorry, that relay can't be sent: Your team has sent its 5 relays for this game.")
    assert "Traceback" not in sixth.content
    assert len(await relay_rows(harness)) == 5


async def test_a_forged_button_changes_nothing(harness: Harness, league: SampleLeague, game_day: FixedClock) -> None:
    posted = await delivered_relay(harness, league)
    before = await relay_rows(harness)
    for custom_id in ("sideline:relay:ack:999", "sideline:relay:reply:999", "sideline:relay:ack:99999999999999999999"):
        reply = await press_on(harness, None, custom_id, as_=league.referee())
        assert reply.ephemeral and "That relay doesn't exist here" in reply.content
    player = await press_on(harness, posted, "sideline:relay:ack:1", as_=league.player("Omar Fox"))
    assert player.ephemeral and "Only a referee or commissioner of Coed League" in player.content
    modal = await harness.submit_modal("sideline:relay:answer:1", {"answer": "spoof"}, as_=league.player("Omar Fox"))
    assert modal.ephemeral and "Only a referee" in modal.content
    assert await relay_rows(harness) == before
    await harness.bot.courier.deliver_due()
    assert relay_dms(harness, HAWKS_CAPTAIN) == []


async def test_an_unexpected_error_in_a_button_shows_a_reference(harness: Harness, league: SampleLeague,
                                                                 game_day: FixedClock,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    posted = await delivered_relay(harness, league)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database exploded")

    monkeypatch.setattr(RelayService, "acknowledge", broken)
    reply = await press_on(harness, posted, "sideline:relay:ack:1", as_=league.referee())
    assert reply.ephemeral and "something went wrong on our side (ref " in reply.content
    assert "exploded" not in reply.content and "Traceback" not in reply.content


@pytest.fixture
async def two_leagues(db_url: str, game_day: FixedClock) -> AsyncIterator[tuple[Harness, SampleLeague]]:
    settings = make_settings(league_config(), league_config("other", OTHER_GUILD, roles=OTHER_ROLES,
                                                            channels=OTHER_CHANNELS))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=game_day,
                                 run_scheduler=False)).start()
    try:
        sample = await SampleLeague(h).load()
        await h.bot.services.imports.importer.run("teams", b"team,division,captain_discord_ids,channel_id\n"
                                           b"Sharks,East,,\nJets,East,,\n", settings.leagues[1], now=game_day.now())
        yield h, sample
    finally:
        await h.close()


async def test_another_servers_relay_cannot_be_answered(two_leagues: tuple[Harness, SampleLeague]) -> None:
    h, sample = two_leagues
    posted = await delivered_relay(h, sample)
    before = await relay_rows(h)
    other_ref = h.member("Other Ref", league=1, roles=("referee", "commissioner"))
    for action in ("ack", "reply"):
        reply = await press_on(h, posted, f"sideline:relay:{action}:1", as_=other_ref, guild_id=OTHER_GUILD)
        assert reply.ephemeral and "That relay doesn't exist here" in reply.content
    form = await h.submit_modal("sideline:relay:answer:1", {"answer": "hi"}, as_=other_ref, guild_id=OTHER_GUILD)
    assert form.ephemeral and "That relay doesn't exist here" in form.content
    assert await relay_rows(h) == before


# --- assigned referees ------------------------------------------------------------------------------
async def assignments(h: Harness) -> list[tuple[int, str]]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(RefereeAssignment.referee_id, RefereeAssignment.referee_name)
                               .order_by(RefereeAssignment.id))
        return [tuple(r) for r in rows.all()]


async def test_only_commissioners_assign_referees(harness: Harness, league: SampleLeague) -> None:
    ref = league.referee()
    refused = await harness.slash("/game referee", as_=league.captain("Hawks"), game="G1", member=ref)
    assert refused.ephemeral and "Only a commissioner" in refused.content
    assert await assignments(harness) == []
    done = await harness.slash("/game referee", as_=league.commissioner(), game="G1", member=ref)
    assert done.ephemeral and done.content.startswith("Ref Rita is now a referee of `G1` (Hawks vs Owls).")
    assert "They don't have" not in done.content
    again = await harness.slash("/game referee", as_=league.commissioner(), game="G1", member=ref)
    assert "was already a referee" in again.content
    assert await assignments(harness) == [(ref.id, "Ref Rita")]
    removed = await harness.slash("/game referee", as_=league.commissioner(), game="G1", member=ref, remove=True)
    assert "is no longer a referee of `G1`" in removed.content and "now: nobody" in removed.content
    assert await assignments(harness) == []


async def test_an_assigned_referee_gets_the_relay_by_dm_and_answers_there(harness: Harness, league: SampleLeague,
                                                                          game_day: FixedClock) -> None:
    tim = harness.member("Timekeeper Tim", member_id=700_000_000_000_000_010)  # no referee role
    reply = await harness.slash("/game referee", as_=league.commissioner(), game="G1", member=tim)
    assert "They don't have the league's referee role" in reply.content
    sent = await send_relay(harness, league)
    assert f"sent to <#{REFS}> and 1 assigned referee by DM" in sent.content
    await harness.bot.courier.deliver_due()
    (dm,) = relay_dms(harness, tim.id)
    assert dm.custom_ids() == ["sideline:relay:ack:1", "sideline:relay:reply:1"]
    stranger = await press_on(harness, dm, "sideline:relay:ack:1", as_=league.stranger(), in_dm=True)
    assert stranger.ephemeral and "Only the referees assigned to this game" in stranger.content
    acked = await press_on(harness, dm, "sideline:relay:ack:1", as_=tim, in_dm=True)
    assert acked.content == "Acknowledged relay #1. Hawks Captain is told by DM."
    await harness.bot.courier.deliver_due()
    assert "Timekeeper Tim acknowledged" in relay_dms(harness, HAWKS_CAPTAIN)[0].content


# --- the inbox --------------------------------------------------------------------------------------
async def test_the_inbox_lists_unanswered_relays_for_referees_only(harness: Harness, league: SampleLeague,
                                                                   game_day: FixedClock) -> None:
    refused = await harness.slash("/relay inbox", as_=league.player("Alice Hart"))
    assert refused.ephemeral and "Only a referee of Coed League" in refused.content
    await send_relay(harness, league, "first")
    await send_relay(harness, league, "second")
    inbox = await harness.slash("/relay inbox", as_=league.referee())
    assert inbox.ephemeral and "Unanswered relays (2)" in inbox.text
    assert "> first" in inbox.text and "> second" in inbox.text
    assert inbox.first.custom_ids() == ["sideline:relay:ack:1", "sideline:relay:reply:1",
                                        "sideline:relay:ack:2", "sideline:relay:reply:2"]
    await harness.submit_modal("sideline:relay:answer:1", {"answer": "ok"}, as_=league.referee())
    inbox = await harness.slash("/relay inbox", as_=league.referee())
    assert "Unanswered relays (1)" in inbox.text and "> first" not in inbox.text


async def test_a_referee_sees_assigned_and_unassigned_games_only(harness: Harness, league: SampleLeague,
                                                                 game_day: FixedClock) -> None:
    other_ref = harness.member("Ref Otto", member_id=700_000_000_000_000_011, roles=("referee",))
    await harness.slash("/game referee", as_=league.commissioner(), game="G1", member=other_ref)
    await send_relay(harness, league, "for G1")
    mine = await harness.slash("/relay inbox", as_=league.referee())
    assert "Unanswered relays (0)" in mine.text  # G1 has its own referee
    theirs = await harness.slash("/relay inbox", as_=other_ref)
    assert "Unanswered relays (1)" in theirs.text
    everyone = await harness.slash("/relay inbox", as_=league.commissioner())
    assert "Unanswered relays (1)" in everyone.text


# --- Discord's limits -------------------------------------------------------------------------------
async def test_messages_are_capped_at_1000_characters_by_discord(harness: Harness) -> None:
    tree = json.loads(json.dumps([c.to_dict(harness.bot.tree) for c in harness.bot.tree.get_commands()]))
    relay = next(c for c in tree if c["name"] == "relay")
    send = next(o for o in relay["options"] if o["name"] == "send")
    message = next(o for o in send["options"] if o["name"] == "message")
    assert message["max_length"] == 1000
    game = next(c for c in tree if c["name"] == "game")
    assert any(o["name"] == "referee" for o in game["options"])


async def test_nobody_to_receive_the_relay_is_refused(db_url: str, game_day: FixedClock) -> None:
    settings = make_settings(league_config(channels={"announcements": 3001}))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=game_day, run_scheduler=False)).start()
    try:
        sample = await SampleLeague(h).load()
        reply = await send_relay(h, sample)
        assert reply.ephemeral and "no referees channel and no referee is assigned" in reply.content
        assert await relay_rows(h) == []
        async with h.bot.sessions() as s:
            assert await s.scalar(select(League.key)) == "coed"
    finally:
        await h.close()


# --- the outbox's generic buttons and failure hooks (bot/services/outbox.py, bot/delivery/courier.py) ----------
async def test_queued_buttons_are_sent_as_plain_buttons_and_not_tracked(harness: Harness) -> None:
    from bot.services import outbox

    message = outbox.Outgoing(content="pick", buttons=(("Yes", "feature:yes:1"), ("No", "feature:no:1")))
    async with harness.bot.sessions.begin() as s:
        await outbox.enqueue(s, league_id=harness.bot.league_ids[GUILD], guild_id=GUILD, key="buttons-1",
                             due_at=harness.bot.clock.now(), message=message, channel_id=REFS)
        row = (await s.scalars(select(outbox.OutboxMessage).where(outbox.OutboxMessage.send_key == "buttons-1"))).one()
        assert (await outbox.render_text(s, row, harness.bot.clock.now())) == message  # stored and restored
    await harness.bot.courier.deliver_due()
    (sent,) = harness.discord.channel_messages(REFS)
    assert sent.custom_ids() == ["feature:yes:1", "feature:no:1"]
    assert harness.bot._connection._view_store.persistent_views == []  # nothing kept in memory per message
    with pytest.raises(ValueError):
        outbox.Outgoing(buttons=(("", "x"),))
    with pytest.raises(ValueError):
        outbox.Outgoing(buttons=(("ok", "x" * 101),))
    with pytest.raises(ValueError):
        outbox.Outgoing(buttons=tuple((f"b{i}", f"id{i}") for i in range(26)))


async def test_a_failure_hook_runs_once_for_a_refused_dm_and_never_on_success(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.services import outbox

    seen: list[tuple[str, str]] = []

    async def hook(bot: Any, row: Any, error: str) -> None:
        seen.append((row.send_key, error))
        raise RuntimeError("a broken hook must not break the courier")

    kinds = harness.bot.courier.kinds
    monkeypatch.setattr(harness.bot.courier, "kinds", outbox.OutboxKinds(
        {**kinds.renderers, "test-kind": outbox.render_text}, {**kinds.failure_hooks, "test-kind": hook}))
    harness.discord.closed_dms.add(42)
    async with harness.bot.sessions.begin() as s:
        for key, user in (("hook-closed", 42), ("hook-open", 43)):
            await outbox.enqueue(s, league_id=harness.bot.league_ids[GUILD], guild_id=GUILD, key=key,
                                 due_at=harness.bot.clock.now(), kind="test-kind", args={"content": "hi"},
                                 user_id=user)
    stats = await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    assert (stats.sent, stats.failed) == (1, 1)
    assert [key for key, _ in seen] == ["hook-closed"] and "403" in seen[0][1]
