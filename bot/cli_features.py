"""Subcommands contributed by features; each registrar adds its parsers to `sideline`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

REGISTRARS: list[Callable[[Any], None]] = []
