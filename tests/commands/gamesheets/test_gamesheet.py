"""/gamesheet show|add|remove|confirm through the real command tree (youth 2.3: both teams fill out the game
sheet with their line-ups; it is what "played" counts).

G1 is Hawks v Owls, Friday 11 January 2030 at 19:00 Toronto (00:00 UTC on the 12th).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import GameSheet, GameSheetChange, GameSheetEntry
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

YOUTH = make_settings(league_config("youth", preset="youth-ball-hockey"))
STARTED = datetime(2030, 1, 12, 0, 30, tzinfo=UTC)
AFTER_G1 = datetime(2030, 1, 12, 2, 0, tzinfo=UTC)


@pytest.fixture
def settings() -> Settings:
    return YOUTH


async def check_in(h: Harness, league: SampleLeague, *names: str, status: str = "in", game: str = "G1") -> None:
    for name in names:
        reply = await h.slash("/checkin", as_=league.player(name), status=status, game=game)
        assert f"**{status}**" in reply.text, reply.text


def hawks_field(text: str) -> str:
    """The Hawks part of a /gamesheet answer."""
    start = text.index("Hawks (")
    end = text.find("Owls (", start)
    return text[start:end if end > 0 else None]


async def stored(h: Harness) -> list[tuple[str, str, bool]]:
    async with h.bot.sessions() as s:
        rows = (await s.scalars(select(GameSheetEntry).order_by(GameSheetEntry.name))).all()
    return [(r.name, r.source, r.removed_at is None) for r in rows]


async def test_check_ins_pre_fill_the_sheet_and_it_follows_them_until_confirmed(harness: Harness,
                                                                                 league: SampleLeague) -> None:
    await check_in(harness, league, "Alice Hart", "Carl Diaz", "Gus Lee")
    await check_in(harness, league, "Bea Quinn", status="maybe")
    shown = await harness.slash("/gamesheet show", as_=league.player("Omar Fox"), game="G1")
    assert shown.ephemeral
    hawks = hawks_field(shown.text)
    assert "Hawks (3)" in hawks and "• Alice Hart\n• Carl Diaz\n• Gus Lee (goalie)" in hawks, hawks
    assert "Bea Quinn" not in hawks and "Follows the team's check-ins until it is confirmed" in hawks
    assert "Owls (0)" in shown.text and "Nobody yet." in shown.text
    assert await stored(harness) == [], "reading a sheet writes nothing"

    await check_in(harness, league, "Carl Diaz", status="out")
    again = hawks_field((await harness.slash("/gamesheet show", as_=league.player("Omar Fox"), game="G1")).text)
    assert "Carl Diaz" not in again and "Hawks (2)" in again

    confirmed = await harness.slash("/gamesheet confirm", as_=league.captain("Hawks"), game="G1", team="Hawks")
    assert "Hawks's sheet for `G1` is confirmed: it no longer follows check-ins." in confirmed.text, confirmed.text
    assert "✔ Confirmed by Hawks Captain" in confirmed.text
    await check_in(harness, league, "Dan Roy")
    frozen = hawks_field((await harness.slash("/gamesheet show", as_=league.player("Omar Fox"), game="G1")).text)
    assert "Dan Roy" not in frozen and "Hawks (2)" in frozen
    assert await stored(harness) == [("Alice Hart", "checkin", True), ("Gus Lee", "checkin", True)]


async def test_a_captain_adds_and_removes_for_their_team_each_change_logged(harness: Harness,
                                                                            league: SampleLeague) -> None:
    await check_in(harness, league, "Alice Hart", "Gus Lee")
    captain = league.captain("Hawks")
    added = await harness.slash("/gamesheet add", as_=captain, game="G1", player=league.player("Dan Roy"), number=17)
    assert added.ephemeral and "Dan Roy is on Hawks's sheet for `G1`." in added.text, added.text
    assert "• #17 Dan Roy" in added.text and "+ Dan Roy · Hawks Captain" in added.text
    removed = await harness.slash("/gamesheet remove", as_=captain, game="G1", player="Alice Hart")
    assert "Alice Hart is off Hawks's sheet for `G1`" in removed.text, removed.text
    assert "− Alice Hart · Hawks Captain" in removed.text
    await check_in(harness, league, "Alice Hart", status="out")
    await check_in(harness, league, "Alice Hart")  # a later "in" doesn't undo a captain's removal
    sheet = hawks_field((await harness.slash("/gamesheet show", as_=league.player("Omar Fox"), game="G1")).text)
    assert "• Alice Hart" not in sheet and "Hawks (2)\n• #17 Dan Roy\n• Gus Lee (goalie)" in sheet, sheet
    async with harness.bot.sessions() as s:
        log = (await s.execute(select(GameSheetChange.action, GameSheetChange.name, GameSheetChange.changed_by)
                               .order_by(GameSheetChange.id))).all()
    assert [tuple(r) for r in log] == [("added", "Dan Roy", captain.id), ("removed", "Alice Hart", captain.id)]


async def test_who_may_change_a_sheet_and_when(harness: Harness, league: SampleLeague) -> None:
    dan = league.player("Dan Roy")
    player = await harness.slash("/gamesheet add", as_=league.player("Carl Diaz"), game="G1", player=dan)
    assert player.ephemeral and "Only a captain or referee or timekeeper or commissioner" in player.text, player.text
    other = await harness.slash("/gamesheet add", as_=league.captain("Bears"), game="G1", player=dan)
    assert "Only Hawks's captain, the officials or a commissioner can change Hawks's sheet." in other.text
    wrong_team = await harness.slash("/gamesheet add", as_=league.captain("Hawks"), game="G1",
                                     player=league.player("Omar Fox"))
    assert "Only Owls's captain, the officials or a commissioner can change Owls's sheet." in wrong_team.text
    not_rostered = await harness.slash("/gamesheet add", as_=league.commissioner(), game="G1",
                                       player=league.player("Walt Orr"), team="Hawks")
    assert "Walt Orr isn't on Hawks's roster nor a spare for it in G1" in not_rostered.text, not_rostered.text

    harness.bot.clock.set(STARTED)  # type: ignore[attr-defined]
    late = await harness.slash("/gamesheet add", as_=league.captain("Hawks"), game="G1", player=dan)
    assert "G1 has started: Hawks's sheet is changed by the officials and the commissioners now." in late.text
    by_ref = await harness.slash("/gamesheet add", as_=league.referee(), game="G1", player=dan)
    assert "Dan Roy is on Hawks's sheet for `G1`." in by_ref.text, by_ref.text
    assert await stored(harness) == [("Dan Roy", "added", True)]


async def test_a_result_freezes_both_sheets_as_they_were(harness: Harness, league: SampleLeague) -> None:
    await check_in(harness, league, "Alice Hart", "Gus Lee")
    await check_in(harness, league, "Omar Fox", "Uma Reed")
    harness.bot.clock.set(AFTER_G1)  # type: ignore[attr-defined]
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=2, away=1, decided="regulation")
    assert await stored(harness) == [("Alice Hart", "checkin", True), ("Gus Lee", "checkin", True),
                                     ("Omar Fox", "checkin", True), ("Uma Reed", "checkin", True)]
    async with harness.bot.sessions() as s:
        frozen = (await s.scalars(select(GameSheet.frozen_at))).all()
    assert len(frozen) == 2 and all(frozen)
    late = await harness.slash("/gamesheet confirm", as_=league.captain("Hawks"), game="G1", team="Hawks")
    assert "G1 has its result: an official or a commissioner confirms Hawks's sheet now." in late.text
    fixed = await harness.slash("/gamesheet remove", as_=league.commissioner(), game="G1",
                                player=f"<@{league.player('Uma Reed').id}>")
    assert "Uma Reed is off Owls's sheet for `G1`" in fixed.text, fixed.text


async def test_refusals_change_nothing(harness: Harness, league: SampleLeague) -> None:
    await check_in(harness, league, "Alice Hart")
    nobody = await harness.slash("/gamesheet remove", as_=league.referee(), game="G1", player="Zed Nobody")
    assert nobody.ephemeral and "Nobody called “Zed Nobody” is on a sheet for G1" in nobody.text
    empty = await harness.slash("/gamesheet confirm", as_=league.captain("Owls"), game="G1", team="Owls")
    assert "Owls's sheet for G1 has nobody on it yet" in empty.text
    bad_team = await harness.slash("/gamesheet show", as_=league.player("Alice Hart"), game="G1", team="Bears")
    assert "G1 is Hawks vs Owls: pick one of those two teams." in bad_team.text
    no_game = await harness.slash("/gamesheet show", as_=league.player("Alice Hart"), game="G99")
    assert "There's no game “G99”" in no_game.text
    assert await stored(harness) == []
