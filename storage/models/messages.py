"""Captains' relays to referees, formal disputes, players' notes to captains, referee assignments.

Relays and disputes are an audit trail: who sent what, when, and what became of it (acknowledged,
answered, decided). Names are stored next to Discord ids as they read at the time.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bot.league.gamesheets.officials import OFFICIAL_ROLES, OfficialRole
from bot.league.messages import TEXT_LIMIT
from storage.models.base import Base, Snowflake, UTCDateTime, utcnow
from storage.models.core import Game, Team

RELAY_STATUSES = ("open", "acknowledged", "answered")
DISPUTE_STATUSES = ("open", "decided")
DISPUTE_OUTCOMES = ("upheld", "partly-upheld", "rejected", "withdrawn")
NOTE_STATUSES = ("sent", "thread", "undeliverable")  # sent: queued as DMs; thread: a DM failed


class RefereeAssignment(Base):
    """An official (by Discord id) assigned to a game: its referee (relays for it reach them by DM) or its
    timekeeper (youth 2.2). One role per person and game."""

    __tablename__ = "referee_assignments"
    __table_args__ = (UniqueConstraint("game_id", "referee_id"),
                      CheckConstraint(f"role IN {OFFICIAL_ROLES!r}", name="role"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    referee_id: Mapped[int] = mapped_column(Snowflake, index=True)
    referee_name: Mapped[str] = mapped_column(String(100), default="")
    role: Mapped[OfficialRole] = mapped_column(String(16), default="referee", server_default="referee")
    assigned_by: Mapped[int | None] = mapped_column(Snowflake)
    assigned_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Relay(Base):
    """A captain's message to a game's referees, and whether a referee acknowledged or answered it."""

    __tablename__ = "relays"
    __table_args__ = (
        CheckConstraint(f"status IN {RELAY_STATUSES!r}", name="status"),
        Index("ix_relays_game_team", "game_id", "team_id"),
        Index("ix_relays_league_created", "league_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    captain_id: Mapped[int] = mapped_column(Snowflake)
    captain_name: Mapped[str] = mapped_column(String(100), default="")
    message: Mapped[str] = mapped_column(String(TEXT_LIMIT))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(16), default="open")
    acknowledged_by: Mapped[int | None] = mapped_column(Snowflake)
    acknowledged_by_name: Mapped[str] = mapped_column(String(100), default="")
    acknowledged_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    answered_by: Mapped[int | None] = mapped_column(Snowflake)
    answered_by_name: Mapped[str] = mapped_column(String(100), default="")
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    answer: Mapped[str] = mapped_column(String(TEXT_LIMIT), default="")

    game: Mapped[Game] = relationship(lazy="joined")
    team: Mapped[Team] = relationship(lazy="joined")


class Dispute(Base):
    """A captain's formal dispute about a game, for the commissioners to decide within the window."""

    __tablename__ = "disputes"
    __table_args__ = (
        CheckConstraint(f"status IN {DISPUTE_STATUSES!r}", name="status"),
        Index("ix_disputes_league_status", "league_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    captain_id: Mapped[int] = mapped_column(Snowflake)
    captain_name: Mapped[str] = mapped_column(String(100), default="")
    message: Mapped[str] = mapped_column(String(TEXT_LIMIT))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(16), default="open")
    outcome: Mapped[str | None] = mapped_column(String(16))
    decision: Mapped[str] = mapped_column(String(TEXT_LIMIT), default="")
    decided_by: Mapped[int | None] = mapped_column(Snowflake)
    decided_by_name: Mapped[str] = mapped_column(String(100), default="")
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    game: Mapped[Game] = relationship(lazy="joined")
    team: Mapped[Team] = relationship(lazy="joined")


class CaptainNote(Base):
    """A player's private note to their team's captains (/tellcaptain), and how it was delivered."""

    __tablename__ = "captain_notes"
    __table_args__ = (
        CheckConstraint(f"status IN {NOTE_STATUSES!r}", name="status"),
        Index("ix_captain_notes_sender", "league_id", "sender_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    sender_id: Mapped[int] = mapped_column(Snowflake)
    sender_name: Mapped[str] = mapped_column(String(100), default="")
    message: Mapped[str] = mapped_column(String(TEXT_LIMIT))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(16), default="sent")
    fallback_thread_id: Mapped[int | None] = mapped_column(Snowflake)

    team: Mapped[Team] = relationship(lazy="joined")
