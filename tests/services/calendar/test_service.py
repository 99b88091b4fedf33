"""Calendar feeds over the real league: moves, cancellations and re-imports reach the feed, and the
feed server (aiohttp, on 127.0.0.1) answers 200, 304 and 404 as calendar apps expect."""

from __future__ import annotations

import dataclasses
import hmac
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from icalendar import Calendar

from bot.clock import FixedClock
from bot.config.settings import CalendarServer, Settings
from bot.run.app import create_bot
from bot.web.feed_server import CONTENT_TYPE, make_app
from storage.db import create_engine
from tests.commands.test_calendar import free_port, token_of
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

G1 = "game-1@sideline-coed"  # the sample's games are imported in order: G1 is row 1


def event(body: bytes, uid: str) -> Any:
    return next(e for e in Calendar.from_ical(body).walk("VEVENT") if str(e["UID"]) == uid)


async def team_feed(h: Harness, team: str = "Hawks") -> bytes:
    league = h.bot.settings.leagues[0]
    return (await h.bot.services.calendar.export(league, team))[1]


async def test_a_moved_game_keeps_its_uid_and_raises_its_sequence(harness: Harness, league: SampleLeague) -> None:
    before = event(await team_feed(harness), G1)
    assert before["SEQUENCE"] == 0 and str(before["SUMMARY"]) == "Hawks vs Owls"
    harness.bot.clock.set(datetime(2030, 1, 6, 9, tzinfo=UTC))  # type: ignore[attr-defined]
    moved = await harness.slash("/game move", as_=league.commissioner(), game="G1", starts_at="2030-01-12 18:00")
    assert "Moved `G1`" in moved.text
    after = event(await team_feed(harness), G1)
    assert after["SEQUENCE"] == 1
    assert after.decoded("DTSTART").isoformat() == "2030-01-12T18:00:00-05:00"
    assert after.decoded("DTSTAMP") == datetime(2030, 1, 6, 9, tzinfo=UTC) > before.decoded("DTSTAMP")
    await harness.slash("/game move", as_=league.commissioner(), game="G1", starts_at="2030-01-13 18:00")
    assert event(await team_feed(harness), G1)["SEQUENCE"] == 2


async def test_a_cancelled_game_stays_in_the_feed_as_cancelled(harness: Harness, league: SampleLeague) -> None:
    await harness.slash("/game cancel", as_=league.commissioner(), game="G1")
    cancelled = event(await team_feed(harness, "Owls"), G1)
    assert str(cancelled["STATUS"]) == "CANCELLED" and cancelled["SEQUENCE"] == 1


async def test_a_reimported_change_raises_the_sequence_and_an_unchanged_row_does_not(
        harness: Harness, league: SampleLeague) -> None:
    importer, settings = harness.bot.services.imports.importer, harness.bot.settings.leagues[0]
    csv = (b"game_id,starts_at,home,away,venue,kind\n"
           b"G1,2030-01-11 19:00,Hawks,Owls,Rink C,regular\nG3,2030-01-18 19:00,Owls,Hawks,Rink A,regular\n")
    await importer.run("games", csv, settings, now=harness.bot.clock.now())
    body = await team_feed(harness)
    assert event(body, G1)["SEQUENCE"] == 1 and str(event(body, G1)["LOCATION"]) == "Rink C"
    assert event(body, "game-3@sideline-coed")["SEQUENCE"] == 0


# --- the feed server ---------------------------------------------------------------------------------------
@pytest.fixture
async def client(harness: Harness) -> Any:
    async with TestClient(TestServer(make_app(harness.bot.services.calendar), host="127.0.0.1")) as c:
        yield c


async def test_the_server_answers_200_then_304_then_404_once_reset(harness: Harness, league: SampleLeague,
                                                                   client: TestClient) -> None:
    bea = league.player("Bea Quinn")
    token = token_of(await harness.slash("/calendar show", as_=bea))

    first = await client.get(f"/cal/{token}.ics")
    assert first.status == 200 and first.headers["Content-Type"] == CONTENT_TYPE
    body = await first.read()
    assert next(str(e["UID"]) for e in Calendar.from_ical(body).walk("VEVENT")) == G1
    etag = first.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"')

    again = await client.get(f"/cal/{token}.ics", headers={"If-None-Match": etag})
    assert again.status == 304 and again.headers["ETag"] == etag and await again.read() == b""
    stale = await client.get(f"/cal/{token}.ics", headers={"If-None-Match": '"something-else"'})
    assert stale.status == 200 and await stale.read() == body

    await harness.slash("/game move", as_=league.commissioner(), game="G1", starts_at="2030-01-12 18:00")
    moved = await client.get(f"/cal/{token}.ics", headers={"If-None-Match": etag})
    assert moved.status == 200 and moved.headers["ETag"] != etag  # the change reaches the subscriber

    await harness.slash("/calendar reset", as_=bea)
    revoked = await client.get(f"/cal/{token}.ics")
    assert revoked.status == 404 and "calendar" in (await revoked.text())


@pytest.mark.parametrize("path", ["/cal/nope.ics", f"/cal/{'A' * 16}.{'B' * 43}.ics", "/cal/%00.ics", "/cal/.ics",
                                  "/cal/x", "/"])
async def test_unknown_or_malformed_tokens_are_404(client: TestClient, path: str) -> None:
    response = await client.get(path)
    assert response.status == 404


async def test_a_wrong_verifier_is_compared_in_constant_time(harness: Harness, league: SampleLeague,
                                                             client: TestClient,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Known selector with a wrong secret, and an unknown selector: both go through compare_digest."""
    token = token_of(await harness.slash("/calendar show", as_=league.player("Bea Quinn")))
    selector, verifier = token.split(".")
    compared: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    wrong = verifier[:-1] + ("A" if verifier[-1] != "A" else "B")
    assert (await client.get(f"/cal/{selector}.{wrong}.ics")).status == 404
    assert (await client.get(f"/cal/{'Z' * 16}.{verifier}.ics")).status == 404
    assert (await client.get(f"/cal/{token}.ics")).status == 200
    assert [b for _, b in compared] == [wrong.encode(), verifier.encode(), verifier.encode()]


# --- started and stopped with the bot ---------------------------------------------------------------------
@pytest.fixture
def settings() -> Settings:
    """The feed server on (a free port on 127.0.0.1), published behind a proxy's address."""
    server = CalendarServer(port=free_port(), base_url="https://cal.example.org/sideline")
    return dataclasses.replace(make_settings(league_config()), calendar_server=server)


async def test_the_server_starts_and_stops_with_the_bot(settings: Settings, db_url: str, clock: FixedClock) -> None:
    assert settings.calendar_server is not None
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)).start()
    try:
        league = await SampleLeague(h).load()
        token = token_of(await h.slash("/calendar show", as_=league.player("Bea Quinn")))
    finally:
        stopped = h.close()
    url = f"http://127.0.0.1:{settings.calendar_server.port}/cal/{token}.ics"
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as response:  # on 127.0.0.1 while the bot runs
            assert response.status == 200 and response.headers["Content-Type"] == CONTENT_TYPE
        await stopped
        with pytest.raises(aiohttp.ClientConnectionError):
            async with http.get(url):
                pass


async def test_a_calendar_port_already_taken_stops_the_start_in_one_line(db_url: str, clock: FixedClock) -> None:
    """Not "could not reach Discord": the operator reads which setting to change."""
    import socket

    from bot.cli import failures
    from bot.errors import CannotListen

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = dataclasses.replace(make_settings(league_config()), calendar_server=CalendarServer(port=port))
        h = Harness(create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False))
        try:
            with pytest.raises(CannotListen) as refused:
                await h.start()
        finally:
            await h.close()
    assert failures.explain(refused.value) == (
        f"bot.calendar_port = {port}: can't listen on 127.0.0.1:{port} (address already in use) (stop what "
        "listens there, or pick another port or calendar_host)", failures.USAGE)


async def test_a_link_with_a_trailing_newline_is_not_the_link(harness: Harness, league: SampleLeague,
                                                              client: TestClient) -> None:
    """A token is the whole path segment: a newline after it (``$`` in a pattern matches before one) is 404."""
    token = token_of(await harness.slash("/calendar show", as_=league.player("Bea Quinn")))
    assert (await client.get(f"/cal/{token}.ics")).status == 200
    for forged in (f"/cal/{token}%0A.ics", f"/cal/{token}%0a.ics"):
        response = await client.get(forged)
        assert response.status == 404, forged
    assert await harness.bot.services.calendar.by_token(token + "\n") is None
