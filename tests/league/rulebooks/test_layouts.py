"""Rulebooks as people write them: each common way of numbering or heading a rule becomes citable
sections, and a numbered list inside a rule stays a list. Also the rulebooks the presets ship."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest

from bot.league.rulebooks.presets import FOLDER, preset_rulebook
from bot.league.rulebooks.rulebook import Section, example_section, parse_rulebook
from bot.league.rules import PRESET_NAMES
from tests.league.rulebooks.test_rulebook import assert_no_line_lost

ROOT = Path(__file__).resolve().parents[3]
SHARED_RULEBOOKS = ROOT.parent / "shared" / "rulebooks"


def cited(text: str) -> list[tuple[str, str]]:
    sections = parse_rulebook(text)
    assert_no_line_lost(text, sections)
    return [(s.citation, s.title) for s in sections]


def by_citation(text: str) -> dict[str, Section]:
    return {s.citation: s for s in parse_rulebook(text)}


def test_whole_numbered_titles_are_sections_with_their_text() -> None:
    text = "7. Equipment\nPlayers wear helmets.\nGloves are required.\n\n8. Overtime\nFive minutes, sudden death.\n"
    assert cited(text) == [("7", "Equipment"), ("8", "Overtime")]
    assert by_citation(text)["7"].text == "7. Equipment\nPlayers wear helmets.\nGloves are required."


def test_whole_numbered_titles_hold_their_decimal_rules() -> None:
    text = "7. Equipment\n7.1 Helmets\nEvery player wears one.\n7.2 Gloves\nSkaters wear gloves.\n8. Overtime\nNone.\n"
    assert cited(text) == [("7", "Equipment"), ("7.1", "Helmets"), ("7.2", "Gloves"), ("8", "Overtime")]
    assert by_citation(text)["7.2"].text == "7.2 Gloves\nSkaters wear gloves."


def test_a_numbered_list_under_a_heading_stays_a_list() -> None:
    """The co-ed rulebook's penalty lists: ``1. Holding`` then ``2. Hooking`` are items, not rules 1 and 2."""
    text = "Minor offenses (warning)\n\n1. Holding\n\n2. Hooking\n\n3. Lofting\n\nMajor offenses\n\n1. Slashing\n"
    sections = by_citation(text)
    assert list(sections) == ["Minor offenses", "Major offenses"]
    assert sections["Minor offenses"].text == "Minor offenses (warning)\n1. Holding\n2. Hooking\n3. Lofting"


def test_a_numbered_list_after_a_lead_in_stays_with_its_rule() -> None:
    text = "7. Equipment\nPlayers must wear:\n1. Helmets\nA cage is enough.\n8. Overtime\nFive minutes.\n"
    assert cited(text) == [("7", "Equipment"), ("8", "Overtime")]
    assert "1. Helmets" in by_citation(text)["7"].text


def test_a_numbered_sentence_is_not_a_title() -> None:
    text = "GENERAL\n1. Every game starts on time.\nLate teams forfeit.\n2. Referees decide.\nTheir call stands.\n"
    assert [c for c, _ in cited(text)] == ["GENERAL"]


def test_decimal_numbered_titles() -> None:
    text = "7.1 Helmets\nEvery player wears one.\n7.2 Gloves\nSkaters wear gloves.\n"
    assert cited(text) == [("7.1", "Helmets"), ("7.2", "Gloves")]


@pytest.mark.parametrize("dash", ["–", "-", "—", ":"])
def test_section_headings_with_any_dash(dash: str) -> None:
    text = f"Section 7 {dash} Equipment\nPlayers wear helmets.\nSection 8 {dash} Overtime\nFive minutes.\n"
    assert cited(text) == [("Section 7", "Equipment"), ("Section 8", "Overtime")]
    assert by_citation(text)["Section 7"].text == f"Section 7 {dash} Equipment\nPlayers wear helmets."


def test_rule_numbers_with_and_without_a_title() -> None:
    assert cited("Rule 7: Equipment\nPlayers wear helmets.\nRule 8: Overtime\nFive minutes.\n") == [
        ("7", "Equipment"), ("8", "Overtime")]
    sections = by_citation("Rule 7:\nPlayers wear helmets.\nRule 8:\nFive minutes.\n")
    assert list(sections) == ["7", "8"]
    assert sections["8"].text == "Rule 8:\nFive minutes."


def test_markdown_headings_and_the_bullets_under_them() -> None:
    text = ("# House Rules\n\n## Equipment\nPlayers wear helmets.\n- Gloves are required.\n- Shin pads too.\n\n"
            "## Overtime\nFive minutes, sudden death.\n")
    assert cited(text) == [("House Rules", "House Rules"), ("Equipment", "Equipment"), ("Equipment 1", "Equipment"),
                           ("Equipment 2", "Equipment"), ("Overtime", "Overtime")]
    sections = by_citation(text)
    assert sections["Equipment 2"].text == "Shin pads too." and sections["Equipment 2"].parent == "Equipment"
    assert sections["House Rules"].heading_only


def test_numbered_markdown_headings_and_their_bullets() -> None:
    text = "## 7. Equipment\nEvery player wears a helmet.\n- Gloves are required.\n## 8. Overtime\nTen minutes.\n"
    assert cited(text) == [("7", "Equipment"), ("Equipment 1", "Equipment"), ("8", "Overtime")]
    assert by_citation(text)["Equipment 1"].parent == "7"


def test_the_example_citation_is_a_titled_rule_with_text() -> None:
    sections = parse_rulebook("# House Rules\nWelcome.\n## Overtime\n- Five minutes.\n7.1 Helmets\nWear one.\n")
    found = example_section(sections)
    assert found is not None and (found.citation, found.title) == ("7.1", "Helmets")
    bare = example_section(parse_rulebook("GEAR\n• Helmets on.\n"))
    assert bare is not None and bare.citation == "GEAR 1"
    assert example_section([]) is None


# --- the rulebooks the presets ship ----------------------------------------------------------------

@pytest.mark.parametrize(("preset", "count"), [("coed-ball-hockey", 77), ("youth-ball-hockey", 58),
                                               ("indoor-soccer", 9)])
def test_each_preset_ships_its_rulebook(preset: str, count: int) -> None:
    data = preset_rulebook(preset)
    assert data is not None
    text = data.decode("utf-8")
    sections = parse_rulebook(text)
    assert len(sections) == count
    assert_no_line_lost(text, sections)


def test_a_name_that_is_no_preset_has_no_rulebook() -> None:
    assert preset_rulebook("curling") is None
    assert preset_rulebook("../rules") is None


def test_the_shipped_rulebooks_are_declared_package_data() -> None:
    """An installed Sideline (pip install ., the image) has them: pyproject.toml declares each file."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["bot.league"]
    for preset in PRESET_NAMES:
        name = f"{FOLDER}/{preset}.txt"
        assert (ROOT / "bot" / "league" / name).is_file()
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name


@pytest.mark.skipif(not SHARED_RULEBOOKS.is_dir(), reason=f"no real rulebooks at {SHARED_RULEBOOKS} (CI has them)")
@pytest.mark.parametrize(("preset", "original"), [("coed-ball-hockey", "coed-ball-hockey-tournament.txt"),
                                                  ("youth-ball-hockey", "youth-ball-hockey-league-2012-13.txt"),
                                                  ("indoor-soccer", "indoor-soccer-league.txt")])
def test_the_shipped_rulebooks_are_the_leagues_own(preset: str, original: str) -> None:
    assert preset_rulebook(preset) == (SHARED_RULEBOOKS / original).read_bytes()
