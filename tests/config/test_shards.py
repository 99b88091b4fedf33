"""Shard settings: `sideline run --shard-ids 0,1 --shard-count 4`, or
SIDELINE_SHARD_IDS / SIDELINE_SHARD_COUNT, or `[bot] shard_ids` / `shard_count`; the command line
beats the environment, which beats the file; check-config says where each came from; a bad value,
or sharding across processes on SQLite, is one line naming where it came from, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main as cli
from bot.config.settings import SettingsError, load_settings, with_command_line
from bot.config.shards import Shards, parse_ids, shard_of

PG = "postgresql+asyncpg://sideline@127.0.0.1:1/sideline"  # nothing listens: nothing is reached


def config(tmp_path: Path, bot: str = "", url: str = PG) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[bot]\ndatabase_url = "{url}"\n{bot}\n', encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_beats_the_environment_which_beats_the_file(tmp_path: Path) -> None:
    path = config(tmp_path, "shard_ids = [0]\nshard_count = 2")
    assert load_settings(path, {}).shards == Shards(ids=(0,), count=2)
    from_env = load_settings(path, {"SIDELINE_SHARD_IDS": "1, 3", "SIDELINE_SHARD_COUNT": "4"})
    assert from_env.shards == Shards(ids=(1, 3), count=4)
    assert from_env.from_environment == ("shard_ids", "shard_count")
    both = with_command_line(from_env, shard_ids="2", shard_count=None)
    assert both.shards == Shards(ids=(2,), count=4)  # the count still the environment's
    assert (both.where("shard_ids"), both.where("shard_count")) == (
        ("command line", "--shard-ids"), ("environment", "SIDELINE_SHARD_COUNT"))
    assert with_command_line(from_env, shard_ids=None, shard_count=None) is from_env
    with pytest.raises(SettingsError) as refused:  # the count from the command line, the ids the environment's
        with_command_line(from_env, shard_ids=None, shard_count="1")
    assert str(refused.value) == ("environment: SIDELINE_SHARD_IDS: shard 1 is not one of 1 shard "
                                  "(with shard_count = 1 the only shard is 0)")


def test_without_shard_settings_the_bot_is_not_sharded(tmp_path: Path) -> None:
    shards = load_settings(config(tmp_path), {}).shards
    assert not shards.sharded and shards.all_here and shards.owns(123 << 22)
    assert str(shards) == "not sharded"


def test_a_count_alone_runs_every_shard_here_and_ownership_follows_discords_formula() -> None:
    every = Shards(count=3)
    assert every.here == (0, 1, 2) and every.all_here and str(every) == "all 3 shards"
    some = Shards(ids=(0, 2), count=4)
    assert not some.all_here and str(some) == "shards 0, 2 of 4"
    for guild in (111_111_111_111_111_111, 222_222_222_222_222_222, 5 << 22, 6 << 22):
        assert some.owns(guild) == ((guild >> 22) % 4 in (0, 2)) == (shard_of(guild, 4) in (0, 2))


@pytest.mark.parametrize(("bot", "environ", "argv", "line"), [
    ("", {}, ["--shard-ids", "0,4", "--shard-count", "4"],
     "command line: --shard-ids: shard 4 is not one of 4 shards (with shard_count = 4 they are 0 to 3)"),
    ("", {"SIDELINE_SHARD_COUNT": "0"}, [],
     "environment: SIDELINE_SHARD_COUNT: must be 1 or more (the number of shards the bot runs in all), not 0"),
    ("shard_ids = [1]", {}, [],
     "{file}: bot.shard_ids: needs shard_count too (how many shards the bot runs in all, across every process)"),
    ("shard_count = 2", {}, ["--shard-ids", "a"], "command line: --shard-ids: must be shard numbers, not 'a'"),
    ("shard_count = 2", {}, ["--shard-ids", "1,1"], "command line: --shard-ids: shard 1 is named twice"),
    ("shard_count = 2", {}, ["--shard-ids", "0,"],
     "command line: --shard-ids: must be shard numbers separated by commas, like 0,1, not '0,'"),
    ('shard_ids = "0"\nshard_count = 2', {}, [], None),  # a string from a file reads like the environment's
    ("shard_count = true", {}, [], "{file}: bot.shard_count: must be the number of shards, not True"),
    ("shard_ids = []\nshard_count = 2", {}, [], "{file}: bot.shard_ids: must name at least one shard, like [0, 1]"),
    ("send_rate = 80", {}, [], "{file}: bot.send_rate: must be a number of requests a second from 1 to 50 "
     "(Discord allows a bot 50 in all), not 80"),
])
def test_a_bad_shard_setting_is_one_line_naming_where_it_came_from_and_exit_2(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        bot: str, environ: dict[str, str], argv: list[str], line: str | None) -> None:
    monkeypatch.chdir(tmp_path)
    path = config(tmp_path, bot)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("SIDELINE_TOKEN", "a-token")
    if line is None:
        assert load_settings(path).shards == Shards(ids=(0,), count=2)
        return
    code, out, err = run(capsys, "--config", str(path), "run", *argv)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"sideline: {line.format(file=path)}"]


def test_sqlite_refuses_shards_split_across_processes_but_runs_them_all_in_one(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """On SQLite one process runs the bot (bot/run/lifecycle.py locks the file): shards 0 of 2 here
    would mean shard 1 in another process, so it is refused before anything starts; every shard in
    this one process is allowed (a bot past Discord's 2,500 servers per connection, on one machine)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SIDELINE_TOKEN", "a-token")
    sqlite = config(tmp_path, url="sqlite+aiosqlite:///data/sideline.db")
    code, out, err = run(capsys, "--config", str(sqlite), "run", "--shard-ids", "0", "--shard-count", "2")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "sideline: command line: --shard-ids: runs shard 0 of 2 in this process, so other processes would run "
        "the rest, and on SQLite only one process may run the bot; use PostgreSQL for several (or run every "
        "shard here)"]
    assert not (tmp_path / "data").exists()
    assert with_command_line(load_settings(sqlite, {}), shard_ids="1,0", shard_count="2").shards.all_here
    assert load_settings(sqlite, {"SIDELINE_SHARD_COUNT": "2"}).shards == Shards(count=2)
    monkeypatch.setenv("SIDELINE_SHARD_IDS", "1")
    monkeypatch.setenv("SIDELINE_SHARD_COUNT", "2")
    code, _, err = run(capsys, "check-config", str(sqlite))
    assert code == 2 and err.startswith("sideline: environment: SIDELINE_SHARD_IDS: runs shard 1 of 2 in this ")
    monkeypatch.setenv("SIDELINE_DATABASE_URL", PG)  # the environment's PostgreSQL: the file's ids are fine
    path = config(tmp_path, "shard_ids = [1]\nshard_count = 2", url="sqlite+aiosqlite:///x.db")
    monkeypatch.delenv("SIDELINE_SHARD_IDS")
    monkeypatch.delenv("SIDELINE_SHARD_COUNT")
    assert load_settings(path).shards == Shards(ids=(1,), count=2)


def test_check_config_says_where_the_shard_settings_came_from(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = config(tmp_path, "shard_ids = [0]\nshard_count = 4")
    monkeypatch.setenv("SIDELINE_SHARD_IDS", "2,3")
    code, out, err = run(capsys, "check-config", str(path))
    assert code == 0, err
    lines = out.splitlines()
    assert "shard_ids = 2,3 (from SIDELINE_SHARD_IDS, over the file)" in lines
    assert not any(line.startswith("shard_count =") for line in lines)  # the file's
    assert ("sharded: `sideline run` runs shards 2, 3 of 4 (its --shard-ids and --shard-count beat these)"
            in lines)
    code, out, _ = run(capsys, "check-config", str(path), "--json")
    answer = json.loads(out)
    assert answer["sources"]["shard_ids"] == "environment" and answer["sources"]["shard_count"] == "file"
    assert answer["shards"] == {"ids": [2, 3], "count": 4}


def test_shard_ids_read_from_a_list_or_digits_and_come_out_in_order() -> None:
    assert parse_ids([3, 1]) == parse_ids(" 3 , 1 ") == (1, 3)
    with pytest.raises(ValueError, match="start at 0"):
        parse_ids("-1")
    with pytest.raises(SettingsError):
        with_command_line(load_settings(Path(__file__).parents[2] / "config.example.toml", {}),
                          shard_ids=None, shard_count="x")
