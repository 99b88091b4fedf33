"""Members by Discord username in a players CSV (its discord_id) or a teams CSV (its captains): which
rows name someone instead of giving an id, and the file with those names replaced by the ids they
resolved to (the resolving needs Discord: cogs/)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from bot.discord_text import quote
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


CAPTAINS_COLUMN = "captain_discord_ids"


def named_captains(text: str) -> list[tuple[int, str]]:
    """(line, name) for every captain a teams file names as ``@name`` instead of giving an id (a cell
    may hold several, apart by spaces as ids are). Without the @ a cell that is no id stays the
    file's mistake, reported with the others."""
    delimiter, skipped = sniff(text, COLUMNS["teams"])
    body = text.split("\n", skipped)[-1] if skipped else text
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)
    header = [h.strip().lower() for h in next(reader, [])]
    if CAPTAINS_COLUMN not in header:
        return []
    column = header.index(CAPTAINS_COLUMN)
    out = []
    for row in reader:
        cell = row[column] if column < len(row) else ""
        out += [(skipped + reader.line_num, token[1:]) for token in cell.split() if token.startswith("@") and token[1:]]
    return out


def captains_with_ids(text: str, ids: dict[str, int]) -> str:
    """The same teams file, each named captain replaced by their id (``ids`` by the name, any case),
    written with the file's own delimiter and the lines above its header kept."""
    delimiter, skipped = sniff(text, COLUMNS["teams"])
    parts = text.split("\n", skipped)
    body = parts[-1] if skipped else text
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)
    out = io.StringIO()
    out.write("".join(f"{p}\n" for p in parts[:skipped]))
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    header = next(reader, [])
    writer.writerow(header)
    column = [h.strip().lower() for h in header].index(CAPTAINS_COLUMN)
    for row in reader:
        if column < len(row):
            row[column] = " ".join(str(ids[t[1:].casefold()]) if t.startswith("@") and t[1:].casefold() in ids
                                   else t for t in row[column].split())
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
            return f"{quote(name, 60)!r} matches {len(found)} members; use their username or id"
    return f"{quote(name, 60)!r} matches no member of this server"
