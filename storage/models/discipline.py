"""Discipline: penalties called in games, suspensions served in the team's next games, appeals, and arena
duties (setting up, cleaning up): who is on duty for a game where a commissioner said so, and a duty missed
(a team's bench minor)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bot.league.discipline.appeals import APPEAL_OUTCOMES, AppealOutcome
from bot.league.discipline.cleanup import DUTIES, Duty
from bot.league.discipline.infractions import CATEGORIES, Category
from bot.league.discipline.reviews import REVIEW_ACTIONS, ReviewAction
from bot.league.discipline.suspensions import SuspensionStatus
from storage.models.base import Base, Snowflake, UTCDateTime, partial_index, utcnow
from storage.models.core import Game, Player, Team

SUSPENSION_STATUSES = ("active", "served", "overturned")


class Penalty(Base):
    """One infraction a referee called against a player in a game, with what followed from it."""

    __tablename__ = "penalties"
    __table_args__ = (
        CheckConstraint(f"category IN {CATEGORIES!r}", name="category"),
        CheckConstraint("minutes >= 0 AND (minute IS NULL OR minute >= 0)", name="minutes"),
        Index("ix_penalties_game_player", "league_id", "game_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    infraction_key: Mapped[str] = mapped_column(String(64))  # what is recorded (a repeated warning: its minor)
    called_key: Mapped[str] = mapped_column(String(64))  # what the referee called
    category: Mapped[Category] = mapped_column(String(32))
    minutes: Mapped[int] = mapped_column(default=0)
    minute: Mapped[int | None]  # elapsed game minute, when the referee gave it
    ejected: Mapped[bool] = mapped_column(default=False)
    game_misconduct: Mapped[bool] = mapped_column(default=False)
    suspension_games: Mapped[int] = mapped_column(default=0)
    pending_review: Mapped[bool] = mapped_column(default=False)
    summary: Mapped[str] = mapped_column(String(1000))  # the consequences, as the referee was told
    referee_id: Mapped[int] = mapped_column(Snowflake)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    game: Mapped[Game] = relationship(lazy="joined")
    player: Mapped[Player] = relationship(lazy="joined")
    team: Mapped[Team] = relationship(lazy="joined")


class Suspension(Base):
    """Games a player sits out, served in the team's next games (after earlier suspensions)."""

    __tablename__ = "suspensions"
    __table_args__ = (
        CheckConstraint(f"status IN {SUSPENSION_STATUSES!r}", name="status"),
        CheckConstraint("games >= 0 AND games_served >= 0", name="games"),
        Index("ix_suspensions_league_status", "league_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)
    games: Mapped[int]  # the current length (an appeal may have reduced it)
    games_issued: Mapped[int]  # the length when issued
    reason: Mapped[str] = mapped_column(String(1000))
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    issued_by: Mapped[int | None] = mapped_column(Snowflake)  # a referee (from a penalty) or a commissioner
    status: Mapped[SuspensionStatus] = mapped_column(String(16), default="active")
    # Set by a referee's penalty whose suspension the commissioners must review (youth 1.12).
    pending_review: Mapped[bool] = mapped_column(default=False)
    penalty_id: Mapped[int | None] = mapped_column(ForeignKey("penalties.id", ondelete="SET NULL"))
    # Games of the team with a result that this suspension was served in (kept up to date by the result hook).
    games_served: Mapped[int] = mapped_column(default=0)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    player: Mapped[Player] = relationship(lazy="joined")
    team: Mapped[Team] = relationship(lazy="joined")
    penalty: Mapped[Penalty | None] = relationship(lazy="joined")


class Appeal(Base):
    """A player's (or their captain's) request to shorten a suspension, and the league's decision."""

    __tablename__ = "appeals"
    __table_args__ = (
        # The n-th appeal of a suspension exists once: two filed at the same moment cannot both pass.
        UniqueConstraint("suspension_id", "number"),
        CheckConstraint(f"outcome IS NULL OR outcome IN {APPEAL_OUTCOMES!r}", name="outcome"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    suspension_id: Mapped[int] = mapped_column(ForeignKey("suspensions.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(default=1)
    filed_by: Mapped[int] = mapped_column(Snowflake)
    filed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    reason: Mapped[str] = mapped_column(String(1000))
    games_before: Mapped[int]  # the suspension's length when the appeal was filed
    outcome: Mapped[AppealOutcome | None] = mapped_column(String(16))
    games: Mapped[int | None]  # the length the decision set
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    decided_by: Mapped[int | None] = mapped_column(Snowflake)

    suspension: Mapped[Suspension] = relationship(lazy="joined")


class SuspensionReview(Base):
    """A commissioner's review of a referee's suspension (youth 1.12): the audit of who decided what.

    A suspension with a review is final: it can't be shortened afterwards except by an appeal's
    decision (youth 1.20.2).
    """

    __tablename__ = "suspension_reviews"
    __table_args__ = (
        UniqueConstraint("suspension_id"),  # reviewed once: two commissioners at the same moment can't both
        CheckConstraint(f"action IN {REVIEW_ACTIONS!r}", name="action"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    suspension_id: Mapped[int] = mapped_column(ForeignKey("suspensions.id", ondelete="CASCADE"))
    action: Mapped[ReviewAction] = mapped_column(String(16))
    games_before: Mapped[int]
    games_after: Mapped[int]
    note: Mapped[str] = mapped_column(String(1000), default="")
    decided_by: Mapped[int] = mapped_column(Snowflake)
    decided_at: Mapped[datetime] = mapped_column(UTCDateTime)


class MissedCleanup(Base):
    """A team that didn't do its arena duty for a game, as a referee recorded it: it didn't clear the arena
    after it (youth 2.15) or didn't help set it up before it (youth 2.1, 3.7 (6)).

    Its bench minor is served at the start of a game worked out from the schedule whenever it is shown
    (bot/league/discipline/cleanup.py): the team's next game after a missed cleanup, the game itself after
    a missed setup; so no game id of it is stored. A commissioner withdraws a mistaken record: the row
    stays, with who withdrew it, when and why (the audit).
    """

    __tablename__ = "missed_cleanups"
    __table_args__ = (
        CheckConstraint("minutes > 0", name="minutes"),
        CheckConstraint(f"duty IN {DUTIES!r}", name="duty"),
        # One standing record per team, game and duty: a second one finds it on record.
        partial_index("uq_missed_cleanups_standing", "league_id", "game_id", "team_id", "duty", unique=True,
                      where="withdrawn_at IS NULL"),
        Index("ix_missed_cleanups_team", "league_id", "team_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))  # the game the duty was for
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    duty: Mapped[Duty] = mapped_column(String(16), default="cleanup", server_default="cleanup")
    minutes: Mapped[int]  # the bench minor, as the league's setting stood when it was recorded
    recorded_by: Mapped[int] = mapped_column(Snowflake)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    withdrawn_by: Mapped[int | None] = mapped_column(Snowflake)
    withdrawal_note: Mapped[str] = mapped_column(String(1000), default="")

    game: Mapped[Game] = relationship(lazy="joined")
    team: Mapped[Team] = relationship(lazy="joined")


class GameDuty(Base):
    """A commissioner's word on one team's arena duty for one game: on duty or off it, whatever the league's
    rule would say (bot/league/discipline/cleanup.py). No row: the rule decides."""

    __tablename__ = "game_duties"
    __table_args__ = (
        CheckConstraint(f"duty IN {DUTIES!r}", name="duty"),
        UniqueConstraint("game_id", "team_id", "duty"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    duty: Mapped[Duty] = mapped_column(String(16))
    on_duty: Mapped[bool]
    set_by: Mapped[int] = mapped_column(Snowflake)
    set_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class BenchPenalty(Base):
    """A bench minor called against a team rather than a player (youth 3.7: "Bench Minor"), with /penalty and
    a team, or from the late-start prompt (youth 2.4: a team still short when the grace period ends serves a
    2-minute bench minor to start the game). It counts in the team's penalty minutes, in nobody's. A mistaken
    one is withdrawn (the undo), keeping its row."""

    __tablename__ = "bench_penalties"
    __table_args__ = (
        CheckConstraint("minutes >= 0 AND (minute IS NULL OR minute >= 0)", name="minutes"),
        Index("ix_bench_penalties_game", "league_id", "game_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    infraction_key: Mapped[str] = mapped_column(String(64))
    minutes: Mapped[int] = mapped_column(default=0)
    minute: Mapped[int | None]  # elapsed game minute, when the referee gave it
    summary: Mapped[str] = mapped_column(String(1000))
    called_by: Mapped[int] = mapped_column(Snowflake)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    withdrawn_by: Mapped[int | None] = mapped_column(Snowflake)
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    team: Mapped[Team] = relationship(lazy="joined")
