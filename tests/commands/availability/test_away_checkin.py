"""A check-in for a game inside the player's /away range, through the real command tree: it counts for that
game, says so, and /whoisin, /lineup, the shootout and the captains' alert all read it the same way, even
when it comes in the same clock tick as the range."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from bot.clock import FixedClock
from storage.models import AwayRange, CheckIn, Game, Player, ShootoutOrder
from tests.conftest import GUILD, SampleLeague
from tests.harness import Harness

G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)  # Hawks vs Owls, 2030-01-11 19:00 Toronto
ALICE = 500_000_000_000_000_001  # Hawks captain
OVER_AWAY = "You're marked away on this game's day (/away): for this game this answer counts instead"


async def bea_answers(h: Harness) -> dict[str, tuple[str, datetime]]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(Game.code, CheckIn.status, CheckIn.updated_at)
                               .join(Game, CheckIn.game_id == Game.id).join(Player, CheckIn.player_id == Player.id)
                               .where(Player.name == "Bea Quinn"))
        return {r.code: (r.status, r.updated_at) for r in rows}


async def range_set_at(h: Harness) -> datetime:
    async with h.bot.sessions() as s:
        created = await s.scalar(select(AwayRange.created_at))
        assert created is not None
        return created


async def test_a_checkin_in_the_same_tick_as_the_range_counts_for_that_game_and_says_so(
        harness: Harness, league: SampleLeague) -> None:
    bea, captain = league.player("Bea Quinn"), league.captain("Hawks")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-25"}, note="Ski trip")
    reply = await harness.slash("/checkin", as_=bea, status="in", game="G3")  # the clock has not moved
    assert reply.ephemeral and reply.text.startswith("You're **in** ✅ for Owls vs Hawks"), reply.text
    assert OVER_AWAY in reply.text and "your other games in that range stay away" in reply.text
    stored = await bea_answers(harness)
    assert stored.keys() == {"G3"} and stored["G3"][0] == "in" and stored["G3"][1] > await range_set_at(harness)

    who = await harness.slash("/whoisin", as_=captain, game="G3")
    assert "✅ In (1)\nBea Quinn" in who.text and "Out (away)" not in who.text, who.text
    lineup = await harness.slash("/lineup", as_=captain, game="G3")
    assert "In (1)" in lineup.text and "Bea Quinn (W/NB)" in lineup.text and "out (away)" not in lineup.text
    # The range still covers her other games.
    other = await harness.slash("/whoisin", as_=captain, game="G5")
    assert "🧳 Out (away) (1)\nBea Quinn “Ski trip”" in other.text, other.text


async def test_the_checkin_buttons_override_the_same_way(harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-25"})
    league_id = harness.bot.league_ids[GUILD]
    reply = await harness.press(f"sideline:checkin@{league_id}:G5:maybe", as_=bea)
    assert reply.ephemeral and "a **maybe** ❔" in reply.text and OVER_AWAY in reply.text, reply.text
    assert (await bea_answers(harness))["G5"][0] == "maybe"
    who = await harness.slash("/whoisin", as_=bea, game="G5")
    assert "❔ Maybe (1)\nBea Quinn" in who.text and "Out (away)" not in who.text, who.text


async def test_an_answer_outside_any_range_says_nothing_of_away(harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-12"})
    reply = await harness.slash("/checkin", as_=bea, status="in", game="G5")
    assert reply.text.startswith("You're **in** ✅") and "away" not in reply.text, reply.text


async def test_a_range_set_after_the_override_wins_again(harness: Harness, league: SampleLeague,
                                                        clock: FixedClock) -> None:
    bea, captain = league.player("Bea Quinn"), league.captain("Hawks")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-25"})
    await harness.slash("/checkin", as_=bea, status="in", game="G3")
    clock.set(clock.now() + timedelta(minutes=1))
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-18", "to": "2030-01-18"}, note="Flu")
    who = await harness.slash("/whoisin", as_=captain, game="G3")
    assert "🧳 Out (away) (1)\nBea Quinn “Flu”" in who.text and "✅ In (0)" in who.text, who.text


async def test_the_shootout_and_the_captains_alert_read_the_override(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    clock.set(G1_START - timedelta(hours=30))
    for name in ("Alice Hart", "Carl Diaz", "Dan Roy", "Eli Park"):
        await harness.slash("/checkin", as_=league.player(name), status="in", game="G1")
    bea = league.player("Bea Quinn")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-11"})
    reply = await harness.slash("/checkin", as_=bea, status="in", game="G1")
    assert OVER_AWAY in reply.text, reply.text

    order = await harness.slash("/shootout submit", as_=league.captain("Hawks"), game="G1",
                                shooters="Alice Hart, Bea Quinn, Carl Diaz")
    assert order.content.startswith("Saved Hawks's shootout order for `G1`"), order.content
    async with harness.bot.sessions() as s:
        assert (await s.scalar(select(ShootoutOrder.id))) is not None

    clock.set(G1_START - timedelta(hours=24))
    await harness.bot.courier.deliver_due()
    alerts = [c.content for c in harness.discord.dms(ALICE) if "Hawks lineup for" in c.content]
    lineup = await harness.slash("/lineup", as_=league.captain("Hawks"), game="G1")
    women = next(f["value"] for f in lineup.first.embeds[0]["fields"] if f["name"] == "Women/non-binary on the court")
    assert women == "✅ 2 checked in, 2 required", women  # Alice and Bea
    # One alert (no goalie), none for women/non-binary: the alert counts Bea as /lineup does.
    (alert,) = alerts
    assert "✅ Women/non-binary on the court: 2 checked in, 2 required" in alert.split("\n"), alert
