"""Settings: the TOML shape of docs/product.md §6, with errors that name the file and key."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.config.settings import Settings, SettingsError, load_settings, parse_settings
from bot.league.offsets import Offset
from tests.conftest import league_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_config_loads() -> None:
    settings = load_settings(ROOT / "config.leagues.example.toml")
    (league,) = settings.leagues
    assert league.key == "coed" and league.preset == "coed-ball-hockey"
    assert league.timezone.key == "America/Toronto"
    assert league.roles.captain == 100000000000000001
    assert league.channels.referees == 200000000000000003
    assert league.game_reminder_offsets == (Offset(days=2), Offset(days=1), Offset(elapsed=timedelta(hours=2)))
    assert league.captain_alert_offsets == (Offset(days=1), Offset(elapsed=timedelta(hours=3)))
    assert league.game_card_offsets == (Offset(elapsed=timedelta(hours=2)),)
    assert league.rules.lineup.women_nonbinary_on_court == 2
    assert settings.database_url == f"sqlite+aiosqlite:///{ROOT / 'sideline.db'}"  # beside the config file


def test_the_default_config_has_no_leagues_they_are_set_up_in_discord() -> None:
    settings = load_settings(ROOT / "config.example.toml")
    assert settings.leagues == () and settings.database_url == f"sqlite+aiosqlite:///{ROOT / 'sideline.db'}"


def test_rule_overrides_flat_and_by_section() -> None:
    settings = parse_settings({"leagues": [league_config(rules={
        "women_nonbinary_on_court": 1, "lineup": {"roster_limit": 18}})]})
    lineup = settings.leagues[0].rules.lineup
    assert (lineup.women_nonbinary_on_court, lineup.roster_limit) == (1, 18)


@pytest.mark.parametrize(("league", "key", "fragment"), [
    ({"preset": "curling"}, "leagues[0].preset", "unknown preset 'curling'"),
    ({"timezone": "Mars/Olympus"}, "leagues[0].timezone", "unknown time zone"),
    ({"timezone": "America"}, "leagues[0].timezone", "unknown time zone"),
    ({"timezone": "x" * 300}, "leagues[0].timezone", "unknown time zone"),
    ({"guild_id": "12345"}, "leagues[0].guild_id", "must be an integer Discord id"),
    ({"guild_id": 1.5}, "leagues[0].guild_id", "must be an integer Discord id"),
    ({"roles": {"captain": "abc"}}, "leagues[0].roles.captain", "must be an integer Discord id"),
    ({"channels": {"lobby": 5}}, "leagues[0].channels.lobby", "unknown key"),
    ({"rules": {"women_on_ice": 2}}, "leagues[0].rules.women_on_ice", "unknown rule setting"),
    ({"rules": {"roster_limit": "twenty"}}, "leagues[0].rules.roster_limit", "whole number"),
    ({"reminders": {"game_offsets": ["soon"]}}, "leagues[0].reminders.game_offsets", "soon"),
    ({"reminders": {"captain_alert_offsets": ["1d", "24h"]}}, "leagues[0].reminders.captain_alert_offsets",
     "1d and 24h name the same reminder"),
    ({"reminders": {"game_card_offsets": "2h"}}, "leagues[0].reminders.game_card_offsets", "list of durations"),
    ({"rules": {"mandatory_equipment": ["x" * 61]}}, "leagues[0].rules.mandatory_equipment", "1 to 60 characters"),
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


def test_every_number_rule_setting_has_bounds() -> None:
    """A number without bounds is how `shootout_block_size = 1000` reached /shootout suggest."""
    import dataclasses
    import typing

    from bot.league.rules import BOUNDS, PRESET_NAMES, preset

    rules = preset(PRESET_NAMES[0])
    for section in ("lineup", "game_format", "shootout", "standings", "discipline", "deadlines"):
        current = getattr(rules, section)
        hints = typing.get_type_hints(type(current))
        for f in dataclasses.fields(current):
            if "int" in str(hints[f.name]):
                assert f.name in BOUNDS, f"{section}.{f.name} has no bounds"


def test_a_rule_in_a_section_table_is_named_as_written() -> None:
    with pytest.raises(SettingsError) as err:
        parse_settings({"leagues": [league_config(rules={"shootout": {"shootout_block_size": 1000}})]}, "x.toml")
    assert str(err.value) == "x.toml: leagues[0].rules.shootout.shootout_block_size: must be between 0 and 20, not 1000"


def test_a_config_error_is_one_line_even_with_a_newline_in_a_key() -> None:
    with pytest.raises(SettingsError) as err:
        parse_settings({"leagues": [league_config(rules={"women\non_court": 2})]}, "x.toml")
    assert str(err.value) == "x.toml: leagues[0].rules.women\\non_court: unknown rule setting"


@pytest.mark.parametrize("preset_name", ["coed-ball-hockey", "youth-ball-hockey", "indoor-soccer"])
def test_every_preset_value_is_within_the_bounds(preset_name: str) -> None:
    """Bounds are never tighter than a shipped rulebook: each preset, written out in config, is itself."""
    import dataclasses

    from bot.league.rules import build_rules, preset

    rules = preset(preset_name)
    written: dict[str, object] = {}
    for section in ("lineup", "game_format", "shootout", "standings", "discipline", "deadlines"):
        current = getattr(rules, section)
        for f in dataclasses.fields(current):
            value = getattr(current, f.name)
            if f.name.endswith("citations") or value is None:  # TOML has no None
                continue
            written[f.name] = list(value) if isinstance(value, tuple) else (
                dict(value) if hasattr(value, "items") else value)
    assert build_rules(preset_name, written) == rules


@pytest.mark.parametrize(("url", "fragment"), [
    ("not a url", "is not a database URL"),
    ("sqlite:///sideline.db", "'sqlite' is a synchronous driver"),
    ("mysql+aiomysql://u@h/db", "'mysql+aiomysql' is not supported"),
])
def test_a_database_url_the_bot_cant_open_is_one_config_line(url: str, fragment: str) -> None:
    with pytest.raises(SettingsError) as err:
        parse_settings({"bot": {"database_url": url}, "leagues": [league_config()]}, "x.toml")
    assert err.value.key == "bot.database_url" and fragment in err.value.problem


def test_discord_features_are_off_unless_turned_on_and_must_be_true_or_false() -> None:
    plain = parse_settings({"leagues": [league_config()]}).leagues[0]
    assert (plain.scheduled_events, plain.team_roles) == (False, False)
    on = parse_settings({"leagues": [league_config(scheduled_events=True, team_roles=True)]}).leagues[0]
    assert (on.scheduled_events, on.team_roles) == (True, True)
    with pytest.raises(SettingsError) as err:
        parse_settings({"leagues": [league_config(team_roles="yes")]})
    assert err.value.key == "leagues[0].team_roles" and "true or false" in err.value.problem


def test_the_metrics_keys_are_off_unless_set_and_checked() -> None:
    assert (parse_settings({}).metrics_port, parse_settings({}).metrics_host) == (None, "127.0.0.1")
    settings = parse_settings({"bot": {"metrics_port": 9464, "metrics_host": "0.0.0.0"}})
    assert (settings.metrics_port, settings.metrics_host) == (9464, "0.0.0.0")
    for bad in (0, 70000, "9464", True, 94.64):
        with pytest.raises(SettingsError) as caught:
            parse_settings({"bot": {"metrics_port": bad}})
        assert (caught.value.key, caught.value.problem) == (
            "bot.metrics_port", f"must be a port number from 1 to 65535, not {bad!r}")
    with pytest.raises(SettingsError) as caught:
        parse_settings({"bot": {"metrics_port": 9464, "metrics_host": ""}})
    assert caught.value.key == "bot.metrics_host"
