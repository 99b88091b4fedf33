"""Every feature's models, imported so that metadata (and Alembic) sees them all."""

from storage.models.availability import AwayRange, Guest, ReminderPreference
from storage.models.base import Base, Snowflake, UTCDateTime, utcnow
from storage.models.calendar import CalendarFeed
from storage.models.checkins import CheckIn
from storage.models.core import (
    Division,
    Game,
    League,
    Player,
    PlayerGuardian,
    RosterDeparture,
    RosterEntry,
    Team,
    TeamCaptain,
)
from storage.models.deadlines import CaptainAlert, Deadline
from storage.models.discipline import (
    Appeal,
    BenchPenalty,
    GameDuty,
    MissedCleanup,
    Penalty,
    Suspension,
    SuspensionReview,
)
from storage.models.discord_sync import DiscordProblem, GameEvent, TeamRole, TeamRoleMember
from storage.models.draft import Draft, DraftPick
from storage.models.gamesheets import GameSheet, GameSheetChange, GameSheetEntry, Goal, LateStart
from storage.models.messages import CaptainNote, Dispute, RefereeAssignment, Relay
from storage.models.outbox import OutboxMessage
from storage.models.registration import Registration, RegistrationException, RegistrationOffer, RegistrationWindow
from storage.models.reminders import ReminderMessage
from storage.models.replacements import ReplacementRequest
from storage.models.results import (
    PlayoffBracket,
    PlayoffDisqualification,
    Result,
    ResultChange,
    SeedingDecision,
    StandingsAdjustment,
    StandingsPost,
)
from storage.models.rulebooks import (
    Rulebook,
    RuleFeedback,
    RuleFeedbackSettings,
    RuleLink,
    RuleQuestion,
    RuleSection,
    RuleWord,
)
from storage.models.rulevotes import RuleVote, RuleVoteVoter
from storage.models.seasons import Season
from storage.models.setup import GenderAsk, LeagueSetup, SetupChange
from storage.models.shootouts import Shootout, ShootoutAttempt, ShootoutOrder
from storage.models.spares import GameSpare, Spare, SpareOffer, SpareRequest
from storage.models.staff import AssistantCoach, StaffNomination, StandInCaptain
from storage.models.stats import StatLine, StatsPost, StatsVersion, StatTotal
from storage.models.trades import Trade, TradePlayer

__all__ = [
    "Appeal", "AssistantCoach", "AwayRange", "Base", "BenchPenalty", "CalendarFeed", "CaptainAlert", "CaptainNote",
    "CheckIn", "Deadline", "DiscordProblem", "Dispute", "Division", "Draft", "DraftPick",
    "Game", "GameDuty", "GameEvent", "GameSheet",
    "GameSheetChange", "GameSheetEntry", "GameSpare", "GenderAsk", "Goal", "Guest", "LateStart", "League",
    "LeagueSetup", "MissedCleanup", "OutboxMessage", "Penalty", "Player", "PlayerGuardian", "PlayoffBracket",
    "PlayoffDisqualification",
    "RefereeAssignment", "Registration", "RegistrationException", "RegistrationOffer",
    "RegistrationWindow", "Relay", "ReminderMessage", "ReminderPreference", "ReplacementRequest", "Result",
    "ResultChange", "RosterDeparture", "RosterEntry",
    "RuleFeedback", "RuleFeedbackSettings", "RuleLink", "RuleQuestion", "RuleSection", "RuleVote", "RuleVoteVoter",
    "RuleWord", "Rulebook",
    "Season", "SeedingDecision", "SetupChange", "Shootout", "ShootoutAttempt",
    "ShootoutOrder", "Snowflake", "Spare", "SpareOffer", "SpareRequest", "StaffNomination", "StandInCaptain",
    "StandingsAdjustment",
    "StandingsPost", "StatLine", "StatTotal", "StatsPost", "StatsVersion",
    "Suspension", "SuspensionReview", "Team", "TeamCaptain", "TeamRole", "TeamRoleMember", "Trade", "TradePlayer",
    "UTCDateTime", "utcnow",
]
