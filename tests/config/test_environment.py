"""Configuration from the environment: SIDELINE_DATABASE_URL, SIDELINE_LOG_LEVEL,
SIDELINE_LOG_FORMAT and SIDELINE_METRICS_PORT beat the file; check-config says which did; a bad value
is one line naming the variable, exit 2; the token stays environment-only."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest

from bot import logs
from bot.cli import main as cli
from bot.config.settings import ENVIRONMENT, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config.example.toml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_environment_beats_the_file(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'from-env.db'}"
    settings = load_settings(EXAMPLE, {"SIDELINE_DATABASE_URL": url, "SIDELINE_LOG_LEVEL": "debug",
                                       "SIDELINE_LOG_FORMAT": "JSON", "SIDELINE_METRICS_PORT": "9464"})
    assert (settings.database_url, settings.log_level, settings.log_format) == (url, "DEBUG", "json")
    assert settings.metrics_port == 9464 and settings.metrics_host == "127.0.0.1"
    assert settings.from_environment == ("database_url", "log_level", "log_format", "metrics_port")


def test_the_metrics_port_from_the_environment_beats_the_files(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[bot]\nmetrics_port = 9100\nmetrics_host = "0.0.0.0"\n')
    assert (load_settings(path, {}).metrics_port, load_settings(path, {}).from_environment) == (9100, ())
    settings = load_settings(path, {"SIDELINE_METRICS_PORT": " 9464 "})
    assert (settings.metrics_port, settings.metrics_host) == (9464, "0.0.0.0")
    assert settings.from_environment == ("metrics_port",)
    assert load_settings(EXAMPLE, {}).metrics_port is None  # off by default


def test_without_the_environment_the_file_holds_and_empty_counts_as_unset() -> None:
    for environ in ({}, dict.fromkeys(ENVIRONMENT.values(), ""), dict.fromkeys(ENVIRONMENT.values(), "  ")):
        settings = load_settings(EXAMPLE, environ)
        assert settings.database_url == f"sqlite+aiosqlite:///{EXAMPLE.parent.resolve() / 'sideline.db'}"
        assert (settings.log_level, settings.log_format, settings.from_environment) == ("INFO", "text", ())
        assert settings.metrics_port is None


def test_the_file_may_set_the_log_format_too(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[bot]\nlog_format = "json"\n')
    assert load_settings(path, {}).log_format == "json"
    assert load_settings(path, {"SIDELINE_LOG_FORMAT": "text"}).log_format == "text"
    path.write_text('[bot]\nlog_format = "xml"\n')
    with pytest.raises(SettingsError) as err:
        load_settings(path, {})
    assert (err.value.key, err.value.problem) == ("bot.log_format", "must be text or json, not 'xml'")


@pytest.mark.parametrize(("variable", "value", "problem"), [
    ("SIDELINE_LOG_FORMAT", "xml", "must be text or json, not 'xml'"),
    ("SIDELINE_LOG_LEVEL", "LOUD", "must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'LOUD'"),
    ("SIDELINE_DATABASE_URL", "mysql://root:hunter2@db/sideline",
     "'mysql' is not supported (use one of: sqlite+aiosqlite, postgresql+asyncpg)"),
    ("SIDELINE_DATABASE_URL", "not a url",
     "is not a database URL (e.g. sqlite+aiosqlite:///sideline.db or postgresql+asyncpg://user@host/dbname)"),
    ("SIDELINE_METRICS_PORT", "http", "must be a port number from 1 to 65535, not 'http'"),
    ("SIDELINE_METRICS_PORT", "70000", "must be a port number from 1 to 65535, not 70000"),
    ("SIDELINE_METRICS_PORT", "-1", "must be a port number from 1 to 65535, not '-1'"),
])
@pytest.mark.parametrize("command", [["check-config"], ["run"], ["db", "upgrade"]])
def test_a_bad_value_is_one_line_naming_the_variable_and_exit_2(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        variable: str, value: str, problem: str, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)  # a command that went ahead would leave a sideline.db here
    monkeypatch.setenv(variable, value)
    monkeypatch.setenv("SIDELINE_TOKEN", "a-token")
    code, out, err = run(capsys, "--config", str(EXAMPLE), *command)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"sideline: environment: {variable}: {problem}"]
    assert "hunter2" not in err and list(tmp_path.iterdir()) == []


def test_check_config_says_which_values_came_from_the_environment(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'env.db'}"
    monkeypatch.setenv("SIDELINE_DATABASE_URL", url)
    monkeypatch.setenv("SIDELINE_LOG_FORMAT", "json")
    monkeypatch.setenv("SIDELINE_METRICS_PORT", "9464")
    code, out, _ = run(capsys, "check-config", str(EXAMPLE))
    assert code == 0
    lines = out.splitlines()
    assert f"database_url = {url} (from SIDELINE_DATABASE_URL, over the file)" in lines
    assert "log_format = json (from SIDELINE_LOG_FORMAT, over the file)" in lines
    assert "metrics_port = 9464 (from SIDELINE_METRICS_PORT, over the file)" in lines
    assert not any(line.startswith("log_level") for line in lines)  # the file's
    code, out, _ = run(capsys, "check-config", str(EXAMPLE), "--json")
    assert json.loads(out)["sources"] == {"database_url": "environment", "log_level": "file",
                                          "log_format": "environment", "metrics_port": "environment",
                                          "shard_ids": "file", "shard_count": "file"}


def test_check_config_never_prints_the_database_password(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIDELINE_DATABASE_URL", "postgresql+asyncpg://sideline:hunter2@127.0.0.1:1/sideline")
    code, out, err = run(capsys, "check-config", str(EXAMPLE))
    assert code == 0, err
    assert "database_url = postgresql+asyncpg://sideline:***@127.0.0.1:1/sideline (from SIDELINE_DATABASE_URL" in out
    assert "hunter2" not in out + err


def test_commands_use_the_database_the_environment_names(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SIDELINE_DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'data' / 'env.db'}")
    (tmp_path / "data").mkdir()
    code, out, err = run(capsys, "--config", str(EXAMPLE), "db", "upgrade")
    assert code == 0 and out.startswith("database upgraded to revision "), err
    assert (tmp_path / "data" / "env.db").stat().st_size > 0
    assert not (tmp_path / "sideline.db").exists()  # nor a file in the current folder


def test_the_token_stays_environment_only(tmp_path: Path) -> None:
    assert "SIDELINE_TOKEN" not in ENVIRONMENT.values() and "token" not in ENVIRONMENT
    path = tmp_path / "config.toml"
    path.write_text('[bot]\ntoken = "abc"\n')
    with pytest.raises(SettingsError) as err:
        load_settings(path, {"SIDELINE_TOKEN": "abc"})
    assert err.value.key == "bot.token"


@pytest.mark.parametrize(("log_format", "json_lines"), [("json", True), ("text", False)])
def test_run_logs_in_the_format_configured(monkeypatch: pytest.MonkeyPatch, log_format: str,
                                           json_lines: bool) -> None:
    """`sideline run` configures the root logger with ``logs.configure``; here on an empty root, as at start."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    root.handlers.clear()
    try:
        logs.configure("WARNING", log_format)
        assert len(root.handlers) == 1 and root.level == logging.WARNING
        with logs.bound(guild_id=7):
            logging.getLogger("sideline.x").warning("careful")
        logging.getLogger("sideline.x").info("quiet")
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    (line,) = stream.getvalue().splitlines()
    if json_lines:
        assert {k: v for k, v in json.loads(line).items() if k != "time"} == {
            "level": "WARNING", "logger": "sideline.x", "message": "careful", "guild_id": "7"}
    else:
        assert line.endswith("WARNING sideline.x: careful")


def test_every_variable_is_documented_in_the_readme_and_the_example_config() -> None:
    readme = (ROOT / "README.md").read_text()
    example = EXAMPLE.read_text()
    for key, variable in ENVIRONMENT.items():
        assert f"| `{variable}` | `[bot] {key}` |" in readme
        assert f"#   {variable}" in example
        assert f"\n{key} = " in example or f"\n# {key} = " in example  # an optional one, commented out
    assert load_settings(EXAMPLE, {}).log_format == "text"


@pytest.mark.parametrize(("file", "environ", "where"), [
    ("[bot]\ncalendar_port = 9464\nmetrics_port = 9464\n", {}, "bot.metrics_port"),
    ("[bot]\ncalendar_port = 9464\n", {"SIDELINE_METRICS_PORT": "9464"}, "environment: SIDELINE_METRICS_PORT"),
])
def test_the_calendar_and_the_metrics_on_one_port_are_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, file: str,
        environ: dict[str, str], where: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(file)
    with pytest.raises(SettingsError, match="calendar feed and the metrics each need a port of their own"):
        load_settings(path, environ)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    code, out, err = run(capsys, "check-config", str(path))
    assert code == 2 and out == "", (out, err)
    assert err.count("\n") == 1 and where in err and "9464 is also bot.calendar_port" in err, err
    path.write_text("[bot]\ncalendar_port = 9465\nmetrics_port = 9464\n")
    monkeypatch.delenv("SIDELINE_METRICS_PORT", raising=False)
    assert load_settings(path, {}).metrics_port == 9464
