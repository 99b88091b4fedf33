"""Who can play a game besides the check-ins: players away for a stretch of days, guests cleared
to play one game, and how each player wants to hear about games."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, CheckConstraint, Date, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow

DELIVERIES = ("channel", "dm")


class AwayRange(Base):
    """A player out for every game of their team from ``first_day`` to ``last_day`` (league-local days).

    The range is kept, not written into check-ins, so a game added or moved into it later is covered:
    ``starts_at``/``ends_at`` are the first day's local midnight and the midnight after the last day, in UTC.
    """

    __tablename__ = "away_ranges"
    __table_args__ = (
        CheckConstraint("ends_at > starts_at", name="ordered"),
        Index("ix_away_ranges_player_ends", "player_id", "ends_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime)
    note: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Guest(Base):
    """Someone not on the roster, added by a captain for one game; plays only once staff cleared them."""

    __tablename__ = "guests"
    __table_args__ = (UniqueConstraint("game_id", "team_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100))  # casefolded: one guest of a name per team and game
    discord_id: Mapped[int | None] = mapped_column(Snowflake)  # when the guest is a member of the server
    added_by: Mapped[int] = mapped_column(Snowflake)
    added_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    cleared_by: Mapped[int | None] = mapped_column(Snowflake)
    cleared_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ReminderPreference(Base):
    """How one player hears game reminders and deadline nudges (no row: the team channel, nothing muted)."""

    __tablename__ = "reminder_preferences"
    __table_args__ = (
        UniqueConstraint("league_id", "player_id"),
        CheckConstraint(f"delivery IN {DELIVERIES!r}", name="delivery"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    delivery: Mapped[str] = mapped_column(String(8), default="channel")
    mute_game_reminders: Mapped[bool] = mapped_column(Boolean, default=False)
    mute_deadline_nudges: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
