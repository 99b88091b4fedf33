"""/calendar show|reset through the real command tree: private answers, the file, the link, revoking."""

from __future__ import annotations

import dataclasses
import re
import socket

import pytest
from icalendar import Calendar
from sqlalchemy import func, select

from bot.config.settings import CalendarServer, Settings
from storage.models import CalendarFeed
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness, Reply

LINK = re.compile(r"https://cal\.example\.org/sideline/cal/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\.ics")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def settings() -> Settings:
    """The feed server on (a free port on 127.0.0.1), published behind a proxy's address."""
    server = CalendarServer(port=free_port(), base_url="https://cal.example.org/sideline")
    return dataclasses.replace(make_settings(league_config()), calendar_server=server)


def attached(reply: Reply) -> tuple[str, bytes]:
    files = reply.first.files
    assert len(files) == 1, files
    return next(iter(files.items()))


def summaries(body: bytes) -> list[str]:
    return [str(e["SUMMARY"]) for e in Calendar.from_ical(body).walk("VEVENT")]


def token_of(reply: Reply) -> str:
    match = LINK.search(reply.text)
    assert match, reply.text
    return match.group(1)


async def feed_rows(h: Harness) -> int:
    async with h.bot.sessions() as s:
        return int(await s.scalar(select(func.count()).select_from(CalendarFeed)) or 0)


async def test_a_player_gets_their_teams_games_privately_with_a_link(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/calendar show", as_=league.player("Bea Quinn"))
    assert reply.ephemeral and reply.first.allowed_mentions == {"parse": []}
    assert "your games" in reply.text and "Subscribe in your calendar app" in reply.text
    name, body = attached(reply)
    assert name == "sideline-coed-my-games.ics"
    assert summaries(body) == ["Hawks vs Owls", "Owls vs Hawks", "Hawks vs Bears"]  # G1, G3, G5
    token = token_of(reply)
    served = await harness.bot.services.calendar.by_token(token)
    assert served is not None and await harness.bot.services.calendar.body(served) == body
    again = await harness.slash("/calendar show", as_=league.player("Bea Quinn"))
    assert token_of(again) == token and await feed_rows(harness) == 1  # the same link on another device


async def test_a_players_feed_leaves_out_the_games_they_are_away_for(harness: Harness,
                                                                    league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    await harness.slash("/away set", as_=bea, **{"from": "2030-01-18", "to": "2030-01-18"}, note="Wedding")
    _, mine = attached(await harness.slash("/calendar show", as_=bea))
    assert summaries(mine) == ["Hawks vs Owls", "Hawks vs Bears"]  # G3, that day, is gone
    _, team = attached(await harness.slash("/calendar show", as_=bea, team="hawks"))
    assert summaries(team) == ["Hawks vs Owls", "Owls vs Hawks", "Hawks vs Bears"]  # the team's feed keeps it


async def test_a_team_or_the_whole_league(harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    team = await harness.slash("/calendar show", as_=bea, team="wolves")
    name, body = attached(team)
    assert name == "sideline-coed-wolves.ics" and "Wolves · Coed League" in team.text
    assert summaries(body) == ["Bears vs Wolves", "Wolves vs Bears", "Owls vs Wolves"]
    whole = await harness.slash("/calendar show", as_=bea, league=True)
    assert len(summaries(attached(whole)[1])) == 6
    assert len({token_of(r) for r in (team, whole)}) == 2 and await feed_rows(harness) == 2


async def test_someone_on_no_team_is_told_what_to_pick_and_nothing_is_stored(harness: Harness,
                                                                              league: SampleLeague) -> None:
    reply = await harness.slash("/calendar show", as_=league.stranger())
    assert reply.ephemeral and "not on a team" in reply.text and "league: True" in reply.text
    unknown = await harness.slash("/calendar show", as_=league.player("Bea Quinn"), team="Ravens")
    assert unknown.ephemeral and "no team called “Ravens”" in unknown.text
    assert not unknown.first.files and await feed_rows(harness) == 0


async def test_a_captain_off_the_roster_gets_the_team_they_captain(harness: Harness, league: SampleLeague) -> None:
    removed = await harness.slash("/roster remove", as_=league.commissioner(), player=league.player("Omar Fox"))
    assert "removed from Owls" in removed.text, removed.text
    reply = await harness.slash("/calendar show", as_=league.captain("Owls"))  # Omar Fox, still its captain
    assert "Owls · Coed League" in reply.text
    assert summaries(attached(reply)[1]) == ["Hawks vs Owls", "Owls vs Hawks", "Owls vs Wolves"]


async def test_reset_revokes_every_link_and_issues_new_ones(harness: Harness, league: SampleLeague) -> None:
    bea, service = league.player("Bea Quinn"), harness.bot.services.calendar
    old = [token_of(await harness.slash("/calendar show", as_=bea)),
           token_of(await harness.slash("/calendar show", as_=bea, team="Owls"))]
    other = token_of(await harness.slash("/calendar show", as_=league.player("Carl Diaz")))
    reply = await harness.slash("/calendar reset", as_=bea)
    assert reply.ephemeral and "Revoked 2 calendar links" in reply.text
    new = [m.group(1) for m in LINK.finditer(reply.text)]
    assert len(new) == 2 and not set(new) & set(old)
    for token in old:
        assert await service.by_token(token) is None
    for token in [*new, other]:  # someone else's link is untouched
        assert await service.by_token(token) is not None
    assert token_of(await harness.slash("/calendar show", as_=bea, team="Owls")) in new


async def test_reset_with_no_links_says_so(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/calendar reset", as_=league.player("Bea Quinn"))
    assert reply.ephemeral and "nothing to revoke" in reply.text and await feed_rows(harness) == 0


async def test_a_feed_token_never_appears_in_a_public_message(harness: Harness, league: SampleLeague) -> None:
    bea = league.player("Bea Quinn")
    replies = [await harness.slash("/calendar show", as_=bea),
               await harness.slash("/calendar show", as_=bea, league=True),
               await harness.slash("/calendar reset", as_=bea)]
    async with harness.bot.sessions() as s:
        secrets_ = [v for row in (await s.execute(select(CalendarFeed.selector, CalendarFeed.verifier))).all()
                    for v in row]
    revoked = [token_of(r).split(".")[1] for r in replies[:2]]
    seen = 0
    for call in harness.discord.calls:
        text = repr(call.body) + repr(call.files)
        if any(secret in text for secret in [*secrets_, *revoked]):
            seen += 1
            assert call.is_interaction_response and call.ephemeral, f"{call.method} {call.path} shows a token"
    assert seen >= 3  # the check looked at the answers that do carry one


async def test_without_the_feed_server_the_file_comes_alone(harness: Harness, league: SampleLeague) -> None:
    harness.bot.settings = dataclasses.replace(harness.bot.settings, calendar_server=None)
    reply = await harness.slash("/calendar show", as_=league.player("Bea Quinn"))
    assert reply.ephemeral and "Import the attached file" in reply.text and "http" not in reply.text
    assert attached(reply)[0].endswith(".ics")
