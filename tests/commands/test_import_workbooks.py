"""/import with an Excel workbook: read (the xlsx extra) as its CSV would be, or refused saying how to
save it as CSV; openpyxl is loaded only when a workbook arrives."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from storage.models import Game, Player
from tests.conftest import SampleLeague
from tests.harness import Attachment, Harness
from tests.reliability.snapshot import changed_tables, snapshot

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SAVE_AS = 'in Excel, choose File › Save As › "CSV UTF-8 (Comma delimited)" and upload the .csv file.'
ROOT = Path(__file__).resolve().parents[2]


def workbook(*rows: tuple[object, ...]) -> bytes:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


async def test_a_games_workbook_with_date_cells_imports(harness: Harness, league: SampleLeague) -> None:
    data = workbook(("game_id", "starts_at", "home", "away", "venue", "kind"),
                    ("X1", datetime(2030, 2, 7, 19, 0), "Hawks", "Owls", "Rink A", None))
    reply = await harness.slash("/import games", as_=league.commissioner(),
                                file=Attachment("Winter schedule.xlsx", data, XLSX))
    assert "Winter schedule.xlsx: games: 1 created, 0 updated, 0 unchanged." in reply.text, reply.text
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(Game.venue).where(Game.code == "X1")) == "Rink A"


async def test_ids_excel_holds_as_numbers_get_the_one_line_about_text_columns(
        harness: Harness, league: SampleLeague) -> None:
    rows = [(410000000000000123 + n * 1000.0, f"Player {n}", "Hawks", "skater") for n in range(5)]
    data = workbook(("discord_id", "name", "team", "position"), *rows)
    before = await snapshot(harness.bot.sessions)
    reply = await harness.slash("/import players", as_=league.commissioner(), file=Attachment("p.xlsx", data, XLSX))
    assert reply.text == ("Nothing was imported. Fix these and upload the file again:\n• the discord_id column has ids "
                          "a spreadsheet turned into numbers like 4.10000E+17 (5 rows, lines 2 to 6): it kept only "
                          "their first 15 digits, so the ids are lost. Format that column as Text and paste the full "
                          "ids in again")
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []


async def test_without_the_xlsx_extra_a_workbook_is_refused_with_save_as_csv(
        harness: Harness, league: SampleLeague, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openpyxl", None)  # what an install without the extra finds
    before = await snapshot(harness.bot.sessions)
    reply = await harness.slash("/import players", as_=league.commissioner(),
                                file=Attachment("players.xlsx", b"PK\x03\x04 a workbook", XLSX))
    assert reply.ephemeral and reply.text == f"Nothing was imported. I can't read Excel files here: {SAVE_AS}"
    old = await harness.slash("/import teams", as_=league.commissioner(),
                              file=Attachment("teams.xls", b"\xd0\xcf\x11\xe0 old", "application/vnd.ms-excel"))
    assert old.text == f"Nothing was imported. This is an old Excel file (.xls), which I can't read: {SAVE_AS}"
    async with harness.bot.sessions() as s:
        assert await s.scalar(select(Player.id).where(Player.name == "New Nora")) is None
    assert changed_tables(before, await snapshot(harness.bot.sessions)) == []


def test_the_bot_starts_without_loading_openpyxl() -> None:
    """Most leagues never send a workbook: the bot with every cog loaded has not imported it."""
    code = ("import sys; from bot.run.app import create_bot; from tests.commands.empty_server import no_leagues; "
            "create_bot(no_leagues(), run_scheduler=False); import cogs.imports.imports; "
            "print('openpyxl' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False", result.stderr
