"""Helpers for the public league page's tests: the feed server on, a league with two divisions, results,
a forfeit, an adjustment, a bracket and private data that must never show."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime

import aiohttp
from multidict import CIMultiDict
from sqlalchemy import select

from bot.config.settings import CalendarServer, Settings
from storage.models import PlayoffBracket
from tests.commands.test_calendar import free_port
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

BASE = "https://league.example.org/sideline"
LINK = re.compile(re.escape(BASE) + r"/l/([A-Za-z0-9_-]{24})/")
BEFORE_G1 = datetime(2030, 1, 11, 22, 0, tzinfo=UTC)  # G1, Hawks v Owls, starts at 00:00 UTC on the 12th
AFTER_G1 = datetime(2030, 1, 12, 1, 30, tzinfo=UTC)
AFTER_WEEK_2 = datetime(2030, 1, 19, 12, 0, tzinfo=UTC)  # G1-G4 played, G5 and G6 to come
HAWKS_IN = ("Alice Hart", "Carl Diaz", "Dan Roy", "Gus Lee", "Bea Quinn")
OWLS_IN = ("Omar Fox", "Pia Lund", "Quin Ash", "Uma Reed", "Ray Moss")
SUSPENSION_REASON = "Shoved the scorekeeper into the boards, SECRET-NOTE-7731"
ADJUSTMENT_REASON = "Unpaid ice fees, PRIVATE-REASON-4410"


def page_settings() -> Settings:
    """The feed server on a free port of 127.0.0.1, published behind a proxy's address."""
    server = CalendarServer(port=free_port(), base_url=BASE)
    return dataclasses.replace(make_settings(league_config()), calendar_server=server)


def port_of(h: Harness) -> int:
    server = h.bot.settings.calendar_server
    assert server is not None
    return server.port


async def get(h: Harness, path: str, **headers: str) -> tuple[int, bytes, CIMultiDict[str]]:
    async with (aiohttp.ClientSession() as http,
                http.get(f"http://127.0.0.1:{port_of(h)}{path}", headers=headers, allow_redirects=False) as r):
        return r.status, await r.read(), CIMultiDict(r.headers)  # header names in any case


async def publish(h: Harness, league: SampleLeague) -> str:
    reply = await h.slash("/setup web", as_=league.commissioner(), public=True)
    assert reply.ephemeral, reply.text
    match = LINK.search(reply.text)
    assert match, reply.text
    return match.group(1)


async def play_season(h: Harness, league: SampleLeague) -> None:
    """Two weeks of results (G1 with its goals and a penalty, one in overtime, one a forfeit), an
    adjustment, a suspension with its reason, and a four-team bracket with its first semi-final decided;
    games G5 and G6 still to come."""
    h.bot.clock.set(BEFORE_G1)  # type: ignore[attr-defined]
    for name in (*HAWKS_IN, *OWLS_IN):
        reply = await h.slash("/checkin", as_=league.player(name), status="in", game="G1")
        assert "**in**" in reply.text, reply.text
    h.bot.clock.set(AFTER_G1)  # type: ignore[attr-defined]
    for team, scorer, *assists in (("Hawks", "Alice Hart", "Carl Diaz"), ("Hawks", "Alice Hart", "Dan Roy"),
                                   ("Hawks", "Carl Diaz", "Alice Hart"), ("Owls", "Omar Fox", "Pia Lund")):
        options = {f"assist{i}": league.player(a) for i, a in enumerate(assists, start=1)}
        reply = await h.slash("/goal add", as_=league.referee(), game="G1", team=team,
                              scorer=league.player(scorer), **options)
        assert "Recorded." in reply.text, reply.text
    called = await h.slash("/penalty", as_=league.referee(), game="G1", player=league.player("Carl Diaz"),
                           infraction="tripping")
    assert "recorded" in called.text, called.text
    h.bot.clock.set(AFTER_WEEK_2)  # type: ignore[attr-defined]
    for game, home, away, decided in (("G1", 3, 1, "regulation"), ("G2", 2, 1, "overtime"),
                                      ("G3", 2, 0, "regulation")):
        reply = await h.slash("/result enter", as_=league.referee(), game=game, home=home, away=away, decided=decided)
        assert "Recorded" in reply.text, reply.text
    forfeit = await h.slash("/result forfeit", as_=league.referee(), game="G4", team="Wolves")
    assert forfeit.ephemeral or forfeit.text, forfeit.text
    adjusted = await h.slash("/standings adjust", as_=league.commissioner(), team="Owls", points=-1,
                             reason=ADJUSTMENT_REASON)
    assert "Owls" in adjusted.text, adjusted.text
    suspended = await h.slash("/suspend", as_=league.commissioner(), player=league.player("Carl Diaz"), games=1,
                              reason=SUSPENSION_REASON)
    assert "Suspension #" in suspended.text, suspended.text
    created = await h.slash("/bracket create", as_=league.commissioner(), teams=4)
    assert created.ephemeral and created.first.embeds, created.text
    async with h.bot.sessions() as s:
        seeds = list((await s.scalars(select(PlayoffBracket.seeds))).one())
    won = await h.slash("/bracket advance", as_=league.commissioner(), matchup="R1-M1", winner=seeds[0])
    assert "win" in won.text, won.text
