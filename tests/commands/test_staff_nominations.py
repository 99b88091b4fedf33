"""/team nominate, /team nominations, /team confirm and /team decline through the real command tree (youth 1.3,
1.5): members put themselves forward, commissioners confirm or decline, a junior coach must be 16 at the
reference date, and the draft waits for each team's coach or captain.

The sample league under the youth preset: Hawks and Owls are senior, Bears and Wolves junior; each team has
a captain from the import (whose age isn't on file). No season yet: ages count at December 31, 2030.
"""

from __future__ import annotations

import json
from datetime import date

import pytest
from sqlalchemy import delete, select

from bot.config.settings import Settings
from bot.services.staff.nominations import team_blockers
from storage.models import AssistantCoach, League, StaffNomination, Team, TeamCaptain
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

CAT = 500_000_000_000_000_031  # Cat Rhee, Wolves's captain from the import
DON = 500_000_000_000_000_032  # Don Pike, plays for Wolves
TOO_YOUNG = "2015-01-01"  # 15 on 2030-12-31
OLD_ENOUGH = "2014-12-31"  # 16 on 2030-12-31


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config("youth", preset="youth-ball-hockey"))


async def nominations(h: Harness) -> list[tuple[str, str, int, str | None, str]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(StaffNomination).order_by(StaffNomination.id))).all()
        return [(r.post, r.name, r.discord_id, r.born.isoformat() if r.born else None, r.status) for r in rows]


async def captains(h: Harness, team_id: int) -> list[int]:
    async with h.bot.sessions() as s:
        return list((await s.scalars(select(TeamCaptain.discord_id).where(TeamCaptain.team_id == team_id)
                                     .order_by(TeamCaptain.discord_id))).all())


async def team_id(h: Harness, name: str) -> int:
    async with h.bot.sessions() as s:
        found = await s.scalar(select(Team.id).where(Team.name == name))
        assert found is not None
        return found


def only_privately(h: Harness, secret: str, *, shown: bool = True) -> None:
    """Every message the bot sent: the date of birth only ever in an ephemeral interaction reply (and in
    one at least when ``shown``)."""
    carrying = [c for c in h.discord.calls if c.body is not None and secret in json.dumps(c.body)]
    assert bool(carrying) is shown, carrying
    for call in carrying:
        assert call.is_interaction_response and call.ephemeral, call


async def test_a_member_is_put_forward_and_a_commissioner_confirms_them_as_a_junior_coach(
        harness: Harness, league: SampleLeague) -> None:
    cat, kay = league.player("Cat Rhee"), league.commissioner()
    wolves = await team_id(harness, "Wolves")
    await _drop_captains(harness, wolves)
    before = await harness.slash("/team nominations", as_=kay)
    assert before.ephemeral and "Wolves has no confirmed coach." in before.content
    assert "ages as of December 31, 2030" in before.content

    asked = await harness.slash("/team nominate", as_=cat, post="coach", team="Wolves", born=OLD_ENOUGH)
    assert asked.ephemeral and asked.first.allowed_mentions == {"parse": []}
    assert "Cat Rhee is put forward as Wolves's coach (nomination #1)" in asked.content
    again = await harness.slash("/team nominate", as_=cat, post="coach", team="Wolves", born=OLD_ENOUGH)
    assert "was already put forward as Wolves's coach (nomination #1)" in again.content
    assert await nominations(harness) == [("coach", "Cat Rhee", CAT, OLD_ENOUGH, "pending")]

    listed = await harness.slash("/team nominations", as_=kay)
    assert listed.ephemeral
    assert f"#1 · Cat Rhee for Wolves's coach, born {OLD_ENOUGH} (age 16)" in listed.content

    confirmed = await harness.slash("/team confirm", as_=kay, nomination=1, note="Welcome aboard")
    assert confirmed.ephemeral and "Confirmed: Cat Rhee is now Wolves's coach." in confirmed.content
    assert "<@&1001> role so they can use captain commands" in confirmed.content
    assert await captains(harness, wolves) == [CAT]
    assert (await nominations(harness))[0][-1] == "confirmed"
    await harness.bot.courier.deliver_due()
    (dm,) = [c for c in harness.discord.dms(CAT) if "Wolves" in c.content]
    assert "the commissioners confirmed you as Wolves's coach" in dm.content and "Welcome aboard" in dm.content

    after = await harness.slash("/team nominations", as_=kay)
    assert "Wolves" not in after.content.split("**Before the draft**")[1]
    twice = await harness.slash("/team confirm", as_=kay, nomination=1)
    assert twice.ephemeral and "Nomination #1 (Cat Rhee) was already confirmed." in twice.content
    only_privately(harness, OLD_ENOUGH)


async def test_a_15_year_old_is_refused_as_a_junior_coach_and_accepted_at_16(
        harness: Harness, league: SampleLeague) -> None:
    don = league.player("Don Pike")
    no_date = await harness.slash("/team nominate", as_=don, post="coach", team="Wolves")
    assert no_date.ephemeral and "must be 16 or older" in no_date.content and "date of birth" in no_date.content
    young = await harness.slash("/team nominate", as_=don, post="coach", team="Wolves", born=TOO_YOUNG)
    assert young.ephemeral
    assert "Don Pike can't be put forward as Wolves's coach: a coach in the junior division must be 16 or older on " \
           "December 31, 2030, and they'll be 15." in young.content
    assert TOO_YOUNG not in young.content
    garbled = await harness.slash("/team nominate", as_=don, post="coach", team="Wolves", born="31/12/2014")
    assert garbled.ephemeral and "year-month-day" in garbled.content
    assert await nominations(harness) == []

    # A senior team's coach has no age to meet; a 15-year-old may captain (the rules set no captain's age).
    senior = await harness.slash("/team nominate", as_=don, post="coach", team="Hawks")
    assert "put forward as Hawks's coach" in senior.content
    old_enough = await harness.slash("/team nominate", as_=don, post="coach", team="Wolves", born=OLD_ENOUGH)
    assert "put forward as Wolves's coach (nomination #2)" in old_enough.content

    # The commissioners lower nothing by waiting: the age is checked again when confirming.
    async with harness.bot.sessions.begin() as s:
        row = await s.get(StaffNomination, 2)
        assert row is not None
        row.born = row.born.replace(year=2015, month=1, day=1)  # type: ignore[union-attr]
    refused = await harness.slash("/team confirm", as_=league.commissioner(), nomination=2)
    assert refused.ephemeral and "can't be confirmed as Wolves's coach" in refused.content
    assert DON not in await captains(harness, await team_id(harness, "Wolves"))
    assert (await nominations(harness))[1][-1] == "pending"
    only_privately(harness, OLD_ENOUGH, shown=False)
    only_privately(harness, TOO_YOUNG, shown=False)


async def test_a_declined_nominee_hears_privately_and_nothing_changes(harness: Harness, league: SampleLeague) -> None:
    bea, kay = league.player("Bea Quinn"), league.commissioner()
    # A date of birth given where no age applies (a captain) is not kept.
    await harness.slash("/team nominate", as_=bea, post="captain", team="Hawks", born="2000-01-01")
    declined = await harness.slash("/team decline", as_=kay, nomination=1, note="Alice stays on")
    assert declined.ephemeral and "Declined: Bea Quinn as Hawks's captain." in declined.content
    assert await captains(harness, await team_id(harness, "Hawks")) == [500_000_000_000_000_001]
    assert await nominations(harness) == [("captain", "Bea Quinn", 500_000_000_000_000_002, None, "declined")]
    await harness.bot.courier.deliver_due()
    (dm,) = harness.discord.dms(500_000_000_000_000_002)
    assert "declined your nomination as Hawks's captain" in dm.content and "Alice stays on" in dm.content
    missing = await harness.slash("/team confirm", as_=kay, nomination=99)
    assert missing.ephemeral and "There's no nomination #99" in missing.content


async def test_an_assistant_coach_nomination_names_the_assistant_coach(harness: Harness, league: SampleLeague) -> None:
    kay = league.commissioner()
    carl = league.player("Carl Diaz")
    by_kay = await harness.slash("/team nominate", as_=kay, post="assistant", team="Hawks", member=carl)
    assert "Carl Diaz is put forward as Hawks's assistant coach" in by_kay.content
    confirmed = await harness.slash("/team confirm", as_=kay, nomination=1)
    assert "Carl Diaz is now Hawks's assistant coach" in confirmed.content and "<@&" not in confirmed.content
    async with harness.bot.sessions() as s:
        assert [(r.discord_id, r.name) for r in (await s.scalars(select(AssistantCoach))).all()] == [
            (500_000_000_000_000_003, "Carl Diaz")]
    already = await harness.slash("/team nominate", as_=carl, post="assistant", team="Hawks")
    assert already.ephemeral and "Carl Diaz is already Hawks's assistant coach." in already.content


async def test_only_commissioners_confirm_list_or_put_someone_else_forward(
        harness: Harness, league: SampleLeague) -> None:
    don = league.player("Don Pike")
    await harness.slash("/team nominate", as_=don, post="coach", team="Wolves", born=OLD_ENOUGH)
    for who in (don, league.captain("Wolves"), league.referee()):
        for command in ("/team confirm", "/team decline"):
            refused = await harness.slash(command, as_=who, nomination=1)
            assert refused.ephemeral and "Only a commissioner of Youth League can do that." in refused.content
        listed = await harness.slash("/team nominations", as_=who)
        assert listed.ephemeral and OLD_ENOUGH not in listed.content and "Only a commissioner" in listed.content
    other = await harness.slash("/team nominate", as_=league.player("Eve Sato"), post="captain", team="Wolves",
                                member=don)
    assert other.ephemeral and "only a commissioner can put someone else forward" in other.content
    unknown = await harness.slash("/team nominate", as_=don, post="captain", team="Lions")
    assert unknown.ephemeral and "There's no team called “Lions”" in unknown.content
    assert await nominations(harness) == [("coach", "Don Pike", DON, OLD_ENOUGH, "pending")]
    assert DON not in await captains(harness, await team_id(harness, "Wolves"))


async def test_the_draft_waits_for_each_teams_coach_or_captain(harness: Harness, league: SampleLeague) -> None:
    kay = league.commissioner()
    await _drop_captains(harness, await team_id(harness, "Hawks"))
    listed = await harness.slash("/team nominations", as_=kay)
    blockers = listed.content.split("**Before the draft**")[1]
    assert "Hawks has no confirmed captain." in blockers and "Owls" not in blockers  # Owls' captain stands
    # The imported junior captains' ages aren't on file, so they don't count as coaches yet.
    assert "Bears has no confirmed coach: its captain's age isn't on file" in blockers
    assert "Wolves has no confirmed coach: its captain's age isn't on file" in blockers
    assert "Ready for the draft" not in blockers

    for team, member, post, born in (("Hawks", league.player("Bea Quinn"), "captain", None),
                                     ("Bears", league.player("Walt Orr"), "coach", "2000-05-05"),
                                     ("Wolves", league.player("Cat Rhee"), "coach", OLD_ENOUGH)):
        asked = await harness.slash("/team nominate", as_=member, post=post, team=team, born=born)
        assert "is put forward" in asked.content, asked.content
    for number in (1, 2, 3):
        done = await harness.slash("/team confirm", as_=kay, nomination=number)
        assert "Confirmed:" in done.content, done.content
    ready = await harness.slash("/team nominations", as_=kay)
    assert "✅ Ready for the draft" in ready.content and "⚠️" not in ready.content
    async with harness.bot.sessions() as s:  # what the draft asks before it starts
        league_id = await s.scalar(select(League.id))
        assert league_id is not None
        assert await team_blockers(s, league_id, harness.bot.settings.leagues[0].rules, date(2030, 12, 31)) == []


async def _drop_captains(h: Harness, team: int) -> None:
    async with h.bot.sessions.begin() as s:
        await s.execute(delete(TeamCaptain).where(TeamCaptain.team_id == team))
