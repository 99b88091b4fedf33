"""/schedule-generate through the real command tree, in a youth league (1.8): a commissioner uploads booked
slots, sees the schedule privately, and its Import button imports exactly the games shown; nobody else can."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.config.settings import Settings
from storage.models import Game
from tests.conftest import CHANNELS, SampleLeague, league_config, make_settings
from tests.harness import Attachment, Harness
from tests.reliability.snapshot import changed_tables, snapshot

# Saturdays in March 2030, after the sample games; a senior slot each week and a junior one.
SLOTS = b"""starts_at,venue,division
2030-03-02 18:00,Rink C,senior
2030-03-02 19:00,Rink C,junior
2030-03-09 18:00,Rink C,senior
2030-03-09 19:00,Rink C,junior
"""


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config(preset="youth-ball-hockey", channels=CHANNELS))


async def games(harness: Harness) -> list[tuple[str, str]]:
    async with harness.bot.sessions() as s:
        return [(code, venue) for code, venue in (await s.execute(
            select(Game.code, Game.venue).where(Game.code.like("SEN%")).order_by(Game.code))).all()]


def view_message_id(harness: Harness, custom_id: str) -> int:
    """The message a live (not persistent) view was sent with: discord.py finds the view by it."""
    views = harness.bot._connection._view_store._views
    return next(message_id for message_id, items in views.items()
                if message_id is not None and any(key[1] == custom_id for key in items))


async def test_a_commissioner_previews_the_schedule_and_imports_exactly_it(
        harness: Harness, league: SampleLeague) -> None:
    before = await snapshot(harness.bot.sessions)
    reply = await harness.slash("/schedule-generate", as_=league.commissioner(), slots=Attachment("slots.csv", SLOTS),
                                meetings=2, division="Senior")
    assert reply.ephemeral
    embed = reply.last.payload["embeds"][0]
    assert embed["title"] == "Schedule for the senior division: each pair meets 2 times"
    assert embed["description"].startswith("2 games in 2 weeks, at most 1 a team a week; 0 of the 2 slots are "
                                           "left free. Nothing is saved until you press")
    assert "Week 2 (from <t:" in embed["description"]
    teams = next(f["value"] for f in embed["fields"] if f["name"] == "Games per team")
    assert teams.splitlines() == ["Hawks: 2 games (1 home, 1 away)", "Owls: 2 games (1 home, 1 away)"]
    attached = next(iter(reply.last.files.values())).decode()
    assert attached.splitlines()[1:] == ["SEN30-01,2030-03-02 18:00,Owls,Hawks,Rink C,regular",
                                         "SEN30-02,2030-03-09 18:00,Hawks,Owls,Rink C,regular"]
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []  # a preview saves nothing

    button = reply.last.payload["components"][0]["components"][0]
    assert button["label"] == "Import these games"
    message_id = view_message_id(harness, button["custom_id"])
    someone = await harness.press(button["custom_id"], as_=league.captain("Hawks"), ephemeral=True,
                                  message_id=message_id)
    assert "Only a commissioner" in someone.text and await games(harness) == []
    done = await harness.press(button["custom_id"], as_=league.commissioner(), ephemeral=True, message_id=message_id)
    assert done.ephemeral and "Imported: games: 2 created" in done.text
    assert await games(harness) == [("SEN30-01", "Rink C"), ("SEN30-02", "Rink C")]
    again = await harness.press(button["custom_id"], as_=league.commissioner(), ephemeral=True, message_id=message_id)
    assert "already imported" in again.text


async def test_too_few_slots_are_refused_saying_what_is_missing(harness: Harness, league: SampleLeague) -> None:
    before = await snapshot(harness.bot.sessions)
    reply = await harness.slash("/schedule-generate", as_=league.commissioner(), slots=Attachment("slots.csv", SLOTS),
                                meetings=3, division="senior")
    assert reply.ephemeral
    assert ("No schedule was made: needs 3 slots in 3 distinct weeks in the senior division; got 2 slots in 2 "
            "weeks") in reply.text
    assert "Youth 1.8" in reply.text and "components" not in reply.last.payload
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []


async def test_a_bad_slots_file_is_refused_by_line(harness: Harness, league: SampleLeague) -> None:
    bad = b"starts_at,venue\n2030-03-02 18:00,Rink C\nsoon,Rink C\n"
    reply = await harness.slash("/schedule-generate", as_=league.commissioner(), meetings=1, division="senior",
                                slots=Attachment("slots.csv", bad))
    assert reply.ephemeral and "line 3: starts_at 'soon' is not a date and time" in reply.text


async def test_a_captain_cannot_generate(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/schedule-generate", as_=league.captain("Hawks"),
                                slots=Attachment("slots.csv", SLOTS), meetings=1)
    assert reply.ephemeral and "Only a commissioner" in reply.content
    assert not [c for c in harness.discord.calls if c.method == "GET" and "attachments" in c.path]


async def test_weeks_are_the_seasons_from_its_first_day(harness: Harness, league: SampleLeague) -> None:
    """One game a team a week (youth 1.8) counts the season's weeks: from a Wednesday first day, a Monday and
    the Thursday after it are two weeks, where the calendar's Monday-to-Sunday weeks would see one."""
    slots = b"starts_at,venue,division\n2030-03-04 18:00,Rink C,senior\n2030-03-07 18:00,Rink C,senior\n"
    calendar = await harness.slash("/schedule-generate", as_=league.commissioner(), meetings=2, division="senior",
                                   slots=Attachment("slots.csv", slots))
    assert "needs 2 slots in 2 distinct weeks in the senior division; got 2 slots in 1 week" in calendar.text
    started = await harness.slash("/season start", as_=league.commissioner(), name="Spring 2030",
                                  first_day="2030-02-27", weeks=15)  # a Wednesday
    assert "Spring 2030" in started.content, started.content
    seasonal = await harness.slash("/schedule-generate", as_=league.commissioner(), meetings=2, division="senior",
                                   slots=Attachment("slots.csv", slots))
    embed = seasonal.last.payload["embeds"][0]
    assert embed["description"].startswith("2 games in 2 weeks, at most 1 a team a week"), embed["description"]
