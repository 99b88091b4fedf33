"""`plain_rows`: the hot queries' way past the ORM must read what the session's own execute reads."""

from __future__ import annotations

from sqlalchemy import select

from storage.db import plain_rows
from storage.models import Game, Player
from tests.conftest import SampleLeague
from tests.harness import Harness


async def test_plain_rows_sees_changes_the_unit_has_not_flushed(harness: Harness, league: SampleLeague) -> None:
    league_id = next(iter(harness.bot.league_ids.values()))
    async with harness.bot.sessions() as session:
        session.add(Player(league_id=league_id, discord_id=123_456_789_012_345_678, name="Newcomer Nia"))
        rows = await plain_rows(session, select(Player.name).where(Player.discord_id == 123_456_789_012_345_678))
        assert [tuple(r) for r in rows] == [("Newcomer Nia",)]
        await session.rollback()


async def test_plain_rows_converts_columns_as_the_orm_does(harness: Harness, league: SampleLeague) -> None:
    """Times come back as aware UTC datetimes either way: the column types do the work, not the ORM."""
    query = select(Game.code, Game.starts_at, Game.status).order_by(Game.id)
    async with harness.bot.sessions() as session:
        through_orm = (await session.execute(query)).all()
        plain = await plain_rows(session, query)
    assert plain and [tuple(r) for r in plain] == [tuple(r) for r in through_orm]
    assert all(starts.tzinfo is not None and starts.utcoffset().total_seconds() == 0 for _, starts, _ in plain)
