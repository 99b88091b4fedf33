"""Spares: the league's pool, requests for a spare, the offers sent, and the spots filled."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.league.vocabulary import POSITIONS, Position
from storage.models.base import Base, Snowflake, UTCDateTime, utcnow

REQUEST_STATUSES = ("open", "filled", "closed")
OFFER_ANSWERS = ("accepted", "declined")


class Spare(Base):
    """A player on the league's spare list, with where they play and the days they're usually free."""

    __tablename__ = "spares"
    __table_args__ = (UniqueConstraint("league_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    plays_skater: Mapped[bool] = mapped_column(default=True)
    plays_goalie: Mapped[bool] = mapped_column(default=False)
    free_days: Mapped[str] = mapped_column(String(16), default="")  # weekday digits, 0 = Monday; "" = any
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SpareRequest(Base):
    """A team's call for spares for one game; ``filled`` counts the spots taken in this round.

    One row per (game, team): asking again reopens it in a new ``round`` (the outbox keys carry it).
    An accept takes a spot with a conditional UPDATE on (status, filled), so two at once can't both win.
    """

    __tablename__ = "spare_requests"
    __table_args__ = (
        UniqueConstraint("game_id", "team_id"),
        CheckConstraint(f"status IN {REQUEST_STATUSES!r}", name="status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    requested_by: Mapped[int] = mapped_column(Snowflake)
    status: Mapped[str] = mapped_column(String(8), default="open")
    round: Mapped[int] = mapped_column(default=1)
    filled: Mapped[int] = mapped_column(default=0)
    need: Mapped[str] = mapped_column(String(300), default="")  # what was missing when asked, in words
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class SpareOffer(Base):
    """One spare offered one request (once: the unique key keeps later waves from asking again)."""

    __tablename__ = "spare_offers"
    __table_args__ = (
        UniqueConstraint("request_id", "player_id"),
        CheckConstraint(f"answer IN {OFFER_ANSWERS!r}", name="answer"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    request_id: Mapped[int] = mapped_column(ForeignKey("spare_requests.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(default=1)
    wave: Mapped[int] = mapped_column(default=1)
    offered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    answer: Mapped[str | None] = mapped_column(String(8))
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class GameSpare(Base):
    """A spare who took a spot: they play this game for this team (the lineup and /whoisin read it)."""

    __tablename__ = "game_spares"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        CheckConstraint(f"position IN {POSITIONS!r}", name="position"),
        Index("ix_game_spares_game_team", "game_id", "team_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    request_id: Mapped[int] = mapped_column(ForeignKey("spare_requests.id", ondelete="CASCADE"))
    position: Mapped[Position] = mapped_column(String(16), default="skater")
    filled_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
