"""/suspension review through the command tree: a referee's suspension over the referee's limit is held
at it pending the commissioners' review (youth 1.12), then finalized and never shortened (1.20.2)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from bot.config.settings import Settings
from storage.models import OutboxMessage, SetupChange, Suspension, SuspensionReview
from tests.conftest import CHANNELS, ROLES, SampleLeague, league_config, make_settings
from tests.harness import Harness

AFTER_G1 = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)
ADMIN = 3999
YOUTH_CHANNELS = {**CHANNELS, "admin": ADMIN}


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey", channels=YOUTH_CHANNELS))


async def state(h: Harness) -> list[tuple[int, int, bool, str]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(Suspension).order_by(Suspension.id))).unique().all()
        return [(r.games, r.games_issued, r.pending_review, r.status) for r in rows]


async def referee_suspends(h: Harness, league: SampleLeague, name: str, games: int) -> str:
    h.bot.clock.set(AFTER_G1)  # type: ignore[attr-defined]
    reply = await h.slash("/penalty", as_=league.referee(), game="G1", player=league.player(name),
                          infraction="roughing", minute=10, suspend=games)
    assert reply.ephemeral and "Penalty #" in reply.content, reply.content
    return reply.content


async def test_a_referees_three_games_are_held_at_one_then_set_to_three_and_never_shortened(
        harness: Harness, league: SampleLeague) -> None:
    said = await referee_suspends(harness, league, "Alice Hart", 3)
    assert "held at 1 game" in said and "Youth 1.12" in said and "(3 asked)" in said
    assert await state(harness) == [(1, 1, True, "active")]
    listing = (await harness.slash("/suspensions", as_=league.commissioner())).text
    assert "1 of 1 game left" in listing and "pending the commissioners' review" in listing
    await harness.bot.courier.deliver_due()
    (notice,) = harness.discord.channel_messages(ADMIN)
    assert "For review" in notice.content and "(3 asked)" in notice.content and "/suspension review" in notice.content

    # Players, captains and referees can't review.
    for who in (league.player("Alice Hart"), league.captain("Hawks"), league.referee()):
        refused = await harness.slash("/suspension review", as_=who, player=league.player("Alice Hart"),
                                      action="set-games", games=1)
        assert refused.ephemeral and "Only a commissioner" in refused.content
    assert await state(harness) == [(1, 1, True, "active")]

    done = await harness.slash("/suspension review", as_=league.commissioner(), player=league.player("Alice Hart"),
                               action="set-games", games=3, note="Spoke with both captains")
    assert done.ephemeral and "set to 3 games on review" in done.content and "final" in done.content
    assert await state(harness) == [(3, 1, False, "active")]
    async with harness.bot.sessions() as s:
        (audit,) = (await s.scalars(select(SuspensionReview))).all()
    assert (audit.action, audit.games_before, audit.games_after, audit.note) == (
        "set-games", 1, 3, "Spoke with both captains")
    assert audit.decided_by == league.commissioner().id

    for action, games in (("set-games", 1), ("lift", None), ("confirm", None)):
        again = await harness.slash("/suspension review", as_=league.commissioner(),
                                    player=league.player("Alice Hart"), action=action, games=games)
        assert again.ephemeral and "only an appeal's decision can shorten it" in again.content, again.content
        assert "Youth 1.20.2" in again.content
    assert await state(harness) == [(3, 1, False, "active")]

    await harness.bot.courier.deliver_due()
    alice = league.player("Alice Hart")
    dms = [d.content for d in harness.discord.dms(alice.id)]
    assert any("reviewed by the commissioners" in d and "Spoke with both captains" in d for d in dms)
    announced = [m.content for m in harness.discord.channel_messages(CHANNELS["announcements"])]
    assert any("suspension #1 stands at 3 games" in m for m in announced)
    assert not any("Spoke with" in m or "Roughing" in m for m in announced), "the reason stays private"
    # Three games now: G3 and G5 still to sit out after G1's... G1 is the game it came from.
    assert "You can't check in for G5" in (await harness.slash("/checkin", as_=alice, status="in",
                                                                 game="G5")).content


async def test_lift_overturns_it_and_the_player_may_play(harness: Harness, league: SampleLeague) -> None:
    await referee_suspends(harness, league, "Alice Hart", 2)
    done = await harness.slash("/suspension review", as_=league.commissioner(), player=league.player("Alice Hart"),
                               action="lift")
    assert "lifted on review" in done.content
    assert await state(harness) == [(1, 1, False, "overturned")]
    checkin = await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in", game="G3")
    assert "can't" not in checkin.content


async def test_a_suspension_within_the_referees_limit_waits_for_no_review(
        harness: Harness, league: SampleLeague) -> None:
    said = await referee_suspends(harness, league, "Alice Hart", 1)
    assert "pending" not in said
    assert await state(harness) == [(1, 1, False, "active")]
    refused = await harness.slash("/suspension review", as_=league.commissioner(),
                                  player=league.player("Alice Hart"), action="confirm")
    assert refused.ephemeral and "no active suspension waiting" in refused.content
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(SuspensionReview)) == 0


async def test_set_games_needs_games(harness: Harness, league: SampleLeague) -> None:
    await referee_suspends(harness, league, "Alice Hart", 2)
    reply = await harness.slash("/suspension review", as_=league.commissioner(), player=league.player("Alice Hart"),
                                action="set-games")
    assert reply.ephemeral and "Give the number of games" in reply.content
    assert await state(harness) == [(1, 1, True, "active")]


NO_ADMIN = make_settings(league_config(preset="youth-ball-hockey"))
NO_CHANNELS = make_settings(league_config(preset="youth-ball-hockey", channels={}, roles=ROLES))


@pytest.mark.parametrize("settings", [NO_ADMIN], ids=["no-admin-channel"])
async def test_without_an_admin_channel_the_notice_goes_to_announcements_without_the_reason(
        harness: Harness, league: SampleLeague) -> None:
    await referee_suspends(harness, league, "Alice Hart", 3)
    await harness.bot.courier.deliver_due()
    notices = [m.content for m in harness.discord.channel_messages(CHANNELS["announcements"])
               if "waits for your review" in m.content]
    assert len(notices) == 1 and "Roughing" not in notices[0] and "roughing" not in notices[0]


@pytest.mark.parametrize("settings", [NO_CHANNELS], ids=["no-channels"])
async def test_without_any_channel_the_known_commissioners_get_a_dm(harness: Harness, league: SampleLeague) -> None:
    kay = league.commissioner()
    async with harness.bot.sessions.begin() as s:  # Kay changed a setting once: the bot knows her
        league_id = harness.bot.league_ids[next(iter(harness.bot.league_ids))]
        s.add(SetupChange(league_id=league_id, changed_by=kay.id, key="rules.x", old_value=None, new_value="1"))
    await referee_suspends(harness, league, "Alice Hart", 3)
    async with harness.bot.sessions() as s:
        keys = (await s.scalars(select(OutboxMessage.send_key).where(OutboxMessage.user_id == kay.id))).all()
    assert any(k.endswith(f":review:dm:{kay.id}") for k in keys)
    await harness.bot.courier.deliver_due()
    assert any("For review" in d.content and "Roughing" in d.content for d in harness.discord.dms(kay.id))
