"""Suspension lengths within the rulebook's range, through the command tree: co-ed "Severe offenses (1 game –
5 game suspensions)" holds for /suspend and /suspension review; the youth commissioners may go beyond a
stated length (1.12, 1.13), and the answer says by which rule."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from bot.clock import FixedClock
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import Suspension
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

AFTER_G1 = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)
RANGE = "A suspension for slashing is 1 to 5 games (Co-ed rules: Major offenses, severe offenses (1)), not 8"


async def lengths(h: Harness) -> list[tuple[int, bool, str]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(Suspension).order_by(Suspension.id))).unique().all()
        return [(r.games, r.pending_review, r.status) for r in rows]


async def slashing_called(h: Harness, league: SampleLeague) -> None:
    """A co-ed referee calls slashing: 1 game recorded, the length for the league to set (reported)."""
    h.bot.clock.set(AFTER_G1)  # type: ignore[attr-defined]
    called = await h.slash("/penalty", as_=league.referee(), game="G1", player=league.player("Alice Hart"),
                           infraction="slashing", minute=12)
    assert "suspension of 1-5 games, length set by the league" in called.content, called.content
    assert await lengths(h) == [(1, True, "active")]


async def test_coed_review_of_a_severe_offence_is_refused_outside_1_to_5_games(harness: Harness,
                                                                                league: SampleLeague) -> None:
    await slashing_called(harness, league)
    eight = await harness.slash("/suspension review", as_=league.commissioner(), player=league.player("Alice Hart"),
                                action="set-games", games=8)
    assert eight.ephemeral
    assert eight.content == (f"{RANGE}, and this league's rulebook doesn't let the commissioners go beyond it. "
                             "Nothing changed.")
    assert await lengths(harness) == [(1, True, "active")]
    five = await harness.slash("/suspension review", as_=league.commissioner(), player=league.player("Alice Hart"),
                               action="set-games", games=5)
    assert five.ephemeral and "set to 5 games on review" in five.content and "outside" not in five.content
    assert await lengths(harness) == [(5, False, "active")]


async def test_coed_suspend_keeps_to_the_range_of_the_infraction_named_or_replaced(harness: Harness,
                                                                                    league: SampleLeague) -> None:
    commissioner, alice = league.commissioner(), league.player("Alice Hart")
    await slashing_called(harness, league)
    named = await harness.slash("/suspend", as_=commissioner, player=alice, games=8, reason="Slashing in G1",
                                infraction="slashing", add=True)
    assert named.ephemeral and named.content.startswith(RANGE), named.content
    replaced = await harness.slash("/suspend", as_=commissioner, player=alice, games=8, reason="Slashing in G1",
                                   replace=True)  # the referee's call it replaces was slashing
    assert replaced.ephemeral and replaced.content.startswith(RANGE), replaced.content
    assert await lengths(harness) == [(1, True, "active")]
    unknown = await harness.slash("/suspend", as_=commissioner, player=alice, games=2, reason="x",
                                  infraction="offside", add=True)
    assert "isn't in this league's list of penalties" in unknown.content
    ok = await harness.slash("/suspend", as_=commissioner, player=alice, games=4, reason="Slashing in G1",
                             replace=True)
    assert ok.ephemeral and ok.content.startswith("Suspension #2 recorded") and "outside" not in ok.content
    # An incident no infraction of the list names: no range to keep.
    incident = await harness.slash("/suspend", as_=commissioner, player=league.player("Bea Quinn"), games=8,
                                   reason="Fight in the parking lot")
    assert incident.content.startswith("Suspension #3 recorded"), incident.content


async def test_infraction_autocomplete_offers_the_leagues_list(harness: Harness, league: SampleLeague) -> None:
    found = await harness.autocomplete("/suspend", focused="infraction", as_=league.commissioner(),
                                       player=league.player("Alice Hart"), games=2, reason="x", infraction="slash")
    assert [c["value"] for c in found.autocomplete_choices] == ["slashing"]


async def test_youth_commissioners_go_beyond_the_15_games_and_the_answer_names_the_rule(
        db_url: str, clock: FixedClock) -> None:
    settings = make_settings(league_config(key="youth", preset="youth-ball-hockey"))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)).start()
    try:
        league = await SampleLeague(h).load()
        h.bot.clock.set(AFTER_G1)  # type: ignore[attr-defined]
        called = await h.slash("/penalty", as_=league.referee(), game="G1", player=league.player("Alice Hart"),
                               infraction="referee_abuse_physical", minute=12)
        assert "held at 1 game" in called.content, called.content
        done = await h.slash("/suspension review", as_=league.commissioner(), player=league.player("Alice Hart"),
                             action="set-games", games=20)
        assert done.ephemeral and "set to 20 games on review" in done.content
        assert done.content.endswith("That is outside the 15 games the rulebook gives physical referee abuse "
                                     "(Youth 3.11 (4)); the commissioners may set it (Youth 1.12, 1.13).")
        assert await lengths(h) == [(20, False, "active")]
    finally:
        await h.close()
