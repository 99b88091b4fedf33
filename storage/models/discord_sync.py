"""What the bot keeps in step on Discord for a league: games' scheduled events, teams' roles.

Discord's ids are stored so that a change updates the bot's own event or role, never another, and
so that a restart knows what already exists there. ``discord_problems`` remembers a permission
Discord refused, so the commissioners are told once, not at every attempt.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class GameEvent(Base):
    """A game's Discord scheduled event, and what it last showed (a fingerprint of name, place, times, status)."""

    __tablename__ = "game_events"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    event_id: Mapped[int] = mapped_column(Snowflake)
    synced: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TeamRole(Base):
    """The Discord role the bot manages for a team: created by it, or adopted by exact name."""

    __tablename__ = "team_roles"
    __table_args__ = (UniqueConstraint("league_id", "role_id"),)

    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    role_id: Mapped[int] = mapped_column(Snowflake)
    adopted: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TeamRoleMember(Base):
    """A member the bot gave a team's role: what it takes back when they leave the roster."""

    __tablename__ = "team_role_members"

    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True)
    discord_id: Mapped[int] = mapped_column(Snowflake, primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    role_id: Mapped[int] = mapped_column(Snowflake)


class DiscordProblem(Base):
    """A permission Discord refused for a feature (scope), reported once; cleared when a call works again."""

    __tablename__ = "discord_problems"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    scope: Mapped[str] = mapped_column(String(64), primary_key=True)
    detail: Mapped[str] = mapped_column(String(300))
    reported_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
