"""Subcommands contributed by features; each registrar adds its parsers to `sideline`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cli_discipline import register as register_discipline
from bot.cli_leagues import register as register_leagues
from bot.cli_relays import register as register_relays
from bot.cli_reminders import register as register_reminders
from bot.cli_rules import register as register_rules
from bot.cli_standings import register as register_standings

REGISTRARS: list[Callable[[Any], None]] = [register_rules, register_standings, register_relays, register_discipline,
                                           register_reminders, register_leagues]
