"""A league's imported rulebook: where it came from, and its citable sections for `/rule`.

A league with no row here reads its preset's rulebook as shipped (bot/league/rulebooks/presets.py)
when it was set up in Discord; a row is the file imported (config.toml, the CLI) or the upload.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from bot.league.rulebooks.rulebook import SectionKind
from storage.models.base import Base, Snowflake, UTCDateTime, utcnow


class Rulebook(Base):
    """One per league: the file last imported and its fingerprint (re-import only when it changes)."""

    __tablename__ = "rulebooks"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), unique=True)
    source: Mapped[str] = mapped_column(Text)  # the path it was imported from, or the uploaded file's name
    # "file": config.toml's `rulebook` or `sideline rules import`; "upload": /setup rulebook file:
    origin: Mapped[str] = mapped_column(String(16), default="file", server_default="file")
    imported_by: Mapped[int | None] = mapped_column(Snowflake)  # who uploaded it in Discord
    fingerprint: Mapped[str] = mapped_column(String(64))  # bot.league.rulebooks.rulebook.rulebook_fingerprint
    section_count: Mapped[int] = mapped_column(default=0)
    imported_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RuleSection(Base):
    """One citable section, stored with everything `RuleIndex` needs to rebuild it exactly."""

    __tablename__ = "rule_sections"
    __table_args__ = (
        UniqueConstraint("league_id", "ordinal"),
        Index("ix_rule_sections_league_citation", "league_id", "citation"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    ordinal: Mapped[int] = mapped_column()  # reading order in the rulebook
    citation: Mapped[str] = mapped_column(Text)
    title: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[SectionKind] = mapped_column(String(16))
    parent: Mapped[str] = mapped_column(Text, default="")  # the heading's citation, if any
    lines: Mapped[str] = mapped_column(Text, default="")  # source lines, newline-separated
    line_numbers: Mapped[list[int]] = mapped_column(JSON, default=list)


class RuleQuestion(Base):
    """A question asked with /rule, and how sure the answer was: what the commissioners see of the
    questions the bot couldn't answer (bot/services/rulebooks/feedback.py). Who asked is kept, but shown
    only when the league chose so (``RuleFeedbackSettings.show_askers``)."""

    __tablename__ = "rule_questions"
    __table_args__ = (Index("ix_rule_questions_league_asked", "league_id", "asked_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    question: Mapped[str] = mapped_column(Text)  # as read: printable, at most 300 characters
    asked_by: Mapped[int] = mapped_column(Snowflake)
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # "sure": one section answered it; "unsure": three were offered; "none": nothing matched
    outcome: Mapped[str] = mapped_column(String(8))
    cited: Mapped[list[str]] = mapped_column(JSON, default=list)  # the section, or the choices offered
    # A commissioner linked it to a section, or set it aside: it leaves the unanswered list.
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    resolved_by: Mapped[int | None] = mapped_column(Snowflake)


class RuleFeedback(Base):
    """One press of "Helped" or "Not what I asked" under a /rule answer: one per person per answer."""

    __tablename__ = "rule_feedback"
    __table_args__ = (UniqueConstraint("question_id", "member_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    question_id: Mapped[int] = mapped_column(ForeignKey("rule_questions.id", ondelete="CASCADE"), index=True)
    member_id: Mapped[int] = mapped_column(Snowflake)
    helped: Mapped[bool] = mapped_column()
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RuleLink(Base):
    """A question a commissioner linked to the section that answers it: questions like it find that
    section first, in this league."""

    __tablename__ = "rule_links"
    __table_args__ = (UniqueConstraint("league_id", "question"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    question: Mapped[str] = mapped_column(Text)
    citation: Mapped[str] = mapped_column(Text)
    linked_by: Mapped[int] = mapped_column(Snowflake)
    linked_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RuleWord(Base):
    """A league's own word for something its rulebook names otherwise ("biscuit" means "ball"): /rule
    reads it as that, beside the preset's vocabulary (bot/league/rulebooks/vocabulary/)."""

    __tablename__ = "rule_words"
    __table_args__ = (UniqueConstraint("league_id", "word"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    word: Mapped[str] = mapped_column(String(40))
    means: Mapped[str] = mapped_column(String(40))
    added_by: Mapped[int] = mapped_column(Snowflake)
    added_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RuleFeedbackSettings(Base):
    """How a league treats the questions it was asked: whether commissioners see who asked."""

    __tablename__ = "rule_feedback_settings"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), unique=True)
    show_askers: Mapped[bool] = mapped_column(default=False, server_default=false())
    changed_by: Mapped[int | None] = mapped_column(Snowflake)
    changed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
