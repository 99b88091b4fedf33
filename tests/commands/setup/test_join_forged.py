"""Forged and stale interactions through the real command tree: a server-only command sent from a DM, and
join-request buttons for a request never made, already answered, or pressed by DM without the captain role.
Each is answered politely, logs no traceback, and changes nothing."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from discord import Object
from sqlalchemy import func, select

from storage.models import OutboxMessage, Player, RosterEntry, SetupChange, Team
from tests.commands.checkins.test_checkin import press
from tests.commands.setup.test_joins import HAWKS_CHANNEL, NORA, ask, buttons
from tests.conftest import GUILD, ROLES, SampleLeague
from tests.harness import Harness, Member

WOLVES_CAPTAIN = 500_000_000_000_000_031  # Wolves have no channel: their captains are asked by DM
IN_A_DM = "Sideline's commands work in your league's server, not in direct messages. Use them there."


async def rows(h: Harness) -> tuple[int, ...]:
    async with h.bot.sessions() as s:
        return tuple([await s.scalar(select(func.count()).select_from(model)) or 0
                      for model in (Player, RosterEntry, OutboxMessage, SetupChange)])


async def team_id(h: Harness, name: str) -> int:
    async with h.bot.sessions() as s:
        found = await s.scalar(select(Team.id).where(Team.name == name))
        assert found is not None
        return found


async def player_id(h: Harness, discord_id: int) -> int:
    async with h.bot.sessions() as s:
        found = await s.scalar(select(Player.id).where(Player.discord_id == discord_id))
        assert found is not None
        return found


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], \
        [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize(("path", "options"), [
    ("/setup roles", {"captain": Object(ROLES["captain"])}),
    ("/setup channels", {}),
    ("/setup show", {}),
    ("/spare request", {"game": "G1"}),
])
async def test_a_server_command_forged_from_a_dm_is_refused_politely(
        harness: Harness, league: SampleLeague, caplog: pytest.LogCaptureFixture, path: str,
        options: dict[str, Any]) -> None:
    before = await rows(harness)
    data = harness._command_data(path, options, None)
    reply = await harness._feed(harness._base(2, league.commissioner(), None, None, data))
    assert reply.ephemeral and reply.content == IN_A_DM, reply.text
    assert await rows(harness) == before
    no_traceback(caplog)


async def test_approving_a_request_never_made_changes_nothing(
        harness: Harness, league: SampleLeague, caplog: pytest.LogCaptureFixture) -> None:
    # Nora is in the league (on the spare list) but never asked to join Hawks.
    await harness.slash("/spare join", as_=harness.member(NORA.name, member_id=NORA.id), positions="skater")
    forged = (f"sideline:join@{harness.bot.league_ids[GUILD]}:{await team_id(harness, 'Hawks')}:"
              f"{await player_id(harness, NORA.id)}:skater:yes")
    before = await rows(harness)
    reply = await harness.press(forged, as_=league.captain("Hawks"), channel_id=HAWKS_CHANNEL)
    assert reply.ephemeral and "That request is no longer open" in reply.content, reply.text
    assert "nothing changed" in reply.content
    assert await rows(harness) == before
    await harness.bot.courier.deliver_due()
    assert harness.discord.dms(NORA.id) == []
    no_traceback(caplog)


async def test_a_second_answer_to_an_answered_request_changes_nothing(
        harness: Harness, league: SampleLeague) -> None:
    pressed = await ask(harness)
    approved = await harness.press(pressed["Approve"], as_=league.captain("Hawks"), channel_id=HAWKS_CHANNEL)
    assert "was approved by Hawks Captain" in approved.responses[0].payload["content"]
    before = await rows(harness)
    for label in ("Decline", "Approve"):  # another copy of the message still shows the buttons
        late = await harness.press(pressed[label], as_=league.commissioner(), channel_id=HAWKS_CHANNEL)
        assert late.ephemeral and "That request is no longer open" in late.content, late.text
    assert await rows(harness) == before
    await harness.bot.courier.deliver_due()
    told = [d.payload["content"] for d in harness.discord.dms(NORA.id)]
    assert len(told) == 1 and "You're on **Hawks** now" in told[0], told
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(RosterEntry).join(Player)
                              .where(Player.discord_id == NORA.id)) == 1


async def dm_request(h: Harness) -> dict[str, str]:
    reply = await h.slash("/join", as_=NORA, team="Wolves")
    assert reply.ephemeral and "by direct message" in reply.content, reply.content
    await h.bot.courier.deliver_due()
    (asked,) = [d for d in h.discord.dms(WOLVES_CAPTAIN) if "asks to join" in d.payload["content"]]
    return buttons(asked)


async def test_by_dm_a_captain_without_the_captain_role_is_refused(
        harness: Harness, league: SampleLeague, caplog: pytest.LogCaptureFixture) -> None:
    pressed = await dm_request(harness)
    demoted = league.captain("Wolves", with_role=False)
    harness.join(demoted, GUILD)  # on the server, the captain role taken away
    before = await rows(harness)
    reply = await press(harness, pressed["Approve"], as_=demoted, dm=True)
    assert reply.ephemeral and "Only the team's captains or a commissioner" in reply.content, reply.text
    assert "nothing changed" in reply.content
    assert await rows(harness) == before
    no_traceback(caplog)


async def test_by_dm_someone_no_longer_on_the_server_is_refused(harness: Harness, league: SampleLeague) -> None:
    pressed = await dm_request(harness)
    gone = Member(id=WOLVES_CAPTAIN, name="Wolves Captain")
    harness.discord.members[GUILD].pop(WOLVES_CAPTAIN, None)
    before = await rows(harness)
    reply = await press(harness, pressed["Decline"], as_=gone, dm=True)
    assert reply.ephemeral and "nothing changed" in reply.content, reply.text
    assert await rows(harness) == before


async def test_by_dm_a_captain_with_the_role_answers(harness: Harness, league: SampleLeague) -> None:
    pressed = await dm_request(harness)
    captain = league.captain("Wolves")
    harness.join(captain, GUILD)
    reply = await press(harness, pressed["Approve"], as_=captain, dm=True)
    assert "request to join Wolves was approved" in reply.responses[0].payload["content"], reply.text
    async with harness.bot.sessions() as s:
        team = await s.scalar(select(Team.name).join(RosterEntry, RosterEntry.team_id == Team.id).join(Player)
                              .where(Player.discord_id == NORA.id))
    assert team == "Wolves"
