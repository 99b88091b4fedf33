"""Game sheets: who played each game for each team, every change to them, and whether a team confirmed
its sheet (bot/league/gamesheets/sheet.py says who is on one)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.league.gamesheets.sheet import SOURCES, Source
from bot.league.vocabulary import POSITIONS, Position
from storage.models.base import Base, Snowflake, UTCDateTime, partial_index, utcnow

SHEET_ACTIONS = ("added", "removed", "confirmed")


class GameSheet(Base):
    """One team's sheet for one game: whether it was confirmed, and when it stopped following the team's
    answers (``frozen_at``: at its confirmation, or when the game's result was recorded)."""

    __tablename__ = "game_sheets"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    confirmed_by: Mapped[int | None] = mapped_column(Snowflake)
    confirmed_by_name: Mapped[str] = mapped_column(String(100), default="")
    confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    frozen_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class GameSheetEntry(Base):
    """A line of a team's sheet: a league player, a guest, or both (a guest who plays in the league). A line
    taken off by hand keeps its row with ``removed_at`` set, so the team's answers don't put it back; "on the
    sheet" is ``removed_at IS NULL``."""

    __tablename__ = "game_sheet_entries"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),  # one side per player and game
        UniqueConstraint("game_id", "guest_id"),
        CheckConstraint("player_id IS NOT NULL OR guest_id IS NOT NULL", name="who"),
        CheckConstraint(f"source IN {SOURCES!r}", name="source"),
        CheckConstraint(f"position IN {POSITIONS!r}", name="position"),
        Index("ix_game_sheet_entries_game_team", "game_id", "team_id"),
        # Games played and attendance: a player's lines, read per player.
        partial_index("ix_game_sheet_entries_player", "league_id", "player_id", "game_id",
                      where="removed_at IS NULL"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    guest_id: Mapped[int | None] = mapped_column(ForeignKey("guests.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    position: Mapped[Position] = mapped_column(String(16), default="skater")
    number: Mapped[int | None]  # the sweater number, when someone gave it
    source: Mapped[Source] = mapped_column(String(16))
    added_by: Mapped[int | None] = mapped_column(Snowflake)  # None: pre-filled from the team's answers
    added_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    removed_by: Mapped[int | None] = mapped_column(Snowflake)
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class GameSheetChange(Base):
    """The log of changes made by hand to a sheet: who added, removed or confirmed what, and when."""

    __tablename__ = "game_sheet_changes"
    __table_args__ = (
        CheckConstraint(f"action IN {SHEET_ACTIONS!r}", name="action"),
        Index("ix_game_sheet_changes_game", "game_id", "team_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(100), default="")  # the line's name ("" for a confirmation)
    changed_by: Mapped[int] = mapped_column(Snowflake)
    changed_by_name: Mapped[str] = mapped_column(String(100), default="")
    changed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Goal(Base):
    """A goal as the referee or timekeeper recorded it: the scoring team, the scorer, up to two assists and
    the goalie scored upon (when the other team's sheet has one goalie). A disallowed goal (youth 3.4 (1))
    stays on record with its reason and the minor it brought; a goal taken back keeps its row with
    ``removed_at`` set. Statistics count goals neither disallowed nor taken back, in games with a played
    result (bot/services/stats/)."""

    __tablename__ = "goals"
    __table_args__ = (
        Index("ix_goals_game", "game_id", "team_id"),
        # A player's goals and assists, read per player (/stats player) and per game set (/stats leaders).
        partial_index("ix_goals_scorer", "scorer_id", where="removed_at IS NULL AND NOT disallowed"),
        partial_index("ix_goals_assist1", "assist1_id", where="removed_at IS NULL AND NOT disallowed"),
        partial_index("ix_goals_assist2", "assist2_id", where="removed_at IS NULL AND NOT disallowed"),
        CheckConstraint("period IS NULL OR period >= 1", name="period"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    scorer_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    assist1_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    assist2_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    goalie_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    period: Mapped[int | None]
    clock: Mapped[str | None] = mapped_column(String(8))  # "MM:SS" into the period, as on the sheet
    disallowed: Mapped[bool] = mapped_column(default=False)
    disallowed_reason: Mapped[str] = mapped_column(String(300), default="")
    recorded_by: Mapped[int] = mapped_column(Snowflake)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    removed_by: Mapped[int | None] = mapped_column(Snowflake)
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class LateStart(Base):
    """What the referee or timekeeper recorded from a late-start prompt (youth 2.4): the bench minor to a team
    still short when the grace period ended, or its forfeit when it was still short at the forfeit time; and
    whether it was undone. One standing record per game, team and action."""

    __tablename__ = "late_starts"
    __table_args__ = (
        CheckConstraint("action IN ('minor', 'forfeit')", name="action"),
        partial_index("uq_late_starts_standing", "game_id", "team_id", "action", unique=True,
                      where="undone_at IS NULL"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(16))
    bench_penalty_id: Mapped[int | None] = mapped_column(ForeignKey("bench_penalties.id", ondelete="SET NULL"))
    made_by: Mapped[int] = mapped_column(Snowflake)
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    undone_by: Mapped[int | None] = mapped_column(Snowflake)
    undone_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
