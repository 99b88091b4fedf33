"""The importer on a fresh database, shared by the CSV import tests."""

from __future__ import annotations

import pytest

from bot.config.settings import LeagueSettings
from bot.services.discipline.core import Discipline
from bot.services.imports.importer import Importer
from storage import migrate
from storage.db import create_engine, session_factory
from tests.conftest import make_settings


@pytest.fixture
async def importer(db_url: str):  # type: ignore[no-untyped-def]
    engine = create_engine(db_url)
    await migrate.upgrade(engine)
    yield Importer(session_factory(engine), on_result=Discipline(make_settings().leagues).count_down)
    await engine.dispose()


@pytest.fixture
def coed() -> LeagueSettings:
    return make_settings().leagues[0]
