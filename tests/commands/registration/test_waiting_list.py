"""Dues and the waiting list through the real command tree (youth 1.15): the reminder before the fee's
deadline, the commissioners' one-button replacement past it, offers down the list with Accept / Decline,
each made once, across a restart too."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import Registration, RegistrationOffer
from tests.conftest import league_config, make_settings
from tests.harness import Harness, Member
from tests.harness.fake_discord import Call

ADMIN = 3009
NOW = datetime(2030, 1, 5, 17, 0, tzinfo=UTC)
DUE = NOW + timedelta(days=5)  # youth 1.15: within 5 days of the form


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(NOW)


@pytest.fixture
def settings() -> Settings:
    channels = {"announcements": 3001, "standings": 3002, "referees": 3003, "admin": ADMIN}
    return make_settings(league_config(preset="youth-ball-hockey", channels=channels,
                                       rules={"division_capacity": {"junior": 1}, "offer_hours": 48}))


def form(name: str) -> dict[str, str]:
    return {"name": name, "date_of_birth": "2018-01-01", "positions": "", "guardian": "A parent", "notes": ""}


@pytest.fixture
async def full(harness: Harness) -> AsyncIterator[tuple[Member, list[Member]]]:
    """Junior full with Ann (unpaid, $120) and Bo then Cy on the waiting list, each sent by their parent."""
    kay = harness.member("Commish Kay", roles=("commissioner",))
    await harness.slash("/season start", as_=kay, name="Winter 2030", first_day="2030-02-01", weeks=10)
    await harness.slash("/registration open", as_=kay, division="junior", fee="120",
                        payment_link="https://pay.example.org/jyhl")
    parents = [harness.member(f"Parent of {n}") for n in ("Ann", "Bo", "Cy")]
    for name, parent in zip(("Ann", "Bo", "Cy"), parents, strict=True):
        done = await harness.submit_modal("sideline:registration:form:0", form(name), as_=parent)
        assert done.ephemeral, done.content
    yield kay, parents


async def statuses(h: Harness) -> list[tuple[str, str, int | None]]:
    async with h.bot.sessions() as s:
        return [(r.name, r.status, r.queue_position)
                for r in (await s.scalars(select(Registration).order_by(Registration.id))).all()]


def buttons(call: Call) -> list[tuple[str, str]]:
    return [(b["label"], b["custom_id"]) for row in call.components for b in row["components"]]


def offers(h: Harness, member: Member) -> list[Call]:
    return [c for c in h.discord.dms(member.id) if "a spot in junior opened" in c.content]


async def test_unpaid_after_five_days_the_commissioner_replaces_them_and_the_list_moves_once(
        harness: Harness, full: tuple[Member, list[Member]], db_url: str) -> None:
    kay, (ann, bo, cy) = full
    clock: FixedClock = harness.bot.clock  # type: ignore[assignment]
    # A day before the deadline, Ann's parent is reminded, with the payment page.
    clock.set(DUE - timedelta(hours=24))
    await harness.bot.courier.deliver_due()
    (nudge,) = harness.discord.dms(ann.id)
    assert "Ann's fee ($120.00 to pay) for junior is due by <t:" in nudge.content
    assert "<https://pay.example.org/jyhl>" in nudge.content
    assert harness.discord.channel_messages(ADMIN) == []
    # At the deadline the commissioners are asked, with one button.
    clock.set(DUE + timedelta(minutes=1))
    await harness.bot.courier.deliver_due()
    (ask,) = harness.discord.channel_messages(ADMIN)
    assert "#1 Ann (junior) hasn't paid their fee ($120.00 to pay)" in ask.content
    assert buttons(ask) == [("Replace #1", "sideline:registration:replace:1")]
    # Nobody but a commissioner replaces anyone.
    refused = await harness.press("sideline:registration:replace:1", as_=harness.member("Player Pia"),
                                  channel_id=ADMIN)
    assert refused.ephemeral and "Only a commissioner" in refused.content
    assert [s for _, s, _ in await statuses(harness)] == ["registered", "waiting", "waiting"]
    done = await harness.press("sideline:registration:replace:1", as_=kay, channel_id=ADMIN)
    assert done.ephemeral and "Replaced #1 Ann (junior)" in done.content
    assert "The spot is offered to Bo, first on the waiting list." in done.content
    assert await statuses(harness) == [("Ann", "replaced", None), ("Bo", "offered", 1), ("Cy", "waiting", 2)]
    twice = await harness.press("sideline:registration:replace:1", as_=kay, channel_id=ADMIN)
    assert twice.ephemeral and "is replaced now: nothing to replace" in twice.content
    await harness.bot.courier.deliver_due()
    assert "the spot went to the waiting list" in harness.discord.dms(ann.id)[-1].content
    (offer_bo,) = offers(harness, bo)
    assert buttons(offer_bo) == [("Accept", "sideline:registration:offer:accept:1"),
                                 ("Decline", "sideline:registration:offer:decline:1")]
    assert offers(harness, cy) == []
    # Only Bo's parent answers Bo's offer; a decline passes the spot to Cy.
    other = await harness.press("sideline:registration:offer:accept:1", as_=cy)
    assert other.ephemeral and "That offer isn't yours to answer." in other.content
    declined = await harness.press("sideline:registration:offer:decline:1", as_=bo)
    assert declined.ephemeral and "Declined: the spot in junior goes to the next" in declined.content
    assert await statuses(harness) == [("Ann", "replaced", None), ("Bo", "declined", None), ("Cy", "offered", 2)]
    await harness.bot.courier.deliver_due()
    (offer_cy,) = offers(harness, cy)
    assert "offer:accept:2" in offer_cy.body["components"][0]["components"][0]["custom_id"]

    # A restart in between: nobody is offered anything twice, and a second answer changes nothing.
    restarted = await Harness(create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock,
                                         run_scheduler=False)).start()
    try:
        await restarted.bot.courier.deliver_due()
        assert offers(restarted, bo) == [] and offers(restarted, cy) == []
        again = await restarted.press("sideline:registration:offer:decline:1", as_=bo)
        assert again.ephemeral and "You've answered that offer already (declined)" in again.content
        clock.set(DUE + timedelta(hours=2))
        accepted = await restarted.press("sideline:registration:offer:accept:2", as_=cy)
        assert accepted.ephemeral and "Cy has the spot in junior. The fee ($120.00) is due by" in accepted.content
        await restarted.bot.courier.deliver_due()
        assert offers(restarted, bo) == [] and offers(restarted, cy) == []
    finally:
        await restarted.close()
    assert await statuses(harness) == [("Ann", "replaced", None), ("Bo", "declined", None), ("Cy", "registered", None)]
    async with harness.bot.sessions() as s:
        cy_row = await s.get(Registration, 3)
        made = [(o.registration_id, o.opening, o.answer) for o in (await s.scalars(
            select(RegistrationOffer).order_by(RegistrationOffer.id))).all()]
    assert made == [(2, 1, "declined"), (3, 1, "accepted")]
    # The replacing applicant's own 5-day grace starts when they take the spot.
    assert cy_row is not None and cy_row.payment_due_at == DUE + timedelta(hours=2) + timedelta(days=5)


async def test_a_paid_fee_cancels_the_reminder_and_the_confirmation(harness: Harness,
                                                                   full: tuple[Member, list[Member]]) -> None:
    kay, (ann, _, _) = full
    refused = await harness.slash("/registration payment", as_=ann, registration="1", state="online")
    assert refused.ephemeral and "Only a commissioner" in refused.content
    partial = await harness.slash("/registration payment", as_=kay, registration="1", state="partial",
                                  amount="200")
    assert partial.ephemeral and "more than the fee ($120.00)" in partial.content
    half = await harness.slash("/registration payment", as_=kay, registration="1", state="partial", amount="60")
    assert half.ephemeral and "#1 Ann: partly paid, $60.00 of $120.00 recorded." in half.content
    paid = await harness.slash("/registration payment", as_=kay, registration="1", state="online")
    assert paid.ephemeral and "#1 Ann: paid online, $120.00 of $120.00 recorded." in paid.content
    harness.bot.clock.set(DUE + timedelta(days=1))  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    assert harness.discord.dms(ann.id) == [] and harness.discord.channel_messages(ADMIN) == []
    too_soon = await harness.press("sideline:registration:replace:1", as_=kay, channel_id=ADMIN)
    assert too_soon.ephemeral and "has paid since: they keep their spot" in too_soon.content


async def test_an_offer_not_answered_in_time_goes_to_the_next_once(harness: Harness,
                                                                   full: tuple[Member, list[Member]]) -> None:
    kay, (_, bo, cy) = full
    rejected = await harness.slash("/registration reject", as_=kay, registration="1", reason="Duplicate form")
    assert "offered to Bo" in rejected.content
    clock: FixedClock = harness.bot.clock  # type: ignore[assignment]
    await harness.bot.courier.deliver_due()
    clock.set(NOW + timedelta(hours=48, minutes=1))
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    assert "wasn't accepted in time" in harness.discord.dms(bo.id)[-1].content
    assert len(offers(harness, bo)) == 1 and len(offers(harness, cy)) == 1
    assert await statuses(harness) == [("Ann", "rejected", None), ("Bo", "waiting", 1), ("Cy", "offered", 2)]
    late = await harness.press("sideline:registration:offer:accept:1", as_=bo)
    assert late.ephemeral and "You've answered that offer already (expired)" in late.content


async def test_rejecting_someone_offered_a_spot_passes_that_same_spot_on(harness: Harness,
                                                                         full: tuple[Member, list[Member]]) -> None:
    kay, (_, bo, cy) = full
    await harness.slash("/registration reject", as_=kay, registration="1", reason="Duplicate form")
    passed = await harness.slash("/registration reject", as_=kay, registration="2", reason="Moved away")
    assert passed.ephemeral and "The spot is offered to Cy" in passed.content
    async with harness.bot.sessions() as s:
        made = [(o.registration_id, o.opening, o.answer) for o in (await s.scalars(
            select(RegistrationOffer).order_by(RegistrationOffer.id))).all()]
    assert made == [(2, 1, "withdrawn"), (3, 1, "")]  # one spot, offered in turn: never two at once
    assert await statuses(harness) == [("Ann", "rejected", None), ("Bo", "rejected", None), ("Cy", "offered", 2)]
    await harness.bot.courier.deliver_due()
    assert offers(harness, bo) == [] and len(offers(harness, cy)) == 1  # Bo's unsent offer was taken back
    late = await harness.press("sideline:registration:offer:accept:1", as_=bo)
    assert late.ephemeral and "already (withdrawn)" in late.content
