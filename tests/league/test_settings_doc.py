"""docs/settings.md is generated from the presets: it must be current, and every setting documented."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.league.rules import PRESET_NAMES, Rules, preset
from bot.league.settings_doc import SECTION_TITLES, render, undocumented
from bot.league.setup.rule_settings import RuleSetting, rule_settings

ROOT = Path(__file__).resolve().parents[2]


def test_docs_settings_md_is_up_to_date() -> None:
    assert (ROOT / "docs" / "settings.md").read_text(encoding="utf-8") == render(), (
        "docs/settings.md is out of date: run  python -m bot.league.settings_doc > docs/settings.md")


def test_every_preset_setting_has_a_meaning_and_a_rulebook_section() -> None:
    assert undocumented([rule_settings(preset(name)) for name in PRESET_NAMES]) == []


def test_an_undocumented_setting_is_caught() -> None:
    """What the test above guards against: a new field with no comment, or cited nowhere."""
    settings = [rule_settings(preset(name)) for name in PRESET_NAMES]
    bare = RuleSetting("shiny_new_minutes", "game_format", "shiny new minutes", "")
    uncited = RuleSetting("quiet_rule", "lineup", "A rule no rulebook mentions.", "")
    problems = undocumented([[*s, bare, uncited] for s in settings])
    assert problems == ["shiny_new_minutes: no meaning (write a comment above the field)",
                        "shiny_new_minutes: no rulebook section in any preset (cite one, or add it to LEAGUE_SETTINGS)",
                        "quiet_rule: no rulebook section in any preset (cite one, or add it to LEAGUE_SETTINGS)"]


def test_every_setting_and_its_defaults_are_in_the_file() -> None:
    text = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    youth = preset("youth-ball-hockey")
    for s in rule_settings(youth):
        assert f"| `{s.key}` | {s.meaning}" in text.replace("\\|", "|")
    assert "| `periods` | Periods (or halves) of regulation play. | 1 to 10 | `2` (Co-ed rules: Game Structure) | " \
           "`3` (Youth 2.5, 2.6) | `2` (Indoor soccer rules: Game) |" in text


def test_the_config_examples_point_to_it() -> None:
    for name in ("config.example.toml", "config.leagues.example.toml"):
        assert "docs/settings.md" in (ROOT / name).read_text(encoding="utf-8")


def test_every_section_of_the_rules_has_a_title_in_plain_words() -> None:
    """A section without one is headed by its code name (``## rulevotes``) in docs/settings.md."""
    sections = {f.name for f in dataclasses.fields(Rules)} - {"preset"}
    assert sections - set(SECTION_TITLES) == set()
