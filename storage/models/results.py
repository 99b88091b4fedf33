"""Game results, commissioners' point adjustments, the results audit log, the standings message and
the playoff bracket."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bot.league.vocabulary import DECISIONS, Decided
from storage.models.base import Base, Snowflake, UTCDateTime, utcnow
from storage.models.core import Game, Team

RESULT_ACTIONS = ("entered", "fixed", "imported", "withdrawn")  # withdrawn: a late-start forfeit undone


class Result(Base):
    """The final score of one game, as the referee or scorekeeper entered it (one per game).

    Shootout goals are kept apart from the score (youth rule 2.14). A forfeit stores the rules'
    forfeit score (youth rule 2.4: 5-0) and the side that forfeited; ``penalty_waived`` records a
    commissioners' decision that the forfeit costs no standings point.
    """

    __tablename__ = "results"
    __table_args__ = (
        UniqueConstraint("game_id"),
        CheckConstraint(f"decided IN {DECISIONS!r}", name="decided"),
        CheckConstraint("home_score BETWEEN 0 AND 99 AND away_score BETWEEN 0 AND 99", name="scores"),
        CheckConstraint("(shootout_home IS NULL) = (shootout_away IS NULL)", name="shootout_pair"),
        CheckConstraint("(decided = 'forfeit') = (forfeit_team_id IS NOT NULL)", name="forfeit_team"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    home_score: Mapped[int]
    away_score: Mapped[int]
    decided: Mapped[Decided] = mapped_column(String(16))
    shootout_home: Mapped[int | None]
    shootout_away: Mapped[int | None]
    forfeit_team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    penalty_waived: Mapped[bool] = mapped_column(default=False)
    entered_by: Mapped[int | None] = mapped_column(Snowflake)  # None: imported from a CSV file
    entered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_by: Mapped[int | None] = mapped_column(Snowflake)
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    game: Mapped[Game] = relationship(lazy="joined")
    forfeit_team: Mapped[Team | None] = relationship(lazy="joined")


class ResultChange(Base):
    """The audit log of results: every entry and correction, with the values before and after."""

    __tablename__ = "result_changes"
    __table_args__ = (
        CheckConstraint(f"action IN {RESULT_ACTIONS!r}", name="action"),
        Index("ix_result_changes_game", "league_id", "game_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(16))
    old: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    new: Mapped[dict[str, Any]] = mapped_column(JSON)
    changed_by: Mapped[int | None] = mapped_column(Snowflake)
    changed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    reason: Mapped[str | None] = mapped_column(String(300))


class StandingsAdjustment(Base):
    """Points a commissioner adds or removes outside any game (youth rule 1.22)."""

    __tablename__ = "standings_adjustments"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    points: Mapped[int]
    reason: Mapped[str] = mapped_column(String(300))
    made_by: Mapped[int | None] = mapped_column(Snowflake)
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    team: Mapped[Team] = relationship(lazy="joined")


class StandingsPost(Base):
    """The league's standings message, edited in place after every result.

    A new message is posted through the outbox: ``send_key`` names its outbox row, and ``message_id``
    stays empty until the send is known to have happened (a crash in between loses nothing).
    """

    __tablename__ = "standings_posts"
    __table_args__ = (UniqueConstraint("league_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    channel_id: Mapped[int] = mapped_column(Snowflake)
    message_id: Mapped[int | None] = mapped_column(Snowflake)
    send_key: Mapped[str | None] = mapped_column(String(200))
    posted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PlayoffBracket(Base):
    """A current playoff bracket (one per division where the rules draw divisions apart): the seeds, and
    each matchup's winner as it is decided.

    The bracket itself is rebuilt from the seeds by the pure engine (bot.league.playoffs).
    ``winners`` maps a matchup id ("R1-M2") to ``{"team": name, "game": code or None}``.
    """

    __tablename__ = "playoff_brackets"
    __table_args__ = (UniqueConstraint("league_id", "division"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    # The division it is drawn in ("" for the whole league): youth draws junior and senior apart (1.1, 1.18).
    division: Mapped[str] = mapped_column(String(100), default="", server_default="")
    seeds: Mapped[list[str]] = mapped_column(JSON)
    winners: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_by: Mapped[int | None] = mapped_column(Snowflake)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PlayoffDisqualification(Base):
    """A team the commissioners disqualified from the playoffs (youth 1.22): left out of every draw."""

    __tablename__ = "playoff_disqualifications"
    __table_args__ = (UniqueConstraint("league_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(String(300))
    made_by: Mapped[int | None] = mapped_column(Snowflake)
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SeedingDecision(Base):
    """The order a commissioner set for teams level on every seeding criterion (`/bracket seed`): the audit,
    and what every later draw applies to those teams while they stay level."""

    __tablename__ = "seeding_decisions"
    __table_args__ = (Index("ix_seeding_decisions_league", "league_id", "made_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_ids: Mapped[list[int]] = mapped_column(JSON)  # best seed first
    made_by: Mapped[int | None] = mapped_column(Snowflake)
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
