"""CSV imports from Discord: commissioners only, same all-or-nothing importer as the CLI."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.errors import InvalidInput
from bot.services.imports.csv_rows import CsvImportError
from bot.services.imports.importer import Importer
from bot.services.imports.report import ImportReport
from bot.services.results import ResultHook

MAX_CSV_BYTES = 1_000_000
MAX_PROBLEMS_SHOWN = 15
#: The importer's words for a game that already started (bot/services/imports/csv_rows.py).
IN_THE_PAST = " is in the past"
PAST_GAMES = ("To import games that already started, upload the file again with "
              "`/import games file: allow_past:True`.")


class ImportService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], *, on_result: ResultHook) -> None:
        self.importer = Importer(sessions, on_result=on_result)

    async def run(self, caller: Caller, kind: str, data: bytes, *, now: datetime,
                  allow_past: bool = False) -> ImportReport:
        caller.require(Role.COMMISSIONER)
        if len(data) > MAX_CSV_BYTES:
            raise InvalidInput(f"That file is too large (over {MAX_CSV_BYTES // 1000} kB). Split it and try again.")
        try:
            return await self.importer.run(kind, data, caller.league, now=now, allow_past=allow_past)
        except CsvImportError as exc:
            shown = [str(p) for p in exc.problems[:MAX_PROBLEMS_SHOWN]]
            more = len(exc.problems) - len(shown)
            lines = "\n".join(f"• {line}" for line in shown) + (f"\n• …and {more} more" if more > 0 else "")
            past = kind == "games" and any(IN_THE_PAST in p.message for p in exc.problems)
            raise InvalidInput(f"Nothing was imported. Fix these and upload the file again:\n{lines}"
                               + (f"\n{PAST_GAMES}" if past else "")) from None
