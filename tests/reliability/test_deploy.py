"""The container and the systemd unit, checked without Docker or systemd.

CI has neither a Docker daemon nor a registry, so these read the files as the tools would: the
Dockerfile's stages and instructions, docker-compose.yml as YAML with its ``${...}`` interpolation,
the unit as INI. What they hold to: the image installs what the tests run (``.[postgres,metrics,xlsx,images]`` from
this pyproject, no test tools: one test runs the build stage's steps in a fresh virtual environment and
the installed `sideline` there), runs as a user, keeps its data in a volume and checks its health with a
real `sideline` subcommand; compose starts the bot once PostgreSQL is healthy and keeps secrets out of
the file; the unit restarts the bot and gives its graceful stop the time it needs.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy.engine import make_url

from bot.cli import main as cli
from bot.cli.health import cmd_health
from bot.cli.run import cmd_run
from bot.config.settings import apply_environment, load_settings
from bot.run.lifecycle import CLOSE_WITHIN, STOP_WITHIN

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
#: The most a graceful stop takes (bot/run/lifecycle.py); a supervisor must wait at least this long.
STOP_TAKES = STOP_WITHIN + CLOSE_WITHIN
#: A Discord bot token's shape: three base64url parts joined by dots.
TOKEN_SHAPE = re.compile(r"[A-Za-z\d_-]{23,28}\.[A-Za-z\d_-]{6,7}\.[A-Za-z\d_-]{27,}")


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [args for kw, args in self.instructions if kw == keyword]

    def env(self) -> dict[str, str]:
        values: dict[str, str] = {}
        for args in self.all("ENV"):
            for pair in shlex.split(args):
                name, _, value = pair.partition("=")
                values[name] = value
        return values


def dockerfile() -> tuple[dict[str, str], list[Stage]]:
    """The global ARG defaults and the stages, continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        keyword, rest = keyword.upper(), rest.strip()
        if keyword == "FROM":
            words = rest.split()
            base = re.sub(r"\$\{(\w+)\}", lambda m: args[m[1]], words[0])
            stages.append(Stage(base, words[2] if len(words) == 3 and words[1].upper() == "AS" else None))
        elif keyword == "ARG" and not stages:
            name, _, default = rest.partition("=")
            args[name] = default
        else:
            assert stages, f"{keyword} before the first FROM"
            stages[-1].instructions.append((keyword, rest))
    return args, stages


def pip_installs(command: str) -> list[tuple[str, list[str]]]:
    """(the pip that runs, what it installs) for each ``pip install`` in a RUN command."""
    found = []
    for part in re.split(r"&&|;", command):
        words = shlex.split(part)
        for i, word in enumerate(words[:-1]):
            if word.endswith("pip") and words[i + 1] == "install":
                found.append((word, [w for w in words[i + 2:] if not w.startswith("-")]))
    return found


def test_the_image_is_multi_stage_on_a_slim_python_the_project_supports() -> None:
    _, stages = dockerfile()
    assert len(stages) >= 2
    minimum = tuple(int(n) for n in PYPROJECT["project"]["requires-python"].removeprefix(">=").split("."))
    for stage in stages:
        match = re.fullmatch(r"python:(\d+)\.(\d+)-slim", stage.base)
        assert match, f"{stage.base} is not a slim Python image"
        assert (int(match[1]), int(match[2])) >= minimum


def test_the_build_stage_installs_this_project_with_postgres_and_nothing_for_tests() -> None:
    _, stages = dockerfile()
    build, runtime = stages[0], stages[-1]
    installs = [i for run in build.all("RUN") for i in pip_installs(run)]
    assert len(installs) == 1, installs
    pip, targets = installs[0]
    assert targets == [".[postgres,metrics,xlsx,images]"]  # an operator who sets metrics_port has prometheus-client
    extras = set(re.fullmatch(r"\.\[([\w,]+)\]", targets[0])[1].split(","))
    assert extras <= set(PYPROJECT["project"]["optional-dependencies"]) and "test" not in extras
    # ... into a virtual environment the runtime stage copies whole, from the build stage by name
    venv = pip.removesuffix("/bin/pip")
    assert any(f"python -m venv {venv}" in run for run in build.all("RUN"))
    assert f"--from={build.name} {venv} {venv}" in runtime.all("COPY")
    assert not [i for run in runtime.all("RUN") for i in pip_installs(run)], "the runtime stage installs nothing"
    assert runtime.env()["PATH"].startswith(f"{venv}/bin:")


def test_the_build_copies_every_package_pyproject_ships_and_the_ignore_file_lets_only_those_in() -> None:
    _, stages = dockerfile()
    copied = {source.rstrip("/") for args in stages[0].all("COPY") for source in args.split()[:-1]}
    packages = {pattern.rstrip("*") for pattern in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert packages | {"pyproject.toml", PYPROJECT["project"]["readme"]} == copied
    lines = [ln for ln in (ROOT / ".dockerignore").read_text().splitlines() if ln and not ln.startswith("#")]
    assert lines[0] == "*", "the context is an allow-list"
    allowed = {ln[1:] for ln in lines if ln.startswith("!")}
    runtime_copies = {a.split()[0] for a in stages[-1].all("COPY") if not a.startswith("--from")}
    assert copied | runtime_copies == allowed
    assert not allowed & {".env", "config.toml", ".venv", "tests", "sideline.db"}


def test_the_image_runs_as_a_user_with_its_data_in_a_volume() -> None:
    _, stages = dockerfile()
    runtime = stages[-1]
    (user,) = runtime.all("USER")
    assert user not in ("root", "0") and not user.startswith("0:")
    assert json.loads(runtime.all("VOLUME")[0]) == ["/data"]
    env = runtime.env()
    url = make_url(env["SIDELINE_DATABASE_URL"])
    assert url.drivername == "sqlite+aiosqlite" and url.database == "/data/sideline.db"
    settings = apply_environment(load_settings(ROOT / "config.example.toml", {}), env)
    assert settings.database_url == env["SIDELINE_DATABASE_URL"] and settings.from_environment == ("database_url",)
    assert "SIDELINE_TOKEN" not in env
    assert f"config.example.toml {env['SIDELINE_CONFIG']}" in runtime.all("COPY")


def test_the_health_check_and_the_command_are_real_sideline_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    assert PYPROJECT["project"]["scripts"]["sideline"] == "bot.cli.main:main"
    _, stages = dockerfile()
    runtime = stages[-1]
    (healthcheck,) = runtime.all("HEALTHCHECK")
    options, _, command = healthcheck.partition(" CMD ")
    assert "--timeout=" in options
    argv = json.loads(command)
    assert argv[:2] == ["sideline", "health"]
    assert cli.build_parser().parse_args(argv[1:]).handler is cmd_health
    with pytest.raises(SystemExit) as done:
        cli.main([*argv[1:], "--help"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("usage: sideline health")
    (cmd,) = runtime.all("CMD")
    assert cli.build_parser().parse_args(json.loads(cmd)[1:]).handler is cmd_run
    assert runtime.all("STOPSIGNAL") == ["SIGTERM"]


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def interpolated(value: str, environ: dict[str, str]) -> str:
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}``, with ``environ`` set."""
    def one(match: re.Match[str]) -> str:
        name, op, rest = match[1], match[2], match[3]
        if environ.get(name):
            return environ[name]
        assert op != ":?", f"{name} is required: {rest}"
        return rest or ""
    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, value)


def test_compose_interpolation_is_well_formed_and_holds_no_secret() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    code = "\n".join(line.split(" #")[0] for line in text.splitlines() if not line.lstrip().startswith("#"))
    for dollar in re.finditer(r"\$", code):
        assert re.match(r"\$\{\w+(:-[^}]*|:\?[^}]*)?\}|\$\$", code[dollar.start():]), code[dollar.start():][:40]
    assert not TOKEN_SHAPE.search(text)
    bot = compose()["services"]["bot"]["environment"]
    assert re.fullmatch(r"\$\{SIDELINE_TOKEN:\?[^}]+\}", bot["SIDELINE_TOKEN"])
    assert "${POSTGRES_PASSWORD" in bot["SIDELINE_DATABASE_URL"]
    with pytest.raises(AssertionError, match="SIDELINE_TOKEN is required"):
        interpolated(bot["SIDELINE_TOKEN"], {})


def test_the_bot_waits_for_a_healthy_postgres_and_uses_it() -> None:
    spec = compose()
    assert set(spec) <= {"name", "services", "volumes", "networks", "configs", "secrets"}
    services = spec["services"]
    db, bot = services["db"], services["bot"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert bot.get("healthcheck", {}).get("disable") is not True  # the image's `sideline health`
    assert bot["build"] == "." and (ROOT / "Dockerfile").exists()
    environ = {"SIDELINE_TOKEN": "t", "POSTGRES_PASSWORD": "pw"}
    env = {k: interpolated(v, environ) for k, v in bot["environment"].items()}
    settings = apply_environment(load_settings(ROOT / "config.example.toml", {}), env)
    url = make_url(settings.database_url)
    assert (url.drivername, url.host, url.password) == ("postgresql+asyncpg", "db", "pw")
    db_env = {k: interpolated(v, environ) for k, v in db["environment"].items()}
    assert (url.username, url.database) == (db_env["POSTGRES_USER"], db_env["POSTGRES_DB"])
    assert settings.log_level == "INFO" and settings.log_format == "text"  # empty: the file's


def test_compose_keeps_data_in_volumes_and_mounts_the_config_read_only() -> None:
    spec = compose()
    services = spec["services"]
    declared = set(spec["volumes"])
    _, stages = dockerfile()
    config_path = stages[-1].env()["SIDELINE_CONFIG"]
    mounts = services["bot"]["volumes"]
    (config,) = [m for m in mounts if isinstance(m, dict)]
    assert (config["type"], config["source"], config["target"], config["read_only"]) == (
        "bind", "./config.toml", config_path, True)
    assert "create_host_path" not in config.get("bind", {})  # a missing config.toml is an error, not a folder
    named = {m.split(":")[0]: m.split(":")[1] for m in mounts if isinstance(m, str)}
    assert named == {"data": "/data"}
    db_named = {m.split(":")[0]: m.split(":")[1] for m in services["db"]["volumes"]}
    assert db_named == {"pgdata": "/var/lib/postgresql/data"}
    assert set(named) | set(db_named) == declared
    grace = services["bot"]["stop_grace_period"]
    assert grace.endswith("s") and int(grace[:-1]) > STOP_TAKES


def test_the_systemd_unit_restarts_the_bot_and_waits_for_its_graceful_stop() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(ROOT / "deploy" / "sideline.service")
    service = unit["Service"]
    assert service["Restart"] == "always" and service["KillSignal"] == "SIGTERM"
    assert int(service["TimeoutStopSec"]) == 15 and int(service["TimeoutStopSec"]) > STOP_TAKES
    assert service["User"] not in ("root", "0")
    assert service["WorkingDirectory"].startswith("/") and service["EnvironmentFile"].startswith("/")
    exec_start = shlex.split(service["ExecStart"])
    assert exec_start[0].endswith("/.venv/bin/sideline"), "the .venv that `make setup` makes"
    assert cli.build_parser().parse_args(exec_start[1:]).handler is cmd_run
    text = (ROOT / "deploy" / "sideline.service").read_text()
    assert "SIDELINE_TOKEN=" not in "".join(ln for ln in text.splitlines() if not ln.startswith("#"))
    assert unit["Install"]["WantedBy"] == "multi-user.target"


# --- the image's install, run for real ------------------------------------------------------------
def _requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


def _ignored(context_rules: list[str]) -> Callable[[str, list[str]], set[str]]:
    """What .dockerignore keeps out of the build context below the allowed folders (``**/x``)."""
    patterns = [rule.removeprefix("**/") for rule in context_rules if rule.startswith("**/")]
    return shutil.ignore_patterns(*patterns)


@pytest.mark.slow
def test_the_build_stage_run_in_a_fresh_venv_installs_a_working_sideline_and_no_test_tools(tmp_path: Path) -> None:
    """The build stage's own instructions, in order: its ENV, WORKDIR, COPY (exactly those files, less
    what .dockerignore keeps out) and RUN (``python -m venv``, then the one ``pip install``), with the
    image's absolute paths under ``tmp_path`` and pip configured as for `make setup` (pip's config:
    the package indexes and its cache; it needs what `make setup` needs, no more). Then what the runtime
    stage runs of it: `sideline --version`, `check-config` of the config the image ships, and its
    HEALTHCHECK against a database in its volume, by the runtime stage's ENV."""
    _, stages = dockerfile()
    build, runtime = stages[0], stages[-1]
    image = tmp_path / "image"  # the image's file system
    tops = {part.split("/")[1] for kw, args in build.instructions + runtime.instructions
            for part in re.findall(r"(?<![\w.:])/\w[\w/.-]*", args)}

    def inside(text: str) -> str:
        """The image's absolute paths (/opt/sideline, /src, /data...) under ``image``."""
        return re.sub(rf"(?<![\w.])/(?=(?:{'|'.join(map(re.escape, sorted(tops)))})\b)", f"{image}/", text)

    interpreter = tmp_path / "python-image" / "bin"  # `python` is the base image's: here, this one
    interpreter.mkdir(parents=True)
    (interpreter / "python").symlink_to(sys.executable)
    environ = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    # The stage's ENV but its PIP_NO_CACHE_DIR (an image keeps no cache): with pip's cache, nothing is
    # fetched that `make setup` did not fetch already.
    stage_env = {k: v for k, v in build.env().items() if k != "PIP_NO_CACHE_DIR"}
    environ |= {"PATH": f"{interpreter}{os.pathsep}{environ.get('PATH', '')}", **stage_env}
    context_rules = [ln.strip() for ln in (ROOT / ".dockerignore").read_text().splitlines()]
    workdir = image  # "/" until a WORKDIR
    image.mkdir()
    copied: list[Path] = []
    for keyword, args in build.instructions:
        if keyword == "ENV":
            continue  # applied above, for every step
        if keyword == "WORKDIR":
            workdir = Path(inside(args))
            workdir.mkdir(parents=True, exist_ok=True)
        elif keyword == "COPY":
            # Docker's rules: a folder's contents go into the destination; files go into it when it
            # ends with "/" (several sources must), else a file is copied to that name.
            *sources, destination = shlex.split(args)
            target = workdir / destination
            into = destination.endswith("/") or len(sources) > 1
            for source in sources:
                origin = ROOT / source
                if origin.is_dir():
                    shutil.copytree(origin, target, ignore=_ignored(context_rules), dirs_exist_ok=True)
                    copied += [p for p in target.rglob("*") if p.is_file()]
                else:
                    (target if into else target.parent).mkdir(parents=True, exist_ok=True)
                    copied.append(shutil.copy2(origin, target / origin.name if into else target))
        elif keyword == "RUN":
            done = subprocess.run(["/bin/sh", "-c", inside(args)], cwd=workdir, env=environ, capture_output=True,
                                  text=True, timeout=600)
            assert done.returncode == 0, f"RUN {args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        else:
            pytest.fail(f"the build stage has a {keyword}: teach this test what the image does with it")
    sources = {str(p.resolve().relative_to(workdir.resolve())).split("/")[0] for p in map(Path, copied)}
    assert sources == {"README.md", "bot", "cogs", "pyproject.toml", "storage"}
    assert not [p for p in copied if "__pycache__" in str(p) or str(p).endswith(".pyc")]  # .dockerignore's

    ((pip, _),) = [i for run in build.all("RUN") for i in pip_installs(run)]
    venv = Path(inside(pip.removesuffix("/bin/pip")))
    outside = tmp_path / "elsewhere"  # nothing of the source tree on the path
    outside.mkdir()
    listed = subprocess.run([venv / "bin" / "python", "-c", "import bot, importlib.metadata as m, json; print("
                             "json.dumps([bot.__file__, sorted(d.metadata['Name'] for d in m.distributions())]))"],
                            cwd=outside, env=environ, capture_output=True, text=True, check=True)
    where, installed = json.loads(listed.stdout)
    assert Path(where).is_relative_to(venv / "lib"), where  # the installed package, not this checkout
    names = _requirement_names(installed)
    project = PYPROJECT["project"]
    extras = project["optional-dependencies"]
    runtime_needs = _requirement_names(project["dependencies"] + extras["postgres"] + extras["metrics"]
                                       + extras["xlsx"] + extras["images"])
    assert runtime_needs | {"sideline"} <= names
    test_tools = _requirement_names(extras["test"]) - runtime_needs
    assert {"pytest", "ruff", "mypy"} <= test_tools
    assert not names & test_tools, f"test tools in the image: {sorted(names & test_tools)}"

    # The runtime stage: its ENV (PATH first to the venv, the config it copies, the database in /data).
    env = runtime.env()
    environ |= {name: inside(value).replace("$PATH", environ["PATH"]) for name, value in env.items()}
    for args in runtime.all("COPY"):
        if not args.startswith("--from"):
            source, destination = shlex.split(args)
            Path(inside(destination)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / source, inside(destination))
    Path(inside("/data")).mkdir()
    assert shutil.which("sideline", path=environ["PATH"]) == str(venv / "bin" / "sideline")

    def sideline(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["sideline", *argv], cwd=outside, env=environ, capture_output=True, text=True,
                              timeout=120)

    version = sideline("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"sideline {project['version']}", version
    checked = sideline("check-config")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith(f"{inside(env['SIDELINE_CONFIG'])}: OK, 0 league(s)"), checked.stdout
    upgraded = sideline("db", "upgrade")  # the migrations are in the package (package-data), not only here
    assert upgraded.returncode == 0 and upgraded.stdout.startswith("database upgraded to revision "), upgraded
    healthcheck = json.loads(runtime.all("HEALTHCHECK")[0].partition(" CMD ")[2])
    assert healthcheck[0] == "sideline"
    health = sideline(*healthcheck[1:])
    assert health.returncode == 0, health.stdout + health.stderr
    assert json.loads(health.stdout)["ok"] is True
    assert Path(inside("/data/sideline.db")).is_file()
