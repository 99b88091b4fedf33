"""`sideline import -h` shows every kind's columns, read from the importer's own definitions."""

from __future__ import annotations

from bot.services.imports.csv_rows import COLUMNS
from tests.cli.test_cli import sideline


def test_import_help_shows_the_columns_of_each_kind() -> None:
    result = sideline("import", "-h")
    assert result.returncode == 0, result.stderr
    assert "teams: team,division,captain_discord_ids,[channel_id]" in result.stdout
    assert "games: game_id,starts_at,home,away,venue,kind" in result.stdout
    for kind, columns in COLUMNS.items():
        line = next(x.strip() for x in result.stdout.splitlines() if x.strip().startswith(f"{kind}: "))
        assert [c.strip("[]") for c in line.removeprefix(f"{kind}: ").split(",")] == list(columns.names)
    assert "semicolons or tabs" in result.stdout
