"""/schedule through the real command tree."""

from __future__ import annotations

from tests.conftest import SampleLeague
from tests.harness import Harness


async def test_schedule_shows_a_rostered_players_upcoming_games_with_timestamps(
        harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/schedule", as_=league.player("Alice Hart"))

    assert reply.ephemeral
    text = reply.text
    assert "Hawks: upcoming games" in text
    assert "vs Owls" in text and "vs Bears" in text
    assert "Wolves" not in text  # not a Hawks game
    assert "<t:1894406400:F>" in text  # 2030-01-11 19:00 in Toronto is 00:00 UTC next day
    assert "Rink A" in text and "`G1`" in text
    assert "you: no reply yet" in text


async def test_schedule_for_another_team_by_name(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/schedule", as_=league.player("Alice Hart"), team="wolves")
    assert "Wolves: upcoming games" in reply.text
    assert "vs Bears" in reply.text and "vs Owls" in reply.text


async def test_schedule_for_an_unknown_team_is_a_polite_ephemeral_error(
        harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/schedule", as_=league.player("Alice Hart"), team="Penguins")
    assert reply.ephemeral
    assert "There's no team called “Penguins”" in reply.content


async def test_schedule_for_someone_on_no_team_says_how_to_join(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/schedule", as_=league.stranger())
    assert reply.ephemeral
    assert "not on a team" in reply.content


async def test_team_autocomplete_suggests_matching_teams(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.autocomplete("/schedule", focused="team", team="o", as_=league.stranger())
    assert [c["value"] for c in reply.autocomplete_choices] == ["Owls", "Wolves"]
