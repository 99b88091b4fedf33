"""Youth 2.15's cleanup duty (cleanup_duty_last_game_each_week): the captains of each week's last game
are told, in that game's reminders, that their team clears the arena after it.

Week of 25 January 2030 (tests/data/games.csv): G5 Hawks v Bears at 19:00, G6 Owls v Wolves at 20:00.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FixedClock
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

YOUTH = make_settings(league_config(preset="youth-ball-hockey"))
G6_START = datetime(2030, 1, 26, 1, tzinfo=UTC)  # 20:00 on Friday 25 January in Toronto
HAWKS, OWLS = 600_000_000_000_000_001, 600_000_000_000_000_002
OWLS_CAPTAIN = 500_000_000_000_000_011


async def reminders_by_game(h: Harness, clock: FixedClock) -> dict[tuple[int, str], list]:
    for before in (48, 24, 2):  # the preset's reminders: two days, the day before, two hours before
        clock.set(G6_START - timedelta(hours=before))
        await h.bot.courier.deliver_due()
    found: dict[tuple[int, str], list] = {}
    for channel in (HAWKS, OWLS):
        for message in h.discord.channel_messages(channel):
            for code in ("G1", "G3", "G5", "G6"):
                if f"`{code}`" in message.content:
                    found.setdefault((channel, code), []).append(message)
    return found


@pytest.mark.parametrize("settings", [YOUTH])
async def test_the_captains_of_the_weeks_last_game_are_told_to_clean_up(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    found = await reminders_by_game(harness, clock)
    last = found[(OWLS, "G6")]
    assert len(last) == 2  # the team's message 2 days before (edited after), the last call 2 hours before
    assert (f"🧹 Cleanup duty: this is the week's last game. <@{OWLS_CAPTAIN}>: your team clears the arena "
            "after it (Youth 2.15).") in last[0].content
    assert OWLS_CAPTAIN in last[0].allowed_mentions["users"]
    assert last[1].content.startswith("⏰ Last call")
    # G5, an hour earlier the same evening, is not the week's last game.
    assert len(found[(HAWKS, "G5")]) == 2 and all("Cleanup" not in m.content for m in found[(HAWKS, "G5")])


async def test_a_league_without_cleanup_duty_says_nothing_of_it(harness: Harness, league: SampleLeague,
                                                                clock: FixedClock) -> None:
    found = await reminders_by_game(harness, clock)
    assert found[(OWLS, "G6")] and all("Cleanup" not in m.content for m in found[(OWLS, "G6")])


G1_START = datetime(2030, 1, 12, 0, tzinfo=UTC)  # 19:00 on Friday 11 January in Toronto: the day's first game
HAWKS_CAPTAIN = 500_000_000_000_000_001


@pytest.mark.parametrize("settings", [YOUTH])
async def test_the_days_first_game_sets_up_and_every_reminder_lists_the_equipment(
        harness: Harness, league: SampleLeague, clock: FixedClock) -> None:
    """Youth 2.1 (coaches and captains help set the arena up) and 1.17 (mandatory equipment)."""
    clock.set(G1_START - timedelta(hours=48))
    await harness.bot.courier.deliver_due()
    (g1,) = [m for m in harness.discord.channel_messages(HAWKS) if "`G1`" in m.content]
    assert (f"🛠️ Setup duty: this is the day's first game. <@{HAWKS_CAPTAIN}>: your team helps set the arena up "
            "before it (Youth 2.1, 3.7 (6)).") in g1.content
    assert ("🦺 Every player wears: eye protection, gloves that cover the entire hand, running shoes, hockey stick, "
            "shin pads (Youth 1.17).") in g1.content
    assert HAWKS_CAPTAIN in g1.allowed_mentions["users"]
    assert "Cleanup" not in g1.content, "G2 follows it that evening"


async def test_a_league_without_an_equipment_rule_lists_none(harness: Harness, league: SampleLeague,
                                                              clock: FixedClock) -> None:
    clock.set(G1_START - timedelta(hours=48))
    await harness.bot.courier.deliver_due()
    (g1,) = [m for m in harness.discord.channel_messages(HAWKS) if "`G1`" in m.content]
    assert "Every player wears" not in g1.content and "Setup duty" not in g1.content
