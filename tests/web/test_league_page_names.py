"""How the public league page names a junior without a Discord account (bot/league/league_page.py), through
the real command tree and feed server: initials by default, full names once a commissioner chooses them, in
the HTML and the JSON alike; nobody but a commissioner chooses, and the choice is kept per league."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import League
from tests.conftest import SampleLeague
from tests.harness import Harness
from tests.web.league_page import AFTER_G1, AFTER_WEEK_2, BEFORE_G1, get, page_settings, publish


@pytest.fixture
def settings() -> Settings:
    return page_settings()


async def junior_scores(h: Harness, league: SampleLeague) -> None:
    """Jo Dale, a junior on the Hawks managed by a parent, checked in by them, scores twice in G1."""
    parent = h.member("Parent Pat")
    added = await h.slash("/roster add", as_=league.captain("Hawks"), name="Jo Dale", guardian=parent)
    assert "Jo Dale is now on Hawks" in added.text, added.text
    h.bot.clock.set(BEFORE_G1)  # type: ignore[attr-defined]
    for who, extra in ((parent, {"player": "Jo Dale"}), (league.player("Alice Hart"), {})):
        reply = await h.slash("/checkin", as_=who, status="in", game="G1", **extra)
        assert "**in**" in reply.text, reply.text
    h.bot.clock.set(AFTER_G1)  # type: ignore[attr-defined]
    for _ in range(2):
        goal = await h.slash("/goal add", as_=league.referee(), game="G1", team="Hawks", scorer_name="Jo Dale",
                             assist1=league.player("Alice Hart"))
        assert "Jo Dale (Hawks), assisted by Alice Hart" in goal.text and "Recorded." in goal.text, goal.text
    h.bot.clock.set(AFTER_WEEK_2)  # type: ignore[attr-defined]
    result = await h.slash("/result enter", as_=league.referee(), game="G1", home=2, away=0, decided="regulation")
    assert "Recorded" in result.text, result.text


async def shown(h: Harness, slug: str) -> tuple[str, list[dict[str, object]]]:
    status, html, _ = await get(h, f"/l/{slug}/")
    assert status == 200
    status, raw, _ = await get(h, f"/l/{slug}/data.json")
    assert status == 200
    goals = next(b for b in json.loads(raw)["leaders"] if b["category"] == "goals")
    return html.decode(), goals["rows"]


async def test_a_junior_shows_by_initials_until_the_league_chooses_full_names(harness: Harness,
                                                                            league: SampleLeague) -> None:
    await junior_scores(harness, league)
    slug = await publish(harness, league)
    html, goals = await shown(harness, slug)
    assert goals[0] == {"place": "1", "name": "J. D.", "team": "Hawks", "value": 2}
    assert '<th scope="row">J. D.</th>' in html and "Jo Dale" not in html
    assists = json.loads((await get(harness, f"/l/{slug}/data.json"))[1])["leaders"][2]
    assert assists["rows"][0]["name"] == "Alice Hart", "players with an account keep their full name"

    # Only a commissioner chooses; a refusal changes nothing.
    for who in (league.captain("Hawks"), league.player("Alice Hart"), harness.member("Parent Pat")):
        refused = await harness.slash("/setup web", as_=who, names="full")
        assert refused.ephemeral and "Only a commissioner" in refused.text, refused.text
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(League.public_names)) is None
    assert (await shown(harness, slug))[1][0]["name"] == "J. D."

    full = await harness.slash("/setup web", as_=league.commissioner(), names="full")
    assert full.ephemeral and "by their full names" in full.text and slug in full.text, full.text
    assert full.first.allowed_mentions == {"parse": []}
    html, goals = await shown(harness, slug)
    assert goals[0]["name"] == "Jo Dale" and '<th scope="row">Jo Dale</th>' in html and "J. D." not in html
    again = await harness.slash("/setup web", as_=league.commissioner(), names="full")
    assert "full names" not in again.text and slug in again.text, "no change: just where the page is"

    back = await harness.slash("/setup web", as_=league.commissioner(), names="initials")
    assert "by their initials" in back.text, back.text
    assert (await shown(harness, slug))[1][0]["name"] == "J. D."
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(League.public_names)) == "initials"


async def test_the_choice_survives_taking_the_page_down_and_publishing_again(harness: Harness,
                                                                            league: SampleLeague) -> None:
    await junior_scores(harness, league)
    await harness.slash("/setup web", as_=league.commissioner(), public=True, names="full")
    down = await harness.slash("/setup web", as_=league.commissioner(), public=False)
    assert "taken down" in down.text
    slug = await publish(harness, league)
    assert (await shown(harness, slug))[1][0]["name"] == "Jo Dale"
