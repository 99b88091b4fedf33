"""Migrations: an empty database upgrades to exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from storage import migrate
from storage.db import create_engine
from storage.models import Base


def test_the_head_found_without_alembic_is_alembics_head() -> None:
    script = ScriptDirectory.from_config(migrate.alembic_config())
    assert migrate.head_revisions() == frozenset(script.get_heads())
    assert len(script.get_heads()) == 1, "migrations have branched: merge them"


async def test_an_empty_database_upgrades_to_the_models(empty_db_url: str) -> None:
    engine = create_engine(empty_db_url)
    try:
        before, after = await migrate.upgrade(engine)
        assert before is None and after == migrate.head_revision()
        async with engine.connect() as conn:
            diff = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync, opts={"compare_type": False}),
                                              Base.metadata))
        assert diff == [], f"models and migrations differ: {diff}"
        again = await migrate.upgrade(engine)
        assert again == (after, after)
    finally:
        await engine.dispose()
