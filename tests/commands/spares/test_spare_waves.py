"""Spare waves through the real command tree: a spare who joined for any day is a best match every day, an
empty first wave asks the wider one at once, and the captain reads how many spares each wave asked.

G1 (Hawks v Owls) is Friday 11 January 2030 at 19:00 in Toronto; Hawks are short of a woman/non-binary skater."""

from __future__ import annotations

from sqlalchemy import select

from bot.clock import FixedClock
from storage.models import Player, SpareOffer
from tests.commands.checkins.test_lineup import HAWKS_SHORT_OF_WOMEN, check_in
from tests.commands.spares.test_spares import offers_to
from tests.conftest import SampleLeague
from tests.harness import Harness, Member

ANY = Member(id=900_000_000_000_000_011, name="Ada Anyday")  # woman, skater, no days named: any day
MONDAY = Member(id=900_000_000_000_000_012, name="Mo Monday")  # non-binary, skater, Mondays only
TUESDAY = Member(id=900_000_000_000_000_013, name="Tia Tuesday")  # woman, skater, Tuesdays only


async def join(h: Harness, member: Member, gender: str, days: str | None = None) -> str:
    options: dict[str, str] = {"positions": "skater", "gender": gender}
    if days is not None:
        options["days"] = days
    reply = await h.slash("/spare join", as_=h.member(member.name, member_id=member.id), **options)
    assert reply.ephemeral and "spare list" in reply.content, reply.content
    return reply.content


async def offer_waves_stored(h: Harness) -> dict[str, int]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(Player.name, SpareOffer.wave).join(Player, Player.id == SpareOffer.player_id))
        return {r.name: r.wave for r in rows}


async def test_a_spare_who_named_no_days_is_a_best_match_on_any_day(harness: Harness, league: SampleLeague) -> None:
    await check_in(harness, league, HAWKS_SHORT_OF_WOMEN)
    assert "usually free any day" in await join(harness, ANY, "woman")
    await join(harness, MONDAY, "non-binary", "mon")
    reply = await harness.slash("/spare request", as_=league.captain("Hawks"), game="G1")
    assert "First wave, by DM now: 1 spare (the best matches)." in reply.content, reply.content
    assert "Second wave: 1 spare more at" in reply.content
    await harness.bot.courier.deliver_due()
    assert len(offers_to(harness, ANY)) == 1 and offers_to(harness, MONDAY) == []
    assert await offer_waves_stored(harness) == {ANY.name: 1}


async def test_an_empty_first_wave_asks_everyone_who_fits_at_once(harness: Harness, league: SampleLeague) -> None:
    await check_in(harness, league, HAWKS_SHORT_OF_WOMEN)
    await join(harness, MONDAY, "non-binary", "mon")
    await join(harness, TUESDAY, "woman", "tue")
    reply = await harness.slash("/spare request", as_=league.captain("Hawks"), game="G1")
    assert "No spare is a best match, so the first wave asks all 2 spares who fit, by DM now." in reply.content, \
        reply.content
    await harness.bot.courier.deliver_due()  # the clock has not moved: no two-hour wait
    assert len(offers_to(harness, MONDAY)) == 1 and len(offers_to(harness, TUESDAY)) == 1
    assert await offer_waves_stored(harness) == {MONDAY.name: 1, TUESDAY.name: 1}


async def test_the_captain_reads_how_many_spares_each_wave_asked(harness: Harness, league: SampleLeague,
                                                                 clock: FixedClock) -> None:
    await check_in(harness, league, HAWKS_SHORT_OF_WOMEN)
    await join(harness, ANY, "woman")
    await join(harness, MONDAY, "non-binary", "mon")
    await join(harness, TUESDAY, "woman", "tue")
    captain = league.captain("Hawks")
    await harness.slash("/spare request", as_=captain, game="G1")
    await harness.bot.courier.deliver_due()
    during = await harness.slash("/spare request", as_=captain, game="G1")
    assert during.ephemeral and "already open" in during.content
    assert "Asked so far: 1 spare in the first wave; the second wave goes out at <t:" in during.content, \
        during.content
    clock.advance(hours=2, minutes=1)
    await harness.bot.courier.deliver_due()
    after = await harness.slash("/spare request", as_=captain, game="G1")
    assert "Asked so far: 1 spare in the first wave; 2 spares in the second." in after.content, after.content
    assert await offer_waves_stored(harness) == {ANY.name: 1, MONDAY.name: 2, TUESDAY.name: 2}
