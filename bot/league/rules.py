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

from bot.league.deadlines import DEADLINE_PRESETS, DeadlineRules
from bot.league.discipline import DISCIPLINE_PRESETS, DisciplineRules
from bot.league.game_format import GAME_FORMAT_PRESETS, GameFormat
from bot.league.lineup import LINEUP_PRESETS, LineupRules
from bot.league.shootout import SHOOTOUT_PRESETS, ShootoutRules
from bot.league.standings import STANDINGS_PRESETS, StandingsRules

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


_SECTIONS: dict[str, Mapping[str, Any]] = {
    "lineup": LINEUP_PRESETS,
    "game_format": GAME_FORMAT_PRESETS,
    "shootout": SHOOTOUT_PRESETS,
    "standings": STANDINGS_PRESETS,
    "discipline": DISCIPLINE_PRESETS,
    "deadlines": DEADLINE_PRESETS,
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


def build_rules(preset_name: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset with config overrides applied: a flat key, or a [rules.<section>] table."""
    rules = preset(preset_name)
    if not overrides:
        return rules
    owners = _field_owners(rules)
    changes: dict[str, dict[str, Any]] = {}
    for key, value in overrides.items():
        if key in _SECTIONS and isinstance(value, Mapping):
            for sub_key, sub_value in value.items():
                if sub_key not in {f.name for f in dataclasses.fields(getattr(rules, key))}:
                    raise RulesError(f"{key}.{sub_key}", "unknown rule setting")
                changes.setdefault(key, {})[sub_key] = sub_value
        elif key in owners:
            changes.setdefault(owners[key], {})[key] = value
        else:
            raise RulesError(key, "unknown rule setting")
    updated: dict[str, Any] = {}
    for section, values in changes.items():
        current = getattr(rules, section)
        hints = typing.get_type_hints(type(current))
        for name, value in values.items():
            values[name] = _coerce(f"{name}", hints[name], value, getattr(current, name))
        updated[section] = dataclasses.replace(current, **values)
    return dataclasses.replace(rules, **updated)


def _coerce(key: str, hint: Any, value: Any, current: Any) -> Any:
    """Check an override against the field's declared type; lists become tuples."""
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
        if value not in typing.get_args(hint):
            raise RulesError(key, f"must be one of {', '.join(map(repr, typing.get_args(hint)))}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise RulesError(key, "must be a list")
        args = typing.get_args(hint)
        item = args[0] if args else Any
        return tuple(_coerce(key, item, v, None) for v in value)
    if origin is dict or origin is Mapping:
        if not isinstance(value, Mapping):
            raise RulesError(key, "must be a table")
        return dict(value)
    if hint is Any:
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(key, f"must be true or false, not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(key, f"must be a whole number, not {value!r}")
        if value < 0:
            raise RulesError(key, f"must not be negative ({value})")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RulesError(key, f"must be a number, not {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise RulesError(key, f"must be text, not {value!r}")
        return value
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        raise RulesError(key, "can't be overridden from config")
    if isinstance(hint, type) and not isinstance(value, hint):
        raise RulesError(key, f"must be a {hint.__name__}, not {value!r}")
    return value
