"""`sideline standings` and `sideline import results`, run as an operator would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import DATA, sideline, write_config

# Played games (in the past, so results can be backfilled from the real clock).
PAST_GAMES = """game_id,starts_at,home,away,venue,kind
H1,2020-01-11 19:00,Hawks,Owls,Rink A,regular
H2,2020-01-11 20:00,Bears,Wolves,Rink B,regular
H3,2020-01-18 19:00,Owls,Hawks,Rink A,regular
H4,2020-01-18 20:00,Wolves,Bears,Rink B,regular
"""
ROW_KEYS = {"team", "division", "gp", "w", "l", "t", "pts", "gf", "ga"}


@pytest.fixture
def config(tmp_path: Path) -> str:
    path = str(write_config(tmp_path))
    for kind in ("teams", "players"):
        result = sideline("import", kind, str(DATA / f"{kind}.csv"), "--league", "coed", "--config", path)
        assert result.returncode == 0, result.stderr
    games = tmp_path / "games.csv"
    games.write_text(PAST_GAMES)
    result = sideline("import", "games", str(games), "--league", "coed", "--config", path, "--allow-past")
    assert result.returncode == 0, result.stderr
    return path


def standings_json(config: str, *extra: str) -> list[dict]:
    result = sideline("standings", "--league", "coed", "--config", config, "--json", *extra)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_standings_json_rows_best_first(config: str, tmp_path: Path) -> None:
    results = tmp_path / "results.csv"
    results.write_text("game_id,home_score,away_score,decided,shootout_home,shootout_away\n"
                       "H1,1,0,regulation,,\nH3,5,1,regulation,,\nH2,2,2,shootout,1,0\nH4,3,1,regulation,,\n")
    imported = sideline("import", "results", str(results), "--league", "coed", "--config", config, "--json")
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout) == {"kind": "results", "created": 4, "updated": 0, "unchanged": 0,
                                           "delimiter": ",", "warnings": [], "notes": []}

    rows = standings_json(config)
    assert all(row.keys() >= ROW_KEYS for row in rows)
    assert [(r["division"], r["team"]) for r in rows] == [
        ("North", "Owls"), ("North", "Hawks"), ("South", "Wolves"), ("South", "Bears")]
    owls = rows[0]
    assert {k: owls[k] for k in ROW_KEYS} == {"team": "Owls", "division": "North", "gp": 2, "w": 1, "l": 1,
                                              "t": 0, "pts": 2, "gf": 5, "ga": 2}
    bears = rows[3]
    assert (bears["gf"], bears["ga"], bears["so_gf"]) == (3, 5, 1)  # shootout goals kept apart

    south = standings_json(config, "--division", "south")
    assert [r["team"] for r in south] == ["Wolves", "Bears"]

    human = sideline("standings", "--league", "coed", "--config", config)
    assert human.returncode == 0, human.stderr
    lines = human.stdout.splitlines()
    assert lines[0] == "North"
    assert lines[1].split() == ["#", "Team", "GP", "W", "L", "T", "GF", "PCT"]
    assert lines[2].split() == ["1", "Owls", "2", "1", "1", "0", "5", ".500"]
    assert "Order: winning percentage" in human.stdout


def test_a_bad_results_file_imports_nothing(config: str, tmp_path: Path) -> None:
    bad = tmp_path / "results.csv"
    bad.write_text("game_id,home_score,away_score,decided\nH1,1,0,regulation\nZZ,1,0,regulation\nH2,1,x,regulation\n")
    result = sideline("import", "results", str(bad), "--league", "coed", "--config", config)
    assert result.returncode == 1
    assert "nothing was imported" in result.stderr
    assert f"{bad}:line 4: away_score 'x' must be a whole number from 0 to 99" in result.stderr

    unknown = tmp_path / "unknown.csv"
    unknown.write_text("game_id,home_score,away_score,decided\nH1,1,0,regulation\nZZ,1,0,regulation\n")
    result = sideline("import", "results", str(unknown), "--league", "coed", "--config", config)
    assert result.returncode == 1
    assert f"{unknown}:line 3: unknown game_id 'ZZ'" in result.stderr
    assert all(row["gp"] == 0 for row in standings_json(config))


def test_standings_of_an_unknown_division_or_league(config: str) -> None:
    result = sideline("standings", "--league", "coed", "--config", config, "--division", "East")
    assert result.returncode == 1
    assert result.stderr.strip() == "sideline: There's no division “East” in Summer Co-ed Ball Hockey (divisions: " \
                                    "North, South)."
    nope = sideline("standings", "--league", "nope", "--config", config)
    assert nope.returncode == 2 and "--league nope: no such league" in nope.stderr


def test_standings_before_anything_was_imported(tmp_path: Path) -> None:
    result = sideline("standings", "--league", "coed", "--config", str(write_config(tmp_path)), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []
    human = sideline("standings", "--league", "coed", "--config", str(write_config(tmp_path)))
    assert human.stdout.strip() == "Summer Co-ed Ball Hockey: no teams yet."


def test_backfilled_results_count_suspensions_down_at_once(config: str, tmp_path: Path) -> None:
    """The bot counts a suspension down as each of the team's games gets a result; a CLI backfill
    must too (with the bot running, nothing else would until its next start)."""
    import sqlite3

    db = sqlite3.connect(tmp_path / "cli.db")
    (league_id,) = db.execute("SELECT id FROM leagues WHERE key = 'coed'").fetchone()
    player_id, team_id = db.execute("SELECT p.id, r.team_id FROM players p JOIN roster_entries r ON r.player_id = p.id "
                                    "WHERE p.name = 'Bea Quinn'").fetchone()  # a Hawk: Hawks play H1 and H3
    db.execute("INSERT INTO suspensions (league_id, player_id, team_id, games, games_issued, reason, issued_at, "
               "status, pending_review, games_served) VALUES (?, ?, ?, 2, 2, 'fight', '2020-01-01 00:00:00.000000', "
               "'active', 0, 0)", (league_id, player_id, team_id))
    db.commit()
    results = tmp_path / "results.csv"
    results.write_text("game_id,home_score,away_score,decided,shootout_home,shootout_away\nH1,1,0,regulation,,\n")
    assert sideline("import", "results", str(results), "--league", "coed", "--config", config).returncode == 0
    assert db.execute("SELECT games_served, status FROM suspensions").fetchone() == (1, "active")
    results.write_text("game_id,home_score,away_score,decided,shootout_home,shootout_away\nH3,2,2,shootout,1,0\n")
    assert sideline("import", "results", str(results), "--league", "coed", "--config", config).returncode == 0
    assert db.execute("SELECT games_served, status FROM suspensions").fetchone() == (2, "served")
    db.close()
