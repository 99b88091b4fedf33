"""/setup's settings in a commissioner's words: "Captain role: not set → @Captains", not the
``roles.captain`` key and a bare id the service audits them under."""

from __future__ import annotations

import json

LABELS = {
    "league": "League",
    "key": "League key",
    "preset": "Rules preset",
    "timezone": "Time zone",
    "reminders.game_offsets": "Game reminders before each game",
    "reminders.captain_alert_offsets": "Lineup alerts to captains before each game",
    "reminders.game_card_offsets": "The game card to the referees before each game",
    "scheduled_events": "Games as Discord events",
    "team_roles": "A role per team",
}
SWITCH = {"true": "on", "false": "off"}


def setting_label(key: str) -> str:
    """Plain words for a setting; a rule keeps its name in brackets, as /setup rule's list shows it."""
    if key in LABELS:
        return LABELS[key]
    kind, _, name = key.partition(".")
    words = name.replace("_", " ")
    if kind == "roles":
        return f"{words.capitalize()} role"
    if kind == "channels":
        return f"{words.capitalize()} channel"
    if kind == "rules":
        return f"{words.capitalize()} ({name})"
    return key.replace("_", " ").capitalize()


def shown_value(key: str, value: str | None) -> str:
    """A value as Discord shows it: roles and channels as mentions, switches on or off, lists by commas."""
    if value is None or value == "":
        return "not set"
    kind = key.partition(".")[0]
    if kind in ("roles", "channels") and value.isdecimal():
        return f"<@&{value}>" if kind == "roles" else f"<#{value}>"
    if key in ("scheduled_events", "team_roles"):
        return SWITCH.get(value, value)
    if kind == "reminders" and value.startswith("["):
        try:
            return ", ".join(str(v) for v in json.loads(value)) or "off"
        except ValueError:
            return value
    return value
