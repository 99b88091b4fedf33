"""Players' words as data: every vocabulary file reads, names only facts the bot knows and sections its
preset's rulebook has, and the words do what they say (a sport's slang, a situation's numbers, a
league's own word)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.league.rulebooks.facts import FACTS
from bot.league.rulebooks.lexicon import (
    COMMON,
    FOLDER,
    SECTIONS,
    Lexicon,
    Vocabulary,
    VocabularyError,
    lexicon_for,
    read_vocabulary,
    stem,
    vocabulary_file,
    vocabulary_for,
)
from bot.league.rulebooks.presets import preset_rulebook
from bot.league.rulebooks.rulebook import parse_rulebook
from bot.league.rulebooks.search import RuleIndex
from bot.league.rules import PRESET_NAMES
from tests.league.rulebooks.test_layouts import ROOT

SPORTS = ("hockey", "soccer")


def index_of(preset: str) -> RuleIndex:
    data = preset_rulebook(preset)
    assert data is not None
    return RuleIndex.build(parse_rulebook(data.decode()), lexicon_for(preset))


def top(index: RuleIndex, question: str, lexicon: Lexicon | None = None) -> str | None:
    hits = index.search(question, limit=1, lexicon=lexicon)
    return hits[0].section.citation if hits else None


@pytest.mark.parametrize("name", [COMMON, *SPORTS, *PRESET_NAMES])
def test_every_vocabulary_file_reads(name: str) -> None:
    text = vocabulary_file(name)
    assert text is not None, f"{FOLDER}/{name}.toml is missing"
    vocabulary = read_vocabulary(text, name)
    assert vocabulary.synonyms or vocabulary.facts or vocabulary.sport
    assert all(len(group) >= 2 for group in vocabulary.synonyms), "a synonym group of one word says nothing"


def test_the_files_are_the_ones_pyproject_ships() -> None:
    shipped = sorted(p.stem for p in (ROOT / "bot" / "league" / "rulebooks" / FOLDER).glob("*.toml"))
    assert shipped == sorted([COMMON, *SPORTS, *PRESET_NAMES, *(f"{p}{SECTIONS}" for p in PRESET_NAMES)])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_each_preset_names_its_sport_and_only_facts_the_bot_knows_of_sections_it_has(preset: str) -> None:
    vocabulary = vocabulary_for(preset)
    assert vocabulary.sport in SPORTS
    index = index_of(preset)
    for citation, facts in vocabulary.facts.items():
        section = index.get(citation)
        assert section is not None, citation
        assert set(facts) <= set(FACTS), (citation, facts)
    for situation in vocabulary.situations:
        assert set(situation.facts) <= set(FACTS), situation


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_players_words_name_sections_the_preset_has_by_their_titles_and_every_section_has_some(preset: str) -> None:
    sections = vocabulary_for(preset).sections
    index = index_of(preset)
    listed = {s.citation: s for s in index.sections if not s.heading_only}
    assert set(sections) == set(listed), "every section, and only the rulebook's, has players' words"
    for citation, said in sections.items():
        assert said.title == listed[citation].title, citation
        assert len(said.words) >= 3 and len(set(said.words)) == len(said.words), citation


@pytest.mark.parametrize(("text", "problem"), [
    ("synonyms = [[1, 2]]", "synonyms[0]: must be a list of words"),
    ("colour = 'red'", "unknown keys ['colour']"),
    ("[[situations]]\nsay = ['no ref']", "situations[0] takes say, and means or facts or both"),
    ("[[situations]]\nsay = ['no ref']\nmeans = []", "situations[0].means: must be a list of words"),
    ("synonyms = [", "test.toml"),
    ("[sections.'1.2']\nwords = ['age']", "sections.1.2 takes a title, words and asks"),
    ("[sections.'1.2']\ntitle = 'Age'\nwords = ['age']\nasks = []", "sections.1.2.asks: must be a list of words"),
])
def test_a_broken_vocabulary_file_is_named_with_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(VocabularyError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        read_vocabulary(text, "test.toml")


def test_a_sport_reads_its_own_slang() -> None:
    """"pk" is a penalty kill in hockey and a penalty kick (a shootout) in indoor soccer."""
    hockey, soccer = lexicon_for("coed-ball-hockey").get(("pk",)), lexicon_for("indoor-soccer").get(("pk",))
    assert hockey is not None and soccer is not None
    assert any(alt.phrase == ("penalti", "kill") for alt in hockey)
    assert not any(alt.phrase == ("penalti", "kill") for alt in soccer)
    assert any(alt.phrase == ("shootout",) for alt in soccer)


@pytest.mark.parametrize(("preset", "question", "citation"), [
    ("coed-ball-hockey", "tendy smothered it at center is that legal", "GOALIES AND BALLS 1"),
    ("coed-ball-hockey", "are clappers allowed", "STICK AND BALL PLAY 2"),
    ("youth-ball-hockey", "ref didnt show who refs", "1.14"),
    ("youth-ball-hockey", "only 2 guys showed up", "2.4"),
    ("indoor-soccer", "can i wear a wedding band", "General"),
    ("coed-ball-hockey", "is body checking allowed", "PROHIBITED ACTIONS"),
    ("youth-ball-hockey", "is body checking allowed", "3.7"),  # "allowed" is not "the goal counted"
    ("coed-ball-hockey", "how do ties in the standings work", "Game Structure 9"),  # co-ed's standings are its seeds
])
def test_players_words_find_the_rule_the_rulebook_words_otherwise(preset: str, question: str, citation: str) -> None:
    assert top(index_of(preset), question) == citation


def test_standings_are_not_the_verb_stand() -> None:
    """"Does the goal stand" asks whether a goal counts, not how ties in the standings are broken."""
    assert stem("standings") != stem("stand")
    index = index_of("youth-ball-hockey")
    assert top(index, "how are ties in the standings broken") == "1.11"
    assert top(index, "does the goal stand if the net came off") != "1.11"


def test_a_situation_names_the_league_numbers_that_answer_it() -> None:
    index = index_of("youth-ball-hockey")
    assert "start" in index.find("we only have 3 players and no goalie").facts
    assert index.find("how long is intermission").facts == ()


def test_a_situation_without_rulebook_words_states_the_numbers_and_leaves_the_search_as_it_was() -> None:
    """Indoor soccer's rulebook leaves points and tiebreakers to the league: a standings question finds no
    section, and the answer still gives the league's numbers."""
    data = preset_rulebook("indoor-soccer")
    assert data is not None
    sections = parse_rulebook(data.decode())
    vocabulary = vocabulary_for("indoor-soccer")
    index = RuleIndex.build(sections, lexicon_for("indoor-soccer"))
    without = RuleIndex.build(sections, Lexicon(dataclasses.replace(
        vocabulary, situations=tuple(s for s in vocabulary.situations if s.means))))
    for question, facts in (("how do ties in the standings work", ("tiebreakers", "points")),
                            ("how many points for a win", ("points",)),
                            ("2 teams same points who finishes higher", ("tiebreakers", "points"))):
        found = index.find(question)
        assert found.facts == facts
        assert [h.section.citation for h in found.hits] == [h.section.citation for h in without.find(question).hits]
        assert without.find(question).facts == ()


def test_a_leagues_own_word_joins_what_it_means_for_that_league_only() -> None:
    index = index_of("indoor-soccer")
    base = index.lexicon
    own = base.with_words([("snowplow", "slide tackle")])
    assert top(index, "can i do a snowplow", own) == "General"
    assert top(index, "can i do a snowplow") != "General"  # the preset's own words don't know it
    assert base.get(("snowplow",)) is None
    assert own.get(("slide", "tackl")) is not None  # and the rulebook's words still read as before
    assert base.with_words([]) is base


def test_typos_are_corrected_against_the_rulebook_and_the_vocabulary() -> None:
    assert top(index_of("youth-ball-hockey"), "is there a trade deadlin") == "1.9"


def test_a_sections_players_words_find_it_only_while_its_title_is_the_presets() -> None:
    """Players' words belong to the preset's section: a league's own rulebook numbering another rule the same
    way doesn't take them."""
    text = ("Section 1\n1.1 - Goalies Goalies may not play the ball forward with their hand.\n"
            "1.2 - Start Games begin at the slotted time.\n")
    sections = parse_rulebook(text)
    listed = [s for s in sections if not s.heading_only]
    second = listed[1]
    said = read_vocabulary(f"[sections.'{second.citation}']\ntitle = '{second.title}'\n"
                           "words = ['how early', 'get there', 'arrival']", "test.toml")
    lexicon = Lexicon(Vocabulary(sections=said.sections))
    assert top(RuleIndex.build(sections, lexicon), "how early should we get there") == second.citation
    renamed = read_vocabulary(f"[sections.'{second.citation}']\ntitle = 'Something else'\n"
                              "words = ['how early', 'get there', 'arrival']", "test.toml")
    assert top(RuleIndex.build(sections, Lexicon(Vocabulary(sections=renamed.sections))),
               "how early should we get there") is None
