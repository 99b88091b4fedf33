"""A game as a Discord scheduled event: the preset's game length, Discord's limits, what counts as shown."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.league.game_format import GAME_FORMAT_PRESETS, GameKind
from bot.league.scheduled_events import EventShape, event_body, event_shape, game_minutes, shows

START = datetime(2030, 1, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(("preset", "kind", "minutes"), [
    ("coed-ball-hockey", "regular", 2 * 20 + 5 + 5 + 5),  # halves, half time, a break, 5 min overtime
    ("youth-ball-hockey", "regular", 3 * 15 + 2 * 1),  # the tie stands: no overtime in the season
    ("youth-ball-hockey", "playoff", 3 * 15 + 2 * 1 + 1 + 5),
    ("indoor-soccer", "regular", 2 * 25 + 5),
    ("indoor-soccer", "playoff", 2 * 25 + 5 + 5 + 2 * 8),
])
def test_an_event_lasts_the_presets_game_length(preset: str, kind: GameKind, minutes: int) -> None:
    assert game_minutes(GAME_FORMAT_PRESETS[preset], kind) == minutes


def shape(*, home: str = "Hawks", away: str = "Owls", venue: str = "Rink A", starts_at: datetime = START,
          cancelled: bool = False) -> EventShape:
    return event_shape(home=home, away=away, venue=venue, code="G1", starts_at=starts_at, kind="regular",
                       game_format=GAME_FORMAT_PRESETS["coed-ball-hockey"], cancelled=cancelled)


def test_the_event_is_named_after_the_teams_at_the_venue() -> None:
    body = event_body(shape())
    assert body["name"] == "Hawks vs Owls" and body["entity_metadata"] == {"location": "Rink A"}
    assert (body["entity_type"], body["privacy_level"]) == (3, 2)
    assert body["scheduled_end_time"] == (START + timedelta(minutes=55)).isoformat()


def test_long_names_and_venues_fit_discords_limits_and_an_empty_venue_is_announced() -> None:
    long = shape(home="H" * 80, away="O" * 80, venue="V " * 150)
    assert len(long.name) == 100 and len(long.location) == 100
    assert shape(venue="  ").location == "Venue to be announced"


def test_a_move_or_a_cancellation_changes_the_fingerprint_and_what_counts_as_shown() -> None:
    first = shape()
    moved = shape(starts_at=START + timedelta(days=1))
    cancelled = shape(cancelled=True)
    assert len({first.fingerprint, moved.fingerprint, cancelled.fingerprint}) == 3
    event = {**event_body(first), "status": 1}
    assert shows(event, first) and not shows(event, moved) and not shows(event, cancelled)
    assert shows({**event, "status": 4}, cancelled)
