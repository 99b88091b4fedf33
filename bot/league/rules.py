"""A league's rules: one preset per rulebook, every number overridable from config.

Each feature owns its part (lineup, game format, shootout, standings, discipline, deadlines)
next to the code that applies it; this module only composes them and validates overrides.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.league.checkins.presets import LINEUP_PRESETS, LineupRules
from bot.league.deadlines import DEADLINE_PRESETS, DeadlineRules, parse_offset
from bot.league.discipline.presets import DISCIPLINE_PRESETS, DisciplineRules
from bot.league.draft.presets import DRAFT_PRESETS, DraftRules
from bot.league.game_format import GAME_FORMAT_PRESETS, GameFormat
from bot.league.gamesheets.presets import GAMESHEET_PRESETS, GameSheetRules
from bot.league.registration.presets import REGISTRATION_PRESETS, RegistrationRules
from bot.league.replacements.presets import REPLACEMENT_PRESETS, ReplacementRules
from bot.league.rulevotes import RULEVOTE_PRESETS, RuleVoteRules
from bot.league.schedule_builder.presets import SCHEDULE_PRESETS, ScheduleRules
from bot.league.shootouts.presets import SHOOTOUT_PRESETS, ShootoutRules
from bot.league.staff.presets import STAFF_PRESETS, StaffRules
from bot.league.standings.presets import GAME_KINDS, STANDINGS_PRESETS, TIEBREAKERS, StandingsRules
from bot.league.trades import TRADE_PRESETS, TradeRules

PRESET_NAMES = ("coed-ball-hockey", "youth-ball-hockey", "indoor-soccer")


class RulesError(ValueError):
    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key, self.problem = key, problem


@dataclass(frozen=True)
class Rules:
    preset: str
    lineup: LineupRules
    game_format: GameFormat
    shootout: ShootoutRules
    standings: StandingsRules
    discipline: DisciplineRules
    deadlines: DeadlineRules
    gamesheets: GameSheetRules
    registration: RegistrationRules
    staff: StaffRules
    replacements: ReplacementRules
    rulevotes: RuleVoteRules
    trades: TradeRules
    draft: DraftRules
    schedule_builder: ScheduleRules


_SECTIONS: dict[str, Mapping[str, Any]] = {
    "lineup": LINEUP_PRESETS,
    "game_format": GAME_FORMAT_PRESETS,
    "shootout": SHOOTOUT_PRESETS,
    "standings": STANDINGS_PRESETS,
    "discipline": DISCIPLINE_PRESETS,
    "deadlines": DEADLINE_PRESETS,
    "gamesheets": GAMESHEET_PRESETS,
    "registration": REGISTRATION_PRESETS,
    "staff": STAFF_PRESETS,
    "replacements": REPLACEMENT_PRESETS,
    "rulevotes": RULEVOTE_PRESETS,
    "trades": TRADE_PRESETS,
    "draft": DRAFT_PRESETS,
    "schedule_builder": SCHEDULE_PRESETS,
}


def preset(name: str) -> Rules:
    if name not in PRESET_NAMES:
        raise RulesError("preset", f"unknown preset {name!r} (one of: {', '.join(PRESET_NAMES)})")
    return Rules(preset=name, **{section: presets[name] for section, presets in _SECTIONS.items()})


def _field_owners(rules: Rules) -> dict[str, str]:
    owners: dict[str, str] = {}
    for section in _SECTIONS:
        for f in dataclasses.fields(getattr(rules, section)):
            owners.setdefault(f.name, section)
    return owners


# Bounds of every number a config may set: (lowest, highest). Generous for any rec league, tight
# enough that nothing downstream overflows or searches for ever (a shootout block of 1000 shooters
# once made /shootout suggest recurse too deep). Tables and lists bound their items the same way.
BOUNDS: dict[str, tuple[int, int]] = {
    # lineup: players and minutes
    "players_on_court": (1, 30),
    "women_nonbinary_on_court": (0, 29),
    "min_skaters_to_start": (0, 29),
    "min_players_to_start": (0, 30),
    "start_grace_minutes": (0, 120),
    "late_start_bench_minor_minutes": (0, 20),
    "forfeit_after_minutes": (0, 120),
    "roster_limit": (1, 100),
    "court_sizes_by_division": (1, 30),
    # game format
    "periods": (1, 10),
    "period_minutes": (1, 90),
    "stopped_clock_final_minutes": (0, 90),
    "intermission_minutes": (0, 60),
    "regular_overtime_periods": (0, 10),
    "regular_overtime_minutes": (0, 60),
    "playoff_overtime_periods": (0, 10),
    "playoff_overtime_minutes": (0, 60),
    "timeouts_per_game": (0, 10),
    "timeouts_per_period": (0, 10),
    "timeout_seconds": (0, 600),
    "playoff_overtime_timeouts": (0, 10),
    # shootout: shooters
    "shootout_initial_shooters": (1, 20),
    "shootout_initial_shooters_playoff": (1, 20),
    "shootout_min_women_initial": (0, 20),
    "shootout_block_size": (0, 20),
    "shootout_min_women_per_block": (0, 20),
    # standings: points and the forfeit score
    "points_win": (0, 20),
    "points_tie": (0, 20),
    "points_loss": (0, 20),
    "points_otl": (0, 20),
    "points_forfeit_penalty": (0, 20),
    "standings_forfeit_score": (0, 99),
    "standings_adjustment_points": (-99, 99),
    # discipline: counts, minutes, games, days
    "discipline_game_misconduct_after_majors": (1, 20),
    "discipline_game_misconduct_after_misconducts": (1, 20),
    "discipline_game_misconduct_after_minors": (1, 20),
    "discipline_minors_per_double_minor": (0, 10),
    "discipline_late_major_minutes": (0, 90),
    "discipline_late_major_suspension_games": (0, 50),
    "discipline_late_misconduct_minutes": (0, 90),
    "discipline_late_misconduct_suspension_games": (0, 50),
    "discipline_referee_max_suspension_games": (0, 50),
    "discipline_review_after_infractions": (1, 20),
    "appeal_window_days": (0, 60),
    "appeal_decision_days": (0, 60),
    "appeals_allowed": (0, 10),
    # deadlines: days, weeks, hours, counts
    "trade_deadline_week": (1, 52),
    "dispute_decision_days": (0, 60),
    "relay_window_hours": (0, 168),
    "relay_limit_per_game": (0, 50),
    "cleanup_missed_bench_minor_minutes": (1, 20),
    "setup_missed_bench_minor_minutes": (1, 20),
    # who the playoffs take: games each team is guaranteed before seeding (co-ed 2)
    "standings_seeding_games_guaranteed": (0, 50),
    # game sheets, officials and statistics: hours
    "warn_unassigned_hours_before": (1, 168),
    "stats_post_weekday": (0, 6),
    # registration: ages and days
    "division_ages": (0, 99),
    "payment_grace_days": (0, 60),
    # team management: a coach's age
    "coach_min_age_by_division": (0, 99),
    # replacements (youth 1.16): days, weeks, games, cents
    "replacement_injury_window_days": (0, 365),
    "replacement_injury_last_week": (1, 52),
    "replacement_absence_first_games": (1, 50),
    "replacement_absence_games": (1, 50),
    "replacement_absence_count": (1, 50),
    "replacement_absence_last_week": (1, 52),
    "replacement_season_dues_cents": (0, 10_000_000),
    "division_capacity": (1, 1000),
    "offer_hours": (1, 336),
    "payment_nudge_hours": (0, 336),
    "guardian_under_age": (0, 99),
    # rule-change votes (youth 1.23): a share of the eligible voters, in percent
    "rulevote_threshold_percent": (1, 100),
    # trades (youth 1.9): hours of notice
    "trade_notice_hours": (0, 336),
    # the draft (youth 1.7): rounds and the seconds of each pick's clock
    "draft_rounds": (1, 50),
    "draft_pick_seconds": (10, 86_400),
    # the schedule generator: games a week
    "games_per_team_per_week": (1, 7),
}

# The words a list setting may hold.
CHOICES: dict[str, tuple[str, ...]] = {
    "standings_tiebreakers": tuple(TIEBREAKERS),
    "standings_counted_kinds": tuple(sorted(GAME_KINDS)),
}
# List settings of durations ("48h", "30m"), parsed as the reminders are.
OFFSET_LISTS = frozenset({"default_nudge_offsets", "game_reminder_offsets", "captain_alert_lead_times"})
# List settings that must not be empty.
NON_EMPTY = frozenset({"standings_tiebreakers", "standings_counted_kinds"})


def build_rules(preset_name: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset with config overrides applied: a flat key, or a [rules.<section>] table.

    Every value is checked against its type and bounds, then against the other settings of its
    section; a problem is a RulesError naming the key, never a bare ValueError."""
    rules = preset(preset_name)
    if not overrides:
        return rules
    owners = _field_owners(rules)
    changes: dict[str, dict[str, Any]] = {}
    spelled: dict[str, str] = {}  # a setting given in a [rules.<section>] table is named that way
    for key, value in overrides.items():
        if key in _SECTIONS and isinstance(value, Mapping):
            for sub_key, sub_value in value.items():
                if sub_key not in {f.name for f in dataclasses.fields(getattr(rules, key))}:
                    raise RulesError(f"{key}.{sub_key}", "unknown rule setting")
                changes.setdefault(key, {})[sub_key] = sub_value
                spelled[sub_key] = f"{key}.{sub_key}"
        elif key in owners:
            changes.setdefault(owners[key], {})[key] = value
        else:
            raise RulesError(key, "unknown rule setting")
    try:
        return dataclasses.replace(rules, **{
            section: _apply(section, getattr(rules, section), values) for section, values in changes.items()})
    except RulesError as exc:
        raise RulesError(spelled.get(exc.key, exc.key), exc.problem) from None


def _apply(section: str, current: Any, values: dict[str, Any]) -> Any:
    hints = typing.get_type_hints(type(current))
    for name, value in values.items():
        values[name] = _coerce(name, hints[name], value, getattr(current, name))
    _check_together(section, current, values)
    try:
        return dataclasses.replace(current, **values)
    except ValueError as exc:  # the section's own checks across settings
        raise _blame(values, exc) from None


def _check_together(section: str, current: Any, values: Mapping[str, Any]) -> None:
    """Checks across settings that the section's dataclass leaves to the rules that use them."""
    if section != "shootout":
        return
    merged = {f.name: values.get(f.name, getattr(current, f.name)) for f in dataclasses.fields(current)}
    first = min(merged["shootout_initial_shooters"], merged["shootout_initial_shooters_playoff"])
    if merged["shootout_min_women_initial"] > first:
        raise _blame(values, ValueError(
            f"rules.shootout_min_women_initial ({merged['shootout_min_women_initial']}) must not exceed "
            f"the initial shooters ({first})"), prefer="shootout_min_women_initial")
    block, per_block = merged["shootout_block_size"], merged["shootout_min_women_per_block"]
    if block > 0 and per_block > block:
        raise _blame(values, ValueError(
            f"rules.shootout_min_women_per_block ({per_block}) must not exceed shootout_block_size "
            f"({block})"), prefer="shootout_min_women_per_block")


def _blame(values: Mapping[str, Any], exc: ValueError, prefer: str | None = None) -> RulesError:
    """A section's check failed: name the overridden key it is about (the message names the rule)."""
    text = str(exc).strip().replace("\n", " ")
    if text.startswith("rules."):
        text = text.removeprefix("rules.")
    changed = list(values)
    mentioned = sorted((text.find(k), k) for k in changed if k in text)
    if prefer is not None and prefer in values:
        key = prefer
    elif mentioned:
        key = mentioned[0][1]
    else:
        key = changed[0]
    if text.startswith(key):
        text = text[len(key):].lstrip(" :")
    return RulesError(key, text)


def _coerce(key: str, hint: Any, value: Any, current: Any) -> Any:
    """Check an override against the field's declared type and bounds; lists become tuples."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None and type(None) in typing.get_args(hint):
            return None
        errors = []
        for arg in args:
            try:
                return _coerce(key, arg, value, current)
            except RulesError as exc:
                errors.append(exc)
        raise errors[0] if errors else RulesError(key, "has no allowed value")
    if origin is typing.Literal:
        if not isinstance(value, str | int) or value not in typing.get_args(hint):
            raise RulesError(key, f"must be one of {', '.join(map(repr, typing.get_args(hint)))}, not {value!r}")
        return value
    if origin is tuple:
        return _coerce_list(key, hint, value)
    if origin is dict or origin is Mapping:
        return _coerce_table(key, hint, value)
    if hint is Any:
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(key, f"must be true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(key, f"must be a whole number, not {value!r}")
        low, high = BOUNDS[key]
        if not low <= value <= high:
            raise RulesError(key, f"must be between {low} and {high}, not {value}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise RulesError(key, f"must be text, not {value!r}")
        return value
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        raise RulesError(key, "is part of the preset and can't be changed")
    raise RulesError(key, "is part of the preset and can't be changed")


def _coerce_list(key: str, hint: Any, value: Any) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple):
        raise RulesError(key, "must be a list")
    args = typing.get_args(hint)
    fixed = not (len(args) == 2 and args[1] is Ellipsis)
    if fixed and len(value) != len(args):
        raise RulesError(key, f"must be a list of {len(args)} items, not {len(value)}")
    if key in NON_EMPTY and not value:
        raise RulesError(key, "must list at least one item")
    items = []
    for i, item in enumerate(value):
        item_hint = args[i] if fixed else args[0]
        if key in OFFSET_LISTS:
            if not isinstance(item, str):
                raise RulesError(key, f'must be a list of durations like ["48h", "2h", "30m"], not {item!r}')
            try:
                parse_offset(item)
            except ValueError as exc:
                raise RulesError(key, str(exc)) from None
        elif key in CHOICES and item not in CHOICES[key]:
            raise RulesError(key, f"unknown item {item!r} (one of: {', '.join(CHOICES[key])})")
        items.append(_coerce(key, item_hint, item, None))
    if key in CHOICES and len(set(items)) != len(items):
        raise RulesError(key, f"lists an item twice: {items}")
    return tuple(items)


def _coerce_table(key: str, hint: Any, value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise RulesError(key, "must be a table")
    _, value_hint = typing.get_args(hint) or (str, Any)
    table: dict[str, Any] = {}
    for name, item in value.items():
        if not isinstance(name, str) or not name.strip():
            raise RulesError(key, f"has an empty name {name!r}")
        folded = name.strip().casefold()
        if folded in table:
            raise RulesError(key, f"names {name.strip()!r} twice")
        try:
            table[folded] = _coerce(key, value_hint, item, None)
        except RulesError as exc:
            raise RulesError(key, f"{name.strip()!r} {exc.problem}") from None
    return table
