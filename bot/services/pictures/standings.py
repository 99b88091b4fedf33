"""The standings as a picture: the columns of the text table, a band per division, the sorting column stressed."""

from __future__ import annotations

from bot.league.standings.presets import TEAM_NAME_FALLBACK, StandingsRules
from bot.league.standings.table import StandingsRow
from bot.services.pictures.canvas import (
    ACCENT,
    HEADING,
    INK,
    MUTED,
    STRIPE,
    canvas,
    fit,
    png,
    wrap,
)
from bot.services.standings import StandingsTable, primary_column, primary_value

MARGIN = 28
ROW = 44
SIZE = 24
SMALL = 18
TITLE_SIZE = 30
NUMBER_WIDTH = 52  # a numbers column: three digits at SIZE, with room
PRIMARY_EXTRA = 22  # the last column holds a winning percentage, "1.000"
RANK_WIDTH = 40
NAME_WIDTH = 300
FOOT_LINE = 26


def column_labels(rules: StandingsRules) -> tuple[str, ...]:
    """The columns the text table shows (bot/services/standings.py, ``render_rows``), in its order."""
    return ("#", "Team", "GP", "W", "L", "T", *(("OT",) if rules.points_otl is not None else ()),
            *(("GF",) if "goals_for" in rules.standings_tiebreakers else ()), primary_column(rules)[0])


def row_cells(row: StandingsRow, rules: StandingsRules) -> tuple[str, ...]:
    """One row's values under ``column_labels``, names uncut, ``*`` after a name as in the text."""
    marked = row.tiebreak == TEAM_NAME_FALLBACK and row.gp > 0
    return (str(row.rank), row.team + ("*" if marked else ""), str(row.gp), str(row.w), str(row.l), str(row.t),
            *((str(row.otl),) if rules.points_otl is not None else ()),
            *((str(row.gf),) if "goals_for" in rules.standings_tiebreakers else ()), primary_value(row, rules))


def standings_png(table: StandingsTable) -> bytes:
    """The table of ``table`` (every division in it) as a PNG that fits a phone's width."""
    labels = column_labels(table.rules)
    numbers = len(labels) - 2  # after # and Team
    width = 2 * MARGIN + RANK_WIDTH + NAME_WIDTH + numbers * NUMBER_WIDTH + PRIMARY_EXTRA + 12
    notes = [table.order_text]
    if table.forfeit_text:
        notes.append(table.forfeit_text)
    if table.unsettled:
        notes.append("* level on every criterion: placed by name until the commissioners decide.")
    if not table.games_counted:
        notes.append("No results yet.")
    foot = [line for note in notes for line in wrap(note, SMALL, width - 2 * MARGIN)]
    divisions = table.divisions if table.rows else ()
    named = sum(1 for d in divisions if d)
    body = (len(table.rows) + len(divisions)) * ROW + named * ROW + (0 if table.rows else ROW)
    height = MARGIN + 84 + body + 16 + len(foot) * FOOT_LINE + MARGIN
    picture = canvas(width, height)
    title = f"Standings · {table.league_name}" + (f" · {table.season}" if table.season else "")
    picture.text((MARGIN, MARGIN + 14), fit(title, TITLE_SIZE, width - 2 * MARGIN), TITLE_SIZE, INK, bold=True)
    # No clock time: a picture can't show it in each reader's zone (the message's own timestamp does).
    counted = f"{table.games_counted} game{'s' if table.games_counted != 1 else ''} counted"
    picture.text((MARGIN, MARGIN + 52), counted, SMALL, MUTED)
    y = MARGIN + 84

    def column_x(i: int) -> tuple[float, str]:
        """Where column ``i`` is anchored, and how (numbers right-aligned, the name left)."""
        if i == 0:
            return MARGIN + RANK_WIDTH - 8, "rm"
        if i == 1:
            return MARGIN + RANK_WIDTH + 4, "lm"
        extra = PRIMARY_EXTRA if i == len(labels) - 1 else 0
        return MARGIN + RANK_WIDTH + NAME_WIDTH + (i - 1) * NUMBER_WIDTH + extra, "rm"

    if not table.rows:
        picture.text((MARGIN, y + ROW / 2), "No teams yet.", SIZE, MUTED)
        y += ROW
    for division in divisions:
        if division:
            picture.text((MARGIN, y + ROW / 2), fit(division, SIZE, width - 2 * MARGIN), SIZE, INK, bold=True)
            y += ROW
        picture.draw.rectangle((MARGIN, y, width - MARGIN, y + ROW), fill=HEADING)
        for i, label in enumerate(labels):
            x, anchor = column_x(i)
            picture.text((x, y + ROW / 2), label, SMALL, ACCENT if i == len(labels) - 1 else INK, bold=True,
                         anchor=anchor)
        y += ROW
        for n, row in enumerate(table.division_rows(division)):
            if n % 2:
                picture.draw.rectangle((MARGIN, y, width - MARGIN, y + ROW), fill=STRIPE)
            for i, cell in enumerate(row_cells(row, table.rules)):
                x, anchor = column_x(i)
                last = i == len(labels) - 1
                if i == 1:
                    cell = fit(cell, SIZE, NAME_WIDTH - 12)
                picture.text((x, y + ROW / 2), cell, SIZE, ACCENT if last else (MUTED if i == 0 else INK),
                             bold=last, anchor=anchor)
            y += ROW
    y += 16
    for line in foot:
        picture.text((MARGIN, y + FOOT_LINE / 2), line, SMALL, MUTED)
        y += FOOT_LINE
    return png(picture)
