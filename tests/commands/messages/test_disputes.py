"""/dispute file|decide|list: a formal dispute, its decision deadline and the nudges until it is decided.

The co-ed rulebook has no disputes ("the referee's call stands"): most tests here run the sample co-ed
league with disputes turned on (DISPUTES_ON), as a league may; the preset's own refusal is tested below.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import Deadline, Dispute
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Call, Harness

HAWKS_CAPTAIN = 500_000_000_000_000_001
ANNOUNCEMENTS = CHANNELS["announcements"]  # no admin channel configured: the commissioners' nudges go here
AFTER_G1 = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)  # G1 (00:00 UTC) is over
COMPLAINT = "The winning goal was kicked in; the referee didn't see it. We ask for a review."
#: The co-ed preset with disputes turned on, as a league may with /setup rule.
DISPUTES_ON = {"dispute_calls_allowed": True}
PRESET_AS_SHIPPED = pytest.mark.parametrize("settings", [{}], indirect=True)


@pytest.fixture
def settings(request: pytest.FixtureRequest) -> Settings:
    return make_settings(league_config(rules=getattr(request, "param", DISPUTES_ON)))


async def dispute_rows(h: Harness) -> list[tuple[Any, ...]]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(Dispute.id, Dispute.captain_id, Dispute.status, Dispute.outcome,
                                      Dispute.decision).order_by(Dispute.id))
        return [tuple(r) for r in rows.all()]


def nudges(h: Harness) -> list[Call]:
    return [c for c in h.discord.channel_messages(ANNOUNCEMENTS) if "dispute #" in c.content]


def dispute_dms(h: Harness, user_id: int) -> list[Call]:
    return [c for c in h.discord.dms(user_id) if "dispute #" in c.content]


@pytest.fixture
def after_g1(clock: FixedClock) -> FixedClock:
    clock.set(AFTER_G1)
    return clock


async def file(h: Harness, league: SampleLeague, message: str = COMPLAINT, game: str = "G1") -> Any:
    return await h.slash("/dispute file", as_=league.captain("Hawks"), game=game, message=message)


async def test_a_player_cannot_file_and_nothing_is_stored(harness: Harness, league: SampleLeague,
                                                          after_g1: FixedClock) -> None:
    reply = await harness.slash("/dispute file", as_=league.player("Alice Hart"), game="G1", message=COMPLAINT)
    assert reply.ephemeral and "Only a captain of Coed League" in reply.content
    other = await harness.slash("/dispute file", as_=league.captain("Bears"), game="G1", message=COMPLAINT)
    assert other.ephemeral and "Only a captain of Hawks or Owls can dispute `G1`" in other.content
    assert await dispute_rows(harness) == []
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(Deadline))).all() == []


async def test_a_dispute_is_about_a_game_that_has_started(harness: Harness, league: SampleLeague) -> None:
    reply = await file(harness, league)  # the clock is days before G1
    assert reply.ephemeral and "`G1` hasn't started yet" in reply.content and "/relay send" in reply.content
    assert await dispute_rows(harness) == []


async def test_a_captain_files_and_a_decision_deadline_starts(harness: Harness, league: SampleLeague,
                                                              after_g1: FixedClock) -> None:
    reply = await file(harness, league, "@everyone " + COMPLAINT)
    assert reply.ephemeral and reply.content.startswith("Dispute #1 about `G1` (Hawks vs Owls) is filed")
    due = AFTER_G1 + timedelta(days=5)
    assert f"<t:{int(due.timestamp())}:F>" in reply.content
    assert await dispute_rows(harness) == [(1, HAWKS_CAPTAIN, "open", None, "")]
    async with harness.bot.sessions() as s:
        deadline = (await s.scalars(select(Deadline))).one()
    assert (deadline.kind, deadline.ref, deadline.audience_kind, deadline.nag_until_done) == (
        "dispute_decision", "dispute:1", "commissioners", True)
    assert deadline.due_at == due
    assert "@everyone" not in deadline.subject
    again = await file(harness, league, "and another thing")
    assert again.ephemeral and "already has an open dispute about `G1` (#1)" in again.content
    assert len(await dispute_rows(harness)) == 1


async def test_an_overdue_decision_nudges_the_commissioners_until_it_is_decided(
        harness: Harness, league: SampleLeague, after_g1: FixedClock) -> None:
    await file(harness, league)
    await harness.bot.courier.deliver_due()
    assert nudges(harness) == []  # the first nudge is 72 hours before the decision is due
    after_g1.advance(days=5, minutes=1)  # the decision is now overdue
    await harness.bot.courier.deliver_due()
    overdue = [c for c in nudges(harness) if "isn't done yet" in c.content]
    assert len(overdue) == 1 and "Decide dispute #1 about game G1" in overdue[0].content
    assert all(c.allowed_mentions == {"parse": [], "users": []} for c in nudges(harness))
    assert COMPLAINT not in overdue[0].content  # the dispute's text stays private
    after_g1.advance(days=1)
    await harness.bot.courier.deliver_due()
    assert len([c for c in nudges(harness) if "isn't done yet" in c.content]) == 2  # one a day

    decided = await harness.slash("/dispute decide", as_=league.commissioner(), id="1", outcome="rejected",
                                  text="The referee's call stands.")
    assert decided.ephemeral and "Dispute #1 (Hawks, `G1`) is rejected" in decided.content
    await harness.bot.courier.deliver_due()
    (dm,) = dispute_dms(harness, HAWKS_CAPTAIN)
    assert "Your dispute #1 about `G1`" in dm.content and "**rejected ❌** by Commish Kay" in dm.content
    assert "> The referee's call stands." in dm.content
    count = len(nudges(harness))
    for _ in range(3):
        after_g1.advance(days=1)
        await harness.bot.courier.deliver_due()
    assert len(nudges(harness)) == count, "no nudges once decided"
    assert await dispute_rows(harness) == [(1, HAWKS_CAPTAIN, "decided", "rejected", "The referee's call stands.")]
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(Deadline.done_at))).one() is not None


async def test_only_commissioners_decide_and_a_decision_is_final(harness: Harness, league: SampleLeague,
                                                                 after_g1: FixedClock) -> None:
    await file(harness, league)
    refused = await harness.slash("/dispute decide", as_=league.captain("Hawks"), id="1", outcome="upheld",
                                  text="I win")
    assert refused.ephemeral and "Only a commissioner" in refused.content
    assert (await dispute_rows(harness))[0][2] == "open"
    missing = await harness.slash("/dispute decide", as_=league.commissioner(), id="#99", outcome="upheld", text="x")
    assert missing.ephemeral and "There's no dispute #99 in Coed League" in missing.content
    junk = await harness.slash("/dispute decide", as_=league.commissioner(), id="abc", outcome="upheld", text="x")
    assert junk.ephemeral and "Pick a dispute from the suggestions" in junk.content
    ok = await harness.slash("/dispute decide", as_=league.commissioner(), id="#1", outcome="partly-upheld",
                             text="Goal stands; the player gets a warning.")
    assert "partly upheld" in ok.content
    twice = await harness.slash("/dispute decide", as_=league.commissioner(), id="1", outcome="rejected", text="no")
    assert twice.ephemeral and "already decided (partly-upheld) by Commish Kay; a decision is final" in twice.content
    assert (await dispute_rows(harness))[0][2:4] == ("decided", "partly-upheld")


async def test_dispute_list_and_autocomplete_for_commissioners(harness: Harness, league: SampleLeague,
                                                               after_g1: FixedClock) -> None:
    await file(harness, league)
    refused = await harness.slash("/dispute list", as_=league.captain("Hawks"))
    assert refused.ephemeral and "Only a commissioner" in refused.content
    listed = await harness.slash("/dispute list", as_=league.commissioner())
    assert "Open disputes" in listed.text and "#1" in listed.text and "winning goal" in listed.text
    choices = await harness.autocomplete("/dispute decide", focused="id", as_=league.commissioner(), id="")
    assert [c["value"] for c in choices.autocomplete_choices] == ["1"]
    nothing = await harness.autocomplete("/dispute decide", focused="id", as_=league.captain("Hawks"), id="")
    assert nothing.autocomplete_choices == []
    await harness.slash("/dispute decide", as_=league.commissioner(), id="1", outcome="withdrawn", text="Withdrawn.")
    assert "No disputes." in (await harness.slash("/dispute list", as_=league.commissioner())).text
    everything = await harness.slash("/dispute list", as_=league.commissioner(), include_decided=True)
    assert "closed as withdrawn by Commish Kay" in everything.text


async def test_with_an_admin_channel_the_commissioners_read_the_dispute_there(db_url: str,
                                                                             after_g1: FixedClock) -> None:
    admin = 3009
    settings = make_settings(league_config(channels={**CHANNELS, "admin": admin}, rules=DISPUTES_ON))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=after_g1,
                                 run_scheduler=False)).start()
    try:
        sample = await SampleLeague(h).load()
        await file(h, sample, "<@&1003> " + COMPLAINT)
        await h.bot.courier.deliver_due()
        (posted,) = [c for c in h.discord.channel_messages(admin) if "Dispute #1" in c.content]
        assert COMPLAINT in posted.content and "<@&1003>" not in posted.content
        assert posted.allowed_mentions == {"parse": [], "users": []}
        assert [c for c in h.discord.channel_messages(ANNOUNCEMENTS) if "ispute" in c.content] == []
    finally:
        await h.close()


@PRESET_AS_SHIPPED
async def test_coed_the_referees_call_stands_and_captains_relay_instead(harness: Harness, league: SampleLeague,
                                                                       after_g1: FixedClock) -> None:
    # Co-ed "Ref interaction": "the referee's call stands, so if you have a dispute with a call, suck it up".
    refused = await file(harness, league)
    assert refused.ephemeral
    assert refused.content == ("In Coed League the referee's call stands (Co-ed rules: Ref interaction 2): calls "
                               "can't be disputed with the commissioners. To tell the referees something, use "
                               "`/relay send`.")
    assert await dispute_rows(harness) == []
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(Deadline))).all() == []
    relayed = await harness.slash("/relay send", as_=league.captain("Hawks"), game="G1",
                                  message="Number 7 on Owls has no helmet")
    assert relayed.ephemeral and relayed.content.startswith("Relay #1 about `G1` (Hawks vs Owls) sent to")
    # /help doesn't offer the refused command to a co-ed captain; it still offers /relay send.
    pages = await help_text(harness, league.captain("Hawks"))
    assert "`/dispute file" not in pages and "`/relay send" in pages


async def test_youth_captains_appeal_to_the_league_as_2_2_says(db_url: str, after_g1: FixedClock) -> None:
    settings = make_settings(league_config(key="youth", preset="youth-ball-hockey"))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=after_g1,
                                 run_scheduler=False)).start()
    try:
        sample = await SampleLeague(h).load()
        filed = await file(h, sample)
        assert filed.ephemeral and filed.content.startswith("Dispute #1 about `G1`") and "(Youth 2.2)" in filed.content
        assert "`/dispute file" in await help_text(h, sample.captain("Hawks"))
    finally:
        await h.close()


async def help_text(h: Harness, member: Any) -> str:
    """Every page of the member's /help, as one text."""
    first = (await h.slash("/help", as_=member)).first
    pages = [first.text]
    for page in range(1, len(first.custom_ids())):
        pages.append((await h.press(f"sideline:help:{page}", as_=member, ephemeral=True)).first.text)
    return "\n".join(pages)
