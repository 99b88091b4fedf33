"""`sideline rules import|search`, run as an operator would (in-process, and once as a real process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main as cli
from tests.conftest import SHARED

ROOT = Path(__file__).resolve().parents[2]
COED_RULEBOOK = SHARED / "rulebooks" / "coed-ball-hockey-tournament.txt"
needs_shared = pytest.mark.skipif(
    not COED_RULEBOOK.is_file(),
    reason=f"the real rulebooks are not at {COED_RULEBOOK.parent} (../shared is only present in CI)")

SYNTHETIC = """\
Section 1 - Game Format
1.1 - Periods Games are played in two 20 minute halves with a running clock.
1.2 - Overtime If the game is tied after regulation, a 5 minute sudden death overtime is played, then a shootout.
Section 2 - Conduct
2.1 - Offsides There is no offside in this league.
2.2 - Slap shots Slap shots are not allowed; the ball may not be raised above the knee.
"""


def write_config(tmp_path: Path, db_url: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(f"""\
[bot]
database_url = "{db_url}"

[[leagues]]
key = "coed"
name = "Summer Co-ed Ball Hockey"
guild_id = 123456789012345678
preset = "coed-ball-hockey"
timezone = "America/Toronto"
""", encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def config(tmp_path: Path, db_url: str) -> str:
    return write_config(tmp_path, db_url)


@pytest.fixture
def rulebook(tmp_path: Path) -> Path:
    path = tmp_path / "rules.txt"
    path.write_text(SYNTHETIC, encoding="utf-8")
    return path


def search_json(capsys: pytest.CaptureFixture[str], config: str, *query: str) -> list[dict[str, object]]:
    code, out, err = run(capsys, "--config", config, "rules", "search", "--league", "coed", "--json", *query)
    assert code == 0, err
    return json.loads(out)


def test_import_then_search_as_json(capsys: pytest.CaptureFixture[str], config: str, rulebook: Path) -> None:
    code, out, err = run(capsys, "--config", config, "rules", "import", str(rulebook), "--league", "coed")
    assert code == 0, err
    assert out.strip() == f"{rulebook}: imported 6 sections into league coed"

    hits = search_json(capsys, config, "are", "slapshots", "allowed")
    text = "2.2 - Slap shots Slap shots are not allowed; the ball may not be raised above the knee."
    assert hits[0] == {"citation": "2.2", "title": "Slap shots", "text": text, "score": hits[0]["score"]}
    assert all(set(hit) == {"citation", "title", "text", "score"} for hit in hits)
    scores = [hit["score"] for hit in hits]
    assert scores == sorted(scores, reverse=True) and all(isinstance(s, float) for s in scores)


def test_search_prints_the_top_sections_for_people(capsys: pytest.CaptureFixture[str], config: str,
                                                     rulebook: Path) -> None:
    assert run(capsys, "--config", config, "rules", "import", str(rulebook), "--league", "coed")[0] == 0
    code, out, _ = run(capsys, "--config", config, "rules", "search", "--league", "coed", "--limit", "2",
                       "how long is overtime")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("1. 1.2 Overtime  (score ")
    assert lines[1] == ("   1.2 - Overtime If the game is tied after regulation, a 5 minute sudden death "
                        "overtime is played, then a shootout.")
    assert len([line for line in lines if line[:1].isdigit()]) <= 2
    code, out, _ = run(capsys, "--config", config, "rules", "search", "--league", "coed", "zzzqx")
    assert code == 0 and out.strip() == "no section matches 'zzzqx'"


@needs_shared
def test_the_real_coed_rulebook(capsys: pytest.CaptureFixture[str], config: str) -> None:
    code, out, err = run(capsys, "--config", config, "rules", "import", str(COED_RULEBOOK), "--league", "coed",
                         "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["sections"] > 50 and report["replaced"] == 0 and len(report["fingerprint"]) == 64
    assert search_json(capsys, config, "how", "long", "is", "ot")[0]["citation"] == "Overtime 1"


def test_a_new_import_replaces_the_old_sections(capsys: pytest.CaptureFixture[str], config: str,
                                                 rulebook: Path, tmp_path: Path) -> None:
    assert run(capsys, "--config", config, "rules", "import", str(rulebook), "--league", "coed")[0] == 0
    newer = tmp_path / "newer.md"
    newer.write_text("# Equipment\n\n- Helmets are required.\n- Gloves are optional.\n", encoding="utf-8")
    code, out, _ = run(capsys, "--config", config, "rules", "import", str(newer), "--league", "coed")
    assert code == 0 and out.strip() == f"{newer}: imported 3 sections into league coed, replacing 6"
    assert search_json(capsys, config, "slap", "shots") == []
    assert search_json(capsys, config, "helmet")[0]["citation"] == "Equipment 1"


@pytest.mark.parametrize(("content", "problem"), [
    (b"", "is empty"),
    (b"\n  \n\t\n", "is empty"),
    ("Règles du jeu\n1.1 - Hors-jeu Pas de hors-jeu.\n".encode("latin-1"), "is not UTF-8 text"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is not UTF-8 text"),
])
def test_a_bad_file_is_a_clear_error_and_changes_nothing(
        capsys: pytest.CaptureFixture[str], config: str, rulebook: Path, tmp_path: Path,
        content: bytes, problem: str) -> None:
    assert run(capsys, "--config", config, "rules", "import", str(rulebook), "--league", "coed")[0] == 0
    before = search_json(capsys, config, "offside")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    code, out, err = run(capsys, "--config", config, "rules", "import", str(bad), "--league", "coed")
    assert code == 1 and out == ""
    assert err.startswith(f"sideline: {bad} {problem}") and "Nothing was imported." in err
    assert "Traceback" not in err
    assert search_json(capsys, config, "offside") == before


def test_a_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str], config: str, tmp_path: Path) -> None:
    code, _, err = run(capsys, "--config", config, "rules", "import", str(tmp_path / "nope.txt"), "--league", "coed")
    assert code == 1
    assert err.strip() == (f"sideline: can't read {tmp_path / 'nope.txt'}: No such file or directory. "
                           "Nothing was imported.")


def test_search_before_any_import_says_how_to_import(capsys: pytest.CaptureFixture[str], config: str) -> None:
    code, out, err = run(capsys, "--config", config, "rules", "search", "--league", "coed", "offside")
    assert code == 1 and out == ""
    assert err.strip() == ("sideline: league coed has no rulebook yet; import one with "
                           "`sideline rules import FILE --league coed`")


def test_an_unknown_league_names_the_known_ones(capsys: pytest.CaptureFixture[str], config: str,
                                                 rulebook: Path) -> None:
    code, _, err = run(capsys, "--config", config, "rules", "import", str(rulebook), "--league", "nope")
    assert code == 2 and "--league nope: no such league (known: coed)" in err


def test_rules_commands_from_a_real_process(tmp_path: Path, rulebook: Path) -> None:
    config = write_config(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}")
    env = {k: v for k, v in os.environ.items() if k not in ("SIDELINE_TOKEN", "SIDELINE_CONFIG")}

    def sideline(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True,
                              env=env, cwd=ROOT, timeout=120)

    helped = sideline("rules", "--help")
    assert helped.returncode == 0 and "import" in helped.stdout and "search" in helped.stdout
    imported = sideline("rules", "import", str(rulebook), "--league", "coed", "--config", config)
    assert imported.returncode == 0, imported.stderr
    found = sideline("rules", "search", "--league", "coed", "--json", "--config", config, "offside")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)[0]["citation"] == "2.1"
