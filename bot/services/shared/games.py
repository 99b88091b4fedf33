"""Finding a game by the id people type, as every command that names a game does, and checking a
change to its state before making it."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.access import Caller
from bot.discord_text import quote
from bot.errors import Conflict, NotFound
from bot.league.game_status import Change, GameStateError, GameStatus, after
from bot.services.shared.attendance import GameSides, game_sides
from storage import lookups
from storage.models import Game
from storage.text import printable


async def find_game(session: AsyncSession, caller: Caller, code: str) -> Game:
    game = await lookups.game_by_code(session, caller.league_id, code)
    if game is None:
        raise no_such_game(caller, code)
    return game


async def lock_game(session: AsyncSession, caller: Caller, code: str) -> Game:
    """The game, read afresh with its row locked until the transaction ends: every command that
    changes a game's state starts with this, so two at the same moment act one after the other and
    the second sees what the first did (PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises)."""
    game = await lookups.game_by_code(session, caller.league_id, code, for_update=True)
    if game is None:
        raise no_such_game(caller, code)
    return game


def check_change(game: Game, change: Change) -> GameStatus:
    """The game's state after ``change`` (``bot.league.game_status``), or a Conflict saying why not."""
    try:
        return after(game.status, change, game.code)
    except GameStateError as exc:
        raise Conflict(exc.message) from None


async def find_game_sides(session: AsyncSession, caller: Caller, code: str) -> GameSides:
    """The game as plain columns, for commands that only read it (/whoisin, /lineup)."""
    game = await game_sides(session, caller.league_id, code)
    if game is None:
        raise no_such_game(caller, code)
    return game


def no_such_game(caller: Caller, code: str) -> NotFound:
    code = printable(code)  # the refusal repeats it: no control characters in a reply
    return NotFound(f"There's no game “{quote(code, 64)}” in {caller.league.name}. Pick one from the suggestions.")
