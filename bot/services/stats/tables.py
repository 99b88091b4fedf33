"""The statistics as fixed-width text tables, for /stats (cogs/stats.py) and the weekly post alike."""

from __future__ import annotations

from bot.league.stats import Board

SHORT = {"points": "PTS", "goals": "G", "assists": "A", "pim": "PIM", "gp": "GP"}
NAME_WIDTH, TEAM_WIDTH = 18, 10


def cell(text: str, width: int) -> str:
    """Text for a fixed-width table: no backticks (they would end the code block), cut with an ellipsis."""
    text = " ".join(text.replace("`", "'").split())
    return (text[:width - 1] + "…" if len(text) > width else text).ljust(width)


def board_table(board: Board, teams: dict[int, str], *, lines: int | None = None) -> str:
    """A category's leaders as a code block: place (T for level), player, team, value; then how many more
    are level with the last line shown."""
    rows = board.rows if lines is None else board.rows[:lines]
    head = f"{'#':>3}  {cell('Player', NAME_WIDTH)} {cell('Team', TEAM_WIDTH)} {SHORT[board.category]:>4}"
    body = [head] + [f"{r.place:>3}  {cell(r.tally.name, NAME_WIDTH)} "
                     f"{cell(teams.get(r.tally.player_id, ''), TEAM_WIDTH)} {r.tally.value:>4}" for r in rows]
    text = "```\n" + "\n".join(body) + "\n```"
    more = board.more_level + len(board.rows) - len(rows)
    if more and rows:
        last = rows[-1]
        level = sum(1 for r in board.rows[len(rows):] if r.tally.value == last.tally.value) + board.more_level
        text += (f"\n…and {level} more level at {last.tally.value} ({last.place})." if level
                 else "\n…and more in /stats leaders.")
    return text
