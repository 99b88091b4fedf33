"""Every feature's models, imported so that metadata (and Alembic) sees them all."""

from storage.models.availability import AwayRange, Guest, ReminderPreference
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
from storage.models.deadlines import CaptainAlert, Deadline
from storage.models.discipline import Appeal, Penalty, Suspension
from storage.models.outbox import OutboxMessage
from storage.models.relays import CaptainNote, Dispute, RefereeAssignment, Relay
from storage.models.results import PlayoffBracket, Result, ResultChange, StandingsAdjustment, StandingsPost
from storage.models.rulebooks import Rulebook, RuleSection
from storage.models.setup import GenderAsk, LeagueSetup, SetupChange
from storage.models.shootouts import Shootout, ShootoutAttempt, ShootoutOrder

__all__ = [
    "Appeal", "AwayRange", "Base", "CaptainAlert", "CaptainNote", "CheckIn", "Deadline", "Dispute", "Division",
    "Game", "GenderAsk", "Guest", "League", "LeagueSetup", "OutboxMessage", "Penalty", "Player", "PlayoffBracket",
    "RefereeAssignment", "Relay", "ReminderPreference", "Result", "ResultChange", "RosterEntry", "RuleSection",
    "Rulebook", "SetupChange", "Shootout", "ShootoutAttempt", "ShootoutOrder", "Snowflake", "StandingsAdjustment",
    "StandingsPost", "Suspension", "Team", "TeamCaptain", "UTCDateTime", "utcnow",
]
