"""Deadlines: when things are due, when to nudge about them, and which week of the season it is.

Pure rules over timezone-aware datetimes (naive ones are refused with a ValueError). The scheduler
stores what these functions compute; nothing here sleeps or sends.

Choices the rulebooks leave open, decided here:
- Offsets ("48h", "30m", "2d", "1w", "1d12h"; see ``bot.league.offsets``): days are calendar days
  in the league's time zone ("1d" before 19:00 is 19:00 the day before, across a clock change too),
  hours and minutes are elapsed time ("24h" is 24 real hours). Day counts of rules (payment within
  5 days, decisions within 5 days) are calendar days in the time zone of the datetime given.
- Weeks of the season start on the season's first day (not on a fixed weekday). "End of week n"
  (`week_end`) is local midnight starting day 7n after the first day: being on time means strictly
  before it. Computed in the league's zone, so it is right across daylight-saving changes.
- Trades (youth 1.9): "the deadline for trades is at the end of week 10" is read as: a trade must
  take effect before the end of week 10, and be submitted at least 24 hours before it takes effect.
- Injury replacements (youth 1.16): decided within 2 weeks of the disclosure and never after the
  end of week 8, whichever comes first.
- Disputes: youth 2.2 gives the commissioners 5 days; the co-ed and indoor rulebooks are silent
  (co-ed: "the referee's call stands"), so their presets use the same 5 days as a league default.
- Relays to referees (co-ed "Ref interaction": players tell their captain, who relays): a team's
  captains may relay from `relay_window_hours` before a game's start until as long after it, at
  most `relay_limit_per_game` times per team and game. Both numbers are league defaults (24 h, 5);
  no rulebook sets them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo

# Offsets used to live here: their names are still importable from this module.
from bot.league.offsets import MAX_OFFSET as MAX_OFFSET
from bot.league.offsets import Offset as Offset
from bot.league.offsets import format_offset as format_offset
from bot.league.offsets import parse_offset as parse_offset
from bot.league.offsets import parse_offsets as parse_offsets
from bot.league.offsets import require_aware as _require_aware
from bot.league.offsets import zone as _zone

# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class DeadlineCitations:
    """Where each deadline comes from ("" when it is a league default)."""

    payment: str = ""
    trades: str = ""
    injury_replacement: str = ""
    dispute: str = ""
    relay: str = ""
    cleanup: str = ""


@dataclass(frozen=True)
class DeadlineRules:
    """The numbers behind deadlines and nudges; preset plus flat overrides."""

    # Days after registering to pay; None = no payment deadline in the rules.
    payment_due_days_after_registration: int | None = None
    # Trades must take effect before the end of this week of the season; None = no trades rule.
    trade_deadline_week: int | None = None
    # Hours between submitting a trade and its taking effect; None = no notice needed.
    trade_notice_hours: int | None = None
    # Injured players may be replaced until the end of this week; None = no such rule.
    injury_replacement_until_week: int | None = None
    # Days after an injury is disclosed to decide on a replacement; None = no such rule.
    injury_replacement_decision_days: int | None = None
    # Days the commissioners have to decide a captain's dispute.
    dispute_decision_days: int = 5
    # Captains may relay from this many hours before a game's start until as long after it.
    relay_window_hours: int = 24
    # Relays per team and game.
    relay_limit_per_game: int = 5
    # The captains of each week's last game are reminded to clean up.
    cleanup_duty_last_game_each_week: bool = False
    # Nudges before any deadline (appeals, payments, trades, custom), longest first.
    default_nudge_offsets: tuple[str, ...] = ("72h", "24h", "2h")
    # Game reminders to the team's channel (docs/product.md §5; config reminders.game_offsets):
    # two days and the day before at the game's time of day, and two hours before.
    game_reminder_offsets: tuple[str, ...] = ("2d", "1d", "2h")
    # Lead times at which captains hear that a lineup breaks a rule (docs/product.md §5).
    captain_alert_lead_times: tuple[str, ...] = ("1d", "3h")
    deadline_citations: DeadlineCitations = field(default_factory=DeadlineCitations)

    def __post_init__(self) -> None:
        for key in (
            "payment_due_days_after_registration",
            "trade_deadline_week",
            "injury_replacement_until_week",
        ):
            value = getattr(self, key)
            if value is not None and value < 1:
                raise ValueError(f"rules.{key} must be at least 1 (or unset)")
        for key in (
            "trade_notice_hours",
            "injury_replacement_decision_days",
            "dispute_decision_days",
            "relay_window_hours",
            "relay_limit_per_game",
        ):
            value = getattr(self, key)
            if value is not None and value < 0:
                raise ValueError(f"rules.{key} must not be negative")
        for key in ("default_nudge_offsets", "game_reminder_offsets", "captain_alert_lead_times"):
            try:
                parse_offsets(getattr(self, key))
            except ValueError as exc:
                raise ValueError(f"rules.{key}: {exc}") from None


_DEFAULT = "league default (rulebook silent)"
_RELAY_COED = "Co-ed rules: Ref interaction (captains relay); limits are a league default"

DEADLINE_PRESETS: dict[str, DeadlineRules] = {
    "coed-ball-hockey": DeadlineRules(
        # Co-ed rules: a one-off tournament; no payment, trade or injury-replacement rules.
        payment_due_days_after_registration=None,
        trade_deadline_week=None,
        trade_notice_hours=None,
        injury_replacement_until_week=None,
        injury_replacement_decision_days=None,
        # Co-ed rules: silent ("the referee's call stands"); league default, youth 2.2's 5 days.
        dispute_decision_days=5,
        # League defaults.
        relay_window_hours=24,
        relay_limit_per_game=5,
        cleanup_duty_last_game_each_week=False,
        deadline_citations=DeadlineCitations(dispute=_DEFAULT, relay=_RELAY_COED),
    ),
    "youth-ball-hockey": DeadlineRules(
        # Youth 1.15 — payment within 5 days of submitting the registration form.
        payment_due_days_after_registration=5,
        # Youth 1.9 — trade deadline at the end of week 10; submitted 24 hours before effect.
        trade_deadline_week=10,
        trade_notice_hours=24,
        # Youth 1.16 — injured players replaced until the end of week 8, decided within 2 weeks.
        injury_replacement_until_week=8,
        injury_replacement_decision_days=14,
        # Youth 2.2 — disputes concluded within 5 days of submission.
        dispute_decision_days=5,
        # League defaults: the youth rulebook has no relay rule.
        relay_window_hours=24,
        relay_limit_per_game=5,
        # Youth 2.15 — captains of the last game each week clear the arena.
        cleanup_duty_last_game_each_week=True,
        deadline_citations=DeadlineCitations(
            payment="Youth 1.15",
            trades="Youth 1.9",
            injury_replacement="Youth 1.16",
            dispute="Youth 2.2",
            relay="league default",
            cleanup="Youth 2.15",
        ),
    ),
    "indoor-soccer": DeadlineRules(
        # Indoor soccer rules: no payment, trade, injury or dispute rules.
        payment_due_days_after_registration=None,
        trade_deadline_week=None,
        trade_notice_hours=None,
        injury_replacement_until_week=None,
        injury_replacement_decision_days=None,
        # League default, youth 2.2's 5 days.
        dispute_decision_days=5,
        relay_window_hours=24,
        relay_limit_per_game=5,
        cleanup_duty_last_game_each_week=False,
        deadline_citations=DeadlineCitations(dispute=_DEFAULT, relay="league default"),
    ),
}


# --------------------------------------------------------------------------- nudges


def nudge_times(due_at: datetime, offsets: Iterable[str | timedelta | Offset], now: datetime,
                tz: tzinfo | str | None = None) -> list[datetime]:
    """When to nudge about something due at `due_at`: earliest first, in due_at's zone.

    Days of an offset are calendar days in `tz` (default: due_at's zone), hours and minutes
    elapsed time. Times already past are dropped. When every nudge is past but the deadline is
    not (the bot was down, or the deadline was created late), one "late" nudge at `now` is
    returned instead, so the audience still hears once; when the deadline itself has passed the
    list is empty (the caller logs and drops it). A nudge at exactly `now` counts as still to send.
    """
    _require_aware(due_at, "due_at")
    _require_aware(now, "now")
    deltas = parse_offsets(offsets)
    if due_at <= now:
        return []
    times = sorted({o.before(due_at, tz).astimezone(UTC) for o in deltas})
    upcoming = [t for t in times if t >= now]
    if not upcoming and times:
        upcoming = [now.astimezone(UTC)]
    return [t.astimezone(due_at.tzinfo) for t in upcoming]


# --------------------------------------------------------------------------- season calendar


def _local_date(moment: date | datetime, zone: tzinfo, name: str) -> date:
    if isinstance(moment, datetime):
        _require_aware(moment, name)
        return moment.astimezone(zone).date()
    return moment


def _local_midnight(day: date, zone: tzinfo) -> datetime:
    # Round-trip through UTC so a midnight skipped by a clock change lands on a real instant.
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC).astimezone(zone)


def week_end(season_start: date | datetime, week_n: int, tz: tzinfo | str) -> datetime:
    """The end of week `week_n` of the season: local midnight starting day 7 * week_n.

    Week 1 begins on the season's first day (a datetime is read in `tz`). Being "by the end of
    week n" means strictly before the returned instant.
    """
    if isinstance(week_n, bool) or not isinstance(week_n, int) or week_n < 1:
        raise ValueError(f"week_n must be a whole number of at least 1, not {week_n!r}")
    zone = _zone(tz)
    first_day = _local_date(season_start, zone, "season_start")
    return _local_midnight(first_day + timedelta(days=7 * week_n), zone)


def week_of(season_start: date | datetime, when: datetime, tz: tzinfo | str) -> int:
    """The week of the season `when` falls in (1 = the first week; 0 or less = before it)."""
    _require_aware(when, "when")
    zone = _zone(tz)
    first_day = _local_date(season_start, zone, "season_start")
    return (when.astimezone(zone).date() - first_day).days // 7 + 1


# --------------------------------------------------------------------------- deadlines


@dataclass(frozen=True)
class DeadlineViolation:
    """Why something is too late (or too early), and the rule that says so."""

    code: str
    message: str
    rule: str


def _when(moment: datetime) -> str:
    return moment.strftime("%a %d %b %Y %H:%M %Z").strip()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def payment_due(registered_at: datetime, rules: DeadlineRules) -> datetime | None:
    """When a registrant's payment is due (youth 1.15); None when the league sets no deadline."""
    _require_aware(registered_at, "registered_at")
    if rules.payment_due_days_after_registration is None:
        return None
    return registered_at + timedelta(days=rules.payment_due_days_after_registration)


def dispute_decision_due(filed_at: datetime, rules: DeadlineRules) -> datetime:
    """When the commissioners' decision on a captain's dispute is due (youth 2.2)."""
    _require_aware(filed_at, "filed_at")
    return filed_at + timedelta(days=rules.dispute_decision_days)


def trade_deadline(season_start: date | datetime, tz: tzinfo | str, rules: DeadlineRules) -> datetime | None:
    """The end of the trade-deadline week (youth 1.9); None when the league has none."""
    if rules.trade_deadline_week is None:
        return None
    return week_end(season_start, rules.trade_deadline_week, tz)


def check_trade(
    submitted_at: datetime,
    effective_at: datetime,
    *,
    season_start: date | datetime,
    tz: tzinfo | str,
    rules: DeadlineRules,
) -> tuple[DeadlineViolation, ...]:
    """What is wrong with a trade's timing (youth 1.9); empty when it is on time."""
    _require_aware(submitted_at, "submitted_at")
    _require_aware(effective_at, "effective_at")
    rule = rules.deadline_citations.trades or "league setting"
    found: list[DeadlineViolation] = []
    deadline = trade_deadline(season_start, tz, rules)
    if deadline is not None and effective_at >= deadline:
        found.append(
            DeadlineViolation(
                "trade_deadline_passed",
                f"Trades must take effect by the end of week {rules.trade_deadline_week} (before {_when(deadline)}).",
                rule,
            )
        )
    if rules.trade_notice_hours is not None:
        notice = timedelta(hours=rules.trade_notice_hours)
        if effective_at - submitted_at < notice:
            found.append(
                DeadlineViolation(
                    "trade_notice_too_short",
                    f"Trades must be submitted at least "
                    f"{_plural(rules.trade_notice_hours, 'hour')} before they take effect "
                    f"(submit by {_when(effective_at - notice)}).",
                    rule,
                )
            )
    return tuple(found)


def injury_replacement_deadline(
    season_start: date | datetime, tz: tzinfo | str, rules: DeadlineRules
) -> datetime | None:
    """The end of the last week an injured player may be replaced (youth 1.16)."""
    if rules.injury_replacement_until_week is None:
        return None
    return week_end(season_start, rules.injury_replacement_until_week, tz)


def injury_replacement_due(
    disclosed_at: datetime,
    *,
    season_start: date | datetime,
    tz: tzinfo | str,
    rules: DeadlineRules,
) -> datetime | None:
    """When the captain must decide on replacing an injured player: the earlier of the 2 weeks
    after disclosure and the end of the replacement week (youth 1.16); None without such rules.
    """
    _require_aware(disclosed_at, "disclosed_at")
    candidates = [injury_replacement_deadline(season_start, tz, rules)]
    if rules.injury_replacement_decision_days is not None:
        candidates.append(disclosed_at + timedelta(days=rules.injury_replacement_decision_days))
    present = [c for c in candidates if c is not None]
    return min(present) if present else None


def relay_window(game_starts_at: datetime, rules: DeadlineRules) -> tuple[datetime, datetime]:
    """When captains may relay to a game's referees: (opens, closes), both inclusive."""
    _require_aware(game_starts_at, "game_starts_at")
    span = timedelta(hours=rules.relay_window_hours)
    return game_starts_at - span, game_starts_at + span


def check_relay(
    game_starts_at: datetime, now: datetime, relays_sent_for_game: int, rules: DeadlineRules
) -> tuple[DeadlineViolation, ...]:
    """Why a captain's relay cannot be sent now; empty when it can."""
    _require_aware(now, "now")
    opens, closes = relay_window(game_starts_at, rules)
    rule = rules.deadline_citations.relay or "league setting"
    found: list[DeadlineViolation] = []
    if now < opens:
        found.append(
            DeadlineViolation(
                "relay_not_open",
                f"Relays for this game open {_plural(rules.relay_window_hours, 'hour')} before "
                f"it starts ({_when(opens)}).",
                rule,
            )
        )
    elif now > closes:
        found.append(
            DeadlineViolation(
                "relay_closed",
                f"Relays for this game closed {_plural(rules.relay_window_hours, 'hour')} after "
                f"it started ({_when(closes)}).",
                rule,
            )
        )
    if relays_sent_for_game >= rules.relay_limit_per_game:
        found.append(
            DeadlineViolation(
                "relay_limit",
                f"Your team has sent its {_plural(rules.relay_limit_per_game, 'relay')} for this game.",
                rule,
            )
        )
    return tuple(found)
