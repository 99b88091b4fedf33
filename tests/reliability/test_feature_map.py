"""The README's map of where each feature lives is the tree's (tests/reliability/feature_map.py)."""

from __future__ import annotations

from tests.reliability.feature_map import README, problems, readme_map, whole


def test_every_module_of_every_layer_belongs_to_one_feature_and_each_listed_one_exists() -> None:
    assert problems() == []


def test_the_readme_map_is_the_one_made_from_the_tree() -> None:
    assert readme_map(README.read_text()) == whole(), \
        "README.md's feature map is out of date: run python -m tests.reliability.feature_map --write"


def test_no_module_grows_into_a_god_module() -> None:
    """A module past 500 lines holds more than one thing: split it by what its parts are for."""
    longest = {str(p.relative_to(README.parent)): len(p.read_text().splitlines())
               for folder in ("bot", "cogs", "storage") for p in (README.parent / folder).rglob("*.py")
               if "migrations" not in p.parts}
    assert {name: lines for name, lines in longest.items() if lines > 500} == {}


def test_the_top_of_bot_holds_at_most_ten_loose_modules() -> None:
    """bot/'s entry hall: what every layer uses and the composition root; the rest lives in rooms by role."""
    loose = sorted(p.name for p in (README.parent / "bot").glob("*.py"))
    assert len(loose) <= 10, loose
