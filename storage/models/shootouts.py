"""Shootouts: each team's submitted order, the game's shootout (floor, start) and every attempt.

Orders store player ids in shooting order; names are looked up when shown, so a renamed player reads
right. Attempts keep the shooter's name as it read at the time too, so the sheet survives a player
row being removed.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow

SIDES = ("home", "away")


class ShootoutOrder(Base):
    """A team's shootout order for a game: one per game and team; a resubmission replaces it."""

    __tablename__ = "shootout_orders"
    __table_args__ = (UniqueConstraint("game_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    shooters: Mapped[list[int]] = mapped_column(JSON)  # player ids, initial shooters then sudden death
    submitted_by: Mapped[int] = mapped_column(Snowflake)
    submitted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Shootout(Base):
    """A game's shootout: who was on the floor after overtime, the tied score, when it started and ended.

    ``home_on_floor`` / ``away_on_floor`` (player ids) are None until a captain or referee marks them
    (indoor soccer only). ``tied_score`` is each team's goals when the game went to the shootout.
    """

    __tablename__ = "shootouts"
    __table_args__ = (
        UniqueConstraint("game_id"),
        CheckConstraint(f"first_side IN {SIDES!r}", name="first_side"),
        CheckConstraint("tied_score BETWEEN 0 AND 99", name="tied_score"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    home_on_floor: Mapped[list[int] | None] = mapped_column(JSON)
    away_on_floor: Mapped[list[int] | None] = mapped_column(JSON)
    floor_marked_by: Mapped[int | None] = mapped_column(Snowflake)
    floor_marked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    tied_score: Mapped[int | None]
    first_side: Mapped[str | None] = mapped_column(String(4))
    started_by: Mapped[int | None] = mapped_column(Snowflake)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ShootoutAttempt(Base):
    """One shot of a game's shootout, in the order taken (``seq`` from 1)."""

    __tablename__ = "shootout_attempts"
    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        CheckConstraint(f"side IN {SIDES!r}", name="side"),
        CheckConstraint("seq >= 1", name="seq"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int]
    side: Mapped[str] = mapped_column(String(4))
    shooter_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    shooter_name: Mapped[str] = mapped_column(String(100), default="")
    scored: Mapped[bool]
    recorded_by: Mapped[int] = mapped_column(Snowflake)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
