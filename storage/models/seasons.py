"""A league's seasons: stretches of the calendar that games, results and standings fall into."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class Season(Base):
    """A season runs from ``starts_at`` (its first day's midnight in the league's time zone) until the
    next season's start; the first also holds everything before it. Games carry no season column: the
    date decides (bot/league/seasons.py), so no path that creates games has to know about seasons."""

    __tablename__ = "seasons"
    __table_args__ = (
        UniqueConstraint("league_id", "name"),
        CheckConstraint("weeks >= 1", name="weeks"),
        Index("ix_seasons_league_starts", "league_id", "starts_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    first_day: Mapped[date] = mapped_column(Date)
    weeks: Mapped[int]
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_by: Mapped[int | None] = mapped_column(Snowflake)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
