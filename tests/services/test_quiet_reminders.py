"""Quiet game reminders on a 12-team night: one message per team per game, edited in place as players
answer; pings only at the first and the last reminder time, and only to players who have not answered."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.run.app import create_bot
from bot.services.reminders.cards import MAX_PINGS, mention_list
from bot.services.reminders.messages import EDIT_DELAY
from storage.db import create_engine
from storage.models import OutboxMessage, ReminderMessage
from tests.conftest import league_config, make_settings
from tests.harness import Call, Harness, Member

START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)  # Friday 2030-01-11 19:00 in Toronto
TEAMS = 12
PLAYERS = 8  # per team
CHANNEL = 610_000_000_000_000_000  # + team number


def channel(team: int) -> int:
    return CHANNEL + team


def player_id(team: int, i: int) -> int:
    return 520_000_000_000_000_000 + team * 100 + i


def mentions(text: str) -> set[int]:
    return {int(m) for m in re.findall(r"<@!?(\d+)>", text)}


def pinged(call: Call) -> set[int]:
    """Who a message notifies: the users allowed_mentions lets through (it parses nothing else)."""
    allowed = call.allowed_mentions or {}
    assert allowed.get("parse") == [], "no @everyone, roles or free parsing"
    return {int(u) for u in allowed.get("users") or ()}


def night_csvs() -> dict[str, bytes]:
    teams = ["team,division,captain_discord_ids,channel_id"]
    players = ["discord_id,name,team,position,gender"]
    games = ["game_id,starts_at,home,away,venue,kind"]
    for t in range(TEAMS):
        teams.append(f"Team {t:02d},North,{player_id(t, 0)},{channel(t)}")
        for i in range(PLAYERS):
            position = "goalie" if i == PLAYERS - 1 else "skater"
            players.append(f"{player_id(t, i)},Player {t:02d}-{i},Team {t:02d},{position},{('woman', 'man')[i % 2]}")
    for g in range(TEAMS // 2):
        games.append(f"N{g},2030-01-11 19:00,Team {2 * g:02d},Team {2 * g + 1:02d},Rink {g + 1},regular")
    return {kind: ("\n".join(lines) + "\n").encode() for kind, lines in
            (("teams", teams), ("players", players), ("games", games))}


async def start_night(db_url: str, clock: FixedClock, **rules: object) -> Harness:
    """12 teams with a channel each, 6 games at 19:00, reminders 48 h, 24 h and 2 h before."""
    settings = make_settings(league_config(reminders={"game_offsets": ["48h", "24h", "2h"],
                                                      "captain_alert_offsets": []}, rules=rules), url=db_url)
    bot = create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    h = await Harness(bot).start(extra_channels={settings.leagues[0].guild_id: [channel(t) for t in range(TEAMS)]})
    importer = bot.services.imports.importer
    for kind, data in night_csvs().items():
        report = await importer.run(kind, data, settings.leagues[0], now=clock.now())
        assert report.created == {"teams": TEAMS, "players": TEAMS * PLAYERS, "games": TEAMS // 2}[kind]
    return h


@pytest.fixture
async def night(db_url: str, clock: FixedClock) -> AsyncIterator[Harness]:
    h = await start_night(db_url, clock)
    try:
        yield h
    finally:
        await h.close()


def player(h: Harness, team: int, i: int) -> Member:
    return h.member(f"Player {team:02d}-{i}", member_id=player_id(team, i))


async def answer(h: Harness, team: int, i: int, status: str) -> None:
    reply = await h.slash("/checkin", as_=player(h, team, i), status=status, game=f"N{team // 2}")
    assert reply.ephemeral and "N" in reply.content


async def at(h: Harness, clock: FixedClock, when: datetime) -> tuple[list[Call], list[Call]]:
    """Run the courier at ``when``: the messages it posted and the messages it edited, in team channels."""
    h.discord.clear()
    clock.set(when)
    await h.bot.courier.deliver_due()
    ours = {channel(t) for t in range(TEAMS)}
    return ([c for c in h.discord.channel_messages() if c.channel_id in ours],
            [c for c in h.discord.edits() if c.channel_id in ours])


async def posted_ids(h: Harness) -> dict[int, int]:
    """Channel -> the reminder message's Discord id, as the database keeps it."""
    async with h.bot.sessions() as s:
        return {r.channel_id: r.message_id for r in (await s.scalars(select(ReminderMessage))).all()
                if r.message_id is not None}


async def test_a_12_team_night_posts_once_per_team_edits_in_place_and_pings_only_the_silent_twice(
        night: Harness, clock: FixedClock) -> None:
    h = night
    clock.set(START - timedelta(hours=50))
    for t in range(TEAMS):  # the captain answered before any reminder
        await answer(h, t, 0, "in")
    pings: Counter[int] = Counter()

    # 48 h: the first reminder, one message per team, pinging the 7 who have not answered
    posts, edits = await at(h, clock, START - timedelta(hours=48))
    assert Counter(c.channel_id for c in posts) == {channel(t): 1 for t in range(TEAMS)} and edits == []
    for c in posts:
        t = c.channel_id - CHANNEL
        silent = {player_id(t, i) for i in range(1, PLAYERS)}
        assert pinged(c) == silent == mentions(c.content)
        assert "✅ 1 in · ❌ 0 out · 🤔 0 maybe · ⏳ 7 no answer yet" in c.content
        assert c.custom_ids()[0].endswith(f":N{t // 2}:in"), "the check-in buttons are on it"
        pings.update(pinged(c))
    ids = await posted_ids(h)
    assert set(ids) == {channel(t) for t in range(TEAMS)}, "each message's id is kept"

    # answers come in: three per team in quick succession, one edit per team, pinging nobody
    clock.set(START - timedelta(hours=30))
    for t in range(TEAMS):
        await answer(h, t, 1, "in")
        await answer(h, t, 2, "out")
        await answer(h, t, 3, "maybe")
    posts, edits = await at(h, clock, START - timedelta(hours=30) + EDIT_DELAY)
    assert posts == [] and Counter(c.channel_id for c in edits) == {channel(t): 1 for t in range(TEAMS)}
    for c in edits:
        assert c.path == f"/channels/{c.channel_id}/messages/{ids[c.channel_id]}", "the message posted at 48 h"
        assert "✅ 2 in · ❌ 1 out · 🤔 1 maybe · ⏳ 4 no answer yet" in c.content
        t = c.channel_id - CHANNEL
        assert mentions(c.content) == {player_id(t, i) for i in range(4, PLAYERS)}, "the still silent, named"
        assert c.allowed_mentions == {"parse": []}, "an edit pings nobody"

    # 24 h: nothing new to say, nothing posted, nobody pinged
    posts, edits = await at(h, clock, START - timedelta(hours=24))
    assert posts == [] and edits == []

    # team 0 answers in full; in team 1 one more player answers
    clock.set(START - timedelta(hours=10))
    for i in range(4, PLAYERS):
        await answer(h, 0, i, "in")
    await answer(h, 1, 4, "out")
    posts, edits = await at(h, clock, START - timedelta(hours=10) + EDIT_DELAY)
    assert posts == [] and {c.channel_id for c in edits} == {channel(0), channel(1)}
    assert "Everyone has answered" in next(c.content for c in edits if c.channel_id == channel(0))

    # 2 h: the last call, only where someone is still silent, pinging only them
    posts, edits = await at(h, clock, START - timedelta(hours=2))
    assert Counter(c.channel_id for c in posts) == {channel(t): 1 for t in range(1, TEAMS)}, "team 0 is done"
    for c in posts:
        t = c.channel_id - CHANNEL
        silent = {player_id(t, i) for i in range(5 if t == 1 else 4, PLAYERS)}
        assert pinged(c) == silent == mentions(c.content)
        assert c.content.startswith("⏰ Last call") and f"`N{t // 2}`" in c.content
        assert str(ids[c.channel_id]) in c.content, "it links to the team's message"
        pings.update(pinged(c))
    assert edits == []

    # over the night: nobody pinged more than twice, nobody who had answered pinged again
    assert max(pings.values()) == 2
    for t in range(TEAMS):
        assert pings[player_id(t, 0)] == 0, "answered before the first reminder"
        for i in (1, 2, 3):
            assert pings[player_id(t, i)] == 1, "pinged at 48 h, answered, never again"
    assert all(pings[player_id(0, i)] == 1 for i in range(4, PLAYERS))
    assert len(posts) + TEAMS == 23, "23 messages for the night, not 36"

    # a check-in after the last call still edits the message
    await answer(h, 5, 7, "in")
    posts, edits = await at(h, clock, START - timedelta(hours=2) + EDIT_DELAY)
    (edit,) = edits
    assert posts == [] and edit.channel_id == channel(5) and "⏳ 3 no answer yet" in edit.content


async def test_a_press_on_the_reminder_s_button_edits_it_and_a_burst_is_one_edit(
        night: Harness, clock: FixedClock) -> None:
    h = night
    posts, _ = await at(h, clock, START - timedelta(hours=48))
    card = next(c for c in posts if c.channel_id == channel(3))
    going = card.custom_ids()[0]
    for i in range(PLAYERS):
        reply = await h.press(going, as_=player(h, 3, i), channel_id=channel(3))
        assert reply.ephemeral
    async with h.bot.sessions() as s:
        queued = (await s.scalars(select(OutboxMessage).where(OutboxMessage.kind == "reminder_edit"))).all()
    assert len(queued) == 1, "eight answers in a row queue one edit"
    posts, edits = await at(h, clock, START - timedelta(hours=48) + EDIT_DELAY)
    (edit,) = edits
    assert posts == [] and "✅ 8 in · ❌ 0 out · 🤔 0 maybe · ⏳ 0 no answer yet" in edit.content
    assert "Everyone has answered" in edit.content and mentions(edit.content) == set()


async def test_an_edit_of_a_message_deleted_on_discord_is_dropped_and_the_next_reminder_posts_anew(
        night: Harness, clock: FixedClock) -> None:
    h = night
    await at(h, clock, START - timedelta(hours=48))
    ids = await posted_ids(h)
    h.discord.deleted_messages.add(ids[channel(0)])
    await answer(h, 0, 1, "in")
    _, edits = await at(h, clock, START - timedelta(hours=48) + EDIT_DELAY)
    assert edits == [] and [c.status for c in h.discord.calls if c.method == "PATCH"] == [404]
    async with h.bot.sessions() as s:
        row = await s.scalar(select(OutboxMessage).where(OutboxMessage.kind == "reminder_edit"))
        assert row is not None and row.status == "failed" and "404" in (row.last_error or "")
    for minutes in (10, 60, 600):  # not retried
        await at(h, clock, START - timedelta(hours=48) + timedelta(minutes=minutes))
        assert [c for c in h.discord.calls if c.method == "PATCH"] == []
    posts, _ = await at(h, clock, START - timedelta(hours=24))
    (fresh,) = posts
    assert fresh.channel_id == channel(0) and fresh.content.startswith("🏒 Team 00")
    assert pinged(fresh) == set(), "not the first reminder nor the last: no ping"
    assert (await posted_ids(h))[channel(0)] != ids[channel(0)], "the new message is the one kept"


async def test_a_queued_edit_survives_a_restart(night: Harness, clock: FixedClock, db_url: str) -> None:
    h = night
    await at(h, clock, START - timedelta(hours=48))
    await answer(h, 4, 2, "out")
    settings = h.bot.settings
    await h.close()
    bot = create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    again = Harness(bot)
    await again.start()
    try:
        _, edits = await at(again, clock, START - timedelta(hours=48) + EDIT_DELAY)
        (edit,) = edits
        assert edit.channel_id == channel(4) and "❌ 1 out" in edit.content
    finally:
        await again.close()


def test_a_long_list_of_the_silent_fits_discord_and_pings_at_most_100() -> None:
    silent = tuple(530_000_000_000_000_000 + i for i in range(150))
    text, named = mention_list(silent, 1_800, others=3)
    assert len(text) <= 1_800 and len(named) <= MAX_PINGS
    assert mentions(text) == set(named) and text.endswith(f"(and {150 - len(named) + 3} more)")
    text, named = mention_list(silent[:5], 1_800)
    assert named == silent[:5] and "more" not in text


async def test_a_full_100_player_roster_s_message_stays_within_discord_s_limits(
        db_url: str, clock: FixedClock) -> None:
    """100 players who have not answered (the largest roster a league may set): the text fits 2,000
    characters and exactly the players it mentions are pinged (the fake checks the body against the spec)."""
    h = await start_night(db_url, clock, roster_limit=100)
    try:
        extra = ["discord_id,name,team,position,gender"] + [
            f"{540_000_000_000_000_000 + i},Extra {i},Team 00,skater,man" for i in range(100 - PLAYERS)]
        await h.bot.services.imports.importer.run("players", ("\n".join(extra) + "\n").encode(),
                                                  h.bot.settings.leagues[0], now=clock.now())
        posts, _ = await at(h, clock, START - timedelta(hours=48))
        card = next(c for c in posts if c.channel_id == channel(0))
        assert len(card.content) <= 2000 and 0 < len(pinged(card)) < 100
        assert pinged(card) == mentions(card.content) and card.content.count("more)") == 1
        assert "⏳ 100 no answer yet" in card.content
    finally:
        await h.close()
