"""Appeals: who may appeal a suspension and until when, when it is final, and what a decision does."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, cast, get_args

from bot.league.discipline.infractions import DisciplineError
from bot.league.discipline.presets import DisciplineRules
from bot.league.discipline.suspensions import Suspension, SuspensionStatus, require_aware

AppealOutcome = Literal["upheld", "reduced", "overturned"]
APPEAL_OUTCOMES: tuple[str, ...] = get_args(AppealOutcome)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True)
class Appeal:
    """A player's (or captain's) request to shorten a suspension."""

    id: int
    suspension_id: int
    filed_at: datetime
    reason: str = ""
    outcome: AppealOutcome | None = None
    decided_at: datetime | None = None

    def __post_init__(self) -> None:
        require_aware(self.filed_at, "filed_at")
        if self.outcome is not None and self.outcome not in APPEAL_OUTCOMES:
            raise ValueError(f"unknown appeal outcome {self.outcome!r}")

    @property
    def decided(self) -> bool:
        return self.outcome is not None


@dataclass(frozen=True)
class AppealDecision:
    """The result of deciding an appeal: the suspension's new length and status."""

    appeal_id: int
    outcome: AppealOutcome
    games: int
    status: SuspensionStatus
    decided_at: datetime
    # Decided after the decision was due (still valid; worth a log line).
    late: bool
    summary: str
    citation: str


def appeal_window_closes(suspension: Suspension, *, rules: DisciplineRules) -> datetime:
    """The last moment an appeal may be filed (inclusive): issue + the window's days."""
    return suspension.issued_at + timedelta(days=rules.appeal_window_days)


def appeal_decision_due(appeal: Appeal, *, rules: DisciplineRules) -> datetime:
    """When the league's decision on an appeal is due: filing + the decision days."""
    return appeal.filed_at + timedelta(days=rules.appeal_decision_days)


def _own(suspension: Suspension, appeals: Iterable[Appeal]) -> list[Appeal]:
    return [a for a in appeals if a.suspension_id == suspension.id]


def _when(moment: datetime) -> str:
    return moment.strftime("%a %d %b %Y %H:%M %Z").strip()


def is_final(suspension: Suspension, now: datetime, appeals: Sequence[Appeal], *, rules: DisciplineRules) -> bool:
    """Final means it can no longer be shortened (youth 1.20.2, 1.21).

    Final once its appeals are used up and decided, or once the window passed with no appeal
    pending; an overturned suspension is final too.
    """
    require_aware(now, "now")
    if suspension.status == "overturned":
        return True
    own = _own(suspension, appeals)
    if any(not a.decided for a in own):
        return False
    if sum(a.decided for a in own) >= rules.appeals_allowed:
        return True
    return now > appeal_window_closes(suspension, rules=rules)


def appeal_allowed(
    suspension: Suspension,
    now: datetime,
    prior_appeals: Sequence[Appeal],
    *,
    rules: DisciplineRules,
) -> None:
    """Return if the suspension may be appealed now; raise DisciplineError saying why not."""
    require_aware(now, "now")
    cites = rules.discipline_citations
    own = _own(suspension, prior_appeals)
    if suspension.status == "overturned":
        raise DisciplineError("This suspension was overturned; there is nothing to appeal.")
    if suspension.status == "served":
        raise DisciplineError(
            "This suspension has been served; an appeal can only shorten games still to serve.",
            citation=cites.appeal_window,
        )
    if rules.appeals_allowed == 0:
        raise DisciplineError("Suspensions in this league cannot be appealed.", citation=cites.appeals_allowed)
    if any(not a.decided for a in own):
        raise DisciplineError(
            "An appeal of this suspension is already waiting for the league's decision.",
            citation=cites.appeal_decision,
        )
    if len(own) >= rules.appeals_allowed:
        times = "once" if rules.appeals_allowed == 1 else f"{rules.appeals_allowed} times"
        raise DisciplineError(
            f"This suspension has already been appealed; a suspension may be appealed {times}.",
            citation=cites.appeals_allowed,
        )
    closes = appeal_window_closes(suspension, rules=rules)
    if now > closes:
        raise DisciplineError(
            f"Sorry, the window to appeal this suspension closed on {_when(closes)} "
            f"({_plural(rules.appeal_window_days, 'day')} after it was issued); it is final.",
            citation=cites.appeal_window,
        )


def decide_appeal(
    suspension: Suspension,
    outcome: str,
    games: int | None = None,
    *,
    now: datetime,
    appeals: Sequence[Appeal],
    rules: DisciplineRules,
) -> AppealDecision:
    """Decide the pending appeal: upheld keeps the games, reduced sets fewer, overturned sets 0."""
    require_aware(now, "now")
    cites = rules.discipline_citations
    if outcome not in APPEAL_OUTCOMES:
        raise DisciplineError(
            f"Unknown outcome {outcome!r}: use one of {', '.join(APPEAL_OUTCOMES)}.",
            valid=APPEAL_OUTCOMES,
        )
    if outcome != "upheld" and is_final(suspension, now, appeals, rules=rules):
        raise DisciplineError("This suspension is final and cannot be shortened.", citation=cites.final)
    pending = [a for a in _own(suspension, appeals) if not a.decided]
    if not pending:
        raise DisciplineError(
            f"There is no appeal waiting for a decision on suspension {suspension.id}.",
            citation=cites.appeal_decision,
        )
    appeal = pending[0]
    status: SuspensionStatus = suspension.status
    if outcome == "upheld":
        if games is not None and games != suspension.games:
            raise DisciplineError(
                f"An upheld suspension keeps its {_plural(suspension.games, 'game')}; "
                "use 'reduced' to change the length."
            )
        new_games = suspension.games
        summary = f"Appeal upheld: the suspension stays at {_plural(new_games, 'game')}."
    elif outcome == "reduced":
        if games is None or not 0 < games < suspension.games:
            raise DisciplineError(
                f"A reduced suspension needs a number of games between 1 and "
                f"{suspension.games - 1} (it is {_plural(suspension.games, 'game')} now); "
                "use 'overturned' to remove it."
                if suspension.games > 1
                else "A 1-game suspension cannot be reduced; uphold or overturn it."
            )
        new_games = games
        summary = (
            f"Appeal granted in part: the suspension is reduced from "
            f"{suspension.games} to {_plural(new_games, 'game')}."
        )
    else:
        if games not in (None, 0):
            raise DisciplineError("An overturned suspension has no games; leave games empty.")
        new_games = 0
        status = "overturned"
        summary = "Appeal granted: the suspension is overturned."
    return AppealDecision(
        appeal_id=appeal.id,
        outcome=cast(AppealOutcome, outcome),
        games=new_games,
        status=status,
        decided_at=now,
        late=now > appeal_decision_due(appeal, rules=rules),
        summary=summary,
        citation=cites.final or cites.appeal_decision,
    )
