"""A replacement player's unpaid prorated fee through the real command tree (youth 1.16): past its due date
the commissioners are told plainly, with no Replace button (their place is a team's, not a spot the waiting
list takes back), while a registrant unpaid past theirs still gets one (youth 1.15); an old Replace button
pressed for a replacement player is refused and changes nothing.

The sample league and its youth season come from tests/commands/test_replacements.py: Hawks play G1
(11 January), G3 (18th, 19:00 Toronto) and G5; Bea Quinn's place on Hawks goes to Bo from senior's waiting
list on the 15th, so Bo owes the league's season fee ($120) prorated by 2 of 3 games left, due before G3.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from bot.league.replacements.presets import REPLACEMENT_PRESETS
from storage.models import Registration, RegistrationOffer
from tests.commands.test_replacements import ADMIN, WAITING_LIST, on_roster, senior_waiting_list, start_season
from tests.conftest import SampleLeague
from tests.harness import Harness
from tests.harness.fake_discord import Call

JOINED = datetime(2030, 1, 15, 17, tzinfo=UTC)  # after G1: G3 and G5 are left
G3 = datetime(2030, 1, 19, 0, tzinfo=UTC)
PAST_BOTH_DUES = datetime(2030, 1, 21, 17, tzinfo=UTC)  # G3, and Ann's five days after her form


async def state(h: Harness) -> tuple[list[tuple[str, str, int, str]], list[tuple[int, str, str]]]:
    async with h.bot.sessions() as s:
        rows = [(r.name, r.status, r.fee_cents, r.payment_state)
                for r in (await s.scalars(select(Registration).order_by(Registration.id))).all()]
        offers = [(o.registration_id, o.opening_kind, o.answer)
                  for o in (await s.scalars(select(RegistrationOffer).order_by(RegistrationOffer.id))).all()]
    return rows, offers


def overdue(h: Harness) -> dict[str, Call]:
    """The admin channel's unpaid-fee messages, by the registrant's number."""
    return {c.content.split()[1]: c for c in h.discord.channel_messages(ADMIN) if c.content.startswith("⏰")}


@pytest.mark.parametrize("settings", [WAITING_LIST])
async def test_an_unpaid_replacement_is_reported_without_a_replace_button_and_an_old_one_is_refused(
        harness: Harness, league: SampleLeague, settings: Settings) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(JOINED)  # type: ignore[attr-defined]
    (bo,) = await senior_waiting_list(harness, league, "Bo")
    await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                        reason="injury", injured_on="2030-01-12")
    await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve")
    await harness.bot.courier.deliver_due()
    accepted = await harness.press("sideline:registration:offer:accept:1", as_=bo)
    assert accepted.ephemeral and "Bo joins Hawks (senior)" in accepted.content, accepted.content

    harness.bot.clock.set(PAST_BOTH_DUES)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    asked = overdue(harness)
    assert sorted(asked) == ["#1", "#2"]
    # Bo's reminder before the game doesn't promise his place to the waiting list either.
    (nudge,) = [c.content for c in harness.discord.dms(bo.id) if c.content.startswith("💳")]
    assert nudge.endswith("Unpaid by then, the commissioners decide whether they stay on the team."), nudge
    # Ann, who took a spot in the division, may still be replaced by the waiting list.
    assert "#1 Ann (senior) hasn't paid their fee ($150.00 to pay)" in asked["#1"].content
    assert asked["#1"].custom_ids() == ["sideline:registration:replace:1"]
    # Bo, who took Bea Quinn's place on Hawks, is only reported: the commissioners decide.
    cite = REPLACEMENT_PRESETS["youth-ball-hockey"].replacement_citations.fee
    assert cite
    assert asked["#2"].content == (
        "⏰ #2 Bo, who joined Hawks (senior) as the replacement player for Bea Quinn (replacement request #1), "
        f"hasn't paid the prorated fee ($80.00 to pay) due before their first game, <t:{int(G3.timestamp())}:F> "
        f"({cite}). They're still on the team and nothing happens on its own: it's the commissioners' decision. "
        "/registration payment records the fee once paid; /roster remove takes them off the team.")
    assert asked["#2"].components == [] and asked["#2"].custom_ids() == []

    # A Replace button for Bo (one sent before replacement players were told apart) changes nothing.
    before, told = await state(harness), len(harness.discord.dms(bo.id))
    assert before[0][1] == ("Bo", "registered", 8000, "unpaid")
    refused = await harness.press("sideline:registration:replace:2", as_=league.commissioner(), channel_id=ADMIN)
    assert refused.ephemeral and refused.content.startswith(
        "#2 Bo joined a team as a replacement player, so their spot isn't offered down the waiting list; "
        "nothing changed."), refused.content
    assert await state(harness) == before and await on_roster(harness, "Bo")
    await harness.bot.courier.deliver_due()
    assert sorted(overdue(harness)) == ["#1", "#2"] and len(harness.discord.dms(bo.id)) == told

    # Ann's button still works as before.
    done = await harness.press("sideline:registration:replace:1", as_=league.commissioner(), channel_id=ADMIN)
    assert done.ephemeral and "Replaced #1 Ann (senior)" in done.content
    assert [r[1] for r in (await state(harness))[0]] == ["replaced", "registered"]
