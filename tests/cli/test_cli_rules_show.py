"""`sideline rules show --league KEY` says which rulebook the league reads: its preset's as shipped, an
upload (by whom, when), or the config file's `rulebook` path."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from bot.cli import main as cli
from bot.cli.common import open_database
from bot.config.settings import load_settings
from bot.services.setup.league_setup import Actor

ROOT = Path(__file__).resolve().parents[2]
RULES = "Section 1 - Play\n1.1 - Offsides There is no offside.\n1.2 - Icing There is no icing.\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """The documented example with real-looking ids and its `rulebook =` line switched on."""
    (tmp_path / "rulebooks").mkdir()
    (tmp_path / "rulebooks" / "coed.txt").write_text(RULES, encoding="utf-8")
    text = re.sub(r"\b\d{18}\b", lambda m: str(int(m[0]) + 7), (ROOT / "config.leagues.example.toml").read_text())
    text = text.replace('# rulebook = "rulebooks/coed.txt"', 'rulebook = "rulebooks/coed.txt"')
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def set_up_in_discord(config: Path, *, upload: bytes | None = None) -> None:
    async def go() -> None:
        async with open_database(load_settings(config)) as db:
            services = db.services()
            admin = Actor(discord_id=77, manages_server=True)
            await services.setup.create(4242, admin, preset="youth-ball-hockey", name="Youth Hockey",
                                        timezone="America/Toronto")
            if upload is not None:
                await services.rulebooks.upload(4242, admin, "house-rules.md", upload)

    asyncio.run(go())


def rulebook_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("  rulebook: "))


def test_a_league_set_up_in_discord_reads_its_presets_rulebook(config: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    set_up_in_discord(config)
    code, out, err = run(capsys, "--config", str(config), "rules", "show", "--league", "youth-hockey")
    assert code == 0, err
    assert rulebook_line(out) == ("  rulebook: the youth-ball-hockey preset's rulebook, as shipped with Sideline "
                                  "(58 sections)")
    code, out, _ = run(capsys, "--config", str(config), "rules", "show", "--league", "youth-hockey", "--json")
    assert json.loads(out)["rulebook"] == {"kind": "preset", "preset": "youth-ball-hockey", "sections": 58,
                                           "source": None, "uploaded_by": None, "at": None, "configured": None}


def test_an_upload_says_who_uploaded_it_and_when(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    set_up_in_discord(config, upload=b"# House Rules\n## Overtime\nTen minutes.\n")
    code, out, err = run(capsys, "--config", str(config), "rules", "show", "--league", "youth-hockey")
    assert code == 0, err
    line = rulebook_line(out)
    assert re.fullmatch(r"  rulebook: house-rules\.md, uploaded in Discord by user 77 on "
                        r"\d{4}-\d\d-\d\d \d\d:\d\d UTC \(2 sections\)", line), line
    code, out, _ = run(capsys, "--config", str(config), "rules", "show", "--league", "youth-hockey", "--json")
    shown = json.loads(out)["rulebook"]
    assert (shown["kind"], shown["source"], shown["uploaded_by"], shown["sections"]) == ("upload", "house-rules.md",
                                                                                         "77", 2)


def test_a_league_from_the_config_file_names_its_rulebook_file(config: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = config.parent / "rulebooks" / "coed.txt"
    code, out, err = run(capsys, "--config", str(config), "rules", "show", "--league", "coed")
    assert code == 0, err
    assert rulebook_line(out) == (f"  rulebook: none imported yet: the config file names {path}, which the bot "
                                  "imports when it starts")
    code, _, err = run(capsys, "--config", str(config), "rules", "import", str(path), "--league", "coed")
    assert code == 0, err
    code, out, err = run(capsys, "--config", str(config), "rules", "show", "--league", "coed")
    assert code == 0, err
    assert re.fullmatch(rf"  rulebook: the file {re.escape(str(path))} \(the config file's rulebook\), imported on "
                        r"\d{4}-\d\d-\d\d \d\d:\d\d UTC \(3 sections\)", rulebook_line(out)), out
