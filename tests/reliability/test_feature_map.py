"""The README's map of where each feature lives is the tree's (tests/reliability/feature_map.py)."""

from __future__ import annotations

from tests.reliability.feature_map import README, problems, readme_map, whole


def test_every_module_of_every_layer_belongs_to_one_feature_and_each_listed_one_exists() -> None:
    assert problems() == []


def test_the_readme_map_is_the_one_made_from_the_tree() -> None:
    assert readme_map(README.read_text()) == whole(), \
        "README.md's feature map is out of date: run python -m tests.reliability.feature_map --write"
