"""Typed names and mentions to roster players: exact beats partial, and doubt is asked back."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput
from bot.services.name_resolution import Candidate, NamesNotResolved, Token, fold, resolve_names, split_names

ROSTER = (
    Candidate(1, "Alice Hart", 501),
    Candidate(2, "Alan Bell", 502),
    Candidate(3, "Dan Roy", 503),
    Candidate(4, "Jordan Dane", 504),
    Candidate(5, "Zoë Ng", 505),
    Candidate(6, "Hana Kim", 506),
)


def keys(text: str) -> list[int]:
    return [c.key for c in resolve_names(text, ROSTER, where="Hawks's roster")]


def problems(text: str) -> tuple[str, ...]:
    with pytest.raises(NamesNotResolved) as caught:
        resolve_names(text, ROSTER, where="Hawks's roster")
    return caught.value.problems


def test_names_are_split_on_commas_semicolons_and_lines_and_mentions_stand_alone() -> None:
    assert split_names("Alice, Bob; Carl\nDan") == [Token("Alice"), Token("Bob"), Token("Carl"), Token("Dan")]
    assert split_names("<@501> <@!502>") == [Token("<@501>", 501), Token("<@!502>", 502)]
    assert split_names(" ,“Alice Hart” , @Dan ,, ") == [Token("Alice Hart"), Token("Dan")]


def test_fold_ignores_case_accents_and_spacing() -> None:
    assert fold("  ZOË   ng ") == "zoe ng"


def test_full_names_mentions_and_unique_parts_resolve_in_the_order_typed() -> None:
    assert keys("alice hart, <@503>, zoe, kim, Alice Hart") == [1, 3, 5, 6, 1]


def test_a_whole_word_beats_a_partial_match() -> None:
    # "dan" is Dan Roy's first name and only part of "Jordan Dane": no doubt, it's Dan.
    assert keys("Dan") == [3]
    assert keys("Dane") == [4]


def test_an_ambiguous_name_is_asked_back_naming_the_candidates_in_roster_order() -> None:
    assert problems("Al, Dan Roy") == ("“Al” matches Alice Hart and Alan Bell — which one?",)


def test_an_unknown_name_and_an_unknown_mention_are_named() -> None:
    assert problems("Zed, <@999>, Alice") == (
        "“Zed” doesn't match anyone on Hawks's roster.",
        "<@999> doesn't match anyone on Hawks's roster.",
    )


def test_every_problem_is_reported_once_in_one_error() -> None:
    with pytest.raises(NamesNotResolved) as caught:
        resolve_names("a, a, Zed", ROSTER, where="the roster", lead="Nothing was saved:")
    assert caught.value.message.splitlines()[0] == "Nothing was saved:"
    assert len(caught.value.problems) == 2
    assert caught.value.problems[0].startswith("“a” matches Alice Hart, Alan Bell, Dan Roy, Jordan Dane")


def test_more_than_five_candidates_are_summarised() -> None:
    many = [Candidate(i, f"Sam {i}") for i in range(8)]
    with pytest.raises(NamesNotResolved) as caught:
        resolve_names("sam", many, where="the roster")
    assert caught.value.problems == ("“sam” matches Sam 0, Sam 1, Sam 2, Sam 3, Sam 4 and 3 others — which one?",)


def test_an_empty_list_is_refused() -> None:
    with pytest.raises(InvalidInput, match="List the players"):
        resolve_names(" , ;", ROSTER, where="the roster")


def test_typed_text_is_echoed_without_live_mentions() -> None:
    text = "\n".join(problems("@everyone, <@&1001> captains, x @here"))
    assert "<@&1001>" not in text and "@everyone" not in text and "@here" not in text
