"""`sideline season start|end|show`, run as an operator would."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import DATA, sideline, write_config


def test_a_season_started_shown_and_ended_from_the_command_line(tmp_path: Path) -> None:
    config = str(write_config(tmp_path))
    empty = sideline("season", "show", "--league", "coed", "--config", config)
    assert empty.returncode == 0 and "no seasons yet" in empty.stdout

    started = sideline("season", "start", "--league", "coed", "--config", config, "--name", "Fall 2020",
                       "--first-day", "2020-09-07", "--weeks", "10", "--json")
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout) | {"when": "-"} == {"name": "Fall 2020", "first_day": "2020-09-07", "weeks": 10,
                                                        "ended_at": None, "games": 0, "when": "-",
                                                        "rosters": "keep", "players_kept": 0, "teams": 0}
    running = sideline("season", "start", "--league", "coed", "--config", config, "--name", "Winter",
                       "--first-day", "2021-01-04", "--weeks", "10")
    assert running.returncode == 1 and running.stdout == ""
    assert running.stderr.strip().endswith("Fall 2020 is still running: end it first with sideline season end.")

    ended = sideline("season", "end", "--league", "coed", "--config", config)
    assert ended.returncode == 0 and ended.stdout.startswith("ended Fall 2020") and "; ended" in ended.stdout
    shown = json.loads(sideline("season", "show", "--league", "coed", "--config", config, "--json").stdout)
    assert shown["current"]["name"] == "Fall 2020" and shown["current"]["ended_at"] and shown["earlier"] == []

    bad = sideline("season", "start", "--league", "coed", "--config", config, "--name", "Winter",
                   "--first-day", "next monday", "--weeks", "10")
    assert bad.returncode == 1 and "YYYY-MM-DD" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    table = sideline("standings", "--league", "coed", "--config", config, "--season", "Spring")
    assert table.returncode == 1 and "There's no season “Spring” (seasons: Fall 2020)." in table.stderr


def test_a_season_started_from_the_command_line_keeps_or_clears_the_rosters(tmp_path: Path) -> None:
    config = str(write_config(tmp_path))
    for kind in ("teams", "players"):
        imported = sideline("import", kind, str(DATA / f"{kind}.csv"), "--league", "coed", "--config", config)
        assert imported.returncode == 0, imported.stderr
    kept = sideline("season", "start", "--league", "coed", "--config", config, "--name", "Fall 2020",
                    "--first-day", "2020-09-07", "--weeks", "10")
    assert kept.returncode == 0, kept.stderr
    assert "rosters kept: 28 players stay on their teams (4 teams)" in kept.stdout
    assert sideline("season", "end", "--league", "coed", "--config", config).returncode == 0
    bad = sideline("season", "start", "--league", "coed", "--config", config, "--name", "Winter",
                   "--first-day", "2021-01-04", "--weeks", "10", "--rosters", "wipe")
    assert bad.returncode == 2 and "invalid choice: 'wipe'" in bad.stderr
    cleared = sideline("season", "start", "--league", "coed", "--config", config, "--name", "Winter",
                       "--first-day", "2021-01-04", "--weeks", "10", "--rosters", "clear", "--json")
    assert cleared.returncode == 0, cleared.stderr
    shown = json.loads(cleared.stdout)
    assert (shown["name"], shown["rosters"], shown["players_left"], shown["teams"]) == ("Winter", "clear", 28, 4)
    again = sideline("season", "show", "--league", "coed", "--config", config)
    assert "current Winter" in again.stdout
