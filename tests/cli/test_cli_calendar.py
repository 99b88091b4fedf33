"""`sideline calendar export`, and the feed server's `[bot]` keys, as an operator meets them."""

from __future__ import annotations

from pathlib import Path

import pytest
from icalendar import Calendar

from bot.config.settings import CalendarServer, SettingsError, load_settings, parse_settings
from tests.cli.test_cli import DATA, ROOT, sideline, write_config


@pytest.fixture
def config(tmp_path: Path) -> str:
    path = str(write_config(tmp_path))
    for kind in ("teams", "players", "games"):
        result = sideline("import", kind, str(DATA / f"{kind}.csv"), "--league", "coed", "--config", path,
                          "--allow-past")
        assert result.returncode == 0, result.stderr
    return path


def test_export_a_teams_games(config: str, tmp_path: Path) -> None:
    result = sideline("calendar", "export", "--league", "coed", "--team", "hawks", "--config", config)
    assert result.returncode == 0, result.stderr
    cal = Calendar.from_ical(result.stdout)
    assert str(cal["X-WR-CALNAME"]).startswith("Hawks")
    assert [str(e["SUMMARY"]) for e in cal.walk("VEVENT")] == ["Hawks vs Owls", "Owls vs Hawks", "Hawks vs Bears"]
    assert [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")] == ["America/Toronto"]
    out = tmp_path / "league.ics"
    whole = sideline("calendar", "export", "--league", "coed", "--output", str(out), "--config", config)
    assert whole.returncode == 0, whole.stderr
    assert len(Calendar.from_ical(out.read_bytes()).walk("VEVENT")) == 6


@pytest.mark.parametrize(("args", "message"), [
    (("--league", "coed", "--team", "Ravens"), "sideline: There's no team called 'Ravens' in"),
    (("--league", "nope"), "sideline: --league nope: no such league (known: coed)"),
])
def test_export_refuses_in_one_line(config: str, args: tuple[str, ...], message: str) -> None:
    result = sideline("calendar", "export", *args, "--config", config)
    assert result.returncode != 0 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_the_feed_server_is_off_by_default() -> None:
    assert load_settings(ROOT / "config.example.toml").calendar_server is None


def test_the_feed_server_keys() -> None:
    server = parse_settings({"bot": {"calendar_port": 8765}}).calendar_server
    assert server == CalendarServer(port=8765, host="127.0.0.1")
    assert server.link("abc.def") == "http://127.0.0.1:8765/cal/abc.def.ics"
    behind = parse_settings({"bot": {"calendar_port": 8765, "calendar_host": "0.0.0.0",
                                     "calendar_base_url": "https://league.example.org/feeds/"}}).calendar_server
    assert behind is not None and behind.host == "0.0.0.0"
    assert behind.link("abc.def") == "https://league.example.org/feeds/cal/abc.def.ics"


@pytest.mark.parametrize(("bot", "key"), [
    ({"calendar_port": 0}, "bot.calendar_port"),
    ({"calendar_port": "8765"}, "bot.calendar_port"),
    ({"calendar_port": True}, "bot.calendar_port"),
    ({"calendar_port": 70000}, "bot.calendar_port"),
    ({"calendar_base_url": "https://x.org"}, "bot.calendar_base_url"),
    ({"calendar_port": 8765, "calendar_base_url": "webcal://x.org"}, "bot.calendar_base_url"),
    ({"calendar_port": 8765, "calendar_host": ""}, "bot.calendar_host"),
])
def test_bad_feed_server_keys_are_named(bot: dict[str, object], key: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_settings({"bot": bot})
    assert caught.value.key == key
