"""`/rule` search: finds what a player means on the real rulebooks, and never breaks."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.rulebooks import search
from bot.league.rulebooks.found import Link
from bot.league.rulebooks.lexicon import lexicon_for
from bot.league.rulebooks.rulebook import parse_rulebook
from bot.league.rulebooks.search import RuleIndex
from tests.league.rulebooks.final_check_questions import FINAL_CHECK
from tests.league.rulebooks.fresh_questions import FRESH
from tests.league.rulebooks.held_out_questions import HELD_OUT
from tests.league.rulebooks.more_tuning_questions import MORE_TUNING
from tests.league.rulebooks.rule_questions import (
    GAME_SHAPE,
    QUESTIONS,
    RULEBOOK_DIR,
    RULEBOOK_FILES,
    SECOND_ROUND,
)
from tests.league.rulebooks.tuning_questions import TUNING

HIT_AT_1 = 0.85
HIT_AT_3 = 0.95

SMALL_RULEBOOK = """\
Section 2 - Game Format
2.7 - Offsides A player cannot cross the blue line before the ball enters.
2.8 - Icing There is no-touch icing. The goalie may wave off the icing call.
2.10 - Time-outs Two 30-second time-outs per team per game.
2.13B - Tie in playoff game If a playoff game is tied, both teams play a shoot-out.
Section 3 - Penalties
3.7 - Minor penalties (2-minutes) Served in the penalty box. Includes high sticking.
3.9 - Majors (five minutes) Fighting, spearing and boarding mean ejection.
3.20 - Guests Guest players must be on the roster before the game.
3.21 - Overtime In the playoffs a five minute overtime period is played.
3.22 - Substitutions Substitutions may be made on the fly.
3.23 - Women At least two women must be on the floor, or the team plays short.
3.24 - Referee abuse Abuse of the referee is a game misconduct.
3.25 - Yellow cards A yellow card means two minutes on the bench.
3.26 - Goalkeepers The goalkeeper may not handle a back pass.
3.27 - Power play A team scored upon while short handed brings its player back.
"""


@pytest.fixture(scope="module")
def small() -> RuleIndex:
    return RuleIndex.build(parse_rulebook(SMALL_RULEBOOK))


@pytest.fixture(scope="module")
def real() -> dict[str, RuleIndex]:
    if not RULEBOOK_DIR.is_dir():
        pytest.skip(f"real rulebooks not found at {RULEBOOK_DIR} (../shared exists in CI, not on a user's machine)")
    return {
        preset: RuleIndex.build(parse_rulebook((RULEBOOK_DIR / name).read_text(encoding="utf-8")), lexicon_for(preset))
        for preset, name in RULEBOOK_FILES.items()
    }


def top(index: RuleIndex, query: str) -> str | None:
    hits = index.search(query, limit=1)
    return hits[0].section.citation if hits else None


# --- the question set on the real rulebooks --------------------------------------------------


def test_question_set_is_big_enough_for_every_rulebook() -> None:
    per_rulebook = Counter(preset for preset, _, _ in QUESTIONS)
    assert len(QUESTIONS) >= 60
    assert set(per_rulebook) == set(RULEBOOK_FILES)
    assert min(per_rulebook.values()) >= 20
    every = QUESTIONS + SECOND_ROUND + TUNING + HELD_OUT + MORE_TUNING + FRESH + FINAL_CHECK
    asked = [(p, q.casefold()) for p, q, _ in every]
    assert len(set(asked)) == len(asked)


def test_the_players_questions_are_split_in_halves_for_every_rulebook() -> None:
    """At least 200 questions, half of each rulebook's held out (the split is a seeded shuffle, committed
    before the search was tuned on the other half)."""
    assert len(TUNING) + len(HELD_OUT) >= 200
    tuning, held = Counter(p for p, _, _ in TUNING), Counter(p for p, _, _ in HELD_OUT)
    assert set(tuning) == set(held) == set(RULEBOOK_FILES)
    assert all(abs(tuning[p] - held[p]) <= 1 for p in RULEBOOK_FILES)
    assert not {q for _, q, _ in TUNING} & {q for _, q, _ in HELD_OUT}


def test_every_expected_citation_exists(real: dict[str, RuleIndex]) -> None:
    missing = [(p, c) for p, _, c in QUESTIONS + SECOND_ROUND if real[p].get(c) is None]
    missing += [(p, c) for p, _, accepted in TUNING + HELD_OUT + MORE_TUNING + FRESH + FINAL_CHECK
                for c in accepted if real[p].get(c) is None]
    assert missing == []


def test_players_questions_find_the_right_rule(real: dict[str, RuleIndex]) -> None:
    at_1 = at_3 = 0
    misses = []
    for preset, question, expected in QUESTIONS:
        cited = [hit.section.citation for hit in real[preset].search(question, limit=3)]
        at_1 += cited[:1] == [expected]
        at_3 += expected in cited
        if cited[:1] != [expected]:
            misses.append((question, expected, cited))
    total = len(QUESTIONS)
    assert at_1 / total >= HIT_AT_1, misses
    assert at_3 / total >= HIT_AT_3, misses


def test_questions_about_the_games_shape_find_the_section_first_in_every_rulebook(real: dict[str, RuleIndex]) -> None:
    """How long a game is, its periods or halves, overtime, ties and the playoffs: the
    section that says so comes first, in each rulebook."""
    assert {preset for preset, _, _ in GAME_SHAPE} == set(RULEBOOK_FILES)
    misses = [(preset, question, accepted, top(real[preset], question))
              for preset, question, accepted in GAME_SHAPE if top(real[preset], question) not in accepted]
    assert misses == []
    missing = [(p, c) for p, _, accepted in GAME_SHAPE for c in accepted if real[p].get(c) is None]
    assert missing == []


def test_a_section_titled_by_what_was_asked_comes_before_one_that_mentions_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A rulebook titles a section by what it answers: asked about a tie in the regular season, the
    section titled so comes before the playoff one that says tie, season and overtime in its text."""
    text = ("Section 1 - League\n"
            "1.8 - Schedule The regular season has ten games. Every regular season game is played on Sunday.\n"
            "1.19 - Ties in playoffs A playoff game tied at the end goes to overtime; a tie after overtime goes "
            "to a shoot-out, unlike a regular season game.\n"
            "Section 2 - Game Format\n"
            "2.13 - Tie in regular season game Each team gets one point.\n")
    asked = ("regular season tie", "regular season game tied")
    index = RuleIndex.build(parse_rulebook(text), lexicon_for("youth-ball-hockey"))
    assert [top(index, q) for q in asked] == ["2.13", "2.13"]
    monkeypatch.setattr(search, "TITLE_COVERAGE", 0.0)
    assert [top(RuleIndex.build(parse_rulebook(text), lexicon_for("youth-ball-hockey")), q) for q in asked] \
        == ["1.19", "1.19"]


def test_a_way_of_asking_is_not_looked_for_in_the_rulebook(small: RuleIndex) -> None:
    """"how long" asks for a length: "Long-Term Injury" is no answer to "how long is a game"."""
    index = RuleIndex.build(parse_rulebook("Section 1 - League\n"
                                           "1.16 - Long-Term Injury A player who misses games for a long time "
                                           "is replaced.\n"
                                           "2.5 - Games Games have three 15 minute periods.\n"))
    assert top(index, "how long is a game") == "2.5"


def test_heading_only_sections_are_not_search_results(real: dict[str, RuleIndex]) -> None:
    coed = real["coed-ball-hockey"]
    assert coed.get("GOALIE SAFETY") is not None
    assert all(not hit.section.heading_only for hit in coed.search("goalie safety", limit=10))
    assert all(not s.heading_only for s in coed.suggest("goalie"))


# --- matching ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "citation"),
    [
        ("offside", "2.7"),  # stemming: offsides/offside
        ("icing waved off", "2.8"),
        ("how many timeouts", "2.10"),  # time-outs written with a hyphen
        ("what if its a draw in the playoffs", "2.13B"),  # tie/draw
        ("can i drop the gloves", "3.9"),  # fighting
        ("sin bin", "3.7"),  # penalty box
        ("can we use a ringer", "3.20"),  # guest / roster
        ("how long is ot", "3.21"),
        ("line change", "3.22"),  # substitution
        ("need enuf girls", "3.23"),  # women, chat spelling
        ("yelling at the ref", "3.24"),
        ("what does a card mean", "3.25"),  # yellow card
        ("can the keeper pick it up", "3.26"),  # goalkeeper
        ("they scored on our pk", "3.27"),  # penalty kill / short handed
        ("high stick", "3.7"),
    ],
)
def test_casual_questions_find_the_rule(small: RuleIndex, query: str, citation: str) -> None:
    assert top(small, query) == citation


@pytest.mark.parametrize(
    ("query", "citation"),
    [("ofside", "2.7"), ("suspention overtim", "3.21"), ("goalkeeeper", "3.26")],
)
def test_typos_are_corrected_against_the_rulebook(small: RuleIndex, query: str, citation: str) -> None:
    assert top(small, query) == citation


def test_a_title_outweighs_the_same_word_in_another_rule() -> None:
    index = RuleIndex.build(
        parse_rulebook(
            "1.1 - Equipment Helmets and gloves are required.\n"
            "1.2 - Conduct Players must respect equipment of the arena at all times, "
            "and leave the rink clean.\n"
        )
    )
    assert top(index, "equipment") == "1.1"


def test_a_phrase_found_intact_ranks_above_scattered_words() -> None:
    index = RuleIndex.build(
        parse_rulebook(
            "1.1 - Conduct Serve the penalty in the box by the bench.\n"
            "1.2 - Benches Players serve time in the penalty box.\n"
        )
    )
    assert top(index, "penalty box") == "1.2"


def test_hits_are_best_first_and_limited(small: RuleIndex) -> None:
    hits = small.search("goalie penalty shot overtime game", limit=5)
    assert 1 <= len(hits) <= 5
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len({id(h.section) for h in hits}) == len(hits)
    assert small.search("goalie", limit=0) == []


def test_a_typed_citation_comes_first(small: RuleIndex) -> None:
    assert top(small, "2.13b") == "2.13B"
    assert top(small, "Rule 2.7") == "2.7"


@pytest.mark.parametrize(
    "query",
    ["", "   ", "x" * 500, "shootout " * 60, "!!!???", "\x00\u200b", "🏒🏒🏒", "the the the"],
)
def test_empty_long_or_garbage_queries_do_not_raise(small: RuleIndex, query: str) -> None:
    hits = small.search(query)
    assert isinstance(hits, list)
    assert len(hits) <= 3


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=600))
def test_search_and_suggest_never_raise(query: str) -> None:
    index = _SMALL
    assert len(index.search(query)) <= 3
    assert len(index.suggest(query)) <= 25


_SMALL = RuleIndex.build(parse_rulebook(SMALL_RULEBOOK))


def test_an_empty_rulebook_answers_nothing() -> None:
    index = RuleIndex.build([])
    assert index.search("overtime") == []
    assert index.suggest("2.7") == []
    assert index.get("2.7") is None


# --- lookup and autocomplete -------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["2.13b", "2.13B", " 2.13b ", "rule 2.13B"])
def test_get_is_case_insensitive(small: RuleIndex, typed: str) -> None:
    section = small.get(typed)
    assert section is not None
    assert section.citation == "2.13B"


def test_get_unknown_citation_is_none(small: RuleIndex) -> None:
    assert small.get("9.99") is None
    assert small.get("") is None


def test_suggest_completes_citations_in_order(small: RuleIndex) -> None:
    assert [s.citation for s in small.suggest("2.1")] == ["2.10", "2.13B"]
    assert [s.citation for s in small.suggest("2.7")][:1] == ["2.7"]
    assert [s.citation for s in small.suggest("3.2", limit=3)] == ["3.20", "3.21", "3.22"]


def test_suggest_matches_titles_then_understands_words(small: RuleIndex) -> None:
    assert small.suggest("ic")[0].citation == "2.8"
    assert small.suggest("overtim")[0].citation == "3.21"
    assert small.suggest("drop the gloves")[0].citation == "3.9"


def test_suggest_without_input_lists_sections_in_order(small: RuleIndex) -> None:
    listed = small.suggest("", limit=3)
    assert [s.citation for s in listed] == ["2.7", "2.8", "2.10"]


# --- how sure ---------------------------------------------------------------------------------


def test_a_clear_answer_is_sure(small: RuleIndex) -> None:
    found = small.find("can the keeper pick up a back pass")
    assert found.hits[0].section.citation == "3.26" and found.confidence == "sure"


def test_two_sections_as_good_as_each_other_are_unsure_and_offer_three() -> None:
    index = RuleIndex.build(parse_rulebook(
        "1.1 - Helmets Players wear helmets in games.\n"
        "1.2 - Gloves Players wear gloves in games.\n"
        "1.3 - Shin pads Players wear shin pads in games.\n"
        "1.4 - Overtime Five minutes.\n"))
    found = index.find("what do players wear in games")
    assert found.confidence == "unsure"
    assert {h.section.citation for h in found.hits} == {"1.1", "1.2", "1.3"}


@pytest.mark.parametrize("question", ["zzzqx", "whats for dinner", "the the the"])
def test_nothing_matching_is_no_answer(small: RuleIndex, question: str) -> None:
    assert small.find(question).confidence == "none"


def test_a_typed_citation_is_sure(small: RuleIndex) -> None:
    found = small.find("2.13b")
    assert found.exact and found.confidence == "sure" and found.hits[0].section.citation == "2.13B"


def test_a_linked_question_finds_its_section_first_and_sure(small: RuleIndex) -> None:
    question = "can my dad keep score"
    before = small.find(question)
    assert not before.hits or before.hits[0].section.citation != "3.20"
    links = [Link(small.signature(question), "3.20")]
    found = small.find("can my dad keep the score?", links=links)
    assert found.linked and found.confidence == "sure" and found.hits[0].section.citation == "3.20"
    assert not small.find("how long is overtime", links=links).linked  # a question not like it


def test_a_link_to_a_section_the_rulebook_no_longer_has_is_ignored(small: RuleIndex) -> None:
    question = "can my dad keep score"
    found = small.find(question, links=[Link(small.signature(question), "9.99")])
    assert not found.linked


def test_the_tuning_half_is_found_and_honest_about_it(real: dict[str, RuleIndex]) -> None:
    """The questions the search was tuned on: found, and when it says it is sure it is nearly always right."""
    right = top3 = sure = sure_right = 0
    for preset, question, accepted in TUNING:
        found = real[preset].find(question)
        cited = [h.section.citation for h in found.hits]
        right += bool(cited) and cited[0] in accepted
        top3 += any(c in accepted for c in cited)
        if found.confidence == "sure":
            sure += 1
            sure_right += bool(cited) and cited[0] in accepted
    assert right / len(TUNING) >= 0.85 and top3 / len(TUNING) >= 0.97
    assert sure_right / sure >= 0.93 and sure / len(TUNING) >= 0.6


def test_the_held_out_half_keeps_its_ground(real: dict[str, RuleIndex]) -> None:
    """Never tuned on: bench/rule_lookup.py reports its figures (and never its misses). This only keeps a later
    change from losing the ground it was measured at; no miss is listed, so none gets tuned on."""
    right = top3 = 0
    for preset, question, accepted in HELD_OUT:
        cited = [h.section.citation for h in real[preset].search(question, limit=3)]
        right += bool(cited) and cited[0] in accepted
        top3 += any(c in accepted for c in cited)
    assert (right / len(HELD_OUT) >= 0.85, top3 / len(HELD_OUT) >= 0.95) == (True, True), "see bench/rule_lookup.py"


def test_the_second_tuning_set_is_found(real: dict[str, RuleIndex]) -> None:
    """150 questions written later, from the rulebooks alone and further from their words: tuned on."""
    right = top3 = 0
    for preset, question, accepted in MORE_TUNING:
        cited = [h.section.citation for h in real[preset].search(question, limit=3)]
        right += bool(cited) and cited[0] in accepted
        top3 += any(c in accepted for c in cited)
    assert right / len(MORE_TUNING) >= 0.80 and top3 / len(MORE_TUNING) >= 0.93


@pytest.mark.parametrize(("name", "questions", "at_1", "at_3"), [
    ("fresh", FRESH, 0.85, 0.95), ("final", FINAL_CHECK, 0.80, 0.93)])
def test_the_check_sets_keep_their_ground(real: dict[str, RuleIndex], name: str,
                                          questions: list[tuple[str, str, tuple[str, ...]]],
                                          at_1: float, at_3: float) -> None:
    """Each written by someone who saw neither the search nor the other sets, and never tuned on: as for the
    held-out half, only the ground they were measured at is kept and no miss is listed."""
    right = top3 = 0
    for preset, question, accepted in questions:
        cited = [h.section.citation for h in real[preset].search(question, limit=3)]
        right += bool(cited) and cited[0] in accepted
        top3 += any(c in accepted for c in cited)
    assert (right / len(questions) >= at_1, top3 / len(questions) >= at_3) == (True, True), \
        f"{name}: see bench/rule_lookup.py"
