"""The public league page (/setup web, bot/services/league_page) through the real command tree and the real
feed server on 127.0.0.1: commissioners only and privately; 404 until published and at once when taken
down; 304 with the ETag until a result, forfeit or adjustment lands; the JSON's shape; nothing private."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import League
from tests.conftest import SampleLeague
from tests.harness import Harness
from tests.web.league_page import (
    ADJUSTMENT_REASON,
    LINK,
    SUSPENSION_REASON,
    get,
    page_settings,
    play_season,
    publish,
)


@pytest.fixture
def settings() -> Settings:
    return page_settings()


async def stored_slug(h: Harness) -> str | None:
    async with h.bot.sessions() as s:
        return await s.scalar(select(League.public_slug))


async def test_only_commissioners_publish_and_every_answer_is_private(harness: Harness, league: SampleLeague) -> None:
    refused = await harness.slash("/setup web", as_=league.player("Alice Hart"), public=True)
    assert refused.ephemeral and "Only a commissioner" in refused.text
    captain = await harness.slash("/setup web", as_=league.captain("Hawks"), public=True)
    assert captain.ephemeral and "Only a commissioner" in captain.text
    assert await stored_slug(harness) is None

    off = await harness.slash("/setup web", as_=league.commissioner())
    assert off.ephemeral and "has no public page" in off.text and LINK.search(off.text) is None

    slug = await publish(harness, league)
    assert await stored_slug(harness) == slug
    again = await harness.slash("/setup web", as_=league.commissioner())
    assert again.ephemeral and LINK.search(again.text) and LINK.search(again.text).group(1) == slug  # type: ignore[union-attr]
    assert again.first.allowed_mentions == {"parse": []}

    down = await harness.slash("/setup web", as_=league.commissioner(), public=False)
    assert down.ephemeral and "taken down" in down.text and await stored_slug(harness) is None
    assert await publish(harness, league) != slug, "publishing again makes a new link"


async def test_without_the_web_server_the_page_is_published_but_has_no_link(harness: Harness,
                                                                            league: SampleLeague) -> None:
    harness.bot.settings = dataclasses.replace(harness.bot.settings, calendar_server=None)
    reply = await harness.slash("/setup web", as_=league.commissioner(), public=True)
    assert reply.ephemeral and "serves no web pages" in reply.text and "http" not in reply.text
    assert await stored_slug(harness) is not None


async def test_a_league_that_never_published_answers_404_for_any_slug(harness: Harness,
                                                                      league: SampleLeague) -> None:
    for path in (f"/l/{'A' * 24}/", f"/l/{'A' * 24}/data.json", f"/l/{'A' * 24}", "/l/x/", "/l/%00/",
                 f"/l/{'A' * 24}/calendar.ics", f"/l/{'A' * 25}/"):
        status, body, _ = await get(harness, path)
        assert status == 404 and b"No league page here" in body, path


async def test_the_page_and_its_json_and_calendar_are_served(harness: Harness, league: SampleLeague) -> None:
    await play_season(harness, league)
    slug = await publish(harness, league)
    status, body, headers = await get(harness, f"/l/{slug}/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Cache-Control"] == "no-cache" and "script-src" not in headers["Content-Security-Policy"]
    page = body.decode()
    for section in ("standings", "schedule", "results", "playoffs", "leaders"):
        assert f'<section id="{section}"' in page
    assert "<h1>" in page and '<th scope="col"' in page and '<th scope="row">Hawks' in page
    assert "North" in page and "South" in page and "Order:" in page
    assert 'href="calendar.ics"' in page and "G5" in page  # still to come

    embed = (await get(harness, f"/l/{slug}/?embed=1"))[1].decode()
    assert "<header>" not in embed and "<footer" not in embed and '<section id="standings"' in embed

    status, raw, headers = await get(harness, f"/l/{slug}/data.json")
    assert status == 200 and headers["Content-Type"] == "application/json; charset=utf-8"
    data = json.loads(raw)
    assert set(data) == {"format", "league", "season", "timezone", "standings", "upcoming", "results", "brackets",
                         "leaders", "calendar"}
    assert [d["name"] for d in data["standings"]["divisions"]] == ["North", "South"]
    row = data["standings"]["divisions"][0]["rows"][0]
    assert set(row) == {"rank", "team", "gp", "w", "l", "t", "otl", "gf", "ga", "pts", "pct", "level"}
    assert [r["game"] for r in data["results"]] == ["G4", "G3", "G2", "G1"]
    forfeit = data["results"][0]
    assert forfeit["decided"] == "forfeit" and forfeit["forfeited_by"] == "Wolves"
    assert [g["game"] for g in data["upcoming"]] == ["G5", "G6"]
    bracket = data["brackets"][0]
    assert len(bracket["rounds"]) == 2 and bracket["rounds"][0]["matchups"][0]["winner"] is not None
    assert [b["category"] for b in data["leaders"]] == ["points", "goals", "assists", "gp"]
    assert data["leaders"][0]["rows"][0] == {"place": "1", "name": "Alice Hart", "team": "Hawks", "value": 3}
    owls = next(r for d in data["standings"]["divisions"] for r in d["rows"] if r["team"] == "Owls")
    assert owls["pts"] == 2 - 1, "a win less the adjustment"

    moved = await get(harness, f"/l/{slug}")
    assert moved[0] == 308 and moved[2]["Location"] == f"{slug}/"
    status, ics, headers = await get(harness, f"/l/{slug}/calendar.ics")
    assert status == 200 and ics.startswith(b"BEGIN:VCALENDAR") and ics.count(b"BEGIN:VEVENT") == 6


async def test_304_until_a_result_a_forfeit_or_an_adjustment_lands(harness: Harness, league: SampleLeague) -> None:
    slug = await publish(harness, league)
    harness.bot.clock.advance(days=14)  # type: ignore[attr-defined]
    builds = harness.bot.services.league_page.files.builds

    async def etag(path: str = f"/l/{slug}/") -> str:
        status, _, headers = await get(harness, path)
        assert status == 200, (status, headers)
        assert "ETag" in headers, headers
        return headers["ETag"]

    first = await etag()
    assert harness.bot.services.league_page.files.builds == builds + 1
    status, body, headers = await get(harness, f"/l/{slug}/", **{"If-None-Match": first})
    assert status == 304 and body == b"" and headers["ETag"] == first
    assert harness.bot.services.league_page.files.builds == builds + 1, "a 304 builds nothing"
    assert (await get(harness, f"/l/{slug}/", **{"If-None-Match": '"other"'}))[0] == 200
    json_tag = await etag(f"/l/{slug}/data.json")
    embed_tag = await etag(f"/l/{slug}/?embed=1")
    assert len({first, json_tag, embed_tag}) == 3, "each representation has its own validator"

    seen = {first}
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=3, away=1, decided="regulation")
    seen.add(await etag())
    await harness.slash("/result forfeit", as_=league.referee(), game="G2", team="Bears")
    seen.add(await etag())
    await harness.slash("/standings adjust", as_=league.commissioner(), team="Owls", points=-1, reason="fees")
    seen.add(await etag())
    assert len(seen) == 4, "every change gave the page a new validator"
    latest = await etag()
    assert (await get(harness, f"/l/{slug}/", **{"If-None-Match": latest}))[0] == 304
    harness.bot.clock.advance(days=10)  # type: ignore[attr-defined]  # G3 and G4 have started: no longer upcoming
    assert (await get(harness, f"/l/{slug}/", **{"If-None-Match": latest}))[0] == 200


async def test_a_page_taken_down_stops_working_at_once(harness: Harness, league: SampleLeague) -> None:
    slug = await publish(harness, league)
    status, _, headers = await get(harness, f"/l/{slug}/")
    assert status == 200
    await harness.slash("/setup web", as_=league.commissioner(), public=False)
    for path in (f"/l/{slug}/", f"/l/{slug}/data.json", f"/l/{slug}/calendar.ics", f"/l/{slug}"):
        assert (await get(harness, path))[0] == 404, path
    assert (await get(harness, f"/l/{slug}/", **{"If-None-Match": headers["ETag"]}))[0] == 404
    fresh = await publish(harness, league)
    assert (await get(harness, f"/l/{fresh}/"))[0] == 200 and (await get(harness, f"/l/{slug}/"))[0] == 404


def private_values(league: SampleLeague) -> list[str]:
    """Every private field of the sample league: Discord ids (players, captains, staff, channels), gender
    categories, the discipline notes and a commissioner's reason."""
    ids = [p["discord_id"] for p in league.players.values()]
    ids += [i for t in league.teams.values() for i in t["captain_discord_ids"].split()]
    ids += [t["channel_id"] for t in league.teams.values() if t["channel_id"]]
    ids += [str(m.id) for m in (league.commissioner(), league.referee())]
    ids += [str(guild) for guild in league.h.league_guilds]
    return [*ids, SUSPENSION_REASON, "SECRET-NOTE-7731", ADJUSTMENT_REASON, "PRIVATE-REASON-4410",
            "Shoved the scorekeeper", "tripping", "Tripping"]


async def test_nothing_private_in_the_page_or_its_json(harness: Harness, league: SampleLeague) -> None:
    await play_season(harness, league)
    slug = await publish(harness, league)
    genders = {p["gender"] for p in league.players.values() if p["gender"]}
    assert genders, "the sample league has gender categories to leak"
    for path in (f"/l/{slug}/", f"/l/{slug}/?embed=1", f"/l/{slug}/data.json"):
        status, body, _ = await get(harness, path)
        assert status == 200
        text = body.decode()
        for value in private_values(league):
            assert value not in text, (path, value)
        for word in (*genders, "gender", "birth", "dob", "suspen", "penalt", "discord"):
            assert re.search(rf"\b{re.escape(word)}", text, re.IGNORECASE) is None, (path, word)
    data = json.loads((await get(harness, f"/l/{slug}/data.json"))[1])

    def keys(value: object) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    assert not {k for k in keys(data) if re.search("id$|gender|birth|discord|pim|reason", k)} - {"id"}
