"""A game as a Discord scheduled event: its name, place, start and end, and what it should show.

Pure: the sync service (bot/services/discord_sync/events.py) compares what a game should show with
what the event last showed, by fingerprint, and sends Discord only the difference.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.league.game_format import GameFormat, GameKind

NAME_LIMIT = 100  # Discord: an event's name and its location are at most 100 characters
LOCATION_LIMIT = 100
NO_VENUE = "Venue to be announced"
SCHEDULED, CANCELED = 1, 4  # Discord's event statuses Sideline sets
EXTERNAL, GUILD_ONLY = 3, 2  # entity type and privacy level


def game_minutes(game_format: GameFormat, kind: GameKind) -> int:
    """How long the ice (or floor) is booked: regulation, the breaks between periods, and overtime."""
    breaks = (game_format.periods - 1) * (game_format.intermission_minutes or 0)
    overtime = game_format.overtime_for(kind)
    extra = overtime.periods * overtime.period_minutes
    if extra:
        extra += game_format.intermission_minutes or 0
    return game_format.regulation_minutes + breaks + extra


@dataclass(frozen=True)
class EventShape:
    """What a game's scheduled event should show."""

    name: str
    location: str
    starts_at: datetime
    ends_at: datetime
    description: str
    cancelled: bool

    @property
    def fingerprint(self) -> str:
        """Changes whenever anything shown changes: a stored one equal to it means nothing to send."""
        text = "|".join((self.name, self.location, self.starts_at.isoformat(), self.ends_at.isoformat(),
                         self.description, str(self.cancelled)))
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def marker(code: str) -> str:
    """The description's last line names the game: how a restart recognises an event it created."""
    return f"Sideline game {code}"


def event_shape(*, home: str, away: str, venue: str, code: str, starts_at: datetime, kind: GameKind,
                game_format: GameFormat, cancelled: bool) -> EventShape:
    """"Hawks vs Owls" at the venue, for the preset's game length."""
    name = f"{home} vs {away}"
    if len(name) > NAME_LIMIT:
        name = name[:NAME_LIMIT - 1] + "…"
    location = " ".join(venue.split()) or NO_VENUE
    if len(location) > LOCATION_LIMIT:
        location = location[:LOCATION_LIMIT - 1] + "…"
    ends_at = starts_at + timedelta(minutes=game_minutes(game_format, kind))
    what = "Playoff game" if kind == "playoff" else "Game"
    description = f"{what}: {home} vs {away}. Check in with /checkin.\n{marker(code)}"
    return EventShape(name, location, starts_at, ends_at, description, cancelled)


def event_body(shape: EventShape) -> dict[str, object]:
    """The JSON Discord takes to create the event, or to bring an existing one up to date."""
    return {"name": shape.name, "privacy_level": GUILD_ONLY, "entity_type": EXTERNAL,
            "entity_metadata": {"location": shape.location},
            "scheduled_start_time": shape.starts_at.isoformat(), "scheduled_end_time": shape.ends_at.isoformat(),
            "description": shape.description}


def shows(event: dict[str, object], shape: EventShape) -> bool:
    """Whether an event as Discord returns it already shows the shape (after a restart, say)."""
    metadata = event.get("entity_metadata") or {}
    location = metadata.get("location") if isinstance(metadata, dict) else None
    status = event.get("status")
    return (event.get("name") == shape.name and location == shape.location
            and _same_time(event.get("scheduled_start_time"), shape.starts_at)
            and _same_time(event.get("scheduled_end_time"), shape.ends_at)
            and (status == CANCELED) == shape.cancelled)


def _same_time(value: object, when: datetime) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return datetime.fromisoformat(value) == when
    except ValueError:
        return False
