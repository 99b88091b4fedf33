"""Typed access to a config file's raw TOML values, and the error that names the file and the key.

bot/config/settings.py reads the ``[bot]`` table and each ``[[leagues]]`` table with it; every error is one
line an operator can act on: ``config.toml: leagues[0].timezone: 'EST' is an abbreviation ...``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any


class SettingsError(ValueError):
    """A config problem, phrased for the operator: file, key, what is wrong."""

    def __init__(self, path: Path | str, key: str, problem: str) -> None:
        key, problem = _one_line(key), _one_line(problem)  # a quoted TOML key may hold a newline
        self.path, self.key, self.problem = str(path), key, problem
        super().__init__(f"{path}: {key}: {problem}")


class UnknownLeague(SettingsError):
    """``--league KEY`` (or a service's lookup) named no league; the message lists the keys there are."""

    def __init__(self, path: Path | str, key: str, known: tuple[str, ...]) -> None:
        super().__init__(path, "leagues.key", f"no league {key!r} ({', '.join(known) or 'none configured'})")
        self.wanted, self.known = key, known


def _one_line(text: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class Reader:
    """Typed access to raw TOML values with errors that name the key."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, problem: str) -> SettingsError:
        return SettingsError(self.path, key, problem)

    def table(self, raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = raw.get(key.rsplit(".", 1)[-1], {})
        if not isinstance(value, Mapping):
            raise self.fail(key, "must be a table")
        return value

    def reject_unknown(self, raw: Mapping[str, Any], where: str, allowed: set[str]) -> None:
        for name in raw:
            if name not in allowed:
                raise self.fail(f"{where}.{name}", f"unknown key (allowed: {', '.join(sorted(allowed))})")

    def string(self, raw: Mapping[str, Any], key: str, default: str | None = None) -> str:
        name = key.rsplit(".", 1)[-1]
        if name not in raw:
            if default is None:
                raise self.fail(key, "is required")
            return default
        value = raw[name]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, "must be a non-empty string")
        return value.strip()

    def snowflake(self, raw: Mapping[str, Any], key: str, *, required: bool) -> int | None:
        name = key.rsplit(".", 1)[-1]
        if name not in raw:
            if required:
                raise self.fail(key, "is required")
            return None
        value = raw[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be an integer Discord id, not {value!r}")
        if not 0 < value < 2**64:
            raise self.fail(key, f"{value} is not a Discord id (a positive 64-bit integer)")
        return value

    def flag(self, raw: Mapping[str, Any], key: str) -> bool:
        value = raw.get(key.rsplit(".", 1)[-1], False)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {value!r}")
        return value
