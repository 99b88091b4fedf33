"""Every rule setting a league may override, with its one-line meaning and rulebook citation.

The meaning is the comment above the setting in its rules dataclass (bot/league/lineup.py and
friends), so the list can't drift from the code; the citation is the section's citation whose name
the setting contains (``women_nonbinary`` for ``women_nonbinary_on_court``).
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.league.rules import Rules, build_rules

#: The rules' sections, in their order (lineup, game_format, ...).
SECTIONS = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "preset")


@dataclass(frozen=True)
class RuleSetting:
    key: str
    section: str
    meaning: str
    citation: str  # "" when the rulebook is silent: a league setting

    def cited(self) -> str:
        return self.citation or "league setting"


@cache
def _comments(cls: type) -> dict[str, str]:
    """The comment lines right above each field of a dataclass, joined."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    out: dict[str, str] = {}
    pending: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            pending.append(stripped.lstrip("# ").strip())
            continue
        m = re.match(r"^(\w+)\s*:", stripped)
        if m and pending:
            out[m.group(1)] = " ".join(pending)
        pending = []
    return out


# Settings whose citation's name isn't part of their own: the citation that covers them.
CITED_BY: dict[str, str] = {
    "plays_short_when_short_of_women": "women_nonbinary",
    "forfeit_after_minutes": "start",
    "shootout_initial_shooters_playoff": "initial_playoff",
    "shootout_block_size": "women_blocks",
    "shootout_min_women_per_block": "women_blocks",
    "shootout_match_smaller_team": "eligibility",
    "shootout_only_players_on_floor": "eligibility",
    "shootout_goalies_may_shoot": "eligibility",
    "shootout_goalie_may_change": "goalie_change",
    "shootout_alternating": "initial",
    "discipline_minors_per_double_minor": "game_misconduct_after_minors",
    "suspensions_carry_into_playoffs": "serving",
    "suspensions_carry_into_next_season": "serving",
    "trade_deadline_week": "trades",
    "age_reference": "ages",
    "draft_rounds": "order",
}
# Settings no rulebook speaks to: how the bot works for the league (docs/settings.md says so).
LEAGUE_SETTINGS = frozenset({"default_nudge_offsets", "game_reminder_offsets", "captain_alert_lead_times",
                             "warn_unassigned_hours_before", "replacement_season_dues_cents", "division_capacity",
                             "offer_hours", "payment_nudge_hours", "guardian_under_age", "rulevote_period",
                             "draft_pick_seconds", "draft_auto_skip"})


def _citation(section_rules: Any, key: str) -> str:
    cites = next((getattr(section_rules, f.name) for f in dataclasses.fields(section_rules)
                  if f.name.endswith("citations")), None)
    if cites is None or not dataclasses.is_dataclass(cites):
        return ""
    if key in CITED_BY:
        return str(getattr(cites, CITED_BY[key], ""))
    names = sorted((f.name for f in dataclasses.fields(cites) if f.name in key), key=len, reverse=True)
    return getattr(cites, names[0]) if names else ""


#: Set as the league's reminders ([leagues.reminders], /setup reminders), not as rule overrides.
REMINDER_SETTINGS = frozenset({"game_reminder_offsets", "captain_alert_lead_times"})


def rule_settings(rules: Rules) -> list[RuleSetting]:
    """Every overridable setting of these rules (citations are objects, not settings; the reminder
    times are the league's reminders, see REMINDER_SETTINGS)."""
    out: list[RuleSetting] = []
    for section in SECTIONS:
        part = getattr(rules, section)
        meanings = _comments(type(part))  # type: ignore[arg-type]  # typeshed: mypy reads a class's __hash__ as unbound
        for f in dataclasses.fields(part):
            if f.name.endswith("citations") or f.name in REMINDER_SETTINGS:
                continue
            meaning = meanings.get(f.name) or f.name.replace("_", " ")
            out.append(RuleSetting(f.name, section, meaning, _citation(part, f.name)))
    return out


def current_value(rules: Rules, key: str) -> Any:
    for section in SECTIONS:
        part = getattr(rules, section)
        if any(f.name == key for f in dataclasses.fields(part)):
            return getattr(part, key)
    raise KeyError(key)


def show_value(value: Any) -> str:
    """A setting's value as a config file would spell it."""
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return json.dumps(list(value))
    if isinstance(value, dict) or hasattr(value, "items"):
        return json.dumps(dict(value))
    return str(value)


def read_value(text: str) -> Any:
    """What a commissioner typed, as a TOML value would be: 3, true, ["2d", "1h"], or plain text."""
    text = text.strip()
    lowered = text.casefold()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null", "not set"):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def check_override(preset_name: str, overrides: dict[str, Any]) -> Rules:
    """The rules with these overrides, checked as a config file's are (RulesError if not)."""
    return build_rules(preset_name, overrides)


# Where a rulebook says two things about one setting: (preset, key) -> (one reading, the other, the
# reading in force). /setup show names both, so a commissioner sees the choice and can change it.
CONTRADICTIONS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("youth-ball-hockey", "shootout_initial_shooters_playoff"): (
        "Youth rules 1.19 (playoff ties go to “a 5-round shootout”)",
        "Youth rules 2.13B (“three players from each team”)",
        "{value} shooters, this setting"),
    ("coed-ball-hockey", "women_nonbinary_on_court"): (
        "Co-ed rules: Game Structure 2, Subs 1 (6 on the court “including the goalie and 2 women/non-binary”)",
        "Co-ed rules: Teams (“not including the goalie”)",
        "{value} women/non-binary skaters, the goalie not counted (Teams)"),
}


def contradiction(preset_name: str, key: str, value: Any) -> str:
    """One line naming both sections and the reading in force, or "" where the rulebook agrees with itself."""
    found = CONTRADICTIONS.get((preset_name, key))
    if found is None:
        return ""
    one, other, in_force = found
    return f"The rulebook disagrees: {one} vs {other}; in force: {in_force.format(value=show_value(value))}."
