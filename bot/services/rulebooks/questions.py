"""The questions players asked with /rule that it couldn't answer, as commissioners read them (the
unanswered list, feedback.py; the weekly digest, digest.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import RuleFeedback, RuleQuestion


@dataclass(frozen=True)
class AskedQuestion:
    """A question as commissioners see it; ``asked_by`` only where the league shows who asked."""

    id: int
    question: str
    asked_at: datetime
    outcome: str
    cited: tuple[str, ...]
    not_helped: int = 0
    helped: int = 0
    asked_by: int | None = None

    @property
    def why(self) -> str:
        """Why it is on the list, in a few words."""
        if self.outcome == "none":
            reason = "no section matched"
        elif self.outcome == "unsure":
            reason = "not sure between " + ", ".join(self.cited)
        else:
            reason = "answered with " + ", ".join(self.cited)
        if self.not_helped:
            reason += f"; not what they asked ×{self.not_helped}"
        if self.helped:
            reason += f"; helped ×{self.helped}"
        return reason



async def unanswered_questions(session: AsyncSession, league_id: int, *, limit: int, matching: str = "",
                               since: datetime | None = None,
                               until: datetime | None = None) -> tuple[list[AskedQuestion], int]:
    """The league's open questions the bot was unsure of, found nothing for, or that someone marked not
    what they asked, newest first (at most ``limit``), and how many there are in all."""
    not_helped = (select(func.count()).select_from(RuleFeedback)
                  .where(RuleFeedback.question_id == RuleQuestion.id, RuleFeedback.helped.is_(False))
                  .scalar_subquery())
    helped = (select(func.count()).select_from(RuleFeedback)
              .where(RuleFeedback.question_id == RuleQuestion.id, RuleFeedback.helped.is_(True))
              .scalar_subquery())
    unhappy = exists().where(RuleFeedback.question_id == RuleQuestion.id, RuleFeedback.helped.is_(False))
    where = [RuleQuestion.league_id == league_id, RuleQuestion.resolved_at.is_(None),
             or_(RuleQuestion.outcome.in_(("unsure", "none")), unhappy)]
    if matching:
        where.append(func.lower(RuleQuestion.question).contains(matching.lower()[:100], autoescape=True))
    if since is not None:
        where.append(RuleQuestion.asked_at >= since)
    if until is not None:
        where.append(RuleQuestion.asked_at < until)
    total = await session.scalar(select(func.count()).select_from(RuleQuestion).where(*where)) or 0
    rows = (await session.execute(
        select(RuleQuestion, not_helped, helped).where(*where)
        .order_by(RuleQuestion.asked_at.desc(), RuleQuestion.id.desc()).limit(limit))).all()
    return [AskedQuestion(q.id, q.question, q.asked_at, q.outcome, tuple(q.cited or ()), int(n or 0), int(h or 0),
                          q.asked_by) for q, n, h in rows], total
