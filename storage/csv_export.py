"""Every CSV the project writes goes through here, so no cell runs as a spreadsheet formula.

Spreadsheet programs run a cell that starts with = + - @ (or a tab or carriage return before
one): a game id ``=HYPERLINK(...)`` exported as is comes out live. Such text gets a leading
apostrophe, which spreadsheets show as text and hide; numbers and empty cells are left alone.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """``value`` as a cell a spreadsheet shows as text, never runs."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(out: Any, columns: Sequence[str], rows: Iterable[Mapping[str, object]]) -> None:
    """A header row and ``rows``, every cell through :func:`spreadsheet_safe`."""
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n", extrasaction="raise")
    if columns:
        writer.writeheader()
    writer.writerows({k: spreadsheet_safe(v) for k, v in row.items()} for row in rows)
