"""How players say what a rulebook says: the vocabulary `/rule` search expands questions with.

The words themselves are data, beside the presets (bot/league/rulebooks/vocabulary/*.toml): the words
of every game (common.toml), of a sport (hockey.toml, soccer.toml) and of a preset's rulebook
(<preset>.toml). A league adds its own (stored per league, ``Lexicon.with_words``). What stays here is
English itself: the words no rulebook is searched for (stopwords), and how text becomes stems.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import Stemmer  # PyStemmer: Snowball in C (the pure-Python package loads all ~40 languages to use one)

from bot.league.rules import PRESET_NAMES

#: The folder of package data (declared in pyproject.toml) holding the vocabulary files.
FOLDER = "vocabulary"
COMMON = "common"
#: A preset's players' words per section live in "<preset>.sections.toml" beside its own file.
SECTIONS = ".sections"
SYNONYM_WEIGHT = 0.7
ALIAS_WEIGHT = 0.4
#: A situation's rulebook words stand for the whole of what was asked, so they count as if typed.
SITUATION_WEIGHT = 1.0
#: Stands for any number in a situation ("only # players" is "only 3 players" and "only four players").
NUMBER = "#"


def _word_set(text: str) -> frozenset[str]:
    """A set of words written as one block of text (easier to read and edit than a list)."""
    return frozenset(text.split())


# An alias that opens with one of these is a way of asking ("how long", "what happens in tie"): its
# own words are not looked for in the rulebook, only what it points to ("long" found "Long-Term
# Injury" for "how long is a game").
QUESTION_OPENERS = frozenset({"how", "what", "is", "are", "can", "does", "do"})

STOPWORDS = _word_set(
    """
    a about above after again all also am an and any anyone anything are as at be because been
    being both but by can could did do does doing during each either else enough ever every for
    from get gets getting got had has have having he her here hers him his how i if in into is
    it its just know let like many may me might mine more most much must my need needs no nor
    not now of often ok okay on once only or other our ours please really said say says she
    should so some still such than that the their theirs them then there these they thing things
    this those though through to too u um under until us very want was we well were what
    whatever when where whether which while who whom whose why will with would yeah yes yet you
    your yours happen happens happened going kind people someone somebody rule rules up off per
    take takes taking took go goes went come comes came make makes made use uses used using
    tonight today yesterday actually basically literally pretty lol hey hi hello thanks thank thx
    question quick wondering wonder rulebook guess supposed anyway sure
    """
)
# Words dropped before matching vocabulary phrases ("drop the gloves" == "drop my gloves").
PHRASE_FILLERS = _word_set(
    """
    a an the my our your his her their its this that
    """
)
# Plurals the Snowball stemmer leaves apart from their singular.
# fmt: off
IRREGULAR_PLURALS: dict[str, str] = {
    "women": "woman", "men": "man", "feet": "foot", "halves": "half", "teeth": "tooth",
    "children": "child", "people": "person", "knives": "knife", "wives": "wife",
}
#: Words whose stem is another word players use: "standings" would be "stand" ("does the goal stand").
OWN_STEMS = frozenset({"standings"})
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
# fmt: on
#: "3" and "three" are one number: a question says 3 minors where the rulebook says three.
SPELLED_NUMBERS = {**{str(n): word for n, word in enumerate(NUMBER_WORDS)},
                   **{word: str(n) for n, word in enumerate(NUMBER_WORDS)}}

# --- text to stems ---------------------------------------------------------------------------

_stemmer = Stemmer.Stemmer("english")
_stem_cache: dict[str, str] = {}
WORD = re.compile(r"[a-z0-9]+")
HYPHENATED = re.compile(r"[a-z0-9]+(?:[-‐–][a-z0-9]+)+")


def stem(word: str) -> str:
    found = _stem_cache.get(word)
    if found is None:
        found = word if word in OWN_STEMS else _stemmer.stemWord(IRREGULAR_PLURALS.get(word, word))
        if len(_stem_cache) < 50_000:
            _stem_cache[word] = found
    return found


STOP_STEMS = frozenset(stem(w) for w in STOPWORDS)


def normalise(text: str) -> str:
    return text.casefold().replace("’", "'").replace("‘", "'").replace("'", "")


def words(text: str) -> list[str]:
    return WORD.findall(normalise(text))


def is_number(word: str) -> bool:
    return word.isdigit() or word in SPELLED_NUMBERS


def sequence(text: str) -> list[str]:
    """All stems in reading order except fillers: the material phrases are checked against."""
    return [stem(w) for w in words(text) if w not in PHRASE_FILLERS]


def _phrase_key(phrase: str) -> tuple[str, ...]:
    """A vocabulary phrase as the stems a question must show, "#" standing for any number."""
    key: list[str] = []
    for piece in phrase.split():
        key.extend([NUMBER] if piece == NUMBER else sequence(piece))
    return tuple(key)


def field_terms(text: str) -> list[str]:
    """Stems of a document field: content words plus joined hyphen compounds (shoot-out)."""
    norm = normalise(text)
    terms = [stem(w) for w in WORD.findall(norm) if w not in STOPWORDS]
    terms += [stem(re.sub(r"[-‐–]", "", c)) for c in HYPHENATED.findall(norm)]
    return terms


def with_compounds(terms: list[str], known: set[str], prefixes: set[str]) -> list[str]:
    """`terms` are stems; add the joined form of neighbours that the rulebook also uses."""
    extra = []
    for a, b in itertools.pairwise(terms):
        if (a + b)[: len(a) + 2] not in prefixes:
            continue  # cheap filter: stemming every pair is the slow part of building
        joined = stem(a + b)
        if joined in known and joined not in (a, b):
            extra.append(joined)
    return terms + extra


# --- the vocabulary as written ---------------------------------------------------------------


@dataclass(frozen=True)
class Situation:
    """A game situation in players' words, the rulebook's words for it, and the league's numbers
    that answer it (names of facts, bot/league/rulebooks/facts.py). Without ``means`` the search reads
    its words as they are and the facts are stated whatever section it finds: for what a rulebook leaves
    to the league's settings (points for a win)."""

    say: tuple[str, ...]
    means: tuple[str, ...]
    facts: tuple[str, ...] = ()


@dataclass(frozen=True)
class SectionWords:
    """What players type when they mean one section of a preset's rulebook, beyond the section's own words.
    Kept with the section's title: a league's own rulebook that numbers another rule the same way doesn't
    take them."""

    title: str
    words: tuple[str, ...]
    asks: tuple[str, ...] = ()  # questions as players type them when this section is the answer


@dataclass(frozen=True)
class Vocabulary:
    """The words of one preset's rulebook: its own file's, its sport's and every game's."""

    sport: str = ""
    spellings: Mapping[str, str] = field(default_factory=dict)
    synonyms: tuple[tuple[str, ...], ...] = ()
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    situations: tuple[Situation, ...] = ()
    # section citation -> the facts it states (the preset's own rulebook only)
    facts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # section citation -> players' words for it (the preset's own rulebook only)
    sections: Mapping[str, SectionWords] = field(default_factory=dict)


class VocabularyError(ValueError):
    """A vocabulary file that doesn't read as one (tests/league/rulebooks/test_vocabulary.py reads them all)."""


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise VocabularyError(f"{where}: must be a list of words")
    return tuple(v.strip() for v in value)


def read_vocabulary(text: str, name: str) -> Vocabulary:
    """One vocabulary file's words; VocabularyError names what is wrong."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VocabularyError(f"{name}: {exc}") from None
    unknown = set(raw) - {"sport", "synonyms", "spellings", "aliases", "situations", "facts", "sections"}
    if unknown:
        raise VocabularyError(f"{name}: unknown keys {sorted(unknown)}")
    spellings = raw.get("spellings", {})
    if not all(isinstance(v, str) for v in spellings.values()):
        raise VocabularyError(f"{name}: spellings must map a word to words")
    situations = []
    for i, s in enumerate(raw.get("situations", [])):
        if not isinstance(s, dict) or set(s) - {"say", "means", "facts"} or not {"means", "facts"} & set(s):
            raise VocabularyError(f"{name}: situations[{i}] takes say, and means or facts or both")
        situations.append(Situation(_strings(s.get("say"), f"{name}: situations[{i}].say"),
                                    _strings(s["means"], f"{name}: situations[{i}].means") if "means" in s else (),
                                    _strings(s["facts"], f"{name}: situations[{i}].facts") if "facts" in s else ()))
    sections = {}
    for citation, s in raw.get("sections", {}).items():
        if not isinstance(s, dict) or not {"title", "words"} <= set(s) <= {"title", "words", "asks"} \
                or not isinstance(s["title"], str):
            raise VocabularyError(f"{name}: sections.{citation} takes a title, words and asks")
        sections[citation] = SectionWords(
            s["title"].strip(), _strings(s["words"], f"{name}: sections.{citation}.words"),
            _strings(s["asks"], f"{name}: sections.{citation}.asks") if "asks" in s else ())
    return Vocabulary(
        sport=str(raw.get("sport", "")),
        spellings={k.casefold(): v.casefold() for k, v in spellings.items()},
        synonyms=tuple(_strings(g, f"{name}: synonyms[{i}]") for i, g in enumerate(raw.get("synonyms", []))),
        aliases={k: _strings(v, f"{name}: aliases.{k}") for k, v in raw.get("aliases", {}).items()},
        situations=tuple(situations),
        facts={k: _strings(v, f"{name}: facts.{k}") for k, v in raw.get("facts", {}).items()},
        sections=sections,
    )


def vocabulary_file(name: str) -> str | None:
    """A vocabulary file's text as shipped, or None when there is no such file."""
    found = resources.files("bot.league.rulebooks").joinpath(FOLDER, f"{name}.toml")
    return found.read_text(encoding="utf-8") if found.is_file() else None


def combine(parts: Sequence[Vocabulary]) -> Vocabulary:
    """Several files' words as one: later files add to earlier ones (a spelling or alias they repeat wins)."""
    return Vocabulary(
        sport=next((p.sport for p in reversed(parts) if p.sport), ""),
        spellings={k: v for p in parts for k, v in p.spellings.items()},
        synonyms=tuple(g for p in parts for g in p.synonyms),
        aliases={k: v for p in parts for k, v in p.aliases.items()},
        situations=tuple(s for p in parts for s in p.situations),
        facts={k: v for p in parts for k, v in p.facts.items()},
        sections={k: v for p in parts for k, v in p.sections.items()},
    )


@cache
def vocabulary_for(preset: str | None) -> Vocabulary:
    """A preset's words: every game's, its sport's and its own. None (a rulebook of no known preset):
    every game's and every sport's."""
    def read(name: str) -> Vocabulary:
        text = vocabulary_file(name)
        return read_vocabulary(text, f"{name}.toml") if text is not None else Vocabulary()

    common = read(COMMON)
    if preset is None:
        sports = sorted({read(name).sport for name in PRESET_NAMES} - {""})
        return combine([common, *(read(s) for s in sports)])
    own = read(preset)
    return combine([common, *([read(own.sport)] if own.sport else []), own, read(f"{preset}{SECTIONS}")])


# --- the vocabulary as the search reads it ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way a concept may appear: `terms` looked up in the index, `phrase` kept intact."""

    terms: tuple[str, ...]
    phrase: tuple[str, ...]
    weight: float


def alternative(phrase: str, weight: float, *, intact: bool = True) -> Alternative:
    key = _phrase_key(phrase)
    terms = tuple(s for s in key if s not in STOP_STEMS) or tuple(key)
    return Alternative(terms, tuple(key) if intact else terms, weight)


Key = tuple[str, ...]


def _asks(phrase: str) -> bool:
    """A way of asking ("how long is game"), not a thing asked about."""
    said = words(phrase)
    return bool(said) and said[0] in QUESTION_OPENERS
# A concept is one thing the player asked about, in all the ways a rulebook may say it.
Concept = tuple[Alternative, ...]


def _compile(synonyms: Iterable[Sequence[str]], aliases: Mapping[str, Sequence[str]],
             situations: Iterable[Situation] = ()) -> dict[Key, Concept]:
    entries: dict[Key, dict[Key, Alternative]] = defaultdict(dict)

    def add(key: Key, alt: Alternative) -> None:
        known = entries[key].get(alt.phrase)
        if known is None or known.weight < alt.weight:
            entries[key][alt.phrase] = alt

    for group in synonyms:
        keyed = [(_phrase_key(phrase), phrase) for phrase in group]
        alts = [alternative(phrase, SYNONYM_WEIGHT) for phrase in group]
        for key, phrase in keyed:
            for alt in alts:
                add(key, alt)
            add(key, alternative(phrase, 1.0))
    for phrase, targets in aliases.items():
        key = _phrase_key(phrase)
        said = words(phrase)
        if not _asks(phrase) and NUMBER not in phrase.split() and any(w not in STOPWORDS for w in said):
            add(key, alternative(phrase, 1.0, intact=False))
        for target in targets:
            add(key, alternative(target, ALIAS_WEIGHT))
    for situation in situations:
        for phrase in situation.say:
            for target in situation.means:
                add(_phrase_key(phrase), alternative(target, SITUATION_WEIGHT))
    return {key: tuple(sorted(alts.values(), key=lambda a: -a.weight)) for key, alts in entries.items() if key}


_serials = itertools.count(1)


class Lexicon:
    """A vocabulary compiled for the search: phrase stems -> the concept they stand for.

    A league's own words are a small layer over its preset's lexicon (``with_words``), so a thousand
    leagues share one compiled vocabulary per preset."""

    def __init__(self, vocabulary: Vocabulary, *, base: Lexicon | None = None,
                 extra: Iterable[Sequence[str]] = ()) -> None:
        self.vocabulary = vocabulary
        self.base = base
        #: Names the compiled preset vocabulary (a league's layer shares its base's): what typo corrections
        #: were made against, so an index caches them per vocabulary.
        self.serial: int = next(_serials) if base is None else base.serial
        groups = [tuple(g) for g in extra]
        said: list[str] = [p for g in groups for p in g]
        self._asking: frozenset[Key] = frozenset()
        self._facts: dict[str, list[tuple[Key, tuple[str, ...]]]] = defaultdict(list)  # by the phrase's first stem
        if base is None:
            self._entries = _compile(vocabulary.synonyms, vocabulary.aliases, vocabulary.situations)
            self.spellings: Mapping[str, str] = vocabulary.spellings
            for situation in vocabulary.situations:
                for key in (_phrase_key(phrase) for phrase in situation.say):
                    if key and situation.facts:
                        self._facts[key[0]].append((key, situation.facts))
            self._asking = frozenset(_phrase_key(p) for p in vocabulary.aliases if _asks(p))
            said += [p for g in vocabulary.synonyms for p in g] + [*vocabulary.aliases]
            said += [s for sit in vocabulary.situations for s in sit.say]
            said += [w for section in vocabulary.sections.values() for w in section.words]
        else:
            self._entries = self._layer(base, groups)
            # A league's one-word word is read as what it means before anything else, as a chat spelling
            # is ("break my lumber" is "break my stick"); a longer one joins what it means as a synonym.
            self.spellings = {**base.spellings, **{words(g[0])[0]: " ".join(words(g[1])) for g in groups
                                                   if len(words(g[0])) == 1 and words(g[1])}}
        self._words = frozenset(w for p in said for w in words(p))
        self._stems = frozenset(stem(w) for w in self._words)
        self._by_letter: dict[str, list[str]] | None = None
        self.max_length: int = max([len(k) for k in self._entries] + [base.max_length if base else 1])

    @staticmethod
    def _layer(base: Lexicon, groups: list[tuple[str, ...]]) -> dict[Key, Concept]:
        """A league's words: each group joins the concepts its words already stand for."""
        layer: dict[Key, dict[Key, Alternative]] = {}
        for group in groups:
            keys = [_phrase_key(p) for p in group]
            merged: dict[Key, Alternative] = {}
            for key in keys:
                for alt in base.get(key) or ():
                    merged.setdefault(alt.phrase, Alternative(alt.terms, alt.phrase, min(alt.weight, SYNONYM_WEIGHT)))
            for phrase in group:
                alt = alternative(phrase, SYNONYM_WEIGHT)
                merged[alt.phrase] = alt
            for phrase, key in zip(group, keys, strict=True):
                own = layer.setdefault(key, {})
                own.update(merged)
                exact = alternative(phrase, 1.0)
                own[exact.phrase] = exact
        return {key: tuple(sorted(alts.values(), key=lambda a: -a.weight)) for key, alts in layer.items() if key}

    def with_words(self, groups: Iterable[Sequence[str]]) -> Lexicon:
        """This lexicon with a league's own words: pairs of (the league's word, what the rulebook calls it)."""
        groups = [tuple(g) for g in groups if len(g) >= 2]
        return Lexicon(self.vocabulary, base=self, extra=groups) if groups else self

    def get(self, key: Key) -> Concept | None:
        found = self._entries.get(key)
        if found is None and self.base is not None:
            return self.base.get(key)
        return found

    def asking(self, key: Key) -> bool:
        """A way of asking ("how long is game"): its words are not looked for in the rulebook."""
        return key in self._asking or (self.base is not None and self.base.asking(key))

    def facts(self, stems: Sequence[str], shapes: Sequence[str]) -> tuple[str, ...]:
        """The league's numbers that answer the situations a question names anywhere in it, in the order
        it names them (``shapes``: its stems with "#" for each number)."""
        if self.base is not None:  # a league's own words name no situations
            return self.base.facts(stems, shapes)
        found: list[str] = []
        for i, (word, shape) in enumerate(zip(stems, shapes, strict=True)):
            for key, names in [*self._facts.get(word, ()), *(self._facts.get(shape, ()) if shape != word else ())]:
                if key in (tuple(stems[i : i + len(key)]), tuple(shapes[i : i + len(key)])):
                    found.extend(n for n in names if n not in found)
        return tuple(found)

    def section_words(self, citation: str, title: str) -> SectionWords | None:
        """Players' words for the preset's section with this citation, if ``title`` is still its title."""
        found = self.vocabulary.sections.get(citation)
        return found if found is not None and found.title.casefold() == title.strip().casefold() else None

    def knows_stem(self, value: str) -> bool:
        return value in self._stems or (self.base is not None and self.base.knows_stem(value))

    def candidates(self, letter: str) -> list[str]:
        """The vocabulary's words (3 letters or more) starting with this letter: what a typo may be."""
        if self._by_letter is None:
            by_letter: dict[str, list[str]] = defaultdict(list)
            for word in sorted(self._words):
                if len(word) >= 3 and word.isalpha():
                    by_letter[word[0]].append(word)
            self._by_letter = dict(by_letter)
        own = self._by_letter.get(letter, [])
        return [*own, *self.base.candidates(letter)] if self.base is not None else own


@cache
def lexicon_for(preset: str | None) -> Lexicon:
    """A preset's compiled lexicon, built once per process and shared by its leagues."""
    return Lexicon(vocabulary_for(preset))
