"""Trades (youth 1.9): when a trade takes effect, and why one can't.

"The deadline for trades is at the end of week 10 of the regular season. All proposed trades must be
submitted to the commissioner at least 24 hours before the trades are to take effect. The commissioner
reserves the right to veto any trades that are submitted."

Read here as: a trade takes effect at the later of its submission plus the notice and the time the
captains asked for; it is refused when that moment is not before the end of the deadline week
(``DeadlineRules.trade_deadline_week``, bot/league/deadlines.py), the same reading as /roster add's. Where
``trades_only_after_draft`` is on, players move between teams only by trade once the draft is done.
Pure rules over timezone-aware datetimes.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.league.offsets import require_aware

#: A trade's states: proposed, then accepted (or declined/withdrawn/vetoed), then effective; cancelled
#: when a traded player had left the team by the effect time.
STATES = ("proposed", "accepted", "declined", "withdrawn", "vetoed", "effective", "cancelled")
OPEN = ("proposed", "accepted")
#: How many players one side of a trade may hold (what a reply and a message line can list).
MAX_PLAYERS_PER_SIDE = 10


@dataclass(frozen=True)
class TradeCitations:
    """Where each setting comes from ("" when the rulebook is silent: a league setting)."""

    trade: str = ""


@dataclass(frozen=True)
class TradeRules:
    """How players move between teams during a season."""

    # Once the division's draft is done, players move between teams only by trade (/trade propose), never by
    # /roster add and remove; the draft day is the one set with /registration open.
    trades_only_after_draft: bool = False
    # Hours between a trade's submission and the earliest moment it can take effect; a commissioner may veto it
    # until then.
    trade_notice_hours: int = 24
    trade_citations: TradeCitations = field(default_factory=TradeCitations)

    def __post_init__(self) -> None:
        if self.trade_notice_hours < 0:
            raise ValueError("rules.trade_notice_hours must not be negative")


TRADE_PRESETS: dict[str, TradeRules] = {
    # Co-ed rules: a one-off tournament with no trade rules: captains change rosters themselves.
    "coed-ball-hockey": TradeRules(trades_only_after_draft=False, trade_notice_hours=24),
    # Youth 1.9 — trades "submitted to the commissioner at least 24 hours before the trades are to take effect";
    # the commissioner may veto; 1.7's draft makes the rosters, so moves after it are trades.
    "youth-ball-hockey": TradeRules(trades_only_after_draft=True, trade_notice_hours=24,
                                    trade_citations=TradeCitations(trade="Youth 1.9")),
    # Indoor soccer rules: silent on trades: captains change rosters themselves.
    "indoor-soccer": TradeRules(trades_only_after_draft=False, trade_notice_hours=24),
}


@dataclass(frozen=True)
class TradeProblem:
    """Why a trade can't be made as asked, with the rule that says so ("" when none does)."""

    code: str
    message: str
    rule: str = ""

    def cited(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


def effect_time(submitted_at: datetime, rules: TradeRules, requested_at: datetime | None = None) -> datetime:
    """When a trade submitted at ``submitted_at`` takes effect: the notice after it, or later if asked."""
    require_aware(submitted_at, "submitted_at")
    earliest = submitted_at + timedelta(hours=rules.trade_notice_hours)
    if requested_at is None:
        return earliest
    require_aware(requested_at, "requested_at")
    return max(earliest, requested_at)


def check_effect(effect_at: datetime, deadline: datetime | None, deadline_week: int | None,
                 rules: TradeRules) -> TradeProblem | None:
    """A trade taking effect at ``effect_at`` is too late when it isn't before the end of the deadline week."""
    require_aware(effect_at, "effect_at")
    if deadline is None or effect_at < deadline:
        return None
    return TradeProblem("past_deadline", f"The trade would take effect after the trade deadline: trades must take "
                                         f"effect by the end of week {deadline_week}", rules.trade_citations.trade)


def check_sides(out_ids: Collection[int], in_ids: Collection[int]) -> TradeProblem | None:
    """A trade moves at least one player, none twice, and no side holds more than the maximum."""
    if not out_ids and not in_ids:
        return TradeProblem("empty", "A trade moves at least one player.")
    if len(out_ids) > MAX_PLAYERS_PER_SIDE or len(in_ids) > MAX_PLAYERS_PER_SIDE:
        return TradeProblem("too_many", f"A trade moves at most {MAX_PLAYERS_PER_SIDE} players each way.")
    if len(set(out_ids)) != len(out_ids) or len(set(in_ids)) != len(in_ids) or set(out_ids) & set(in_ids):
        return TradeProblem("twice", "A trade names each player once.")
    return None


def vetoable(state: str, effect_at: datetime, now: datetime) -> bool:
    """A commissioner may veto a trade still open, until it takes effect."""
    require_aware(now, "now")
    return state in OPEN and now < effect_at
