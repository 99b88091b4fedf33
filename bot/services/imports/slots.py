"""The booked slots a schedule is generated on (bot/services/schedule_builder.py), read as the games file's
rows are: not a file ``import`` takes."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from bot.services.imports.csv_rows import Columns, CsvImportError, Parsed, _Checker, _local_time, _parse, _rows
from bot.services.imports.dates import file_order

#: The slots file's columns.
SLOT_COLUMNS = Columns(("starts_at", "venue"), ("division",), {
    "starts_at": "YYYY-MM-DD HH:MM in the league's time zone",
    "division": "only this division's games go there (empty = any division)"})


@dataclass(frozen=True)
class SlotRow:
    line: int
    starts_at: datetime  # UTC
    venue: str
    division: str | None


def read_slots(text: str, tz: ZoneInfo) -> Parsed[SlotRow]:
    """Booked slots, times read as the games file's are."""
    try:
        order = file_order(v.get("starts_at", "") for _, v in _rows(text, SLOT_COLUMNS)[1])
    except (CsvImportError, csv.Error):
        order = None  # _parse reports it

    def row(line: int, v: dict[str, str]) -> SlotRow:
        c = _Checker(v)
        starts = _local_time(c, v.get("starts_at", ""), tz, order)
        venue = c.text("venue", limit=200)
        division = c.text("division", required=False) or None
        return c.done(SlotRow(line, starts or datetime.min.replace(tzinfo=UTC), venue, division))

    return _parse(text, SLOT_COLUMNS, row)
