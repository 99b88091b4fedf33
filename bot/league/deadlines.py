"""Deadlines: when things are due, when to nudge about them, and which week of the season it is.

Pure rules over timezone-aware datetimes (naive ones are refused with a ValueError). The scheduler
stores what these functions compute; nothing here sleeps or sends.

Choices the rulebooks leave open, decided here:
- Offsets ("48h", "30m", "2d", "1w", "1d12h"; see ``bot.league.offsets``): days are calendar days
  in the league's time zone ("1d" before 19:00 is 19:00 the day before, across a clock change too),
  hours and minutes are elapsed time ("24h" is 24 real hours). Day counts of rules (decisions within
  5 days) are calendar days in the time zone of the datetime given.
- Weeks of the season start on the season's first day (not on a fixed weekday). "End of week n"
  (`week_end`) is local midnight starting day 7n after the first day: being on time means strictly
  before it. Computed in the league's zone, so it is right across daylight-saving changes.
- Trades (youth 1.9): "the deadline for trades is at the end of week 10" is read as: a trade must
  take effect before the end of week 10 (a trade whose effect time is later is refused: bot/league/trades.py;
  a player moved to another team after it is refused: bot/services/rosters/roster.py). The 24 hours'
  notice and the veto are bot/league/trades.py's. Youth 1.15's payment within 5 days is the registration
  settings' (bot/league/registration/); 1.16's replacements have their own settings and checks
  (bot/league/replacements/).
- Disputes: youth 2.2 lets a coach or captain appeal "any controversies during a game" to the
  league, decided within 5 days. Co-ed "Ref interaction": "the referee's call stands, so if you have
  a dispute with a call, suck it up": no disputes (`dispute_calls_allowed` off), captains relay to
  the referee instead. Indoor is silent: disputes stay open, with youth 2.2's 5 days as a league default.
- Cleanup duty (youth 2.15) falls on each week's last game (bot/league/seasons.py); a team that misses
  it starts its next game with a bench minor (bot/league/discipline/cleanup.py).
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

    trades: str = ""
    dispute: str = ""
    dispute_calls: str = ""
    relay: str = ""
    cleanup: str = ""
    setup: str = ""
    equipment: str = ""


@dataclass(frozen=True)
class DeadlineRules:
    """The numbers behind deadlines and nudges; preset plus flat overrides."""

    # Trades must take effect before the end of this week of the season; None = no trades rule.
    trade_deadline_week: int | None = None
    # Days the commissioners have to decide a captain's dispute.
    dispute_decision_days: int = 5
    # Captains may dispute a game's calls with the commissioners (/dispute file). Off: the referee's call
    # stands; captains still relay to the referee.
    dispute_calls_allowed: bool = True
    # Captains may relay from this many hours before a game's start until as long after it.
    relay_window_hours: int = 24
    # Relays per team and game.
    relay_limit_per_game: int = 5
    # The captains of each week's last game are reminded to clean up, and a referee can record a team that
    # didn't (/cleanup missed).
    cleanup_duty_last_game_each_week: bool = False
    # Minutes of the bench minor a team that didn't clean up after the week's last game serves at the start
    # of its next game (a referee records it with /cleanup missed); None = no penalty.
    cleanup_missed_bench_minor_minutes: int | None = None
    # The teams of each day's first game help set the arena up before it: on the officials' game card and in
    # the teams' game reminders, and a referee can record a team that didn't (a button on the card).
    setup_duty_first_game_each_day: bool = False
    # Minutes of the bench minor a team that didn't help set the arena up serves at the start of that game;
    # None = no penalty.
    setup_missed_bench_minor_minutes: int | None = None
    # Equipment every player must wear in a game, listed in the game reminders and on the officials' game
    # card; empty = the rulebook mandates none.
    mandatory_equipment: tuple[str, ...] = ()
    # Nudges before any deadline (appeals, payments, trades, custom), longest first.
    default_nudge_offsets: tuple[str, ...] = ("72h", "24h", "2h")
    # Game reminders to the team's channel (docs/product.md §5; config reminders.game_offsets):
    # two days and the day before at the game's time of day, and two hours before.
    game_reminder_offsets: tuple[str, ...] = ("2d", "1d", "2h")
    # Lead times at which captains hear that a lineup breaks a rule (docs/product.md §5).
    captain_alert_lead_times: tuple[str, ...] = ("1d", "3h")
    deadline_citations: DeadlineCitations = field(default_factory=DeadlineCitations)

    def __post_init__(self) -> None:
        if self.trade_deadline_week is not None and self.trade_deadline_week < 1:
            raise ValueError("rules.trade_deadline_week must be at least 1 (or unset)")
        for key in (
            "dispute_decision_days",
            "relay_window_hours",
            "relay_limit_per_game",
            "cleanup_missed_bench_minor_minutes",
            "setup_missed_bench_minor_minutes",
        ):
            value = getattr(self, key)
            if value is not None and value < 0:
                raise ValueError(f"rules.{key} must not be negative")
        if len(self.mandatory_equipment) > MAX_EQUIPMENT or any(
                not item.strip() or len(item) > EQUIPMENT_ITEM_LIMIT for item in self.mandatory_equipment):
            raise ValueError(f"rules.mandatory_equipment must list at most {MAX_EQUIPMENT} items of 1 to "
                             f"{EQUIPMENT_ITEM_LIMIT} characters each")
        for key in ("default_nudge_offsets", "game_reminder_offsets", "captain_alert_lead_times"):
            try:
                parse_offsets(getattr(self, key))
            except ValueError as exc:
                raise ValueError(f"rules.{key}: {exc}") from None


#: Bounds of the mandatory equipment list: what a reminder line can hold.
MAX_EQUIPMENT = 12
EQUIPMENT_ITEM_LIMIT = 60

_DEFAULT = "league default (rulebook silent)"
_RELAY_COED = "Co-ed rules: Ref interaction 1 (captains relay; the limits are a league default)"

DEADLINE_PRESETS: dict[str, DeadlineRules] = {
    "coed-ball-hockey": DeadlineRules(
        # Co-ed rules: a one-off tournament; no trade rules.
        trade_deadline_week=None,
        # Co-ed rules: Ref interaction — "the referee's call stands": no disputes; the 5 days are a league
        # default (youth 2.2's), for a league that turns disputes on.
        dispute_decision_days=5,
        dispute_calls_allowed=False,
        # League defaults.
        relay_window_hours=24,
        relay_limit_per_game=5,
        cleanup_duty_last_game_each_week=False,
        deadline_citations=DeadlineCitations(dispute=_DEFAULT, relay=_RELAY_COED,
                                             dispute_calls="Co-ed rules: Ref interaction 2"),
    ),
    "youth-ball-hockey": DeadlineRules(
        # Youth 1.9 — trade deadline at the end of week 10.
        trade_deadline_week=10,
        # Youth 2.2 — a coach/captain may appeal a game's controversies; concluded within 5 days of submission.
        dispute_decision_days=5,
        dispute_calls_allowed=True,
        # League defaults: the youth rulebook has no relay rule.
        relay_window_hours=24,
        relay_limit_per_game=5,
        # Youth 2.15 — captains of the last game each week clear the arena; a team that doesn't is
        # "assessed a two-minute bench minor to be served at the beginning of their next game".
        cleanup_duty_last_game_each_week=True,
        cleanup_missed_bench_minor_minutes=2,
        # Youth 2.1 — "Coaches/Captains of both teams ... assist in the setup of the arena"; 3.7 (6) — a bench
        # minor for the "failure of a team to set up or clean gym, when scheduled to do so". The arena is set
        # up once a day, so the teams of the day's first game are the ones scheduled (bot/league/discipline/
        # cleanup.py).
        setup_duty_first_game_each_day=True,
        setup_missed_bench_minor_minutes=2,
        # Youth 1.17 — "each player is mandated to be equipped with: eye protection, a pair of gloves (gloves
        # must cover entire hand), running shoes, hockey stick, and shin pads".
        mandatory_equipment=("eye protection", "gloves that cover the entire hand", "running shoes",
                             "hockey stick", "shin pads"),
        deadline_citations=DeadlineCitations(
            trades="Youth 1.9",
            dispute="Youth 2.2",
            dispute_calls="Youth 2.2",
            relay="league default",
            cleanup="Youth 2.15",
            setup="Youth 2.1, 3.7 (6)",
            equipment="Youth 1.17",
        ),
    ),
    "indoor-soccer": DeadlineRules(
        # Indoor soccer rules: no trade or dispute rules.
        trade_deadline_week=None,
        # Rulebook silent: disputes stay open, decided in youth 2.2's 5 days (league defaults).
        dispute_decision_days=5,
        dispute_calls_allowed=True,
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


def dispute_decision_due(filed_at: datetime, rules: DeadlineRules) -> datetime:
    """When the commissioners' decision on a captain's dispute is due (youth 2.2)."""
    _require_aware(filed_at, "filed_at")
    return filed_at + timedelta(days=rules.dispute_decision_days)


def trade_deadline(season_start: date | datetime, tz: tzinfo | str, rules: DeadlineRules) -> datetime | None:
    """The end of the trade-deadline week (youth 1.9); None when the league has none."""
    if rules.trade_deadline_week is None:
        return None
    return week_end(season_start, rules.trade_deadline_week, tz)


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
