"""An Excel workbook uploaded instead of a CSV: its first sheet, as the CSV the importer reads.

Read with openpyxl where the ``xlsx`` extra is installed, imported only when a workbook arrives
(most leagues never send one); without it, and for the old .xls format, the answer says how to save
the sheet as CSV. Cells come out as the sheet shows them: whole numbers without ``.0``, dates as
``YYYY-MM-DD HH:MM``, and a long id Excel holds as a float as ``4.10000E+17``, so the file's rounded
ids are reported as a CSV's would be (``csv_rows.rounded_ids``).
"""

from __future__ import annotations

import csv
import importlib
import io
from datetime import date, datetime, time
from typing import Any

from bot.services.imports.csv_rows import MAX_ROWS, CsvImportError, Problem

ZIP = b"PK\x03\x04"  # .xlsx is a zip archive
OLE = b"\xd0\xcf\x11\xe0"  # .xls, Excel 97-2003
SAVE_AS_CSV = 'in Excel, choose File › Save As › "CSV UTF-8 (Comma delimited)" and upload the .csv file'
MAX_COLUMNS = 50
EXACT_DIGITS = 15  # what a float holds of a whole number


def is_workbook(filename: str, data: bytes) -> bool:
    name = filename.casefold()
    return name.endswith((".xlsx", ".xlsm", ".xls")) or data.startswith((ZIP, OLE))


def workbook_as_csv(data: bytes) -> bytes:
    """The first sheet as UTF-8 CSV; CsvImportError with one line saying how to send it instead."""
    if data.startswith(OLE):
        raise CsvImportError([Problem(0, f"this is an old Excel file (.xls), which I can't read: {SAVE_AS_CSV}")])
    try:
        openpyxl = importlib.import_module("openpyxl")
    except ImportError:
        raise CsvImportError([Problem(0, f"I can't read Excel files here: {SAVE_AS_CSV}")]) from None
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # a damaged or renamed file fails in many ways inside openpyxl
        raise CsvImportError([Problem(0, f"I can't read this Excel file (is it damaged?): {SAVE_AS_CSV}")]) from None
    try:
        sheet = book.worksheets[0]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for n, row in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True)):
            if n > MAX_ROWS + 1:
                break  # the parser says "too many rows"
            writer.writerow([cell_text(v) for v in row])
    finally:
        book.close()
    return out.getvalue().encode("utf-8")


def cell_text(value: Any) -> str:
    """A cell as the sheet shows it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, time):
        return value.strftime("%H:%M")
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 10**EXACT_DIGITS:
            return str(int(value))
        if value.is_integer():
            return f"{value:.5E}"  # as Excel's General format shows a long number: its digits are gone
    return str(value).strip()
