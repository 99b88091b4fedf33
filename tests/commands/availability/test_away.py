"""/away through the real command tree: a range covers every game of the player's team in it, now and
after games are added or moved; no reminder reaches them for those games; captains see it in /whoisin."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from bot.clock import FixedClock
from storage.models import AwayRange
from tests.conftest import SampleLeague
from tests.harness import Harness

HAWKS_CHANNEL = 600_000_000_000_000_001
BEA = 500_000_000_000_000_002
G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)  # 2030-01-11 19:00 Toronto
G5_START = datetime(2030, 1, 26, 0, 0, tzinfo=UTC)  # 2030-01-25 19:00 Toronto


def mentions(text: str) -> set[int]:
    return {int(m) for m in re.findall(r"<@!?(\d+)>", text)}


async def away_rows(h: Harness) -> int:
    async with h.bot.sessions() as s:
        return await s.scalar(select(func.count()).select_from(AwayRange)) or 0


async def test_away_over_a_range_covers_every_game_in_it_and_no_reminder_reaches_the_player(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    bea = league.player("Bea Quinn")
    reply = await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-25"}, note="Ski trip")
    assert reply.ephemeral and "Saved: you're away **2030-01-11 to 2030-01-25**" in reply.text, reply.text
    assert "out (away) for 3 games" in reply.text and all(f"`{g}`" in reply.text for g in ("G1", "G3", "G5"))
    # Every reminder of every Hawks game in the range, at every offset, up to each start.
    for hours in range(50, -1, -1):
        clock.set(G1_START - timedelta(hours=hours))
        await harness.bot.courier.deliver_due()
    for start in (G1_START + timedelta(days=7), G5_START):
        for hours in range(50, -1, -1):
            clock.set(start - timedelta(hours=hours))
            await harness.bot.courier.deliver_due()
    posts = harness.discord.channel_messages(HAWKS_CHANNEL)
    # 3 games x (the team's message at the first reminder time, the last call at the last): the team still hears
    assert len(posts) == 6, [p.content[:60] for p in posts]
    assert all(BEA not in mentions(p.content) for p in posts)
    assert all(BEA not in (p.allowed_mentions or {}).get("users", []) for p in posts)
    assert all(500_000_000_000_000_003 in mentions(p.content) for p in posts), "the others are still pinged"
    assert harness.discord.dms(BEA) == []


async def test_a_game_added_or_moved_into_the_range_later_is_covered(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    bea, kay = league.player("Bea Quinn"), league.commissioner()
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-14", "to": "2030-01-16"})
    moved = await harness.slash("/game move", as_=kay, game="G5", starts_at="2030-01-15 19:00")
    assert "Moved `G5`" in moved.text, moved.text
    added = await harness.slash("/game add", as_=kay, home="Owls", away="Hawks", starts_at="2030-01-16 20:00",
                                code="G8")
    assert "Added `G8`" in added.text, added.text
    listed = await harness.slash("/away list", as_=bea)
    assert "`G5`" in listed.text and "`G8`" in listed.text and "`G1`" not in listed.text, listed.text
    for code in ("G5", "G8"):
        who = await harness.slash("/whoisin", as_=league.captain("Hawks"), game=code)
        assert "Out (away) (1)\nBea Quinn" in who.text, who.text
    clock.set(datetime(2030, 1, 16, 12, 0, tzinfo=UTC))  # G5's 1d and G8's reminders are due
    await harness.bot.courier.deliver_due()
    posts = [p for p in harness.discord.channel_messages(HAWKS_CHANNEL) if "`G5`" in p.content or "`G8`" in p.content]
    assert posts and all(BEA not in mentions(p.content) for p in posts)
    # Moved out of the range again: Bea is waited for, and pinged, like everyone.
    await harness.slash("/game move", as_=kay, game="G5", starts_at="2030-01-25 19:00")
    who = await harness.slash("/whoisin", as_=league.captain("Hawks"), game="G5")
    assert "Out (away)" not in who.text and "Bea Quinn" in who.text


async def test_captains_see_the_note_players_see_only_that_they_are_away(
        harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/checkin", as_=bea, status="in", game="G1")  # before the range: away wins
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-11"}, note="Wedding")
    captain = await harness.slash("/whoisin", as_=league.captain("Hawks"), game="G1")
    assert "🧳 Out (away) (1)\nBea Quinn “Wedding”" in captain.text, captain.text
    assert "✅ In (0)" in captain.text
    player = await harness.slash("/whoisin", as_=league.player("Carl Diaz"), game="G1")
    assert "Out (away) (1)\nBea Quinn" in player.text and "Wedding" not in player.text
    lineup = await harness.slash("/lineup", as_=league.captain("Hawks"), game="G1")
    assert "out (away): Bea Quinn" in lineup.text and "In (0)" in lineup.text


async def test_an_answer_given_after_the_range_wins_for_that_game(harness: Harness, league: SampleLeague,
                                                                  clock: FixedClock) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-18"})
    clock.set(clock.now() + timedelta(minutes=5))
    await harness.slash("/checkin", as_=bea, status="in", game="G3")
    lineup = await harness.slash("/lineup", as_=league.captain("Hawks"), game="G3")
    assert "In (1)" in lineup.text and "Bea Quinn (W/NB)" in lineup.text, lineup.text
    who = await harness.slash("/whoisin", as_=bea, game="G1")
    assert "Out (away) (1)\nBea Quinn" in who.text


async def test_away_clear_brings_the_games_back(harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-12"})
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-25", "to": "2030-01-25"})
    one = await harness.slash("/away clear", as_=bea, day="2030-01-25")
    assert "Cleared 1 away range. 1 game now read as before" in one.text, one.text
    assert await away_rows(harness) == 1
    rest = await harness.slash("/away clear", as_=bea)
    assert "Cleared 1 away range" in rest.text
    listed = await harness.slash("/away list", as_=bea)
    assert "not marked away" in listed.text
    who = await harness.slash("/whoisin", as_=bea, game="G1")
    assert "Out (away)" not in who.text and "No reply (8)" in who.text
    again = await harness.slash("/away clear", as_=bea)
    assert "Nothing to clear" in again.text


async def test_reversed_past_and_malformed_ranges_are_refused_and_nothing_is_saved(
        harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    for first, last, why in (("2030-01-18", "2030-01-11", "before it starts"),
                             ("2029-12-01", "2030-01-04", "already over"),
                             ("next week", "2030-01-11", "must be a date like"),
                             ("2030-02-30", "2030-03-01", "is not a real date")):
        reply = await harness.slash("/away set", as_=bea, **{"from": first, "to": last})
        assert reply.ephemeral and why in reply.text, reply.text
    assert await away_rows(harness) == 0


async def test_someone_on_no_roster_is_told_so(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/away set", as_=league.stranger(), **{"from": "2030-01-11", "to": "2030-01-12"})
    assert reply.ephemeral and "You're not on a team" in reply.text
    assert await away_rows(harness) == 0


async def test_the_players_schedule_reads_out_away_for_the_games_in_the_range(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/checkin", as_=bea, status="in", game="G1")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-18"})
    clock.set(clock.now() + timedelta(minutes=1))
    await harness.slash("/checkin", as_=bea, status="maybe", game="G3")  # since: this one stands
    schedule = await harness.slash("/schedule", as_=bea)
    lines = {code: line for line in schedule.text.splitlines() for code in ("G1", "G3", "G5") if f"`{code}`" in line}
    assert "you: 🧳 out (away)" in lines["G1"], schedule.text
    assert "you: ❔ maybe" in lines["G3"] and "you: no reply yet" in lines["G5"]


async def test_going_away_the_day_before_a_game_one_was_in_for_alerts_the_captains(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    bea = league.player("Bea Quinn")
    clock.set(G1_START - timedelta(hours=30))
    await harness.slash("/checkin", as_=bea, status="in", game="G1")
    await harness.slash("/checkin", as_=bea, status="in", game="G3")
    clock.set(G1_START - timedelta(hours=20))
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-11", "to": "2030-01-18"})
    await harness.bot.courier.deliver_due()
    alerts = [d.content for d in harness.discord.dms(500_000_000_000_000_001)]
    assert len([a for a in alerts if "Bea Quinn dropped out" in a]) == 1, alerts  # G1 only: G3 is a week off
    assert "`G1`" in next(a for a in alerts if "Bea Quinn dropped out" in a)
