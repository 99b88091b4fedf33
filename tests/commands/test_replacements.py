"""/replace request, decide and pending through the real command tree (youth 1.16): a captain asks to replace
a long-term injured or absent player of their team, the answer says which of the rule's conditions hold, and
the commissioners approve (the player leaves the roster) or decline.

The youth league's season starts Monday 7 January 2030 (Toronto), so week 8 ends at local midnight starting
Monday 4 March. Hawks play G1 (11 January), G3 (18th) and G5 (25th) of the sample schedule
(tests/data/games.csv); Bea Quinn plays for Hawks, whose captain is Alice Hart.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import select

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import (
    Game,
    GameSheetEntry,
    Player,
    PlayerGuardian,
    Registration,
    RegistrationOffer,
    ReplacementRequest,
    RosterEntry,
)
from tests.conftest import (
    CHANNELS,
    OTHER_CHANNELS,
    OTHER_GUILD,
    OTHER_ROLES,
    SampleLeague,
    league_config,
    make_settings,
)
from tests.harness import Harness, Member
from tests.harness.fake_discord import Call

ADMIN = 3010
HAWKS_CAPTAIN = 500_000_000_000_000_001
HAWKS = ("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy")
WEEK_7 = datetime(2030, 2, 20, 17, 0, tzinfo=UTC)
WEEK_9 = datetime(2030, 3, 5, 17, 0, tzinfo=UTC)


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey", channels={**CHANNELS, "admin": ADMIN},
                                       rules={"replacement_season_dues_cents": 12000}))


async def start_season(h: Harness, league: SampleLeague) -> None:
    started = await h.slash("/season start", as_=league.commissioner(), name="Winter 2030",
                            first_day="2030-01-07", weeks=10)
    assert "Started" in started.content, started.content


async def play(h: Harness, code: str, hawks_on_sheet: tuple[str, ...]) -> None:
    """``code`` gets a result, with Hawks' sheet holding these players."""
    async with h.bot.sessions.begin() as s:
        game = await s.scalar(select(Game).where(Game.code == code))
        assert game is not None
        game.status = "final"
        hawks = game.home_team_id if game.home.name == "Hawks" else game.away_team_id
        for name in hawks_on_sheet:
            player = await s.scalar(select(Player).where(Player.name == name))
            assert player is not None
            s.add(GameSheetEntry(league_id=game.league_id, game_id=game.id, team_id=hawks, player_id=player.id,
                                 name=name, source="checkin"))


async def requests(h: Harness) -> list[tuple[str, str, bool, str, str, int | None, int | None, str]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(ReplacementRequest).order_by(ReplacementRequest.id))).all()
        return [(r.player_name, r.reason, r.conditions_met, r.status, r.replacement_name, r.refund_cents,
                 r.prorated_fee_cents, r.override_reason) for r in rows]


async def on_roster(h: Harness, name: str) -> bool:
    async with h.bot.sessions() as s:
        return await s.scalar(select(RosterEntry.id).join(Player, Player.id == RosterEntry.player_id)
                              .where(Player.name == name)) is not None


async def test_an_absence_of_all_3_first_games_meets_the_rule_and_2_of_3_does_not(
        harness: Harness, league: SampleLeague) -> None:
    await start_season(harness, league)
    await play(harness, "G1", ("Alice Hart", "Carl Diaz", "Dan Roy"))
    await play(harness, "G3", ("Alice Hart", "Carl Diaz"))
    await play(harness, "G5", ("Alice Hart", "Carl Diaz", "Dan Roy"))
    harness.bot.clock.set(datetime(2030, 1, 28, 17, tzinfo=UTC))  # type: ignore[attr-defined]  # week 4
    captain = league.captain("Hawks")

    three = await harness.slash("/replace request", as_=captain, player=league.player("Bea Quinn"),
                                reason="absence")
    assert three.ephemeral and three.first.allowed_mentions == {"parse": []}
    assert "Request #1 to replace Bea Quinn on Hawks (absence) meets the rule:" in three.content
    assert "✅ Played none of the team's first 3 games (G1, G3, G5). (Youth 1.16)" in three.content
    assert "❌ Absent from 3 of the team's first 8 games (G1, G3, G5), 3 played so far: 4 needed. (Youth 1.16)" \
        in three.content
    assert "✅ Asked in week 4: before the end of week 8" in three.content

    two = await harness.slash("/replace request", as_=captain, player=league.player("Dan Roy"), reason="absence")
    assert two.ephemeral and "Request #2 to replace Dan Roy on Hawks (absence) does NOT meet the rule:" in two.content
    assert "❌ Was on the sheet (or the sheet is missing) for 2 games of the team's first 3 (G1, G5)." in two.content
    assert "❌ Absent from 1 of the team's first 8 games (G3)" in two.content
    assert "They can still approve it in an emergency" in two.content
    assert await requests(harness) == [("Bea Quinn", "absence", True, "pending", "", None, None, ""),
                                       ("Dan Roy", "absence", False, "pending", "", None, None, "")]

    await harness.bot.courier.deliver_due()
    notices = harness.discord.channel_messages(ADMIN)
    assert len(notices) == 2 and "Bea Quinn (absence); request #1 meets the rule" in notices[0].content
    assert {c.channel_id for c in harness.discord.channel_messages()} == {ADMIN}, "nothing outside the admin channel"


async def test_an_injury_request_before_and_after_week_8_and_the_2_week_window(
        harness: Harness, league: SampleLeague) -> None:
    await start_season(harness, league)
    captain = league.captain("Hawks")
    harness.bot.clock.set(WEEK_7)  # type: ignore[attr-defined]
    before = await harness.slash("/replace request", as_=captain, player=league.player("Bea Quinn"),
                                 reason="injury", injured_on="2030-02-15")
    assert before.ephemeral and "(injury) meets the rule:" in before.content
    assert "✅ Asked 5 days after the injury was disclosed (2030-02-15): within the 14 days allowed. (Youth 1.16)" \
        in before.content
    assert "✅ Asked in week 7: before the end of week 8" in before.content

    late_window = await harness.slash("/replace request", as_=captain, player=league.player("Carl Diaz"),
                                      reason="injury", injured_on="2030-02-01")
    assert "does NOT meet the rule" in late_window.content
    assert "❌ Asked 19 days after the injury was disclosed (2030-02-01): more than the 14 days allowed. " \
           "(Youth 1.16)" in late_window.content

    harness.bot.clock.set(WEEK_9)  # type: ignore[attr-defined]
    after = await harness.slash("/replace request", as_=captain, player=league.player("Dan Roy"),
                                reason="injury", injured_on="2030-03-01")
    assert "Request #3 to replace Dan Roy on Hawks (injury) does NOT meet the rule:" in after.content
    assert "✅ Asked 4 days after the injury" in after.content
    assert "❌ Asked in week 9: after the end of week 8, the last week an injured player can be replaced. " \
           "(Youth 1.16)" in after.content
    assert [(r[0], r[2]) for r in await requests(harness)] == [("Bea Quinn", True), ("Carl Diaz", False),
                                                               ("Dan Roy", False)]


async def test_bad_input_is_refused_politely_and_nothing_is_recorded(harness: Harness, league: SampleLeague) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(WEEK_7)  # type: ignore[attr-defined]
    captain, bea = league.captain("Hawks"), league.player("Bea Quinn")
    no_date = await harness.slash("/replace request", as_=captain, player=bea, reason="injury")
    assert no_date.ephemeral and "give the day it was disclosed to you as YYYY-MM-DD" in no_date.content
    not_a_date = await harness.slash("/replace request", as_=captain, player=bea, reason="injury",
                                     injured_on="2030-02-31")
    assert not_a_date.ephemeral and "isn't a real date" in not_a_date.content
    future = await harness.slash("/replace request", as_=captain, player=bea, reason="injury",
                                 injured_on="2030-03-30")
    assert future.ephemeral and "in the future" in future.content
    stranger = await harness.slash("/replace request", as_=captain, player=league.stranger(), reason="absence")
    assert stranger.ephemeral and "isn't on a roster in this league" in stranger.content
    assert await requests(harness) == []


async def test_a_captain_cant_ask_for_another_teams_player_nor_a_player_for_a_teammate(
        harness: Harness, league: SampleLeague) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(WEEK_7)  # type: ignore[attr-defined]
    bea = league.player("Bea Quinn")
    owls = await harness.slash("/replace request", as_=league.captain("Owls"), player=bea, reason="injury",
                               injured_on="2030-02-15")
    assert owls.ephemeral and "Only Hawks's captain or a commissioner can do that." in owls.content
    teammate = await harness.slash("/replace request", as_=league.player("Carl Diaz"), player=bea, reason="absence")
    assert teammate.ephemeral and "Only Hawks's captain or a commissioner" in teammate.content
    assert await requests(harness) == []
    await harness.bot.courier.deliver_due()
    assert harness.discord.channel_messages() == []


async def test_commissioners_approve_an_injury_with_a_refund_and_the_replacements_prorated_fee(
        harness: Harness, league: SampleLeague) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(datetime(2030, 1, 15, 17, tzinfo=UTC))  # type: ignore[attr-defined]  # after G1
    asked = await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                                reason="injury", injured_on="2030-01-12")
    assert "Request #1" in asked.content and "meets the rule" in asked.content

    by_captain = await harness.slash("/replace decide", as_=league.captain("Hawks"), request=1, decision="approve",
                                     replacement="Sam Park")
    assert by_captain.ephemeral and "Only a commissioner" in by_captain.content
    assert await on_roster(harness, "Bea Quinn")
    no_name = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve")
    assert no_name.ephemeral and "Name the replacement player" in no_name.content
    bad_refund = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve",
                                     replacement="Sam Park", refund="forty")
    assert bad_refund.ephemeral and "isn't an amount" in bad_refund.content
    assert (await requests(harness))[0][3] == "pending"

    pending = await harness.slash("/replace pending", as_=league.commissioner())
    assert pending.ephemeral and "#1 · Hawks: replace Bea Quinn (injury) · meets the rule" in pending.content

    done = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve",
                               replacement="Sam Park", refund="40")
    assert done.ephemeral and done.first.allowed_mentions == {"parse": []}
    assert "Approved request #1: Sam Park replaces Bea Quinn on Hawks (injury, Youth 1.16). Bea Quinn is off " \
           "the roster." in done.content
    assert "Partial refund to Bea Quinn: 40.00." in done.content
    # Hawks' games this season: G1, G3, G5; two are left after 15 January: 120.00 x 2/3.
    g3 = int(datetime(2030, 1, 19, 0, tzinfo=UTC).timestamp())
    assert f"Sam Park's prorated fee: 80.00 (2 of 3 games left), due before their first game (<t:{g3}:F>)." \
        in done.content
    assert not await on_roster(harness, "Bea Quinn")
    assert await requests(harness) == [("Bea Quinn", "injury", True, "approved", "Sam Park", 4000, 8000, "")]
    again = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="decline")
    assert again.ephemeral and "already approved" in again.content
    await harness.bot.courier.deliver_due()
    (dm,) = harness.discord.dms(HAWKS_CAPTAIN)
    assert "approved request #1: Sam Park replaces Bea Quinn on Hawks" in dm.content


async def test_a_failed_request_is_approved_only_as_an_emergency_with_a_reason_and_absences_get_no_refund(
        harness: Harness, league: SampleLeague) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(WEEK_9)  # type: ignore[attr-defined]
    await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Carl Diaz"),
                        reason="absence")
    boss = league.commissioner()
    refused = await harness.slash("/replace decide", as_=boss, request=1, decision="approve", replacement="Sam Park")
    assert refused.ephemeral and "Request #1 doesn't meet the rule (Youth 1.16)" in refused.content
    assert "give your reason in the override option" in refused.content
    refund = await harness.slash("/replace decide", as_=boss, request=1, decision="approve", replacement="Sam Park",
                                 override="He moved away", refund="10")
    assert refund.ephemeral and "No refund is given for an absence (Youth 1.16)" in refund.content
    assert await on_roster(harness, "Carl Diaz")

    done = await harness.slash("/replace decide", as_=boss, request=1, decision="approve", replacement="Sam Park",
                               override="He moved away")
    assert "Emergency approval past the rule's conditions: He moved away" in done.content
    assert "No refund for an absence (Youth 1.16)." in done.content
    assert "Sam Park's prorated fee: 0.00 (0 of 3 games left)." in done.content
    assert not await on_roster(harness, "Carl Diaz")
    assert await requests(harness) == [("Carl Diaz", "absence", False, "approved", "Sam Park", None, 0,
                                        "He moved away")]

    await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Dan Roy"),
                        reason="absence")
    declined = await harness.slash("/replace decide", as_=boss, request=2, decision="decline", note="Talk to him")
    assert declined.ephemeral
    assert "Declined request #2 to replace Dan Roy on Hawks. Note: Talk to him" in declined.content
    assert await on_roster(harness, "Dan Roy")
    assert (await requests(harness))[1][3] == "declined"


@pytest.mark.parametrize("settings", [make_settings(league_config(preset="youth-ball-hockey"))])
async def test_without_an_admin_channel_the_announcement_names_no_one(
        harness: Harness, league: SampleLeague, settings: Settings) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(WEEK_7)  # type: ignore[attr-defined]
    await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                        reason="injury", injured_on="2030-02-15")
    await harness.bot.courier.deliver_due()
    (notice,) = harness.discord.channel_messages()
    assert notice.channel_id == CHANNELS["announcements"]
    assert "a replacement request (#1) is waiting for your decision" in notice.content
    assert "Bea" not in notice.content and "injur" not in notice.content and "Hawks" not in notice.content
    assert date(2030, 2, 15).isoformat() not in notice.content


@pytest.mark.parametrize("settings", [make_settings(league_config())])
async def test_a_league_without_a_season_counts_weeks_from_its_first_game_with_league_settings(
        harness: Harness, league: SampleLeague, settings: Settings) -> None:
    """The co-ed rulebook is silent: youth 1.16's numbers are the league's settings, and said so."""
    harness.bot.clock.set(datetime(2030, 1, 20, 17, tzinfo=UTC))  # type: ignore[attr-defined]  # G1 was the 11th
    await play(harness, "G1", ("Alice Hart",))
    await play(harness, "G3", ("Alice Hart",))
    asked = await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                                reason="absence")
    assert "does NOT meet the rule" in asked.content
    assert "❌ Only 2 games of the team's first 3 have been played so far. (league setting)" in asked.content
    assert "✅ Asked in week 2: before the end of week 8" in asked.content
    again = await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                                reason="absence")
    assert again.ephemeral and "There's already a request (#1) to replace Bea Quinn waiting" in again.content
    assert len(await requests(harness)) == 1


@pytest.mark.parametrize("settings", [make_settings(
    league_config(preset="youth-ball-hockey"),
    league_config(key="other", guild=OTHER_GUILD, roles=OTHER_ROLES, channels=OTHER_CHANNELS))])
async def test_another_servers_commissioner_neither_sees_nor_decides_a_request(
        harness: Harness, league: SampleLeague, settings: Settings) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(WEEK_7)  # type: ignore[attr-defined]
    await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                        reason="injury", injured_on="2030-02-15")
    other = harness.member("Commish Otto", roles=("commissioner",), league=1)
    listed = await harness.slash("/replace pending", as_=other, guild_id=OTHER_GUILD)
    assert listed.ephemeral and listed.content == "No replacement requests are waiting."
    decided = await harness.slash("/replace decide", as_=other, guild_id=OTHER_GUILD, request=1,
                                  decision="approve", replacement="Sam Park")
    assert decided.ephemeral and "There's no replacement request #1 in this league" in decided.content
    assert [r[3] for r in await requests(harness)] == ["pending"]
    assert await on_roster(harness, "Bea Quinn")


WAITING_LIST = make_settings(league_config(preset="youth-ball-hockey", channels={**CHANNELS, "admin": ADMIN},
                                           rules={"replacement_season_dues_cents": 12000,
                                                  "division_capacity": {"senior": 1}, "offer_hours": 48}))


async def senior_waiting_list(h: Harness, league: SampleLeague, *names: str) -> list[Member]:
    """senior's registration open ($150) and full with Ann; ``names`` wait in order, each sent by a parent."""
    opened = await h.slash("/registration open", as_=league.commissioner(), division="senior", fee="150")
    assert opened.ephemeral and "Registration for **senior**" in opened.content, opened.content
    parents = []
    for name in ("Ann", *names):
        parent = h.member(f"Parent of {name}")
        sent = await h.submit_modal("sideline:registration:form:0", {
            "name": name, "date_of_birth": "2013-06-01", "positions": "", "guardian": "A parent", "notes": ""},
            as_=parent)
        assert sent.ephemeral, sent.content
        parents.append(parent)
    return parents[1:]


def offered_a_place(h: Harness, member: Member) -> list[Call]:
    return [c for c in h.discord.dms(member.id) if "a spot on Hawks (senior) for the rest of the season" in c.content]


@pytest.mark.parametrize("settings", [WAITING_LIST])
async def test_an_approved_replacement_is_offered_down_the_waiting_list_and_the_one_who_accepts_joins_the_team(
        harness: Harness, league: SampleLeague, settings: Settings, db_url: str) -> None:
    await start_season(harness, league)
    clock: FixedClock = harness.bot.clock  # type: ignore[assignment]
    clock.set(datetime(2030, 1, 15, 17, tzinfo=UTC))  # after G1: G3 and G5 are left
    bo, cy = await senior_waiting_list(harness, league, "Bo", "Cy")
    await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                        reason="injury", injured_on="2030-01-12")

    done = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve",
                               refund="40")
    assert done.ephemeral and done.first.allowed_mentions == {"parse": []}
    assert "Approved request #1: Bea Quinn's place on Hawks (injury, Youth 1.16) is offered to Bo, first on " \
           "senior's waiting list. Bea Quinn is off the roster." in done.content
    assert "The replacement's prorated fee (2 of 3 games left now) is recorded on their registration" in done.content
    assert not await on_roster(harness, "Bea Quinn")
    twice = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve")
    assert twice.ephemeral and "already approved" in twice.content
    await harness.bot.courier.deliver_due()
    (offer_bo,) = offered_a_place(harness, bo)
    assert [b["custom_id"] for row in offer_bo.components for b in row["components"]] == [
        "sideline:registration:offer:accept:1", "sideline:registration:offer:decline:1"]
    assert offered_a_place(harness, cy) == []
    (told,) = harness.discord.dms(HAWKS_CAPTAIN)
    assert "Bea Quinn's place on Hawks is offered to the first on the waiting list" in told.content

    declined = await harness.press("sideline:registration:offer:decline:1", as_=bo)
    assert declined.ephemeral and "goes to the next on the waiting list" in declined.content
    await harness.bot.courier.deliver_due()
    (offer_cy,) = offered_a_place(harness, cy)
    assert "offer:accept:2" in offer_cy.body["components"][0]["components"][0]["custom_id"]

    # A restart in between: nobody is offered the place again, and Cy's acceptance still counts.
    restarted = await Harness(create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock,
                                         run_scheduler=False)).start()
    try:
        await restarted.bot.courier.deliver_due()
        assert offered_a_place(restarted, bo) == [] and offered_a_place(restarted, cy) == []
        accepted = await restarted.press("sideline:registration:offer:accept:2", as_=cy)
        g3 = int(datetime(2030, 1, 19, 0, tzinfo=UTC).timestamp())
        assert accepted.ephemeral and accepted.content == (
            "✅ Cy joins Hawks (senior) for the rest of the season. The season's fee prorated by the games left "
            f"($80.00) is due before their first game, <t:{g3}:F>.")
        again = await restarted.press("sideline:registration:offer:accept:2", as_=cy)
        assert again.ephemeral and "already (accepted)" in again.content
        await restarted.bot.courier.deliver_due()
        assert offered_a_place(restarted, bo) == [] and offered_a_place(restarted, cy) == []
        (joined,) = restarted.discord.dms(HAWKS_CAPTAIN)
        assert "Cy, from the waiting list, accepted and joins Hawks, replacing Bea Quinn (request #1)." \
            in joined.content
    finally:
        await restarted.close()

    assert await on_roster(harness, "Cy") and not await on_roster(harness, "Bea Quinn")
    async with harness.bot.sessions() as s:
        cy_row = await s.scalar(select(Registration).where(Registration.name == "Cy"))
        made = [(o.registration_id, o.opening_kind, o.opening, o.answer) for o in (await s.scalars(
            select(RegistrationOffer).order_by(RegistrationOffer.id))).all()]
        cy_player = await s.scalar(select(Player).where(Player.name == "Cy"))
        guardians = (await s.scalars(select(PlayerGuardian.discord_id))).all()
    assert made == [(2, "replacement", 1, "declined"), (3, "replacement", 1, "accepted")]
    assert cy_row is not None and (cy_row.status, cy_row.fee_cents) == ("registered", 8000)
    assert cy_row.payment_due_at == datetime(2030, 1, 19, 0, tzinfo=UTC)  # G3, their first game
    assert cy_player is not None and cy_player.discord_id is None and list(guardians) == [cy.id]
    assert (await requests(harness))[0] == ("Bea Quinn", "injury", True, "approved", "Cy", 4000, 8000, "")


@pytest.mark.parametrize("settings", [WAITING_LIST])
async def test_with_no_one_waiting_the_commissioner_is_told_and_names_the_replacement(
        harness: Harness, league: SampleLeague, settings: Settings) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(datetime(2030, 1, 15, 17, tzinfo=UTC))  # type: ignore[attr-defined]
    await senior_waiting_list(harness, league)  # Ann only: nobody waits
    await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                        reason="injury", injured_on="2030-01-12")
    unnamed = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve")
    assert unnamed.ephemeral and unnamed.content == (
        "No one is on senior's waiting list, so the bot can't offer the place. Name the replacement player in the "
        "replacement option to approve. Nothing changed.")
    assert await on_roster(harness, "Bea Quinn") and (await requests(harness))[0][3] == "pending"
    named = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve",
                                replacement="Sam Park")
    assert "Approved request #1: Sam Park replaces Bea Quinn on Hawks (injury, Youth 1.16)." in named.content
    assert "No one is on senior's waiting list, so Sam Park is the one you named: add them to Hawks with " \
           "/roster add." in named.content
    async with harness.bot.sessions() as s:
        assert (await s.scalars(select(RegistrationOffer))).all() == []


@pytest.mark.parametrize("settings", [WAITING_LIST])
async def test_when_the_last_on_the_list_declines_the_commissioners_are_told_to_name_one(
        harness: Harness, league: SampleLeague, settings: Settings) -> None:
    await start_season(harness, league)
    harness.bot.clock.set(datetime(2030, 1, 15, 17, tzinfo=UTC))  # type: ignore[attr-defined]
    (bo,) = await senior_waiting_list(harness, league, "Bo")
    await harness.slash("/replace request", as_=league.captain("Hawks"), player=league.player("Bea Quinn"),
                        reason="injury", injured_on="2030-01-12")
    done = await harness.slash("/replace decide", as_=league.commissioner(), request=1, decision="approve",
                               replacement="Sam Park")
    assert "is offered to Bo, first on senior's waiting list" in done.content
    assert "The waiting list comes first, so Sam Park (whom you named) wasn't used." in done.content
    await harness.bot.courier.deliver_due()
    assert [c.content for c in harness.discord.channel_messages(ADMIN) if "No one else" in c.content] == []
    await harness.press("sideline:registration:offer:decline:1", as_=bo)
    await harness.bot.courier.deliver_due()
    (empty,) = [c for c in harness.discord.channel_messages(ADMIN) if "No one else" in c.content]
    assert "No one else is on senior's waiting list to take the place on Hawks (replacement request #1)" \
        in empty.content
    assert not await on_roster(harness, "Bo") and not await on_roster(harness, "Sam Park")
