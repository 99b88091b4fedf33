"""Every feature's models, imported so that metadata (and Alembic) sees them all."""

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow
from storage.models.checkins import CheckIn
from storage.models.core import (
    Division,
    Game,
    League,
    Player,
    RosterEntry,
    Team,
    TeamCaptain,
)
from storage.models.outbox import OutboxMessage

__all__ = [
    "Base", "CheckIn", "Division", "Game", "League", "OutboxMessage", "Player", "RosterEntry", "Snowflake", "Team",
    "TeamCaptain", "UTCDateTime", "utcnow",
]
