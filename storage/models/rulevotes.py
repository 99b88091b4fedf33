"""Rule-change votes (youth 1.23): the proposal, who may vote (fixed when the vote starts) and each answer.

A voter's row is both their place among the eligible and their ballot: unique per vote and person, its
answer set once by an UPDATE that only takes an empty answer, so two presses can't count twice.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base, Snowflake, UTCDateTime, utcnow

VOTE_STATES = ("open", "closed")
OUTCOMES = ("passed", "failed")
ANSWERS = ("yes", "no")
VOTER_KINDS = ("commissioner", "captain")


class RuleVote(Base):
    """One proposed change of a rule setting, open until everyone eligible answered or ``closes_at``; the
    threshold in force when it started decides it. ``division`` is "" when the whole league votes."""

    __tablename__ = "rule_votes"
    __table_args__ = (
        CheckConstraint(f"state IN {VOTE_STATES!r}", name="state"),
        CheckConstraint(f"outcome IS NULL OR outcome IN {OUTCOMES!r}", name="outcome"),
        Index("ix_rule_votes_league_id_state", "league_id", "state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    division: Mapped[str] = mapped_column(String(100), default="")
    setting_key: Mapped[str] = mapped_column(String(100))
    proposed_value: Mapped[str] = mapped_column(String(200))  # as a config file spells it
    proposal_text: Mapped[str] = mapped_column(String(200))  # as the commissioner typed it
    current_value: Mapped[str] = mapped_column(String(200))  # the value in force when the vote started
    threshold_percent: Mapped[int] = mapped_column(Integer)
    channel_id: Mapped[int] = mapped_column(Snowflake)  # where the vote was started: the outcome goes there
    opened_by: Mapped[int] = mapped_column(Snowflake)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    closes_at: Mapped[datetime] = mapped_column(UTCDateTime)
    state: Mapped[str] = mapped_column(String(16), default="open")
    outcome: Mapped[str | None] = mapped_column(String(16))
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    yes_votes: Mapped[int] = mapped_column(Integer, default=0)  # counted at closing
    no_votes: Mapped[int] = mapped_column(Integer, default=0)
    eligible_voters: Mapped[int] = mapped_column(Integer, default=0)
    applied_by: Mapped[int | None] = mapped_column(Snowflake)
    applied_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class RuleVoteVoter(Base):
    """Someone who may vote on a rule change, and their answer once given (None until then)."""

    __tablename__ = "rule_vote_voters"
    __table_args__ = (
        UniqueConstraint("vote_id", "discord_id"),
        CheckConstraint(f"kind IN {VOTER_KINDS!r}", name="kind"),
        CheckConstraint(f"answer IS NULL OR answer IN {ANSWERS!r}", name="answer"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    vote_id: Mapped[int] = mapped_column(ForeignKey("rule_votes.id", ondelete="CASCADE"))
    discord_id: Mapped[int] = mapped_column(Snowflake)
    kind: Mapped[str] = mapped_column(String(16))
    answer: Mapped[str | None] = mapped_column(String(8))
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
