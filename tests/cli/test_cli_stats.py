"""`sideline stats export`: every player's statistics as CSV, run as an operator would, spreadsheet-safe."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.config.settings import Settings
from bot.services.stats.service import EXPORT_COLUMNS
from storage.models import Player
from tests.cli.test_cli import sideline
from tests.conftest import GUILD, SampleLeague, league_config, make_settings
from tests.harness import Harness


@pytest.fixture
def settings() -> Settings:
    return make_settings(league_config("youth", preset="youth-ball-hockey"))


def write_config(tmp_path: Path, db_url: str) -> str:
    path = tmp_path / "stats.toml"
    path.write_text(f'[bot]\ndatabase_url = "{db_url}"\n\n[[leagues]]\nkey = "youth"\nname = "Youth League"\n'
                    f'guild_id = {GUILD}\npreset = "youth-ball-hockey"\ntimezone = "America/Toronto"\n')
    return str(path)


async def test_export_writes_every_player_with_a_number_and_escapes_formulas(
        harness: Harness, league: SampleLeague, db_url: str, tmp_path: Path) -> None:
    config = write_config(tmp_path, db_url)
    empty = await asyncio.to_thread(sideline, "stats", "export", "--league", "youth", "--config", config)
    assert empty.returncode == 0, empty.stderr
    assert empty.stdout.splitlines() == [",".join(EXPORT_COLUMNS)]

    async with harness.bot.sessions.begin() as s:  # a name a spreadsheet would run as a formula
        await s.execute(update(Player).where(Player.name == "Alice Hart").values(name="=1+1 Alice"))
    for name in ("Alice Hart", "Carl Diaz", "Gus Lee", "Omar Fox", "Uma Reed"):
        await harness.slash("/checkin", as_=league.player(name), status="in", game="G1")
    harness.bot.clock.set(datetime(2030, 1, 12, 2, 0, tzinfo=UTC))  # type: ignore[attr-defined]
    await harness.slash("/goal add", as_=league.referee(), game="G1", team="Hawks", scorer=league.player("Alice Hart"),
                        assist1=league.player("Carl Diaz"))
    await harness.slash("/result enter", as_=league.referee(), game="G1", home=1, away=0, decided="regulation")

    out = tmp_path / "stats.csv"
    done = await asyncio.to_thread(sideline, "stats", "export", "--league", "youth", "--config", config,
                                   "--output", str(out))
    assert done.returncode == 0, done.stderr
    assert f"wrote {out} (5 players)" in done.stderr
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))}
    assert set(rows) == {"'=1+1 Alice", "Carl Diaz", "Gus Lee", "Omar Fox", "Uma Reed"}
    alice = rows["'=1+1 Alice"]
    assert [alice[k] for k in ("team", "gp", "goals", "assists", "points")] == ["Hawks", "1", "1", "0", "1"]
    assert (rows["Gus Lee"]["goalie_gp"], rows["Gus Lee"]["shutouts"]) == ("1", "1")
    assert (rows["Uma Reed"]["goals_against"], rows["Uma Reed"]["shutouts"]) == ("1", "0")
    missing = await asyncio.to_thread(sideline, "stats", "export", "--league", "youth", "--config", config,
                                      "--season", "Summer 1999")
    assert missing.returncode != 0 and "There's no season" in missing.stderr and missing.stdout == ""
