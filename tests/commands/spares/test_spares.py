"""/spare join|leave|list|request and the Accept / Decline offers, through the real command tree."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import GameSpare, Player, SpareOffer, SpareRequest
from tests.commands.checkins.test_checkin import press
from tests.commands.checkins.test_lineup import HAWKS_SHORT_OF_WOMEN, check_in
from tests.conftest import SampleLeague, suspend_by_check
from tests.harness import Call, Harness, Member

# Spares who are on no roster (G1, Hawks v Owls, is Friday 11 January 2030 at 19:00 in Toronto).
WENDY = Member(id=900_000_000_000_000_001, name="Wendy Spare")  # woman, skater, free Fridays: best match
NORA = Member(id=900_000_000_000_000_002, name="Nora Spare")  # non-binary, skater, Mondays: second wave
MARK = Member(id=900_000_000_000_000_003, name="Mark Spare")  # man, skater, Fridays: doesn't fill the gap
SUE = Member(id=900_000_000_000_000_004, name="Sue Spare")  # woman, skater, Fridays, suspended
GOALIE_GIA = Member(id=900_000_000_000_000_005, name="Gia Spare")  # woman, goalie only: not a skater
SPARES = (WENDY, NORA, MARK, SUE, GOALIE_GIA)
CATEGORY_WORDS = ("woman", "women", "non-binary", " man", "W/NB")


def offers_to(h: Harness, member: Member) -> list[Call]:
    return [c for c in h.discord.dms(member.id) if "need a spare" in c.content]


def offer_button(call: Call, action: str) -> str:
    return next(cid for cid in call.custom_ids() if cid.endswith(f":{action}"))


async def join_pool(h: Harness, league: SampleLeague) -> None:
    for member, positions, days, gender in ((WENDY, "skater", "fri", "woman"), (NORA, "skater", "mon", "non-binary"),
                                            (MARK, "skater", "fri", "man"), (SUE, "skater", "fri, sat", "woman"),
                                            (GOALIE_GIA, "goalie", "fri", "woman")):
        options: dict[str, Any] = {"positions": positions, "gender": gender}
        if days:
            options["days"] = days
        reply = await h.slash("/spare join", as_=h.member(member.name, member_id=member.id), **options)
        assert reply.ephemeral and "spare list" in reply.content, reply.content
    # On a roster: Xena (Bears, woman) plays G2 an hour after G1; Pia (Owls, woman) is in G1 herself.
    for name in ("Xena Pope", "Pia Lund"):
        reply = await h.slash("/spare join", as_=league.player(name), positions="skater", days="fri")
        assert "spare list" in reply.content


def suspend_sue(monkeypatch: pytest.MonkeyPatch, h: Harness) -> None:
    async def suspended(session: Any, *, league_id: int, player_id: int, game_id: int | None) -> str | None:
        name = await session.scalar(select(Player.name).where(Player.id == player_id))
        return "suspended for 1 more game" if name == SUE.name else None

    suspend_by_check(monkeypatch, h.bot, suspended)


async def short_of_a_woman(h: Harness, league: SampleLeague, monkeypatch: pytest.MonkeyPatch) -> None:
    await check_in(h, league, HAWKS_SHORT_OF_WOMEN)  # Alice is the only woman/non-binary skater
    await join_pool(h, league)
    suspend_sue(monkeypatch, h)


async def counts(h: Harness) -> tuple[int, int]:
    async with h.bot.sessions() as s:
        return (await s.scalar(select(func.count()).select_from(GameSpare)) or 0,
                await s.scalar(select(func.count()).select_from(SpareOffer)) or 0)


async def test_a_coed_team_short_of_a_woman_offers_only_eligible_spares_and_one_accept_fills_it(
        harness: Harness, league: SampleLeague, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await short_of_a_woman(h, league, monkeypatch)
    captain = league.captain("Hawks")
    reply = await h.slash("/spare request", as_=captain, game="G1")
    assert reply.ephemeral
    assert "1 woman/non-binary skater" in reply.content
    assert "First wave, by DM now: 1 spare (the best matches)." in reply.content, reply.content
    assert "Second wave: 1 spare more at" in reply.content

    await h.bot.courier.deliver_due()
    assert len(offers_to(h, WENDY)) == 1  # fills the category and is free Fridays: first wave
    assert "1 woman/non-binary skater" in offers_to(h, WENDY)[0].content
    for not_yet in (NORA, MARK, SUE, GOALIE_GIA):
        assert offers_to(h, not_yet) == [], not_yet.name
    clock.advance(hours=2, minutes=1)
    await h.bot.courier.deliver_due()
    assert len(offers_to(h, NORA)) == 1  # the wider wave
    assert len(offers_to(h, WENDY)) == 1  # nobody is asked twice
    for never in (MARK, SUE, GOALIE_GIA):  # not the category, suspended, not a skater
        assert offers_to(h, never) == [], never.name
    for name in ("Xena Pope", "Pia Lund"):  # a game of her own then; on one of the teams
        assert offers_to(h, league.player(name)) == [], name

    # Both accept at the same instant: exactly one takes the spot.
    wendy_accept, nora_accept = offer_button(offers_to(h, WENDY)[0], "accept"), offer_button(offers_to(h, NORA)[0],
                                                                                               "accept")
    start = len(h.discord.calls)
    await asyncio.gather(press(h, wendy_accept, as_=WENDY, dm=True), press(h, nora_accept, as_=NORA, dm=True))
    # Both presses overlap, so each Reply holds both answers: read them from Discord's side, one per press.
    answers = {c.path: c for c in h.discord.calls[start:] if c.is_interaction_response}
    texts = [c.content for c in answers.values()]
    won = [c for c in answers.values() if "The spot is yours" in c.content]
    assert len(answers) == 2 and len(won) == 1, texts
    assert any("already filled" in t or "someone else" in t for t in texts), texts
    assert all(c.ephemeral for c in answers.values())
    assert (await counts(h))[0] == 1
    async with h.bot.sessions() as s:
        assert await s.scalar(select(SpareRequest.status)) == "filled"

    lineup = await h.slash("/lineup", as_=captain, game="G1")
    assert "✅ Nothing wrong." in lineup.text
    async with h.bot.sessions() as s:
        filled_by = await s.scalar(select(Player.discord_id).join(GameSpare, GameSpare.player_id == Player.id))
    winner = WENDY if filled_by == WENDY.id else NORA
    assert f"{winner.name} (spare)" in lineup.text
    assert f"{winner.name} (W/NB)" not in lineup.text  # a spare's category is not shown to the captain
    whoisin = await h.slash("/whoisin", as_=captain, game="G1")
    assert "Spares (1)" in whoisin.text and winner.name in whoisin.text

    await h.bot.courier.deliver_due()
    captain_dms = [c for c in h.discord.dms(captain.id) if "took a spare spot" in c.content]
    assert len(captain_dms) == 1 and "The lineup is now legal." in captain_dms[0].content and "Rink A" in \
        captain_dms[0].content
    assert any("You're playing for **Hawks**" in c.content for c in h.discord.dms(winner.id))
    loser = NORA if winner is WENDY else WENDY
    assert [c.content for c in h.discord.dms(loser.id) if "is filled" in c.content] == [
        "The spare spot for `G1` (Hawks vs Owls) is filled. Thanks for being on the spare list!"]

    # Pressing again, or after the close, changes nothing and answers politely.
    before = await counts(h)
    again = await press(h, wendy_accept, as_=WENDY, dm=True)
    late = await press(h, offer_button(offers_to(h, NORA)[0], "decline"), as_=NORA, dm=True)
    assert again.ephemeral and late.ephemeral
    assert "nothing changed" in again.content and "nothing changed" in late.content
    assert await counts(h) == before


async def test_a_press_by_someone_else_or_after_the_start_changes_nothing(
        harness: Harness, league: SampleLeague, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await short_of_a_woman(h, league, monkeypatch)
    await h.slash("/spare request", as_=league.captain("Hawks"), game="G1")
    await h.bot.courier.deliver_due()
    accept = offer_button(offers_to(h, WENDY)[0], "accept")
    stolen = await press(h, accept, as_=MARK, dm=True)
    assert stolen.ephemeral and "isn't yours" in stolen.content
    clock.set(clock.now().replace(day=12))  # G1 has started
    late = await press(h, accept, as_=WENDY, dm=True)
    assert late.ephemeral and "has started" in late.content
    assert (await counts(h))[0] == 0


async def test_an_offered_spare_who_left_the_list_is_turned_down_politely(
        harness: Harness, league: SampleLeague, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await short_of_a_woman(h, league, monkeypatch)
    await h.slash("/spare request", as_=league.captain("Hawks"), game="G1")
    await h.bot.courier.deliver_due()
    left = await h.slash("/spare leave", as_=h.member(WENDY.name, member_id=WENDY.id))
    assert "off" in left.content
    reply = await press(h, offer_button(offers_to(h, WENDY)[0], "accept"), as_=WENDY, dm=True)
    assert reply.ephemeral and "can't take this spot" in reply.content
    assert (await counts(h))[0] == 0


async def test_the_list_never_shows_a_spares_category(harness: Harness, league: SampleLeague,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await short_of_a_woman(h, league, monkeypatch)
    for who in (league.captain("Hawks"), league.commissioner()):
        plain = await h.slash("/spare list", as_=who)
        matched = await h.slash("/spare list", as_=who, game="G1")
        for reply in (plain, matched):
            assert reply.ephemeral and WENDY.name in reply.text and MARK.name in reply.text
            spare_lines = [line for line in reply.text.splitlines() if "Spare**" in line]
            assert spare_lines and not [line for line in spare_lines if any(w in line for w in CATEGORY_WORDS)]
    lines = {line.split("**")[1]: line for line in matched.text.splitlines() if "Spare**" in line}
    assert "would fill" in lines[WENDY.name] and "would fill" not in lines[MARK.name]  # only whether they fill it
    refused = await h.slash("/spare list", as_=league.player("Carl Diaz"))
    assert refused.ephemeral and "Only captains and commissioners" in refused.content


async def test_a_legal_lineup_or_a_player_asks_for_nothing(harness: Harness, league: SampleLeague) -> None:
    h = harness
    await check_in(h, league, ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee"))
    legal = await h.slash("/spare request", as_=league.captain("Hawks"), game="G1")
    assert legal.ephemeral and "already legal" in legal.content
    player = await h.slash("/spare request", as_=league.player("Carl Diaz"), game="G1")
    assert player.ephemeral and "Only a team's captain" in player.content
    other = await h.slash("/spare request", as_=league.captain("Bears"), game="G1")
    assert other.ephemeral and "Only a captain of Hawks or Owls" in other.content
    async with h.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(SpareRequest)) == 0


async def test_bad_days_are_a_polite_error(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/spare join", as_=harness.member(WENDY.name, member_id=WENDY.id),
                                positions="skater", days="someday")
    assert reply.ephemeral and "can't read “someday” as a day" in reply.content


async def test_a_restart_mid_request_loses_nothing_and_offers_nobody_twice(
        db_url: str, settings: Settings, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked on one bot; the first wave goes out from a second on the same database, the second wave
    from a third. Every spare who fits is offered exactly once over all three."""
    async def bot() -> Harness:
        return await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock,
                                        run_scheduler=False)).start()

    first = await bot()
    league = await SampleLeague(first).load()
    await short_of_a_woman(first, league, monkeypatch)
    reply = await first.slash("/spare request", as_=league.captain("Hawks"), game="G1")
    assert "1 woman/non-binary skater" in reply.content
    await first.close()  # stopped before anything went out

    second = await bot()
    suspend_sue(monkeypatch, second)
    await second.bot.courier.deliver_due()
    await second.bot.courier.deliver_due()
    await second.close()

    third = await bot()
    suspend_sue(monkeypatch, third)
    await third.bot.courier.deliver_due()  # nothing new: the first wave went out
    clock.advance(hours=3)
    await third.bot.courier.deliver_due()
    await third.bot.courier.deliver_due()
    offered = {m.name: len(offers_to(second, m)) + len(offers_to(third, m)) for m in SPARES}
    assert offered == {WENDY.name: 1, NORA.name: 1, MARK.name: 0, SUE.name: 0, GOALIE_GIA.name: 0}
    assert len(offers_to(second, WENDY)) == 1 and len(offers_to(third, NORA)) == 1
    reply = await press(third, offer_button(offers_to(second, WENDY)[0], "accept"), as_=WENDY, dm=True)
    assert "The spot is yours" in reply.content  # a button from before the restart still works
    await third.close()


async def test_the_captains_lineup_alert_carries_a_button_that_asks_the_spare_list(
        harness: Harness, league: SampleLeague, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await short_of_a_woman(h, league, monkeypatch)
    clock.set(clock.now().replace(day=11, hour=21, minute=30))  # G1 starts at 00:00 UTC on the 12th
    await h.bot.courier.deliver_due()
    captain = league.captain("Hawks")
    alerts = [c for c in h.discord.dms(captain.id) if "Hawks lineup for" in c.content]
    asks = {cid for c in alerts for cid in c.custom_ids() if cid.startswith("sideline:sparereq@")}
    assert alerts and len(asks) == 1, [c.content for c in alerts]
    walt = await press(h, next(iter(asks)), as_=league.player("Walt Orr"), dm=True)  # not Hawks's captain
    assert walt.ephemeral and "for the team's captains" in walt.content and "Hawks" not in walt.content
    reply = await press(h, next(iter(asks)), as_=captain, dm=True)
    assert reply.ephemeral and "Asking spares for Hawks" in reply.content and "1 woman/non-binary skater" in \
        reply.content
    again = await press(h, next(iter(asks)), as_=captain, dm=True)
    assert "already open" in again.content
    await h.bot.courier.deliver_due()
    assert len(offers_to(h, WENDY)) == 1


async def test_many_accepts_at_once_fill_exactly_the_one_spot(
        harness: Harness, league: SampleLeague, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await short_of_a_woman(h, league, monkeypatch)
    more = [Member(id=900_000_000_000_000_100 + i, name=f"Extra {i} Spare") for i in range(4)]
    for member in more:
        await h.slash("/spare join", as_=h.member(member.name, member_id=member.id), positions="skater", days="fri",
                      gender="non-binary")
    await h.slash("/spare request", as_=league.captain("Hawks"), game="G1")
    await h.bot.courier.deliver_due()
    pressers = [WENDY, *more]
    buttons = [offer_button(offers_to(h, m)[0], "accept") for m in pressers]
    await asyncio.gather(*(press(h, b, as_=m, dm=True) for b, m in zip(buttons, pressers, strict=True)))
    async with h.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(GameSpare)) == 1
        assert await s.scalar(select(SpareRequest.filled)) == 1
        accepted = await s.scalar(select(func.count()).select_from(SpareOffer).where(SpareOffer.answer == "accepted"))
    assert accepted == 1


async def test_two_accepts_that_both_saw_the_spot_open_still_fill_it_once(
        harness: Harness, league: SampleLeague, clock: FixedClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both accepts read the lineup as short before either writes (held together for up to half a
    second): the request's lock, or else the conditional UPDATE on (status, spots filled), lets one
    through. Without both, PostgreSQL fills two spots here (tried)."""
    from bot.services.spares import requests

    h = harness
    await short_of_a_woman(h, league, monkeypatch)
    await h.slash("/spare request", as_=league.captain("Hawks"), game="G1")
    await h.bot.courier.deliver_due()
    clock.advance(hours=3)
    await h.bot.courier.deliver_due()
    arrived: list[int] = []
    both = asyncio.Event()
    original = requests.need_for

    async def slow_need(*args: Any, **kwargs: Any) -> Any:
        need = await original(*args, **kwargs)
        if not need.met:
            arrived.append(1)
            if len(arrived) >= 2:
                both.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(both.wait(), 0.5)
        return need

    monkeypatch.setattr(requests, "need_for", slow_need)
    start = len(h.discord.calls)
    await asyncio.gather(press(h, offer_button(offers_to(h, WENDY)[0], "accept"), as_=WENDY, dm=True),
                         press(h, offer_button(offers_to(h, NORA)[0], "accept"), as_=NORA, dm=True))
    answers = sorted(c.content for c in h.discord.calls[start:] if c.is_interaction_response)
    assert len(answers) == 2 and answers[0].startswith("Thanks, but") and "The spot is yours" in answers[1], answers
    async with h.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(GameSpare)) == 1
        assert await s.scalar(select(SpareRequest.filled)) == 1
