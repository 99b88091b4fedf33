"""`sideline discipline export`, run as an operator would, over a league with real discipline records."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.access import Caller
from bot.clock import FixedClock
from bot.composition import build_services
from bot.services.discipline.appeals import AppealService
from bot.services.discipline.penalties import PenaltyService
from bot.services.discipline.suspensions import SuspensionService
from bot.settings import load_settings
from storage import migrate
from storage.db import create_engine, session_factory
from tests.cli.test_cli import DATA, sideline, write_config

ALICE, OMAR = 500_000_000_000_000_001, 500_000_000_000_000_011
REFEREE, COMMISSIONER = 700_000_000_000_000_001, 700_000_000_000_000_002


async def seed(config: Path) -> None:
    """The sample league, a referee's severe-offence call in G1, and a commissioner's suspension with an appeal."""
    settings = load_settings(config)
    league = settings.league("coed")
    engine = create_engine(settings.database_url)
    try:
        await migrate.upgrade(engine)
        sessions = session_factory(engine)
        clock = FixedClock(datetime(2030, 1, 12, 1, 0, tzinfo=UTC))
        importer = build_services(settings, sessions, clock).imports.importer
        for kind in ("teams", "players", "games"):
            await importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league, now=clock.now(), allow_past=True)
        async with sessions() as s:
            league_id = await importer.league_id(s, league)

        def caller(discord_id: int, *roles: int | None) -> Caller:
            return Caller(discord_id=discord_id, display_name=str(discord_id), league=league, league_id=league_id,
                          role_ids=frozenset(r for r in roles if r))

        await PenaltyService(sessions, clock).record(caller(REFEREE, league.roles.referee), game_code="G1",
                                                     discord_id=ALICE, infraction="slashing", minute=12)
        issued = await SuspensionService(sessions, clock).suspend(
            caller(COMMISSIONER, league.roles.commissioner), discord_id=OMAR, games=2,
            reason='=HYPERLINK("http://x") and, a comma')
        await AppealService(sessions, clock).file(caller(OMAR), issued.id, "I was defending myself")
    finally:
        await engine.dispose()


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = write_config(tmp_path_factory.mktemp("discipline"))
    asyncio.run(seed(path))
    return path


def test_csv_export_has_every_record_in_one_table(config: Path) -> None:
    result = sideline("discipline", "export", "--league", "coed", "--csv", "--config", str(config))
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["record"] for r in rows] == ["penalty", "suspension", "suspension", "appeal"]
    penalty, from_penalty, by_commissioner, appeal = rows
    assert (penalty["game"], penalty["player"], penalty["infraction"], penalty["category"]) == (
        "G1", "Alice Hart", "slashing", "severe")
    assert penalty["minute"] == "12" and penalty["referee_discord_id"] == str(REFEREE)
    assert "suspension of 1-5 games" in penalty["summary"]
    assert (from_penalty["player"], from_penalty["games"], from_penalty["penalty_id"], from_penalty["status"]) == (
        "Alice Hart", "1", penalty["id"], "active")
    assert from_penalty["pending_review"] == "True"
    assert by_commissioner["reason"] == '\'=HYPERLINK("http://x") and, a comma', "no formula runs in a spreadsheet"
    assert by_commissioner["issued_by"] == str(COMMISSIONER)
    assert (appeal["suspension_id"], appeal["filed_by"], appeal["outcome"]) == (by_commissioner["id"], str(OMAR), "")
    assert appeal["filed_at"] == "2030-01-12T01:00:00+00:00"


def test_only_one_kind_has_just_its_columns(config: Path) -> None:
    result = sideline("discipline", "export", "--league", "coed", "--csv", "--only", "appeals",
                      "--config", str(config))
    assert result.returncode == 0, result.stderr
    header, *lines = result.stdout.splitlines()
    assert header.startswith("id,suspension_id,player,") and "record" not in header and len(lines) == 1


def test_json_and_the_summary(config: Path) -> None:
    data = json.loads(sideline("discipline", "export", "--league", "coed", "--json", "--config", str(config)).stdout)
    assert [len(data[k]) for k in ("penalties", "suspensions", "appeals")] == [1, 2, 1]
    summary = sideline("discipline", "export", "--league", "coed", "--config", str(config))
    assert summary.stdout.strip() == ("league coed: 1 penalties, 2 suspensions, 1 appeals "
                                      "(use --csv or --json for the records)")


def test_an_unknown_league_is_one_clear_line(config: Path) -> None:
    result = sideline("discipline", "export", "--league", "nope", "--csv", "--config", str(config))
    assert result.returncode == 2 and result.stdout == ""
    assert "--league nope: no such league (known: coed)" in result.stderr
