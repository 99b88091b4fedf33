"""The typo matcher agrees with rapidfuzz's OSA distance and extractOne, its reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import OSA

from bot.league.typos import closest, osa_distance

# Few letters, so that random words share letters, swap neighbours and come within a few edits.
WORDS = st.text(alphabet="abcde", max_size=9)


@settings(max_examples=600, deadline=None)
@given(WORDS, WORDS, st.integers(min_value=0, max_value=3))
def test_distance_is_osa_within_the_limit(a: str, b: str, limit: int) -> None:
    exact = OSA.distance(a, b)
    assert osa_distance(a, b, limit) == (exact if exact <= limit else limit + 1)


@settings(max_examples=400, deadline=None)
@given(WORDS, st.lists(WORDS, max_size=30), st.integers(min_value=0, max_value=2))
def test_closest_is_extract_one(word: str, candidates: list[str], max_distance: int) -> None:
    match = process.extractOne(word, candidates, scorer=OSA.distance, score_cutoff=max_distance)
    assert closest(word, candidates, max_distance) == (match[0] if match else None)


def test_typos_players_make() -> None:
    words = ["offside", "overtime", "goalie", "goal", "penalty", "shootout", "forfeit"]
    assert closest("offisde", words, 1) == "offside"  # swapped letters: one edit
    assert closest("overtiem", words, 2) == "overtime"
    assert closest("goali", words, 1) == "goalie"  # the first of two at one edit ("goal" is one too)
    assert closest("pnealty", words, 1) == "penalty"
    assert closest("basketball", words, 2) is None
    assert osa_distance("ca", "abc", 3) == 3  # OSA, not Damerau: a swapped pair is not edited again
