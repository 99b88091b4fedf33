"""Players by Discord username in a players CSV: which rows name someone instead of giving an id, and
the file with those names replaced by the ids they resolved to (the resolving needs Discord: cogs/)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from bot.services.imports.csv_rows import COLUMNS, is_rounded_id, sniff

ID_COLUMN = "discord_id"


@dataclass(frozen=True)
class Candidate:
    """A server member a name could mean."""

    id: int
    username: str
    display_name: str


def is_id(cell: str) -> bool:
    return cell.isascii() and cell.isdigit()


def named_rows(text: str) -> list[tuple[int, str]]:
    """(line, name) for every row whose discord_id is a username (``@name`` or ``name``), not an id (nor
    an id a spreadsheet showed as ``4.1E+17``)."""
    delimiter, skipped = sniff(text, COLUMNS["players"])
    body = text.split("\n", skipped)[-1] if skipped else text
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)
    header = [h.strip().lower() for h in next(reader, [])]
    if ID_COLUMN not in header:
        return []
    column = header.index(ID_COLUMN)
    out = []
    for row in reader:
        cell = row[column].strip() if column < len(row) else ""
        if cell and not is_id(cell) and not is_rounded_id(cell):  # a spreadsheet's 4.1E+17: the parser says
            out.append((skipped + reader.line_num, cell.removeprefix("@").strip()))
    return out


def with_ids(text: str, ids: dict[int, int]) -> str:
    """The same file, each named row's discord_id replaced by its id (by line number), written with
    the file's own delimiter and the lines above its header kept, so line numbers still agree."""
    delimiter, skipped = sniff(text, COLUMNS["players"])
    parts = text.split("\n", skipped)
    body = parts[-1] if skipped else text
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)
    out = io.StringIO()
    out.write("".join(f"{p}\n" for p in parts[:skipped]))
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    header = next(reader, [])
    writer.writerow(header)
    column = [h.strip().lower() for h in header].index(ID_COLUMN)
    for row in reader:
        if skipped + reader.line_num in ids and column < len(row):
            row[column] = str(ids[skipped + reader.line_num])
        writer.writerow(row)
    return out.getvalue()


def pick(name: str, candidates: list[Candidate]) -> int | str:
    """The one member ``name`` means (username first, then display name, any case), or why not."""
    folded = name.casefold()
    for field in ("username", "display_name"):
        found = {c.id for c in candidates if getattr(c, field).casefold() == folded}
        if len(found) == 1:
            return found.pop()
        if len(found) > 1:
            return f"{name!r} matches {len(found)} members; use their username or id"
    return f"{name!r} matches no member of this server"
