"""Who stands in for a team's captain (coach): its assistant coach (youth 1.4), and the member a captain
names for one game (youth 1.6). When either holds the captain's powers, bot/services/people.py says. And
who is put forward for a team's management before the draft (youth 1.5)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, String, UniqueConstraint
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


class StaffNomination(Base):
    """Someone put forward as a team's coach, assistant coach or captain (youth 1.5 "Interested candidates ...
    must notify the commissioner(s)"), until a commissioner confirms or declines it. ``born`` is the
    nominee's date of birth, given privately for a coach's age (youth 1.3) and shown to commissioners only."""

    __tablename__ = "staff_nominations"
    __table_args__ = (CheckConstraint("post IN ('coach', 'assistant', 'captain')", name="post"),
                      CheckConstraint("status IN ('pending', 'confirmed', 'declined')", name="status"),
                      Index("ix_staff_nominations_league_id_status", "league_id", "status"),
                      Index("ix_staff_nominations_team_id_discord_id", "team_id", "discord_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    post: Mapped[str] = mapped_column(String(16))
    discord_id: Mapped[int] = mapped_column(Snowflake)
    name: Mapped[str] = mapped_column(String(100), default="")
    born: Mapped[date | None] = mapped_column(Date)
    nominated_by: Mapped[int] = mapped_column(Snowflake)
    nominated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    decided_by: Mapped[int | None] = mapped_column(Snowflake)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
