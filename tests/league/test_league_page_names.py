"""How the public page names players (bot/league/league_page.py): juniors by initials unless chosen otherwise."""

from __future__ import annotations

import pytest

from bot.league.league_page import DEFAULT_NAMES, NAME_CHOICES, initials, page_name


@pytest.mark.parametrize(("name", "shown"), [
    ("Jo Dale", "J. D."), ("junior max", "J. M."), ("Mary-Jane Ödegaard", "M. J. Ö."), ("Cher", "C."),
    ("  Ann   B  ", "A. B."), ("", "?"), ("-", "?"),
])
def test_initials(name: str, shown: str) -> None:
    assert initials(name) == shown


def test_only_managed_players_are_shortened_and_only_by_default_or_when_chosen() -> None:
    assert DEFAULT_NAMES == "initials" and set(NAME_CHOICES) == {"initials", "full"}
    assert page_name("Jo Dale", managed=True, choice=None) == "J. D."
    assert page_name("Jo Dale", managed=True, choice="initials") == "J. D."
    assert page_name("Jo Dale", managed=True, choice="full") == "Jo Dale"
    assert page_name("Alice Hart", managed=False, choice=None) == "Alice Hart"
    assert page_name("Alice Hart", managed=False, choice="initials") == "Alice Hart"
