"""/penalty through the real command tree: referees record calls, the preset's escalations follow."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import Deadline, Penalty, Suspension
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Harness

ANNOUNCEMENTS = CHANNELS["announcements"]
ADMIN = 3009
AFTER_G1_STARTED = datetime(2030, 1, 12, 1, 0, tzinfo=UTC)  # G1: Sat 11 Jan 19:00 Toronto


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey", channels={**CHANNELS, "admin": ADMIN}))


@pytest.fixture(autouse=True)
def game_one_started(harness: Harness) -> None:
    harness.bot.clock.set(AFTER_G1_STARTED)  # type: ignore[attr-defined]


async def penalties(h: Harness) -> list[tuple[str, str, bool, bool, int]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(Penalty).order_by(Penalty.id))).unique().all()
        return [(p.player.name, p.infraction_key, p.game_misconduct, p.ejected, p.suspension_games) for p in rows]


async def suspensions(h: Harness) -> list[tuple[str, int, str, bool]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(Suspension).order_by(Suspension.id))).unique().all()
        return [(r.player.name, r.games, r.status, r.pending_review) for r in rows]


async def test_third_minor_in_a_game_is_a_game_misconduct_and_an_ejection(
        harness: Harness, league: SampleLeague) -> None:
    alice = league.player("Alice Hart")
    ref = league.referee()
    for call, minute in (("tripping", 3), ("hooking", 12)):
        reply = await harness.slash("/penalty", as_=ref, game="G1", player=alice, infraction=call, minute=minute)
        assert reply.ephemeral and "game misconduct" not in reply.content
    reply = await harness.slash("/penalty", as_=ref, game="G1", player=alice, infraction="slashing", minute=20)
    assert reply.ephemeral
    assert "third minor: game misconduct, ejected" in reply.content
    assert "Youth 3.11 (3)" in reply.content
    assert reply.first.allowed_mentions == {"parse": []}
    assert await penalties(harness) == [
        ("Alice Hart", "tripping", False, False, 0),
        ("Alice Hart", "hooking", False, False, 0),
        ("Alice Hart", "slashing", True, True, 0),
    ]


async def test_minors_of_another_player_or_game_do_not_count(harness: Harness, league: SampleLeague) -> None:
    ref = league.referee()
    for name in ("Alice Hart", "Alice Hart", "Bea Quinn"):
        await harness.slash("/penalty", as_=ref, game="G1", player=league.player(name), infraction="tripping")
    assert [p[2] for p in await penalties(harness)] == [False, False, False]


async def test_a_repeated_warning_becomes_its_minor(harness: Harness, league: SampleLeague) -> None:
    ref, omar = league.referee(), league.player("Omar Fox")
    first = await harness.slash("/penalty", as_=ref, game="G1", player=omar, infraction="corralling_ball")
    assert "warning" in first.content
    second = await harness.slash("/penalty", as_=ref, game="G1", player=omar, infraction="corralling_ball")
    assert "minor instead of a warning" in second.content
    assert [p[1] for p in await penalties(harness)] == ["corralling_ball", "delay_of_game_corralling"]


async def test_a_major_in_the_last_five_minutes_suspends_for_a_game(harness: Harness, league: SampleLeague) -> None:
    alice = league.player("Alice Hart")
    reply = await harness.slash("/penalty", as_=league.referee(), game="G1", player=alice, infraction="boarding",
                                minute=42)  # youth: 3 x 15 minutes
    assert "automatic 1-game suspension" in reply.content
    assert "Suspension #" in reply.content and "they may appeal until" in reply.content
    # Youth 3.1/3.9: a major is also reported for a possible longer suspension, so the commissioners review it.
    assert await suspensions(harness) == [("Alice Hart", 1, "active", True)]
    await harness.bot.courier.deliver_due()
    (dm,) = harness.discord.dms(alice.id)
    assert "suspended for 1 game" in dm.content and "/appeal file suspension:" in dm.content
    assert "boarding" in dm.content.casefold()
    (announced,) = harness.discord.channel_messages(ANNOUNCEMENTS)
    assert f"<@{alice.id}>" in announced.content and "boarding" not in announced.content.casefold()
    assert announced.allowed_mentions == {"parse": [], "users": [alice.id]}
    async with harness.bot.sessions() as s:
        window = await s.scalar(select(Deadline).where(Deadline.kind == "appeal_window"))
        assert window is not None and window.audience_id == alice.id and window.ref.endswith(":appeal-window")


async def test_a_suspension_longer_than_a_referee_may_give_waits_for_review(
        harness: Harness, league: SampleLeague) -> None:
    omar = league.player("Omar Fox")
    reply = await harness.slash("/penalty", as_=league.referee(), game="G1", player=omar,
                                infraction="referee_abuse_physical")
    assert "pending the commissioners' review (15 asked)" in reply.content
    # Youth 1.12: held at the referee's one game until a commissioner reviews the 15 (3.11 (4)).
    assert await suspensions(harness) == [("Omar Fox", 1, "active", True)]
    await harness.bot.courier.deliver_due()
    # (the admin channel also hears that G1 has no officials: youth 2.2)
    (note,) = [c for c in harness.discord.channel_messages(ADMIN) if "For review" in c.content]
    assert "Omar Fox" in note.content
    (announced,) = harness.discord.channel_messages(ANNOUNCEMENTS)
    assert "abuse" not in announced.content.casefold(), "the reason is a private detail"


async def test_a_player_cannot_record_penalties_and_nothing_changes(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/penalty", as_=league.player("Bea Quinn"), game="G1",
                                player=league.player("Omar Fox"), infraction="tripping")
    assert reply.ephemeral and "Only a referee or commissioner" in reply.content
    assert await penalties(harness) == []


async def test_commissioners_may_record_penalties(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/penalty", as_=league.commissioner(), game="G1",
                                player=league.player("Omar Fox"), infraction="tripping")
    assert "Penalty #" in reply.content and "minor, 2 minutes" in reply.content


async def test_refusals_name_the_problem(harness: Harness, league: SampleLeague) -> None:
    ref = league.referee()
    not_started = await harness.slash("/penalty", as_=ref, game="G3", player=league.player("Omar Fox"),
                                      infraction="tripping")
    assert "hasn't started" in not_started.content
    not_playing = await harness.slash("/penalty", as_=ref, game="G1", player=league.player("Walt Orr"),
                                      infraction="tripping")
    assert "isn't on the roster of Hawks or Owls" in not_playing.content
    unknown = await harness.slash("/penalty", as_=ref, game="G1", player=league.player("Omar Fox"),
                                  infraction="offside")
    assert "pick one from the suggestions" in unknown.content
    assert all(r.ephemeral for r in (not_started, not_playing, unknown))
    assert await penalties(harness) == []


async def test_infraction_autocomplete_offers_the_presets_list(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.autocomplete("/penalty", focused="infraction", as_=league.referee(), infraction="slash")
    choices = reply.autocomplete_choices
    assert {c["value"] for c in choices} == {"slashing", "slashing_flagrant"}
    assert all(len(c["name"]) <= 100 for c in choices)
    everything = await harness.autocomplete("/penalty", focused="infraction", as_=league.referee(), infraction="")
    assert len(everything.autocomplete_choices) == 25


async def test_game_autocomplete_offers_games_that_started(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.autocomplete("/penalty", focused="game", as_=league.referee(), game="")
    assert [c["value"] for c in reply.autocomplete_choices] == ["G2", "G1"]


INDOOR = make_settings(league_config(preset="indoor-soccer"))
COED = make_settings(league_config())


@pytest.mark.parametrize("settings", [INDOOR], ids=["indoor"])
async def test_an_indoor_ejection_tells_the_referee_no_substitute_may_be_made(
        harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/penalty", as_=league.referee(), game="G1", player=league.player("Omar Fox"),
                                infraction="ejection")
    assert ("Substitutions may not be made for ejected players: the team plays one short for the rest of the "
            "game — Indoor soccer rules: Substitutions") in reply.content, reply.content


@pytest.mark.parametrize("settings", [COED], ids=["coed"])
async def test_a_coed_prohibited_action_can_be_recorded(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/penalty", as_=league.referee(), game="G1", player=league.player("Omar Fox"),
                                infraction="checking")
    assert "Penalty #" in reply.content and "Co-ed rules: Prohibited actions (2)" in reply.content, reply.content
    choices = await harness.autocomplete("/penalty", focused="infraction", as_=league.referee(), infraction="spear")
    assert [c["value"] for c in choices.autocomplete_choices] == ["spearing"]
