"""Who stands in for a team's captain (coach): its assistant coach (youth 1.4), and the member a captain
names for one game (youth 1.6). When either holds the captain's powers, bot/services/people.py says."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class AssistantCoach(Base):
    """A team's assistant coach, named by a commissioner: one per team (youth 1.4 "an Assistant Coach")."""

    __tablename__ = "assistant_coaches"
    __table_args__ = (UniqueConstraint("team_id"),
                      Index("ix_assistant_coaches_discord_id_league_id", "discord_id", "league_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    discord_id: Mapped[int] = mapped_column(Snowflake)
    name: Mapped[str] = mapped_column(String(100), default="")
    named_by: Mapped[int] = mapped_column(Snowflake)
    named_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class StandInCaptain(Base):
    """A member of the team a captain named to take over for one game (youth 1.6): one per team and game."""

    __tablename__ = "stand_in_captains"
    __table_args__ = (UniqueConstraint("game_id", "team_id"),
                      Index("ix_stand_in_captains_discord_id_game_id", "discord_id", "game_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    discord_id: Mapped[int] = mapped_column(Snowflake)
    name: Mapped[str] = mapped_column(String(100), default="")
    named_by: Mapped[int] = mapped_column(Snowflake)
    named_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
