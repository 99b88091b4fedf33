"""/cleanup missed and /cleanup withdraw through the real command tree (youth 2.15), with what follows on
the team's next game: its /lineup and its /penalties log.

The sample schedule (tests/data/games.csv), in Toronto: G1 Hawks v Owls and G2 Bears v Wolves on Friday
11 January at 19:00 and 20:00 (G2 is the week's last game); G3 Owls v Hawks and G4 Wolves v Bears on the 18th;
G5 Hawks v Bears and G6 Owls v Wolves on the 25th. Bears' captains are Walt Orr and Xena Pope.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import MissedCleanup
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

YOUTH = make_settings(league_config(preset="youth-ball-hockey"))
AFTER_G2 = datetime(2030, 1, 12, 3, 0, tzinfo=UTC)  # G2 started at 01:00 UTC
AFTER_G6 = datetime(2030, 1, 26, 3, 0, tzinfo=UTC)
WALT, XENA = 500_000_000_000_000_021, 500_000_000_000_000_022
BEARS_MINOR = "Bears starts with a 2-minute bench minor: did not clean up after G2 (Youth 2.15)"


@pytest.fixture
def settings() -> Settings:
    return YOUTH


@pytest.fixture(autouse=True)
def after_g2(harness: Harness) -> None:
    harness.bot.clock.set(AFTER_G2)  # type: ignore[attr-defined]


async def records(h: Harness) -> list[tuple[str, str, int, bool, int | None, str]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(MissedCleanup).order_by(MissedCleanup.id))).unique().all()
        return [(r.game.code, r.team.name, r.minutes, r.withdrawn_at is not None, r.withdrawn_by, r.withdrawal_note)
                for r in rows]


async def test_a_referee_records_it_and_bears_next_game_starts_with_the_bench_minor(
        harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    assert reply.ephemeral and reply.first.allowed_mentions == {"parse": []}
    assert "Recorded (#1): Bears didn't clean up after G2" in reply.content
    assert "a 2-minute bench minor at the start of their next game, G4 (Wolves vs Bears" in reply.content
    assert "(Youth 2.15)" in reply.content and "Their captains are told." in reply.content
    assert await records(harness) == [("G2", "Bears", 2, False, None, "")]
    await harness.bot.courier.deliver_due()
    for captain in (WALT, XENA):
        (dm,) = harness.discord.dms(captain)
        assert "Bears didn't clear the arena after G2" in dm.content and "G4 (Wolves vs Bears" in dm.content
        assert "2-minute bench minor (Youth 2.15)" in dm.content
    assert harness.discord.channel_messages() == [], "a bench minor is not announced"

    lineup = await harness.slash("/lineup", as_=league.captain("Bears"), game="G4")
    assert "Penalty to serve at the start" in lineup.text and BEARS_MINOR in lineup.text
    wolves = await harness.slash("/lineup", as_=league.captain("Wolves"), game="G4")
    assert "Wolves lineup" in wolves.text and "Penalty to serve at the start" not in wolves.text
    both = await harness.slash("/lineup", as_=league.commissioner(), game="G4")
    assert both.text.count("did not clean up after G2") == 1

    log = await harness.slash("/penalties", as_=league.referee(), game="G4")
    assert log.ephemeral and "Served at the start of the game" in log.text and BEARS_MINOR in log.text
    assert "Penalty minutes\nWolves 0 · Bears 2" in log.text
    after = await harness.slash("/penalties", as_=league.referee(), game="G2")
    assert "Didn't clean up after this game" in after.text
    assert "Bears: a 2-minute bench minor at the start of G4" in after.text
    assert "Penalty minutes\nBears 0 · Wolves 0" in after.text, "counted once, in the game it is served in"
    assert "Served at the start" not in after.text


async def test_it_adds_to_the_bench_minors_called_in_the_game(harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    harness.bot.clock.set(datetime(2030, 1, 19, 2, 0, tzinfo=UTC))  # G4 has started
    call = await harness.slash("/penalty", as_=league.referee(), game="G4", player=league.player("Walt Orr"),
                               infraction="bench_minor_heckling", minute=10)
    assert "Penalty #1" in call.content
    log = await harness.slash("/penalties", as_=league.commissioner(), game="G4")
    assert BEARS_MINOR in log.text and "Walt Orr (Bears): Bench minor: heckling" in log.text
    assert "Wolves 0 · Bears 4" in log.text


async def test_recording_it_again_says_it_is_on_record_and_changes_nothing(
        harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    await harness.bot.courier.deliver_due()
    again = await harness.slash("/cleanup missed", as_=league.commissioner(), game="G2", team="bears")
    assert again.ephemeral and "Already on record (#1): Bears didn't clean up after G2" in again.content
    assert "Nothing changed." in again.content
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.dms(WALT)) == 1
    assert await records(harness) == [("G2", "Bears", 2, False, None, "")]


async def test_refusals_name_the_rule_and_store_nothing(harness: Harness, league: SampleLeague) -> None:
    ref = league.referee()
    not_last = await harness.slash("/cleanup missed", as_=ref, game="G1", team="Hawks")
    assert ("G1 isn't the last game of its week (G2 follows it), so Hawks weren't scheduled to clear the arena "
            "after it") in not_last.content and "(Youth 2.15)" in not_last.content
    not_playing = await harness.slash("/cleanup missed", as_=ref, game="G2", team="Hawks")
    assert "Hawks didn't play game G2 (Bears vs Wolves)" in not_playing.content
    not_played = await harness.slash("/cleanup missed", as_=ref, game="G4", team="Bears")
    assert "Game G4 hasn't been played yet" in not_played.content
    unknown = await harness.slash("/cleanup missed", as_=ref, game="G99", team="Bears")
    player = await harness.slash("/cleanup missed", as_=league.player("Omar Fox"), game="G2", team="Bears")
    assert "Only a referee or commissioner" in player.content
    captain = await harness.slash("/cleanup missed", as_=league.captain("Wolves"), game="G2", team="Bears")
    assert "Only a referee or commissioner" in captain.content
    for reply in (not_last, not_playing, not_played, unknown, player, captain):
        assert reply.ephemeral
    assert await records(harness) == []


async def test_a_cancelled_game_has_no_cleanup(harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/game cancel", as_=league.commissioner(), game="G2")
    reply = await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    assert reply.ephemeral and "Game G2 was cancelled" in reply.content
    assert await records(harness) == []


@pytest.mark.parametrize("settings", [make_settings(league_config())], ids=["coed"])
async def test_a_league_without_cleanup_duty_says_which_setting(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    assert reply.ephemeral
    assert ("This league gives no bench minor for missing cleanup duty: the setting "
            "cleanup_missed_bench_minor_minutes is not set") in reply.content
    assert await records(harness) == []


@pytest.mark.parametrize("settings", [make_settings(league_config(
    preset="youth-ball-hockey", rules={"cleanup_missed_bench_minor_minutes": 4}))], ids=["four-minutes"])
async def test_the_minutes_are_the_leagues_setting(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    assert "a 4-minute bench minor" in reply.content
    lineup = await harness.slash("/lineup", as_=league.captain("Bears"), game="G4")
    assert "Bears starts with a 4-minute bench minor: did not clean up after G2 (Youth 2.15)" in lineup.text


async def test_the_bench_minor_follows_the_schedule(harness: Harness, league: SampleLeague) -> None:
    """Worked out when shown: G4 moved after G5 makes G5 Bears' next game."""
    await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    moved = await harness.slash("/game move", as_=league.commissioner(), game="G4", starts_at="2030-01-26 19:00")
    assert "Moved `G4`" in moved.content
    g5 = await harness.slash("/lineup", as_=league.captain("Bears"), game="G5")
    assert BEARS_MINOR in g5.text
    g4 = await harness.slash("/lineup", as_=league.captain("Bears"), game="G4")
    assert "Penalty to serve at the start" not in g4.text
    log = await harness.slash("/penalties", as_=league.referee(), game="G2")
    assert "at the start of G5" in log.text


async def test_with_no_later_game_it_waits_for_the_next_one_scheduled_a_playoff_too(
        harness: Harness, league: SampleLeague) -> None:
    harness.bot.clock.set(AFTER_G6)
    reply = await harness.slash("/cleanup missed", as_=league.referee(), game="G6", team="Wolves")
    assert "at the start of their next game once one is scheduled (none is yet)" in reply.content
    added = await harness.slash("/game add", as_=league.commissioner(), home="Hawks", away="Wolves",
                                starts_at="2030-02-01 19:00", kind="playoff", code="P1")
    assert "Added `P1`" in added.content
    lineup = await harness.slash("/lineup", as_=league.captain("Wolves"), game="P1")
    assert "Wolves starts with a 2-minute bench minor: did not clean up after G6 (Youth 2.15)" in lineup.text
    log = await harness.slash("/penalties", as_=league.referee(), game="P1")
    assert "Wolves starts with a 2-minute bench minor" in log.text and "Hawks 0 · Wolves 2" in log.text


async def test_a_commissioner_withdraws_a_mistaken_record(harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    refused = await harness.slash("/cleanup withdraw", as_=league.referee(), game="G2", team="Bears")
    assert refused.ephemeral and "Only a commissioner" in refused.content
    kay = league.commissioner()
    reply = await harness.slash("/cleanup withdraw", as_=kay, game="G2", team="Bears",
                                note="Bears stacked the nets; the referee mixed up the teams")
    assert reply.ephemeral and "Withdrawn (#1): the record that Bears didn't clean up after G2" in reply.content
    assert "G4 no longer starts with it" in reply.content
    assert await records(harness) == [("G2", "Bears", 2, True, kay.id,
                                       "Bears stacked the nets; the referee mixed up the teams")]
    await harness.bot.courier.deliver_due()
    last = harness.discord.dms(WALT)[-1]
    assert "is withdrawn by a commissioner" in last.content and "referee mixed up the teams" in last.content
    lineup = await harness.slash("/lineup", as_=league.captain("Bears"), game="G4")
    assert "Penalty to serve at the start" not in lineup.text
    log = await harness.slash("/penalties", as_=league.referee(), game="G4")
    assert "Served at the start" not in log.text and "Wolves 0 · Bears 0" in log.text
    again = await harness.slash("/cleanup withdraw", as_=kay, game="G2", team="Bears")
    assert again.ephemeral and "there's nothing to withdraw" in again.content
    # A withdrawn record stays as the audit; recording it anew is a new record.
    anew = await harness.slash("/cleanup missed", as_=league.referee(), game="G2", team="Bears")
    assert "Recorded (#2)" in anew.content
    assert [r[3] for r in await records(harness)] == [True, False]


async def test_the_penalty_log_is_for_officials(harness: Harness, league: SampleLeague) -> None:
    for who in (league.player("Omar Fox"), league.captain("Bears")):
        reply = await harness.slash("/penalties", as_=who, game="G2")
        assert reply.ephemeral and "Only a referee or commissioner" in reply.content
    empty = await harness.slash("/penalties", as_=league.referee(), game="G1")
    assert "Calls (0)\nNone recorded." in empty.text and "Hawks 0 · Owls 0" in empty.text
