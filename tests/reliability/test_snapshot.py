"""The fuzz loop's fast fingerprint must see what the full one sees: a committed write, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.conftest import SampleLeague
from tests.harness import Harness
from tests.reliability.snapshot import changed_tables, snapshot, snapshot_file


async def test_the_file_fingerprint_matches_the_full_one_and_sees_a_check_in(
        harness: Harness, league: SampleLeague) -> None:
    url = make_url(str(harness.bot.engine.url))
    if url.get_backend_name() != "sqlite":
        pytest.skip("the file fingerprint is SQLite's")
    path = Path(str(url.database))
    before = snapshot_file(path)
    full = await snapshot(harness.bot.sessions)  # the same rows, though raw: datetimes stay text
    assert {name: len(rows) for name, rows in before.items()} == {name: len(rows) for name, rows in full.items()}
    assert sum(map(len, before.values())) > 0
    await harness.slash("/schedule", as_=league.player("Alice Hart"))  # a read: nothing changes
    assert changed_tables(before, snapshot_file(path)) == []
    await harness.slash("/checkin", as_=league.player("Alice Hart"), status="in")
    assert changed_tables(before, snapshot_file(path)) == ["checkins"]
