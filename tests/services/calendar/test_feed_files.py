"""A feed is built off the event loop, once per version (bot/services/calendar/files.py): a calendar
asking again with the validator gets 304 without the file being built or its games read; requests
for the same version share one build; every change the file shows changes the validator."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config.settings import CalendarServer, Settings
from bot.services.calendar import service as calendar_service
from bot.services.calendar.files import FeedFiles
from bot.web.feed_server import make_app
from tests.commands.test_calendar import free_port, token_of
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness


@pytest.fixture
def settings() -> Settings:
    """The feed server on, so that /calendar show gives a link."""
    server = CalendarServer(port=free_port(), base_url="https://cal.example.org/sideline")
    return dataclasses.replace(make_settings(league_config()), calendar_server=server)


@pytest.fixture
async def client(harness: Harness) -> Any:
    async with TestClient(TestServer(make_app(harness.bot.services.calendar), host="127.0.0.1")) as c:
        yield c


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each file built: the thread it was built on."""
    built: list[str] = []
    real = calendar_service.build_feed

    def spy(*args: Any) -> bytes:
        built.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(calendar_service, "build_feed", spy)
    return built


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Each time a feed's games are read: for which team (None: the league)."""
    read: list[int | None] = []
    real = calendar_service.CalendarService._games

    async def spy(session: Any, league_id: int, team_id: int | None) -> Any:
        read.append(team_id)
        return await real(session, league_id, team_id)

    monkeypatch.setattr(calendar_service.CalendarService, "_games", staticmethod(spy))
    return read


async def test_a_second_request_with_the_validator_gets_304_without_building_the_feed(
        harness: Harness, league: SampleLeague, client: TestClient, builds: list[str],
        reads: list[int | None]) -> None:
    token = token_of(await harness.slash("/calendar show", as_=league.player("Bea Quinn"), league=True))
    assert len(builds) == 1  # /calendar show attached it, built once
    first = await client.get(f"/cal/{token}.ics")
    assert first.status == 200 and b"BEGIN:VEVENT" in await first.read()
    assert len(builds) == 1 and reads == [None]  # the same version: the file kept from /calendar show

    for _ in range(3):
        again = await client.get(f"/cal/{token}.ics", headers={"If-None-Match": first.headers["ETag"]})
        assert again.status == 304 and await again.read() == b""
    assert len(builds) == 1 and reads == [None]  # neither built nor its games read

    await harness.slash("/game move", as_=league.commissioner(), game="G1", starts_at="2030-01-12 18:00")
    moved = await client.get(f"/cal/{token}.ics", headers={"If-None-Match": first.headers["ETag"]})
    assert moved.status == 200 and moved.headers["ETag"] != first.headers["ETag"]
    assert len(builds) == 2 and reads == [None, None]
    assert all(name != threading.main_thread().name for name in builds)  # in a thread, not on the loop


async def test_requests_for_the_same_version_share_one_build(
        harness: Harness, league: SampleLeague, client: TestClient, builds: list[str]) -> None:
    token = token_of(await harness.slash("/calendar show", as_=league.player("Bea Quinn"), team="Owls"))
    harness.bot.services.calendar.files.kept.clear()  # as after a restart
    answers = await asyncio.gather(*(client.get(f"/cal/{token}.ics") for _ in range(8)))
    bodies = {await a.read() for a in answers}
    assert [a.status for a in answers] == [200] * 8 and len(bodies) == 1
    assert len(builds) == 2  # /calendar show's, and one for the eight


@pytest.mark.parametrize(("change", "changes"), [
    ("/game move", True),
    ("/game cancel", True),
    ("/game add", True),
    ("/away", True),  # a player's own feed leaves the game out
    ("/checkin", False),  # not in a calendar
])
async def test_what_the_file_shows_changes_the_validator(harness: Harness, league: SampleLeague, change: str,
                                                         changes: bool) -> None:
    service, bea = harness.bot.services.calendar, league.player("Bea Quinn")
    token = token_of(await harness.slash("/calendar show", as_=bea))
    before = await service.by_token(token)
    commands: dict[str, Callable[[], Any]] = {
        "/game move": lambda: harness.slash("/game move", as_=league.commissioner(), game="G1",
                                            starts_at="2030-01-12 18:00"),
        "/game cancel": lambda: harness.slash("/game cancel", as_=league.commissioner(), game="G3"),
        "/game add": lambda: harness.slash("/game add", as_=league.commissioner(), home="Hawks", away="Bears",
                                           starts_at="2030-02-01 19:00"),
        "/away": lambda: harness.slash("/away set", as_=bea, **{"from": "2030-01-18", "to": "2030-01-18"}),
        "/checkin": lambda: harness.slash("/checkin", as_=bea, game="G1", status="in"),
    }
    reply = await commands[change]()
    assert reply.responses and "went wrong" not in reply.text, reply.text
    after = await service.by_token(token)
    assert before is not None and after is not None
    assert (after.etag != before.etag) is changes
    if changes:
        assert await service.body(after) != await service.body(before)


async def test_kept_files_stay_within_their_budget() -> None:
    files = FeedFiles(budget=10)

    async def made(body: bytes) -> bytes:
        return body

    for version, body in (("a", b"1234"), ("b", b"5678"), ("c", b"90")):
        await files.get(version, lambda body=body: made(body))
    assert list(files.kept) == ["a", "b", "c"] and files.size == 10
    await files.get("a", lambda: made(b"unused"))  # used again: kept longest
    await files.get("d", lambda: made(b"xyz"))
    assert list(files.kept) == ["c", "a", "d"] and files.size == 9
    assert await files.get("huge", lambda: made(b"x" * 11)) == b"x" * 11 and "huge" not in files.kept
