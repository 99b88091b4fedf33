"""Parse and validate the league CSV files (docs/product.md §4): every bad row is reported, by line.

Pure: text in, validated rows and a list of problems out. Whether the teams named exist is
checked against the database by the importer, with the same line numbers, and reported together
with these (``Parsed.problems``), so a file's mistakes come in one round.

Files come from Excel as often as not: a semicolon or tab instead of the comma (Excel in many
locales, "Unicode text"), a byte order mark, ids turned into ``7.01E+17``, "F" and "G" for woman and
goalie. Each is read or explained here.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar
from zoneinfo import ZoneInfo

from bot.discord_text import blank, clean_text
from bot.league.vocabulary import (
    DECISIONS,
    GAME_KINDS,
    Decided,
    GameKind,
    Gender,
    Position,
    accepted_spellings,
    read_gender,
    read_position,
)
from bot.services.imports.dates import file_order, read_local_time

MAX_ROWS = 20_000

R = TypeVar("R")
W = TypeVar("W", bound=str)


@dataclass(frozen=True)
class Columns:
    """One kind of file's header: the columns it must have, those it may have, and what goes in each.

    The parser reads these, and ``sideline import -h`` prints them, so the help can't drift."""

    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    notes: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        return self.required + self.optional

    def header(self) -> str:
        return ",".join(self.names)


COLUMNS: dict[str, Columns] = {
    "teams": Columns(("team", "division", "captain_discord_ids"), ("channel_id",), {
        "division": "may be empty; a youth league's is junior or senior",
        "captain_discord_ids": "Discord ids separated by spaces",
        "channel_id": "the team's channel (optional)"}),
    "players": Columns(("discord_id", "name", "team", "position"), ("gender",), {
        "position": "skater or goalie (also player, g, goaltender, ...; empty = skater)",
        "gender": "woman, non-binary, man or prefer-not-to-say (also f, w, nb, m, ...; optional)"}),
    "games": Columns(("game_id", "starts_at", "home", "away", "venue", "kind"), (), {
        "starts_at": "YYYY-MM-DD HH:MM in the league's time zone (also 12/13/2026 7:00 PM, Thu ...)",
        "venue": "may be empty",
        "kind": "regular, seeding or playoff (empty = regular)"}),
    "results": Columns(("game_id", "home_score", "away_score", "decided"), ("shootout_home", "shootout_away"), {
        "decided": "regulation, overtime, shootout or forfeit (a forfeit is 5-0 or 0-5)",
        "shootout_home": "only for shootouts"}),
}

DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}


@dataclass(frozen=True)
class Problem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


class CsvImportError(ValueError):
    """Raised with every problem found; nothing is imported when any row is bad."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: p.line)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class Parsed(Generic[R]):
    """A file's good rows, the problems of the others, and the delimiter it was read with."""

    rows: list[R]
    problems: list[Problem]
    delimiter: str = ","

    def rows_or_raise(self) -> list[R]:
        if self.problems:
            raise CsvImportError(self.problems)
        return self.rows


@dataclass(frozen=True)
class TeamRow:
    line: int
    team: str
    division: str | None
    captain_ids: tuple[int, ...]
    channel_id: int | None


@dataclass(frozen=True)
class PlayerRow:
    line: int
    discord_id: int
    name: str
    team: str
    position: Position
    gender: Gender | None


@dataclass(frozen=True)
class GameRow:
    line: int
    code: str
    starts_at: datetime  # UTC
    home: str
    away: str
    venue: str
    kind: GameKind


@dataclass(frozen=True)
class ResultRow:
    line: int
    code: str
    home_score: int
    away_score: int
    decided: Decided
    shootout_home: int | None
    shootout_away: int | None


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def decode(data: bytes) -> str:
    """UTF-8 with or without a byte order mark (Excel's "CSV UTF-8" writes one), or UTF-16 with one
    (Excel's "Unicode text"); anything else is refused naming the line, so it can be found."""
    try:
        if data.startswith(_UTF16_BOMS):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise CsvImportError([Problem(line, f"the file is not UTF-8 text (byte {exc.object[exc.start]:#04x} "
                                            "on this line; Excel's plain \"CSV\" saves Latin-1): save it as "
                                            "\"CSV UTF-8\" and try again")]) from None


def sniff(text: str, columns: Columns) -> tuple[str, int]:
    """The delimiter the header is written with, and how many lines precede the header.

    Excel writes semicolons where the comma is the decimal mark, tabs for "Unicode text", and may
    open the file with ``sep=;``. The header tells: split with each candidate, the one that finds
    the most known column names wins (then the one giving most fields; the comma on a tie)."""
    lines = text.split("\n")
    first = lines[0].rstrip("\r").rstrip(" ")  # not a tab: "sep=\t" declares one
    declared = first[4] if first.lower().startswith("sep=") and len(first) == 5 and first[4] in DELIMITERS else None
    skipped = 1 if declared else 0
    while skipped < len(lines) - 1 and not lines[skipped].strip():
        skipped += 1  # blank lines above the header
    if declared:
        return declared, skipped
    known = set(columns.names)
    best, best_score = ",", (-1, -1)
    for delimiter in DELIMITERS:
        fields = next(csv.reader([lines[skipped]], delimiter=delimiter), [])
        score = (sum(f.strip().lower() in known for f in fields), len(fields))
        if score > best_score:
            best, best_score = delimiter, score
    return best, skipped


def _rows(text: str, columns: Columns) -> tuple[str, list[tuple[int, dict[str, str]]]]:
    required = columns.required
    if not text.strip():
        raise CsvImportError([Problem(0, f"the file is empty; expected a header row: {','.join(required)}")])
    delimiter, skipped = sniff(text, columns)
    body = text.split("\n", skipped)[-1] if skipped else text
    reader = csv.DictReader(io.StringIO(body, newline=""), delimiter=delimiter)
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    first = skipped + reader.line_num
    twice = sorted({h for h in header if h and header.count(h) > 1})
    if twice:  # which one holds the data? Don't guess (csv would silently take the last)
        raise CsvImportError([Problem(first, f"column(s) {', '.join(twice)} appear twice in the header; "
                                             "keep one of each")])
    missing = [c for c in required if c not in header]
    if missing:
        raise CsvImportError([Problem(first, f"missing column(s): {', '.join(missing)} "
                                             f"(the header must include {','.join(required)}; "
                                             f"read as {DELIMITERS[delimiter]}-separated)")])
    reader.fieldnames = header
    rows = []
    for record in reader:
        if reader.line_num > MAX_ROWS + 1:
            raise CsvImportError([Problem(skipped + reader.line_num, f"too many rows (at most {MAX_ROWS})")])
        values = {k: (v or "").strip() for k, v in record.items() if k is not None and isinstance(v, str)}
        if not any(values.values()):
            continue  # blank line
        rows.append((skipped + reader.line_num, values))
    return delimiter, rows


def _parse(text: str, columns: Columns, row: Callable[[int, dict[str, str]], R]) -> Parsed[R]:
    """Every row checked: the good ones, and each bad one's problems by line (header problems raise)."""
    try:
        delimiter, rows = _rows(text, columns)
    except csv.Error as exc:
        raise CsvImportError([Problem(0, f"the file is not valid CSV: {exc}")]) from None
    parsed: Parsed[R] = Parsed([], [], delimiter)
    rounded: list[tuple[int, str, str]] = []
    for line, values in rows:
        try:
            parsed.rows.append(row(line, values))
        except _RowError as exc:
            parsed.problems.extend(Problem(line, m) for m in exc.messages)
            rounded += [(line, key, value) for key, value in exc.rounded]
    if not rows:
        raise CsvImportError([Problem(0, "the file has a header but no rows")])
    if rounded:
        parsed.problems.append(Problem(0, rounded_ids(rounded)))
    return parsed


def rounded_ids(cells: list[tuple[int, str, str]]) -> str:
    """One line for every id a spreadsheet showed in scientific notation (line, column, cell): the same
    mistake on every row is one fix, not a screenful of problems."""
    columns = list(dict.fromkeys(key for _, key, _ in cells))
    lines = sorted({line for line, _, _ in cells})
    where = f"line {lines[0]}" if len(lines) == 1 else f"{len(lines)} rows, lines {lines[0]} to {lines[-1]}"
    named = " and ".join(columns)
    column = f"the {named} column" + ("s" if len(columns) > 1 else "")
    return (f"{column} {'have' if len(columns) > 1 else 'has'} ids a spreadsheet turned into numbers like "
            f"{cells[0][2][:30]} ({where}): it kept only their first 15 digits, so the ids are lost. Format "
            f"{'those columns' if len(columns) > 1 else 'that column'} as Text and paste the full ids in again")


def is_rounded_id(value: str) -> bool:
    """A Discord id as a spreadsheet shows a long number: ``4.10000E+17``, ``7,01E+17``, ``7.01e17``."""
    mantissa, _, exponent = value.upper().partition("E")
    return exponent.lstrip("+").isdigit() and mantissa.replace(".", "", 1).replace(",", "", 1).isdigit()


class _RowError(Exception):
    def __init__(self, messages: list[str], rounded: list[tuple[str, str]] | None = None) -> None:
        self.messages = messages
        self.rounded = rounded or []


class _Checker:
    """Collects every problem of one row instead of stopping at the first."""

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values
        self.messages: list[str] = []
        self.rounded: list[tuple[str, str]] = []  # (column, cell): ids in scientific notation, told once a file

    def text(self, key: str, *, required: bool = True, limit: int = 100) -> str:
        """A name or code as typed text is stored (bot.discord_text.clean_text): nothing visible is empty."""
        value = clean_text(self.values.get(key, ""))
        if blank(value):
            value = ""
        if required and not value:
            self.messages.append(f"{key} is empty (or has nothing visible)")
        elif len(value) > limit:
            self.messages.append(f"{key} is longer than {limit} characters")
        return value

    def snowflake(self, key: str, raw: str | None = None, *, required: bool = True) -> int | None:
        value = self.values.get(key, "") if raw is None else raw
        if not value:
            if required:
                self.messages.append(f"{key} is empty")
            return None
        if is_rounded_id(value):
            self.rounded.append((key, value))
            return None
        if not (value.isascii() and value.isdigit()) or not 0 < int(value) < 2**63:
            self.messages.append(f"{key} {value[:30]!r} is not a Discord id (a number like 123456789012345678)"
                                 + _id_hint(key, value))
            return None
        return int(value)

    def choice(self, key: str, allowed: tuple[W, ...], default: W | None) -> W | None:
        value = self.values.get(key, "").lower()
        if not value:
            return default
        for word in allowed:
            if value == word:
                return word
        self.messages.append(f"{key} {value[:30]!r} must be one of {', '.join(allowed)}")
        return default

    def spelled(self, key: str, read: Callable[[str], W | None], default: W | None) -> W | None:
        """A word written any of the common ways (``read``); the accepted spellings on error."""
        value = self.values.get(key, "")
        if not value:
            return default
        word = read(value)
        if word is None:
            self.messages.append(f"{key} {value[:30]!r} is not one we know; write one of: {accepted_spellings(key)}")
            return default
        return word

    def score(self, key: str, *, required: bool = True) -> int | None:
        value = self.values.get(key, "")
        if not value:
            if required:
                self.messages.append(f"{key} is empty")
            return None
        if not (value.isascii() and value.isdigit()) or int(value) > 99:
            self.messages.append(f"{key} {value[:10]!r} must be a whole number from 0 to 99")
            return None
        return int(value)

    def done(self, result: Any) -> Any:
        if self.messages or self.rounded:
            raise _RowError(self.messages, self.rounded)
        return result


def _id_hint(key: str, value: str) -> str:
    """Why an id cell isn't an id, where we can tell: a username (scientific notation: ``rounded_ids``)."""
    if key == "discord_id" and any(c.isalpha() for c in value):
        return "; a username works with /import players in Discord"
    return ""


def read_teams(text: str) -> Parsed[TeamRow]:
    def row(line: int, v: dict[str, str]) -> TeamRow:
        c = _Checker(v)
        team = c.text("team")
        division = c.text("division", required=False) or None
        captains = tuple(x for x in (c.snowflake("captain_discord_ids", raw=part)
                                     for part in v.get("captain_discord_ids", "").split()) if x)
        channel = c.snowflake("channel_id", required=False)
        return c.done(TeamRow(line, team, division, captains, channel))

    parsed = _parse(text, COLUMNS["teams"], row)
    _no_duplicates(parsed, lambda r: r.team.lower(), "team {} appears twice (first on line {})")
    return parsed


def parse_teams(text: str) -> list[TeamRow]:
    return read_teams(text).rows_or_raise()


def read_players(text: str) -> Parsed[PlayerRow]:
    def row(line: int, v: dict[str, str]) -> PlayerRow:
        c = _Checker(v)
        discord_id = c.snowflake("discord_id")
        name = c.text("name")
        team = c.text("team")
        position: Position | None = c.spelled("position", read_position, None)
        gender: Gender | None = c.spelled("gender", read_gender, None)
        return c.done(PlayerRow(line, discord_id or 0, name, team, position or "skater", gender))

    parsed = _parse(text, COLUMNS["players"], row)
    _no_duplicates(parsed, lambda r: r.discord_id, "Discord id {} appears twice (first on line {})")
    return parsed


def parse_players(text: str) -> list[PlayerRow]:
    return read_players(text).rows_or_raise()


def read_games(text: str, tz: ZoneInfo, *, now: datetime, allow_past: bool = False) -> Parsed[GameRow]:
    """Games; ``starts_at`` as spreadsheets write it (bot/services/imports/dates.py), slashed dates read in the
    order the file's unambiguous ones show."""
    try:
        order = file_order(v.get("starts_at", "") for _, v in _rows(text, COLUMNS["games"])[1])
    except (CsvImportError, csv.Error):
        order = None  # _parse reports it

    def row(line: int, v: dict[str, str]) -> GameRow:
        c = _Checker(v)
        code = c.text("game_id", limit=64)
        starts = _local_time(c, v.get("starts_at", ""), tz, order)
        if starts is not None and starts < now and not allow_past:
            c.messages.append(f"starts_at {v['starts_at']} is in the past (allow past games to import it)")
        home, away = c.text("home"), c.text("away")
        if home and home.lower() == away.lower():
            c.messages.append("home and away are the same team")
        venue = c.text("venue", required=False, limit=200)
        kind = c.choice("kind", GAME_KINDS, "regular")
        return c.done(GameRow(line, code, starts or now, home, away, venue, kind or "regular"))

    parsed = _parse(text, COLUMNS["games"], row)
    _no_duplicates(parsed, lambda r: r.code, "game_id {} appears twice (first on line {})")
    return parsed


def parse_games(text: str, tz: ZoneInfo, *, now: datetime, allow_past: bool = False) -> list[GameRow]:
    return read_games(text, tz, now=now, allow_past=allow_past).rows_or_raise()


def read_results(text: str, forfeit_score: tuple[int, int] = (5, 0)) -> Parsed[ResultRow]:
    """Result rows; a forfeit must carry the league's forfeit score (``standings_forfeit_score``)."""
    win, lose = forfeit_score

    def row(line: int, v: dict[str, str]) -> ResultRow:
        c = _Checker(v)
        code = c.text("game_id", limit=64)
        home, away = c.score("home_score"), c.score("away_score")
        decided = c.choice("decided", DECISIONS, None)
        if decided is None and not v.get("decided"):
            c.messages.append("decided is empty (regulation, overtime, shootout or forfeit)")
        so_home = c.score("shootout_home", required=False)
        so_away = c.score("shootout_away", required=False)
        if decided == "shootout":
            if so_home is None or so_away is None:
                c.messages.append("a shootout needs shootout_home and shootout_away")
            elif so_home == so_away:
                c.messages.append("a shootout needs a winner (shootout goals can't be equal)")
            if home is not None and away is not None and home != away:
                c.messages.append("a game decided by shootout was tied before it (home_score = away_score)")
        elif so_home is not None or so_away is not None:
            c.messages.append("shootout columns are only for games decided by shootout")
        if decided == "forfeit" and sorted((home or 0, away or 0)) != [lose, win]:
            c.messages.append(f"a forfeit is recorded {win}-{lose} or {lose}-{win} in this league "
                              f"(the forfeiting side has {lose})")
        if decided == "overtime" and home == away:
            c.messages.append("an overtime result needs a winner")
        return c.done(ResultRow(line, code, home or 0, away or 0, decided or "regulation", so_home, so_away))

    parsed = _parse(text, COLUMNS["results"], row)
    _no_duplicates(parsed, lambda r: r.code, "game_id {} appears twice (first on line {})")
    return parsed


def parse_results(text: str, forfeit_score: tuple[int, int] = (5, 0)) -> list[ResultRow]:
    return read_results(text, forfeit_score).rows_or_raise()


def _local_time(c: _Checker, value: str, tz: ZoneInfo, order: str | None) -> datetime | None:
    """A league-local game time as spreadsheets write it; a time skipped by a clock change is an error."""
    try:
        return read_local_time(value, tz, order)
    except ValueError as exc:
        c.messages.append(f"starts_at {exc}")
        return None


def _no_duplicates(parsed: Parsed[Any], key: Callable[[Any], Any], message: str) -> None:
    """A second row with the same key is a problem of its own line; the first row stays."""
    seen: dict[Any, int] = {}
    kept = []
    for r in parsed.rows:
        k = key(r)
        if k in seen:
            parsed.problems.append(Problem(r.line, message.format(k, seen[k])))
        else:
            seen[k] = r.line
            kept.append(r)
    parsed.rows = kept

