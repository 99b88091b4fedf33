"""/setup league's time-zone picker through the real command tree: typed as people type them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select

from bot.config.settings import Settings
from storage.models import League
from tests.commands.empty_server import Server, no_leagues, open_server
from tests.harness import Harness


@pytest.fixture
def settings() -> Settings:
    return no_leagues()


@pytest.fixture
async def server(harness: Harness) -> AsyncIterator[Server]:
    yield open_server(harness)


@pytest.mark.parametrize(("typed", "first"), [
    ("EST", ["America/Toronto", "America/New_York"]),
    ("PST", ["America/Vancouver", "America/Los_Angeles"]),
    ("Montreal", ["America/Toronto"]),
    ("Calgary", ["America/Edmonton"]),
])
async def test_typing_an_abbreviation_or_a_city_offers_its_places_first(harness: Harness, server: Server,
                                                                        typed: str, first: list[str]) -> None:
    offered = await harness.autocomplete("/setup league", focused="timezone", as_=server.admin(),
                                         guild_id=server.guild_id, timezone=typed)
    assert offered.response_type == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
    choices = offered.autocomplete_choices
    assert [c["value"] for c in choices][:len(first)] == first
    assert all(c["name"] == c["value"] for c in choices)
    if typed == "EST":
        assert [c["value"] for c in choices] == first  # not Creston, not Bucharest


async def test_est_as_the_value_is_refused_with_the_places_to_pick(harness: Harness, server: Server) -> None:
    reply = await server.slash("/setup league", as_=server.admin(), preset="coed-ball-hockey", name="Thursday",
                               timezone="EST")
    assert reply.ephemeral
    assert reply.content == ("'EST' is an abbreviation, which ignores daylight saving; pick the place instead: "
                             "America/Toronto or America/New_York.")
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(League)) == 0
