"""The ✅/❌ lines of /lineup, /whoisin and the captains' alert through the real command tree: the same
checks everywhere, and never "met" for a team with too few players."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FixedClock
from bot.run.app import create_bot
from storage.db import create_engine
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

G1_START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)  # Hawks vs Owls, 19:00 in Toronto
ALICE = 500_000_000_000_000_001  # Hawks captain
STATUS_LABELS = ("On the court", "Goalie", "Women/non-binary on the court", "Minimum to start")


async def check_in(h: Harness, league: SampleLeague, names: tuple[str, ...]) -> None:
    for name in names:
        reply = await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
        assert "**in**" in reply.content, reply.content


async def lineup_lines(h: Harness, league: SampleLeague) -> list[str]:
    """/lineup's status fields, read back as the lines they show ("✅ Goalie: Gus Lee")."""
    reply = await h.slash("/lineup", as_=league.captain("Hawks"), game="G1")
    assert reply.ephemeral
    (embed,) = reply.first.embeds
    shown = []
    for f in embed["fields"]:
        if f["name"] in STATUS_LABELS:
            mark, detail = f["value"].split(" ", 1)
            shown.append(f"{mark} {f['name']}: {detail}")
    return shown


async def whoisin_lines(h: Harness, league: SampleLeague) -> list[str]:
    reply = await h.slash("/whoisin", as_=league.player("Carl Diaz"), game="G1")
    assert reply.ephemeral
    (embed,) = reply.first.embeds
    (field,) = [f for f in embed["fields"] if f["name"] == "Lineup"]
    return str(field["value"]).split("\n")


COED_CASES = {
    "empty": ((), [
        "❌ On the court: **0** of 5 skaters — short by 5 (2 for the women/non-binary rule, 3 for too few skaters)",
        "❌ Goalie: nobody",
        "❌ Women/non-binary on the court: 0 checked in, 2 required — plays short",
        "❌ Minimum to start: not enough to start — nobody eligible is in",
    ], [
        "❌ Skaters: 0 for 5 spots — 5 short",
        "❌ Goalie: nobody",
        "❌ Minimum to start: not enough to start — nobody eligible is in",
    ]),
    "short": (("Alice Hart", "Bea Quinn", "Carl Diaz", "Gus Lee"), [
        "❌ On the court: **3** of 5 skaters + goalie — short by 2 (2 for too few skaters)",
        "✅ Goalie: Gus Lee",
        "✅ Women/non-binary on the court: 2 checked in, 2 required",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ], [
        "❌ Skaters: 3 for 5 spots — 2 short",
        "✅ Goalie: Gus Lee",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ]),
    "legal": (("Alice Hart", "Bea Quinn", "Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee"), [
        "✅ On the court: **5** of 5 skaters + goalie",
        "✅ Goalie: Gus Lee",
        "✅ Women/non-binary on the court: 2 checked in, 2 required",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ], [
        "✅ Skaters: 5 for 5 spots",
        "✅ Goalie: Gus Lee",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ]),
    "short of women": (("Alice Hart", "Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole", "Gus Lee"), [
        "❌ On the court: **4** of 5 skaters + goalie — short by 1 (1 for the women/non-binary rule)",
        "✅ Goalie: Gus Lee",
        "❌ Women/non-binary on the court: 1 checked in, 2 required — plays short",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ], [
        "✅ Skaters: 5 for 5 spots",  # a player's /whoisin counts nobody's gender
        "✅ Goalie: Gus Lee",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ]),
}


@pytest.mark.parametrize("case", list(COED_CASES))
async def test_coed_lineup_and_whoisin_lines(harness: Harness, league: SampleLeague, case: str) -> None:
    names, captains, team = COED_CASES[case]
    await check_in(harness, league, names)
    assert await lineup_lines(harness, league) == captains
    assert await whoisin_lines(harness, league) == team


@pytest.fixture
async def youth(db_url: str, clock: FixedClock) -> AsyncIterator[tuple[Harness, SampleLeague]]:
    """The sample teams under the youth preset: Hawks play in the senior division (5 skaters + goalie)."""
    settings = make_settings(league_config("youth", preset="youth-ball-hockey"))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)).start()
    try:
        yield h, await SampleLeague(h).load()
    finally:
        await h.close()


@pytest.mark.parametrize(("names", "captains", "team"), [
    (("Carl Diaz", "Dan Roy", "Eli Park", "Gus Lee"), [
        "❌ On the court: **3** of 5 skaters + goalie — short by 2 (2 for too few skaters)",
        "✅ Goalie: Gus Lee",
        "✅ Minimum to start: met — needs 3 skaters and a goalie; has 3 skaters and a goalie",
    ], [
        "❌ Skaters: 3 for 5 spots — 2 short",
        "✅ Goalie: Gus Lee",
        "✅ Minimum to start: met — needs 3 skaters and a goalie; has 3 skaters and a goalie",
    ]),
    # Youth 2.4 "a minimum of 3 players and one goalie to start the game": three players and no goalie is
    # not enough to start, whoever would stand in goal.
    (("Carl Diaz", "Dan Roy", "Eli Park"), [
        "❌ On the court: **2** of 5 skaters + goalie — short by 3 (3 for too few skaters)",
        "❌ Goalie: no goalie checked in (one is needed to start); Carl Diaz would stand in",
        "❌ Minimum to start: not enough to start — needs 3 skaters and a goalie; has 3 skaters and no goalie "
        "(Youth 2.4)",
    ], [
        "❌ Skaters: 2 for 5 spots — 3 short",
        "❌ Goalie: no goalie checked in (one is needed to start); Carl Diaz would stand in",
        "❌ Minimum to start: not enough to start — needs 3 skaters and a goalie; has 3 skaters and no goalie "
        "(Youth 2.4)",
    ]),
], ids=["with-goalie", "three-players-no-goalie"])
async def test_youth_lineup_and_whoisin_lines(youth: tuple[Harness, SampleLeague], names: tuple[str, ...],
                                             captains: list[str], team: list[str]) -> None:
    h, league = youth
    await check_in(h, league, names)
    assert await lineup_lines(h, league) == captains
    assert await whoisin_lines(h, league) == team


async def alerts_at(h: Harness, clock: FixedClock, when: datetime) -> list[str]:
    clock.set(when)
    await h.bot.courier.deliver_due()
    return [c.content for c in h.discord.dms(ALICE) if "Hawks lineup for" in c.content]


async def test_the_captains_alert_shows_the_same_lines_as_lineup(league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    clock.set(G1_START - timedelta(hours=30))
    await check_in(h, league, ("Carl Diaz", "Dan Roy", "Eli Park", "Finn Cole"))  # four men, no goalie
    alerts = await alerts_at(h, clock, G1_START - timedelta(hours=24))
    expected = [
        "❌ On the court: **3** of 5 skaters + goalie — short by 2 (2 for the women/non-binary rule)",
        "⚠️ Goalie: no goalie checked in; Carl Diaz would stand in",
        "❌ Women/non-binary on the court: 0 checked in, 2 required — plays short",
        "✅ Minimum to start: none in the rulebook (a short team plays short)",
    ]
    assert len(alerts) == 2  # no goalie; short of women/non-binary
    for alert in alerts:
        body = alert.split("\n")
        assert body[0].startswith("⚠️ Hawks lineup for ") and body[-1] == "Check it with `/lineup`."
        assert body[2:-1] == expected, alert
    assert await lineup_lines(h, league) == expected


async def test_the_captains_alert_for_nobody_checked_in_says_the_team_cannot_start(
        league: SampleLeague, clock: FixedClock) -> None:
    h = league.h
    alerts = await alerts_at(h, clock, G1_START - timedelta(hours=24))
    assert any("Nobody eligible checked in: the team can't take the court. (Co-ed rules: Game Structure)" in a
               for a in alerts), alerts
    assert all("❌ Minimum to start: not enough to start — nobody eligible is in" in a.split("\n") for a in alerts)
    assert not any("✅ Minimum to start" in a for a in alerts)
