"""The draft board's text (bot/services/draft/board.py): within Discord's 2,000 characters however many rounds
and however long the names, the team on the clock always shown, and no member mentioned (the board never
pings; the ping is its own message)."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from bot.services.draft.board import Board, BoardPick, board_text

DUE = datetime(2030, 1, 5, 17, 2, tzinfo=UTC)


def board(picks: list[BoardPick], teams: tuple[str, ...], status: str = "running") -> Board:
    return Board(1, "senior", "Spring 2030", status, 50, teams, "00ff", tuple(picks),
                 teams[0] if status == "running" else None, 1 if status == "running" else None,
                 len(picks) + 1, len(picks) // len(teams) + 1, DUE if status == "running" else None,
                 "no players left" if status == "done" else "", 3, True, True)


@given(st.lists(st.text(min_size=1, max_size=100), min_size=2, max_size=10), st.integers(0, 400),
       st.sampled_from(["running", "done"]))
def test_the_board_fits_one_message_and_keeps_its_last_line(teams: list[str], made: int, status: str) -> None:
    names = tuple(teams)
    picks = [BoardPick(n, (n - 1) // len(names) + 1, names[(n - 1) % len(names)], None if n % 7 == 0 else "x" * 90)
             for n in range(1, made + 1)]
    text = board_text(board(picks, names, status))
    assert len(text) <= 2000
    last = text.splitlines()[-1]
    if status == "running":
        assert "On the clock" in text and f"<t:{int(DUE.timestamp())}:F>" in text
    else:
        assert last.startswith("✅ The draft is over: no players are left to pick")


def test_skipped_picks_show_as_skipped_and_nobody_is_mentioned() -> None:
    text = board_text(board([BoardPick(1, 1, "Hawks", "Sam Park"), BoardPick(2, 1, "Owls", None)], ("Hawks", "Owls")))
    assert "**Round 1** · 1. Hawks: Sam Park · 2. Owls: (skipped)" in text
    assert "Lottery order (snake: even rounds reversed): 1. Hawks, 2. Owls" in text
    assert "<@" not in text
