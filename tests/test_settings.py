"""Settings: the TOML shape of product.md §6, with errors that name the file and key."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.league.offsets import Offset
from bot.settings import Settings, SettingsError, load_settings, parse_settings
from tests.conftest import league_config

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_config_loads() -> None:
    settings = load_settings(ROOT / "config.example.toml")
    (league,) = settings.leagues
    assert league.key == "coed" and league.preset == "coed-ball-hockey"
    assert league.timezone.key == "America/Toronto"
    assert league.roles.captain == 100000000000000001
    assert league.channels.referees == 200000000000000003
    assert league.game_reminder_offsets == (Offset(days=2), Offset(days=1), Offset(elapsed=timedelta(hours=2)))
    assert league.captain_alert_offsets == (Offset(days=1), Offset(elapsed=timedelta(hours=3)))
    assert league.rules.lineup.women_nonbinary_on_court == 2
    assert settings.database_url == "sqlite+aiosqlite:///sideline.db"


def test_rule_overrides_flat_and_by_section() -> None:
    settings = parse_settings({"leagues": [league_config(rules={
        "women_nonbinary_on_court": 1, "lineup": {"roster_limit": 18}})]})
    lineup = settings.leagues[0].rules.lineup
    assert (lineup.women_nonbinary_on_court, lineup.roster_limit) == (1, 18)


@pytest.mark.parametrize(("league", "key", "fragment"), [
    ({"preset": "curling"}, "leagues[0].preset", "unknown preset 'curling'"),
    ({"timezone": "Mars/Olympus"}, "leagues[0].timezone", "unknown time zone"),
    ({"guild_id": "12345"}, "leagues[0].guild_id", "must be an integer Discord id"),
    ({"guild_id": 1.5}, "leagues[0].guild_id", "must be an integer Discord id"),
    ({"roles": {"captain": "abc"}}, "leagues[0].roles.captain", "must be an integer Discord id"),
    ({"channels": {"lobby": 5}}, "leagues[0].channels.lobby", "unknown key"),
    ({"rules": {"women_on_ice": 2}}, "leagues[0].rules.women_on_ice", "unknown rule setting"),
    ({"rules": {"roster_limit": "twenty"}}, "leagues[0].rules.roster_limit", "whole number"),
    ({"reminders": {"game_offsets": ["soon"]}}, "leagues[0].reminders.game_offsets", "soon"),
    ({"reminders": {"captain_alert_offsets": ["1d", "24h"]}}, "leagues[0].reminders.captain_alert_offsets",
     "1d and 24h name the same reminder"),
])
def test_config_errors_name_the_key(league: dict[str, object], key: str, fragment: str) -> None:
    with pytest.raises(SettingsError) as err:
        parse_settings({"leagues": [{**league_config(), **league}]}, "my.toml")
    assert err.value.key == key
    assert fragment in err.value.problem
    assert str(err.value).startswith("my.toml: " + key)


def test_the_same_server_twice_is_an_error() -> None:
    with pytest.raises(SettingsError) as err:
        parse_settings({"leagues": [league_config("a"), league_config("b")]}, "x.toml")
    assert err.value.key == "leagues[1].guild_id" and "already belongs to league 'a'" in err.value.problem


def test_a_token_in_the_file_is_refused() -> None:
    with pytest.raises(SettingsError) as err:
        parse_settings({"bot": {"token": "abc"}, "leagues": [league_config()]})
    assert "SIDELINE_TOKEN" in err.value.problem


def test_missing_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="not found"):
        load_settings(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[bot\n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        load_settings(bad)


def test_token_comes_only_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIDELINE_TOKEN", raising=False)
    assert Settings.token() is None
    monkeypatch.setenv("SIDELINE_TOKEN", "  abc  ")
    assert Settings.token() == "abc"
    assert "abc" not in repr(parse_settings({"leagues": [league_config()]}))


def test_shootout_settings_can_be_overridden_per_league() -> None:
    settings = parse_settings({"leagues": [league_config(preset="youth-ball-hockey", rules={
        "shootout": {"shootout_initial_shooters_playoff": 3}})]})
    assert settings.leagues[0].rules.shootout.initial_shooters(playoff=True) == 3
