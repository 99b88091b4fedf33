"""`sideline discipline export`, run as an operator would, over a league with real discipline records."""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.access import Caller
from bot.clock import FixedClock
from bot.composition import build_services
from bot.config.settings import load_settings
from bot.league.rules import build_rules
from bot.services.discipline.appeals import AppealService
from bot.services.discipline.cleanup import CleanupService
from bot.services.discipline.penalties import PenaltyService
from bot.services.discipline.suspensions import SuspensionService
from storage import migrate
from storage.db import create_engine, session_factory
from tests.cli.test_cli import DATA, sideline, write_config

ALICE, OMAR = 500_000_000_000_000_001, 500_000_000_000_000_011
REFEREE, COMMISSIONER = 700_000_000_000_000_001, 700_000_000_000_000_002


async def seed(config: Path) -> None:
    """The sample league, a referee's severe-offence call in G1, a commissioner's suspension with an appeal, and
    Bears' missed cleanup after G2 (the league's cleanup duty turned on for it)."""
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
        on_duty = dataclasses.replace(league, rules=build_rules("coed-ball-hockey", {
            "cleanup_duty_last_game_each_week": True, "cleanup_missed_bench_minor_minutes": 2}))
        await CleanupService(sessions, clock, settings).missed(
            dataclasses.replace(caller(REFEREE, league.roles.referee), league=on_duty), game_code="G2",
            team_name="Bears")
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
    assert [r["record"] for r in rows] == ["penalty", "suspension", "suspension", "appeal", "missed_cleanup"]
    penalty, from_penalty, by_commissioner, appeal, cleanup = rows
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
    # Served at the start of Bears' next game, G4, as the schedule stands now.
    assert (cleanup["game"], cleanup["team"], cleanup["minutes"], cleanup["served_in"]) == ("G2", "Bears", "2", "G4")
    assert cleanup["recorded_by"] == str(REFEREE) and cleanup["withdrawn_at"] == ""


def test_only_one_kind_has_just_its_columns(config: Path) -> None:
    result = sideline("discipline", "export", "--league", "coed", "--csv", "--only", "appeals",
                      "--config", str(config))
    assert result.returncode == 0, result.stderr
    header, *lines = result.stdout.splitlines()
    assert header.startswith("id,suspension_id,player,") and "record" not in header and len(lines) == 1


def test_json_and_the_summary(config: Path) -> None:
    data = json.loads(sideline("discipline", "export", "--league", "coed", "--json", "--config", str(config)).stdout)
    assert [len(data[k]) for k in ("penalties", "suspensions", "appeals", "missed_cleanups")] == [1, 2, 1, 1]
    summary = sideline("discipline", "export", "--league", "coed", "--config", str(config))
    assert summary.stdout.strip() == ("league coed: 1 penalties, 2 suspensions, 1 appeals, 1 missed cleanups "
                                      "(use --csv or --json for the records)")


def test_an_unknown_league_is_one_clear_line(config: Path) -> None:
    result = sideline("discipline", "export", "--league", "nope", "--csv", "--config", str(config))
    assert result.returncode == 2 and result.stdout == ""
    assert "--league nope: no such league (known: coed)" in result.stderr
