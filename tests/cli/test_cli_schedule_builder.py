"""`sideline schedule generate`, run as an operator would: the youth rulebook's season (1.8) from fifteen
weeks of two slots, imported as it is written."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pytest

from tests.cli.test_cli import sideline, write_config

TEAMS = """team,division,captain_discord_ids,channel_id
Hawks,Junior,500000000000000001,
Owls,Junior,500000000000000011,
Bears,Junior,500000000000000021,
Wolves,Junior,500000000000000031,
Lions,Senior,500000000000000041,
Tigers,Senior,500000000000000051,
"""
FIRST_SATURDAY = date(2031, 1, 4)


def slots(weeks: int, per_week: int = 2) -> str:
    rows = ["starts_at,venue,division"]
    rows += [f"{FIRST_SATURDAY + timedelta(weeks=w)} {18 + h}:00,Rink A,Junior"
             for w in range(weeks) for h in range(per_week)]
    rows.append(f"{FIRST_SATURDAY} 21:00,Rink A,Senior")  # another division's: not the juniors'
    return "\n".join(rows) + "\n"


@pytest.fixture
def youth(tmp_path: Path) -> str:
    config = write_config(tmp_path)
    config.write_text(config.read_text().replace('preset = "coed-ball-hockey"', 'preset = "youth-ball-hockey"'))
    teams = tmp_path / "teams.csv"
    teams.write_text(TEAMS)
    result = sideline("import", "teams", str(teams), "--league", "coed", "--config", str(config))
    assert result.returncode == 0, result.stderr
    return str(config)


def test_four_junior_teams_over_fifteen_weeks_meet_five_times_and_the_file_imports_as_is(
        youth: str, tmp_path: Path) -> None:
    booked = tmp_path / "slots.csv"
    booked.write_text(slots(15))
    out = tmp_path / "games.csv"
    made = sideline("schedule", "generate", "--league", "coed", "--slots", str(booked), "--meetings", "5",
                    "--division", "junior", "--out", str(out), "--config", youth, "--json")
    assert made.returncode == 0, made.stderr
    summary = json.loads(made.stdout)
    assert (summary["games"], summary["weeks"], summary["division"]) == (30, 15, "junior")
    assert {t["team"]: t["games"] for t in summary["teams"]} == {"Bears": 15, "Hawks": 15, "Owls": 15, "Wolves": 15}

    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == 30 and {r["kind"] for r in rows} == {"regular"}
    assert Counter(frozenset((r["home"], r["away"])) for r in rows) == {
        frozenset(p): 5 for p in (("Hawks", "Owls"), ("Hawks", "Bears"), ("Hawks", "Wolves"), ("Owls", "Bears"),
                                  ("Owls", "Wolves"), ("Bears", "Wolves"))}
    weeks = Counter((date.fromisoformat(r["starts_at"][:10]).isocalendar()[:2], team)
                    for r in rows for team in (r["home"], r["away"]))
    assert set(weeks.values()) == {1} and len(weeks) == 60  # 4 teams, one game a week, 15 weeks
    assert all(abs(Counter(r["home"] for r in rows)[t] - 7.5) == 0.5 for t in ("Hawks", "Owls", "Bears", "Wolves"))
    assert not any("Senior" in r["venue"] or r["starts_at"].endswith("21:00") for r in rows)

    imported = sideline("import", "games", str(out), "--league", "coed", "--config", youth, "--json")
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["created"] == 30
    again = sideline("import", "games", str(out), "--league", "coed", "--config", youth, "--json")
    assert (json.loads(again.stdout)["created"], json.loads(again.stdout)["unchanged"]) == (0, 30)


def test_too_few_slots_are_refused_saying_what_is_missing(youth: str, tmp_path: Path) -> None:
    booked = tmp_path / "slots.csv"
    booked.write_text(slots(14))
    out = tmp_path / "games.csv"
    refused = sideline("schedule", "generate", "--league", "coed", "--slots", str(booked), "--meetings", "5",
                       "--division", "Junior", "--out", str(out), "--config", youth)
    assert refused.returncode == 1
    assert "needs 30 slots in 15 distinct weeks in the junior division; got 28 slots in 14 weeks" in refused.stderr
    assert "Youth 1.8" in refused.stderr
    assert not out.exists()


def test_a_league_with_divisions_needs_one_named(youth: str, tmp_path: Path) -> None:
    booked = tmp_path / "slots.csv"
    booked.write_text(slots(15))
    refused = sideline("schedule", "generate", "--league", "coed", "--slots", str(booked), "--meetings", "1",
                       "--config", youth)
    assert refused.returncode == 1 and "divisions junior, senior: choose one" in refused.stderr
    printed = sideline("schedule", "generate", "--league", "coed", "--slots", str(booked), "--meetings", "1",
                       "--division", "Senior", "--config", youth)
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.splitlines()[1].endswith(",Rink A,regular") and len(printed.stdout.splitlines()) == 2
