"""The command line's conventions: --version, db upgrade when nothing is to do,
reminders list in an operator's words, and rules show as /setup show lists it."""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from pathlib import Path

import pytest

from bot.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def config(tmp_path: Path) -> Path:
    text = re.sub(r"\b\d{18}\b", lambda m: str(int(m[0]) + 7), (ROOT / "config.leagues.example.toml").read_text())
    path = tmp_path / "config.toml"
    path.write_text(text.replace("women_nonbinary_on_court = 2", "women_nonbinary_on_court = 1"))
    return path


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"sideline {version('sideline')}"


def test_db_upgrade_says_when_there_is_nothing_to_do(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--config", str(config), "db", "upgrade")
    assert code == 0 and out.startswith("database upgraded to revision ") and "(was empty)" in out
    code, out, _ = run(capsys, "--config", str(config), "db", "upgrade")
    assert code == 0 and out.startswith("database already up to date (revision ")
    code, out, _ = run(capsys, "--config", str(config), "db", "upgrade", "--json")
    assert json.loads(out)["upgraded"] is False


def test_reminders_list_names_game_team_time_and_place(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("teams", "games"):
        code, _, err = run(capsys, "--config", str(config), "import", kind, str(DATA / f"{kind}.csv"),
                           "--league", "coed")
        assert code == 0, err
    code, out, err = run(capsys, "--config", str(config), "reminders", "list", "--league", "coed")
    assert code == 0, err
    assert "times in America/Toronto" in out.splitlines()[0]
    # G1, Hawks vs Owls at 19:00 Toronto time on Fri 2030-01-11: two days before, to the Hawks' channel.
    assert ("  Wed 2030-01-09 19:00 EST  pending   game reminder for G1: Hawks vs Owls (Fri 2030-01-11 19:00), "
            "team Hawks -> Hawks's channel 600000000000000001") in out.splitlines()
    assert "game-reminders:" not in out  # no raw keys in the human view
    code, out, _ = run(capsys, "--config", str(config), "reminders", "list", "--league", "coed", "--json")
    first = json.loads(out)[0]
    assert first["game"] == "G1: Hawks vs Owls"
    assert first["what"] == "game reminder" and first["team"] and first["key"].startswith("game-reminders:")


def test_rules_show_lists_every_setting_with_source_and_citation(config: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--config", str(config), "rules", "show", "--league", "coed")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Summer Co-ed Ball Hockey (coed, coed-ball-hockey)")
    overridden = next(line for line in lines if "rules.women_nonbinary_on_court " in line)
    assert overridden.endswith("  1  [the bot's config file; Co-ed rules: Teams]"), overridden
    from_preset = next(line for line in lines if "rules.players_on_court " in line)
    assert from_preset.endswith("[preset; Co-ed rules: Game Structure]")
    assert "game_reminder_offsets" not in out  # reminders are their own settings, not rules
    code, out, _ = run(capsys, "--config", str(config), "rules", "show", "--league", "coed", "--json")
    shown = {s["key"]: s for s in json.loads(out)["settings"]}
    assert shown["roles.captain"]["value"].startswith("role ")
    assert shown["rules.women_nonbinary_on_court"]["source"] == "the bot's config file"


def test_a_league_set_up_in_discord_is_a_league_key_too(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from bot.cli.common import open_database
    from bot.config.settings import load_settings
    from bot.services.setup.league_setup import Actor

    async def set_up() -> None:
        async with open_database(load_settings(config)) as db:
            await db.services().setup.create(4242, Actor(discord_id=77, manages_server=True),
                                             preset="youth-ball-hockey", name="Youth Hockey",
                                             timezone="America/Toronto")

    asyncio.run(set_up())
    code, out, err = run(capsys, "--config", str(config), "standings", "--league", "youth-hockey")
    assert code == 0, err
    code, out, err = run(capsys, "--config", str(config), "rules", "show", "--league", "youth-hockey")
    assert code == 0, err
    assert "timezone" in out and "[set in Discord by user 77 on " in out
    code, out, err = run(capsys, "--config", str(config), "standings", "--league", "nope")
    assert (code, out) == (2, "")
    assert err.strip() == "sideline: --league nope: no such league (known: coed, youth-hockey)"
