"""Player statistics kept ready to read: each player's line in each counted game (a game with a played
result), and each player's running totals per season, moved by the difference whenever a game's lines
change (bot/services/stats/lines.py). Leaders are then read down an index of the totals, not summed over
every game. Also the league's statistics counter and the weekly statistics message."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow

#: The totals' numbers, each with an index by league and season (the leaders' categories).
TOTAL_COLUMNS = ("gp", "goals", "assists", "points", "pim")


class StatsVersion(Base):
    """Moves (one atomic upsert) with every change to what the league's statistics count; ``seasons`` is the
    league's seasons as the totals are counted by (when they change, the totals are counted again)."""

    __tablename__ = "stats_versions"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(default=1)
    seasons: Mapped[str] = mapped_column(String(4000), default="", server_default="")


class StatLine(Base):
    """One player's numbers in one counted game: on the sheet (``gp``), goals, assists, penalty minutes, and
    in goal (``goalie``) the goals against and a shutout. ``season_id`` is the season the game falls in
    (0: the league has no seasons)."""

    __tablename__ = "stat_lines"
    __table_args__ = (Index("ix_stat_lines_player", "league_id", "player_id", "season_id"),
                      Index("ix_stat_lines_team", "league_id", "team_id", "season_id"))

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    season_id: Mapped[int] = mapped_column(default=0)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    gp: Mapped[int] = mapped_column(default=0)
    goals: Mapped[int] = mapped_column(default=0)
    assists: Mapped[int] = mapped_column(default=0)
    pim: Mapped[int] = mapped_column(default=0)
    goalie: Mapped[int] = mapped_column(default=0)
    goals_against: Mapped[int] = mapped_column(default=0)
    shutout: Mapped[int] = mapped_column(default=0)


class StatTotal(Base):
    """A player's running totals in one season (``season_id`` 0: a league without seasons), the sum of their
    lines: what /stats leaders reads, by index, best first."""

    __tablename__ = "stat_totals"
    __table_args__ = tuple(Index(f"ix_stat_totals_{c}", "league_id", "season_id", c) for c in TOTAL_COLUMNS)

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    season_id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    gp: Mapped[int] = mapped_column(default=0)
    goals: Mapped[int] = mapped_column(default=0)
    assists: Mapped[int] = mapped_column(default=0)
    points: Mapped[int] = mapped_column(default=0)
    pim: Mapped[int] = mapped_column(default=0)


class StatsPost(Base):
    """The league's statistics message in the standings channel (youth 2.16), edited in place each week.

    A new message is posted through the outbox: ``send_key`` names its row, and ``message_id`` is kept once
    the send is known to have happened (the outbox's sent hook)."""

    __tablename__ = "stats_posts"
    __table_args__ = (UniqueConstraint("league_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    channel_id: Mapped[int] = mapped_column(Snowflake)
    message_id: Mapped[int | None] = mapped_column(Snowflake)
    send_key: Mapped[str | None] = mapped_column(String(200))
    posted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
