"""/register and /registration through the real command tree (youth 1.2, 1.15): the form, age bands and
their exceptions, the date of birth kept to commissioners' private replies, rejection, export."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.config.settings import Settings
from storage.models import OutboxMessage, Registration, RegistrationException, RegistrationWindow
from tests.conftest import league_config, make_settings
from tests.harness import Harness, Member

ADMIN = 3009
NOW = datetime(2030, 1, 5, 17, 0, tzinfo=UTC)  # noon in Toronto
DOB = "2012-06-01"  # 18 on 31 December 2030: too old for junior (9 to 15), senior's age


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(NOW)


@pytest.fixture
def settings() -> Settings:
    channels = {"announcements": 3001, "standings": 3002, "referees": 3003, "admin": ADMIN}
    return make_settings(league_config(preset="youth-ball-hockey", channels=channels,
                                       rules={"division_capacity": {"junior": 1}}))


@pytest.fixture
async def commissioner(harness: Harness) -> AsyncIterator[Member]:
    """A running season (first day 1 Feb 2030: ages count at 31 Dec 2030) with junior registration open."""
    kay = harness.member("Commish Kay", roles=("commissioner",))
    started = await harness.slash("/season start", as_=kay, name="Winter 2030", first_day="2030-02-01", weeks=10)
    assert "Winter 2030" in started.text, started.text
    opened = await harness.slash("/registration open", as_=kay, division="junior", fee="120",
                                 payment_link="https://pay.example.org/jyhl", draft_date="2030-01-25")
    assert opened.ephemeral and "Registration for **junior** (Winter 2030) is open. Fee: $120.00" in opened.content
    yield kay


def form(name: str, born: str, guardian: str = "Parent Pat", positions: str = "forward",
         notes: str = "") -> dict[str, str]:
    return {"name": name, "date_of_birth": born, "positions": positions, "guardian": guardian, "notes": notes}


async def rows(h: Harness) -> list[tuple[str, str, date, str, int | None, str]]:
    async with h.bot.sessions() as s:
        return [(r.name, r.status, r.date_of_birth, r.guardian, r.queue_position, r.exception_reason)
                for r in (await s.scalars(select(Registration).order_by(Registration.id))).all()]


async def test_the_form_opens_with_five_fields_and_registers_a_junior_with_a_guardian(
        harness: Harness, commissioner: Member) -> None:
    parent = harness.member("Parent Pat")
    opened = await harness.slash("/register", as_=parent, division="junior")
    assert opened.response_type == 9, opened.content  # a form
    data = opened.first.body["data"]
    fields = [row["components"][0]["custom_id"] for row in data["components"]]
    assert fields == ["name", "date_of_birth", "positions", "guardian", "notes"]
    done = await harness.submit_modal(data["custom_id"], form("Junior Jo", "March 5, 2018"), as_=parent)
    assert done.ephemeral and "Junior Jo is registered for junior (Winter 2030) — registration #1" in done.content
    assert "$120.00" in done.content and "<https://pay.example.org/jyhl>" in done.content
    assert "2018" not in done.content and "March" not in done.content  # the date of birth isn't repeated
    assert await rows(harness) == [("Junior Jo", "registered", date(2018, 3, 5), "Parent Pat", None, "")]
    # Due within 5 days of the form (youth 1.15), before the draft on 25 January.
    async with harness.bot.sessions() as s:
        row = (await s.scalars(select(Registration))).one()
    assert row.payment_due_at == datetime(2030, 1, 10, 17, 0, tzinfo=UTC)
    # The same player twice is refused; nothing changes.
    again = await harness.submit_modal(data["custom_id"], form("junior jo", "2018-03-05"), as_=parent)
    assert again.ephemeral and "already registered for junior" in again.content
    assert len(await rows(harness)) == 1


@pytest.mark.parametrize(("born", "guardian", "says"), [
    ("2031-01-01", "Parent Pat", "in the future"),
    ("05/03/2018", "Parent Pat", "Give the date of birth as YYYY-MM-DD"),
    ("2018-02-30", "Parent Pat", "isn't a real day"),
    ("2018-03-05", "", "A player under 18 needs a guardian"),
])
async def test_a_bad_form_is_refused_politely_and_registers_nobody(harness: Harness, commissioner: Member,
                                                                   born: str, guardian: str, says: str) -> None:
    parent = harness.member("Parent Pat")
    refused = await harness.submit_modal("sideline:registration:form:0", form("Junior Jo", born, guardian),
                                         as_=parent)
    assert refused.ephemeral and says in refused.content, refused.content
    assert await rows(harness) == []


async def test_out_of_band_needs_an_exception_and_the_date_of_birth_stays_with_commissioners(
        harness: Harness, commissioner: Member) -> None:
    parent = harness.member("Parent Pat")
    replies = []
    refused = await harness.submit_modal("sideline:registration:form:0", form("Big Sam", DOB), as_=parent)
    replies.append(refused)
    assert refused.ephemeral and "Big Sam will be 18 on December 31, 2030: junior takes ages 9 to 15" in \
        refused.content, refused.content
    assert await rows(harness) == []
    # Only a commissioner records an exception.
    player = harness.member("Player Pia")
    denied = await harness.slash("/registration exception", as_=player, member=parent, division="junior",
                                 reason="skill assessment")
    replies.append(denied)
    assert denied.ephemeral and "Only a commissioner" in denied.content
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(RegistrationException))).all() == []
    recorded = await harness.slash("/registration exception", as_=commissioner, member=parent, division="junior",
                                   reason="skill assessment")
    replies.append(recorded)
    assert recorded.ephemeral and "may play in **junior** outside its ages (skill assessment)" in recorded.content
    done = await harness.submit_modal("sideline:registration:form:0", form("Big Sam", DOB), as_=parent)
    replies.append(done)
    assert done.ephemeral and "Big Sam is registered for junior" in done.content, done.content
    assert "(Age exception: skill assessment.)" in done.content
    assert await rows(harness) == [("Big Sam", "registered", date(2012, 6, 1), "Parent Pat", None,
                                    "skill assessment")]
    # The exception is used up: a second out-of-band form from the same member is refused.
    second = await harness.submit_modal("sideline:registration:form:0", form("Big Ben", "2011-01-01"), as_=parent)
    replies.append(second)
    assert "junior takes ages 9 to 15" in second.content and len(await rows(harness)) == 1
    # A player can't list or export; a commissioner privately sees the date of birth.
    for path in ("/registration list", "/registration export"):
        no = await harness.slash(path, as_=player)
        replies.append(no)
        assert no.ephemeral and "Only a commissioner" in no.content and DOB not in no.text
    listed = await harness.slash("/registration list", as_=commissioner)
    assert listed.ephemeral and f"born {DOB}" in listed.text and "exception: skill assessment" in listed.text
    exported = await harness.slash("/registration export", as_=commissioner)
    assert exported.ephemeral
    (data,) = exported.first.files.values()
    table = list(csv.DictReader(io.StringIO(data.decode())))
    assert [(r["name"], r["date_of_birth"], r["age_exception"]) for r in table] == [
        ("Big Sam", DOB, "skill assessment")]
    await harness.bot.courier.deliver_due()
    # Every other message of the scenario: replies, DMs, channel posts, never the date of birth.
    private = {id(c) for c in listed.responses + exported.responses}
    for call in harness.discord.calls:
        if id(call) in private:
            continue
        text = json.dumps(call.body) + "".join(v.decode(errors="replace") for v in call.files.values())
        assert DOB not in text and "June 1" not in text, call.path


async def test_a_full_division_puts_registrants_on_the_waiting_list_in_order(harness: Harness,
                                                                            commissioner: Member) -> None:
    for name, parent in (("Ann", "P1"), ("Bo", "P2"), ("Cy", "P3")):
        done = await harness.submit_modal("sideline:registration:form:0", form(name, "2018-01-01"),
                                          as_=harness.member(parent))
        assert done.ephemeral
    assert [(n, s, q) for n, s, _, _, q, _ in await rows(harness)] == [
        ("Ann", "registered", None), ("Bo", "waiting", 1), ("Cy", "waiting", 2)]
    assert "Cy is on the waiting list for junior (Winter 2030), number 2" in done.content
    assert "Fee" not in done.content  # nothing to pay before they have a spot


async def test_a_commissioner_rejects_with_a_reason_sent_privately(harness: Harness, commissioner: Member) -> None:
    parent = harness.member("Parent Pat")
    await harness.submit_modal("sideline:registration:form:0", form("Junior Jo", "2018-01-01"), as_=parent)
    await harness.submit_modal("sideline:registration:form:0", form("Junior Max", "2018-01-01"),
                               as_=harness.member("Parent Quinn"))
    player = harness.member("Player Pia")
    denied = await harness.slash("/registration reject", as_=player, registration="1", reason="No.")
    assert denied.ephemeral and "Only a commissioner" in denied.content
    assert [r[1] for r in await rows(harness)] == ["registered", "waiting"]
    missing = await harness.slash("/registration reject", as_=commissioner, registration="99", reason="No.")
    assert missing.ephemeral and "There's no registration “99”" in missing.content
    choices = (await harness.autocomplete("/registration reject", focused="registration", as_=commissioner,
                                          registration="jo")).autocomplete_choices
    assert choices == [{"name": "#1 Junior Jo (junior, registered)", "value": "1"}]
    assert (await harness.autocomplete("/registration reject", focused="registration", as_=player,
                                       registration="jo")).autocomplete_choices == []
    done = await harness.slash("/registration reject", as_=commissioner, registration="1",
                               reason="@everyone the team is full of siblings already")
    assert done.ephemeral and "Rejected #1 Junior Jo (junior)" in done.content
    assert "offered to Junior Max, first on the waiting list" in done.content
    await harness.bot.courier.deliver_due()
    (dm,) = harness.discord.dms(parent.id)
    assert "was rejected by the commissioners. Their reason:" in dm.content and "siblings" in dm.content
    assert dm.body.get("allowed_mentions", {}).get("parse") in ([], None)
    assert [r[1] for r in await rows(harness)] == ["rejected", "offered"]
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(RegistrationWindow))).one().division == "junior"
        keys = (await s.scalars(select(OutboxMessage.send_key))).all()
    assert "registration:1:rejected" in keys
    again = await harness.slash("/registration reject", as_=commissioner, registration="1", reason="Again")
    assert again.ephemeral and "already rejected" in again.content


async def test_registration_needs_an_open_window(harness: Harness) -> None:
    kay = harness.member("Commish Kay", roles=("commissioner",))
    no_season = await harness.slash("/registration open", as_=kay, division="junior")
    assert no_season.ephemeral and "has no season running" in no_season.content
    closed = await harness.slash("/register", as_=harness.member("Parent Pat"))
    assert closed.ephemeral and "Registration isn't open right now" in closed.content
    await harness.slash("/season start", as_=kay, name="Winter 2030", first_day="2030-02-01", weeks=10)
    wrong = await harness.slash("/registration open", as_=kay, division="bantam")
    assert wrong.ephemeral and "There's no division “bantam” (divisions: junior, senior)" in wrong.content
    bad_fee = await harness.slash("/registration open", as_=kay, division="junior", fee="lots")
    assert bad_fee.ephemeral and "Fee: Give an amount in dollars" in bad_fee.content
    link = await harness.slash("/registration open", as_=kay, division="junior", payment_link="http://x.org")
    assert link.ephemeral and "must be a web address starting with https://" in link.content
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(RegistrationWindow))).all() == []
    await harness.slash("/registration open", as_=kay, division="senior")
    closed_now = await harness.slash("/registration close", as_=kay, division="senior")
    assert closed_now.ephemeral and "Registration for **senior** (Winter 2030) is closed." in closed_now.content
    late = await harness.submit_modal("sideline:registration:form:0", form("Old Al", "2008-01-01"),
                                      as_=harness.member("Al"))
    assert late.ephemeral and "isn't open" in late.content
    assert await rows(harness) == []


async def test_division_suggestions_are_the_open_ones_or_every_one_a_window_may_be_opened_for(
        harness: Harness, commissioner: Member) -> None:
    async def suggested(command: str, typed: str = "", as_: Member = commissioner) -> list[str]:
        reply = await harness.autocomplete(command, focused="division", as_=as_, division=typed)
        return [c["value"] for c in reply.autocomplete_choices]

    assert await suggested("/registration close") == ["junior"]  # only junior is open
    assert await suggested("/register", as_=harness.member("Parent Pat")) == ["junior"]
    assert sorted(await suggested("/registration open")) == ["junior", "senior"]
    assert await suggested("/registration exception", "SEN") == ["senior"]
    assert await suggested("/registration list", "nothing like it") == []
