"""Find the rulebook section a player means when typing casually into `/rule`.

BM25F over title, heading and body fields of Snowball stems, with a sports-rules lexicon (slang and
synonyms, kept as data in rule_lexicon.py), typo correction against the rulebook's own vocabulary (OSA distance),
compound words (``slap shot``/``slapshot``/``slap-shot``) and a bonus for phrases found intact.
Each thing the player asks about is one "concept" (the word plus its synonyms) scored as a single
BM25 term: its best alternative counts fully and the others a little, so a synonym never outscores
the word the player typed and a rule that says the same thing three ways does not win three times.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import Stemmer  # PyStemmer: Snowball in C (the pure-Python package loads all ~40 languages to use one)

from bot.league.rulebooks.lexicon import (
    ALIASES,
    IRREGULAR_PLURALS,
    PHRASE_FILLERS,
    QUESTION_OPENERS,
    SPELLINGS,
    STOPWORDS,
    SYNONYM_GROUPS,
)
from bot.league.rulebooks.rulebook import Section
from bot.league.typos import closest

SYNONYM_WEIGHT = 0.7
ALIAS_WEIGHT = 0.4
CORRECTION_WEIGHT = 0.85
OTHER_ALTERNATIVES = 0.3
TITLE_WEIGHT = 2.5
HEADING_WEIGHT = 1.0
BODY_WEIGHT = 1.0
K1 = 1.2
B_TITLE = 0.3
B_BODY = 0.75
PHRASE_BONUS = 0.35
COVERAGE_BOOST = 0.5
MAX_QUERY_CHARS = 300
MAX_QUERY_WORDS = 40
MAX_CORRECTED_LENGTH = 24  # longer "words" are noise, not typos

_stemmer = Stemmer.Stemmer("english")
_stem_cache: dict[str, str] = {}
_WORD = re.compile(r"[a-z0-9]+")
_HYPHENATED = re.compile(r"[a-z0-9]+(?:[-‐–][a-z0-9]+)+")


def _stem(word: str) -> str:
    stem = _stem_cache.get(word)
    if stem is None:
        stem = _stemmer.stemWord(IRREGULAR_PLURALS.get(word, word))
        if len(_stem_cache) < 50_000:
            _stem_cache[word] = stem
    return stem


_STOP_STEMS = frozenset(_stem(w) for w in STOPWORDS)


def _normalise(text: str) -> str:
    return text.casefold().replace("’", "'").replace("‘", "'").replace("'", "")


def _words(text: str) -> list[str]:
    return _WORD.findall(_normalise(text))


def _sequence(text: str) -> list[str]:
    """All stems in reading order except fillers: the material phrases are checked against."""
    return [_stem(w) for w in _words(text) if w not in PHRASE_FILLERS]


def _field_terms(text: str) -> list[str]:
    """Stems of a document field: content words plus joined hyphen compounds (shoot-out)."""
    norm = _normalise(text)
    terms = [_stem(w) for w in _WORD.findall(norm) if w not in STOPWORDS]
    terms += [_stem(re.sub(r"[-‐–]", "", c)) for c in _HYPHENATED.findall(norm)]
    return terms


@dataclass(frozen=True, slots=True)
class _Alternative:
    """One way a concept may appear: `terms` looked up in the index, `phrase` kept intact."""

    terms: tuple[str, ...]
    phrase: tuple[str, ...]
    weight: float


def _alternative(phrase: str, weight: float, *, intact: bool = True) -> _Alternative:
    key = _sequence(phrase)
    terms = tuple(s for s in key if s not in _STOP_STEMS) or tuple(key)
    return _Alternative(terms, tuple(key) if intact else terms, weight)


def _build_lexicon() -> dict[tuple[str, ...], tuple[_Alternative, ...]]:
    lexicon: dict[tuple[str, ...], dict[tuple[str, ...], _Alternative]] = defaultdict(dict)

    def add(key: tuple[str, ...], alt: _Alternative) -> None:
        known = lexicon[key].get(alt.phrase)
        if known is None or known.weight < alt.weight:
            lexicon[key][alt.phrase] = alt

    for group in SYNONYM_GROUPS:
        for phrase in group:
            key = tuple(_sequence(phrase))
            for other in group:
                weight = 1.0 if tuple(_sequence(other)) == key else SYNONYM_WEIGHT
                add(key, _alternative(other, weight))
    for phrase, targets in ALIASES.items():
        key = tuple(_sequence(phrase))
        words = _words(phrase)
        if words[0] not in QUESTION_OPENERS and any(w not in STOPWORDS for w in words):
            add(key, _alternative(phrase, 1.0, intact=False))
        for target in targets:
            add(key, _alternative(target, ALIAS_WEIGHT))
    return {key: tuple(sorted(alts.values(), key=lambda a: -a.weight)) for key, alts in lexicon.items()}


_LEXICON = _build_lexicon()
# Lexicon keys that are ways of asking ("how long is game"): their words are no phrase to find intact.
_ASKING = frozenset(tuple(_sequence(p)) for p in ALIASES if _words(p)[0] in QUESTION_OPENERS)
_LEXICON_MAX_LEN = max(len(key) for key in _LEXICON)
_LEXICON_WORDS = frozenset(w for phrases in (*SYNONYM_GROUPS, tuple(ALIASES)) for p in phrases for w in _words(p))
_LEXICON_STEMS = frozenset(_stem(w) for w in _LEXICON_WORDS)


# --- index -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hit:
    """A section that matches a query, with its relevance score (higher is better)."""

    section: Section
    score: float


# A concept is one thing the player asked about, in all the ways a rulebook may say it.
_Concept = tuple[_Alternative, ...]


def _citation_key(text: str) -> str:
    text = " ".join(text.casefold().replace("–", "-").replace("—", "-").split())
    return re.sub(r"^(rule|§)\s*", "", text)


def _idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


class RuleIndex:
    """Search, autocomplete and lookup over one league's rulebook sections."""

    def __init__(self, sections: tuple[Section, ...]) -> None:
        self._sections = sections
        self._by_citation = {_citation_key(s.citation): s for s in sections}
        self._listed = tuple(i for i, s in enumerate(sections) if not s.heading_only)
        self._labels = [_citation_key(f"{s.citation} {s.title}") for s in sections]
        self._label_words = _WordFinder(_words(label) for label in self._labels)
        self._body_words = _WordFinder(_words(s.text) for s in sections)
        self._title_keys = [_citation_key(s.title) for s in sections]
        self._citation_keys = [_citation_key(s.citation) for s in sections]
        # term -> {section index: weighted, length-normalised term frequency}
        self._postings: dict[str, dict[int, float]] = {}
        self._bigrams: list[frozenset[tuple[str, str]]] = [frozenset()] * len(sections)
        self._term_idf: dict[str, float] = {}
        self._vocabulary: dict[str, list[str]] = {}
        self._documents = 1
        self._corrections: dict[str, str | None] = {}
        self._index_fields()

    @property
    def sections(self) -> tuple[Section, ...]:
        return self._sections

    @classmethod
    def build(cls, sections: Iterable[Section]) -> RuleIndex:
        """Index a rulebook's sections once, so a search reads the index, not every section's text."""
        return cls(tuple(sections))

    def _index_fields(self) -> None:
        titles = {s.citation: s.title for s in self._sections}
        searchable = self._listed
        fields: list[tuple[list[str], ...]] = []
        for i in searchable:
            s = self._sections[i]
            heading = titles.get(s.parent, "") if s.parent else ""
            if heading == s.title:
                heading = ""
            fields.append((_field_terms(s.title), _field_terms(heading), _field_terms(s.text)))
            self._bigrams[i] = frozenset(
                pair
                for text in (s.title, heading, s.text)
                for seq in (_sequence(text),)
                for pair in itertools.pairwise(seq)
            )
        # Join neighbours the rulebook also writes as one word (slap shot / slapshot).
        single = {t for f in fields for field in f for t in field}
        prefixes = {t[:k] for t in single for k in range(3, len(t) + 1)}
        fields = [tuple(_with_compounds(field, single, prefixes) for field in f) for f in fields]

        n = max(len(fields), 1)
        avg = [max(sum(len(f[k]) for f in fields) / n, 1.0) for k in range(3)]
        weights = (TITLE_WEIGHT, HEADING_WEIGHT, BODY_WEIGHT)
        bs = (B_TITLE, B_TITLE, B_BODY)
        postings: dict[str, dict[int, float]] = defaultdict(dict)
        for doc, f in zip(searchable, fields, strict=True):
            for k, field in enumerate(f):
                norm = 1 - bs[k] + bs[k] * len(field) / avg[k]
                for term, count in Counter(field).items():
                    postings[term][doc] = postings[term].get(doc, 0.0) + weights[k] * count / norm
        self._postings = dict(postings)
        self._documents = n
        self._term_idf = {t: _idf(n, len(docs)) for t, docs in postings.items()}

        surface: Counter[str] = Counter()
        for i in searchable:
            s = self._sections[i]
            surface.update(w for w in _words(f"{s.title} {s.text}") if len(w) >= 3)
        surface.update({w: 1 for w in _LEXICON_WORDS if len(w) >= 3})
        vocabulary: dict[str, list[str]] = defaultdict(list)
        for word, _ in surface.most_common():
            if word.isalpha():
                vocabulary[word[0]].append(word)
        self._vocabulary = dict(vocabulary)

    # --- lookup ------------------------------------------------------------------------------

    def get(self, citation: str) -> Section | None:
        """The section with this citation ("2.13b", "goalie safety 3", "Rule 2.7"), if any."""
        return self._by_citation.get(_citation_key(citation))

    # --- search ------------------------------------------------------------------------------

    def search(self, query: str, limit: int = 3) -> list[Hit]:
        """Best sections for a casual question, best first; [] when nothing matches."""
        if limit <= 0 or not query or not query.strip():
            return []
        query = query[:MAX_QUERY_CHARS]
        exact = self.get(query.strip())
        if exact is not None and exact.heading_only:
            exact = None
        concepts, phrases = self._analyse(query)
        scores: dict[int, float] = defaultdict(float)
        matched: dict[int, int] = defaultdict(int)
        for concept in concepts:
            for doc, value in self._concept_scores(concept).items():
                scores[doc] += value
                matched[doc] += 1
        total = max(len(concepts), 1)
        for doc in scores:
            bonus = sum(PHRASE_BONUS * self._pair_idf(pair) for pair in phrases if pair in self._bigrams[doc])
            coverage = 1 + COVERAGE_BOOST * (matched[doc] / total) ** 2
            scores[doc] = (scores[doc] + bonus) * coverage
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        hits = [Hit(self._sections[doc], round(score, 4)) for doc, score in ranked[:limit]]
        if exact is not None:
            top = hits[0].score + 1.0 if hits else 1.0
            hits = [Hit(exact, top), *(h for h in hits if h.section is not exact)][:limit]
        return hits

    def _pair_idf(self, pair: tuple[str, str]) -> float:
        values = [self._term_idf.get(t, 0.0) for t in pair if t not in _STOP_STEMS]
        return sum(values) / len(values) if values else 0.0

    def _concept_scores(self, concept: _Concept) -> dict[int, float]:
        """BM25 of the concept as one pseudo-term: synonyms share its document frequency."""
        best: dict[int, float] = defaultdict(float)
        total: dict[int, float] = defaultdict(float)
        for alt in concept:
            for doc, tf in self._alternative_tf(alt).items():
                value = alt.weight * tf * (K1 + 1) / (K1 + tf)
                total[doc] += value
                best[doc] = max(best[doc], value)
        if not total:
            return {}
        # Saturate each way of saying it, then take the best one fully and the others a little:
        # a synonym scores below the word the player typed, however often it occurs.
        idf = _idf(self._documents, len(total))
        return {doc: idf * (best[doc] + OTHER_ALTERNATIVES * (total[doc] - best[doc])) for doc in total}

    def _alternative_tf(self, alt: _Alternative) -> dict[int, float]:
        if len(alt.terms) == 1 and len(alt.phrase) <= 1:
            return self._postings.get(alt.terms[0], {})
        lists = [self._postings.get(term) for term in alt.terms]
        if not all(lists):
            return {}
        docs = set.intersection(*(set(p) for p in lists if p))
        pairs = list(itertools.pairwise(alt.phrase))
        must_be_intact = len(alt.phrase) > len(alt.terms)
        result = {}
        for doc in docs:
            intact = all(pair in self._bigrams[doc] for pair in pairs)
            if intact or not must_be_intact:
                # the phrase occurs about as often as its rarest word; half if scattered
                tf = min(p[doc] for p in lists if p)
                result[doc] = tf if intact else tf / 2
        return result

    def _analyse(self, query: str) -> tuple[list[_Concept], list[tuple[str, str]]]:
        words: list[str] = []
        for word in _words(query)[:MAX_QUERY_WORDS]:
            words.extend(SPELLINGS.get(word, word).split())
        corrected: list[bool] = []
        tokens: list[str] = []
        for word in words:
            if word in PHRASE_FILLERS:
                continue
            fixed = self._correct(word)
            for part in fixed.split():
                tokens.append(part)
                corrected.append(fixed != word)
        stems = [_stem(w) for w in tokens]
        concepts: list[_Concept] = []
        asking: set[int] = set()
        i = 0
        while i < len(tokens):
            step, concept = self._lexicon_match(stems, i)
            if concept is not None and tuple(stems[i : i + step]) in _ASKING:
                asking.update(range(i, i + step))
            if concept is None:
                step, concept = self._compound_match(tokens, stems, i)
            if concept is None and stems[i] not in _STOP_STEMS and tokens[i] not in STOPWORDS:
                concept = (_Alternative((stems[i],), (stems[i],), 1.0),)
            if concept is not None:
                if any(corrected[i : i + step]):
                    concept = tuple(_Alternative(a.terms, a.phrase, a.weight * CORRECTION_WEIGHT) for a in concept)
                concepts.append(concept)
            i += step
        for compound in _HYPHENATED.findall(_normalise(query)):
            stem = _stem(re.sub(r"[-‐–]", "", compound))
            if stem in self._postings:
                concepts.append((_Alternative((stem,), (stem,), 1.0),))
        phrases = [(a, b) for k, (a, b) in enumerate(itertools.pairwise(stems))
                   if (a not in _STOP_STEMS or b not in _STOP_STEMS) and not {k, k + 1} <= asking]
        return concepts, phrases

    def _lexicon_match(self, stems: list[str], i: int) -> tuple[int, _Concept | None]:
        for size in range(min(_LEXICON_MAX_LEN, len(stems) - i), 0, -1):
            alts = _LEXICON.get(tuple(stems[i : i + size]))
            if alts is not None:
                return size, alts
        return 1, None

    def _compound_match(self, tokens: list[str], stems: list[str], i: int) -> tuple[int, _Concept | None]:
        for size in (3, 2):
            if i + size <= len(tokens):
                joined = _stem("".join(tokens[i : i + size]))
                if joined in self._postings:
                    parts = tuple(stems[i : i + size])
                    terms = tuple(s for s in parts if s not in _STOP_STEMS) or parts
                    return size, (
                        _Alternative((joined,), (joined,), 1.0),
                        _Alternative(terms, parts, 1.0),
                    )
        return 1, None

    def _correct(self, word: str) -> str:
        """Fix a typo against the rulebook's words; leave known, short and slang words alone."""
        if (
            not 4 <= len(word) <= MAX_CORRECTED_LENGTH
            or word in STOPWORDS
            or not word.isalpha()
            or _stem(word) in _LEXICON_STEMS
            or _stem(word) in self._postings
        ):
            return word
        if word in self._corrections:
            return self._corrections[word] or word
        fixed = self._split_compound(word) or self._closest(word)
        if len(self._corrections) < 4096:
            self._corrections[word] = fixed
        return fixed or word

    def _closest(self, word: str) -> str | None:
        max_distance = 1 if len(word) < 8 else 2
        candidates = self._vocabulary.get(word[0], [])
        return closest(word, candidates, max_distance)

    def _split_compound(self, word: str) -> str | None:
        """``slapshot`` -> ``slap shot`` when the rulebook has both words."""
        known = self._body_words.words
        for cut in range(3, len(word) - 2):
            if word[:cut] in known and word[cut:] in known:
                return f"{word[:cut]} {word[cut:]}"
        return None

    # --- autocomplete ------------------------------------------------------------------------

    def suggest(self, prefix: str, limit: int = 25) -> list[Section]:
        """Sections for an autocomplete box: citations first ("2.1" -> 2.1, 2.10, ...), then
        titles, then words of the text, then search results for what is typed so far."""
        if limit <= 0:
            return []
        key = _citation_key(prefix[:MAX_QUERY_CHARS])
        if not key:
            return [self._sections[i] for i in self._listed[:limit]]
        typed = _words(key)
        in_label = self._label_words.sections_with(typed)
        in_body = self._body_words.sections_with(typed)
        ranked: list[tuple[int, int]] = []
        in_text: list[int] = []
        for i in self._listed:
            citation = self._citation_keys[i]
            if citation == key:
                ranked.append((0, i))
            elif citation.startswith(key):
                ranked.append((1, i))
            elif self._labels[i].startswith(key) or self._title_keys[i].startswith(key):
                ranked.append((2, i))
            elif i in in_label:
                ranked.append((3, i))
            elif i in in_body:
                in_text.append(i)
        ranked.sort()
        result = [self._sections[i] for _, i in ranked[:limit]]
        # Then what a search understands (synonyms, typos), then sections merely using the word.
        if len(result) < limit and any(ch.isalpha() for ch in key):
            for hit in self.search(prefix, limit=limit):
                if all(hit.section is not s for s in result):
                    result.append(hit.section)
        for i in in_text:
            if len(result) >= limit:
                break
            if all(self._sections[i] is not s for s in result):
                result.append(self._sections[i])
        return result[:limit]


class _WordFinder:
    """Which sections use all the typed words, the last one possibly half-typed."""

    def __init__(self, per_section: Iterable[Iterable[str]]) -> None:
        self._sections: dict[str, set[int]] = defaultdict(set)
        for i, words in enumerate(per_section):
            for word in words:
                self._sections[word].add(i)
        self._sorted = sorted(self._sections)
        self.words = frozenset(self._sections)

    def sections_with(self, typed: Sequence[str]) -> set[int]:
        if not typed:
            return set()
        *complete, last = typed
        start = bisect.bisect_left(self._sorted, last)
        found: set[int] = set()
        for word in itertools.islice(self._sorted, start, None):
            if not word.startswith(last):
                break
            found |= self._sections[word]
        for word in complete:
            found &= self._sections.get(word, set())
        return found


def _with_compounds(terms: list[str], known: set[str], prefixes: set[str]) -> list[str]:
    """`terms` are stems; add the joined form of neighbours that the rulebook also uses."""
    extra = []
    for a, b in itertools.pairwise(terms):
        if (a + b)[: len(a) + 2] not in prefixes:
            continue  # cheap filter: stemming every pair is the slow part of building
        joined = _stem(a + b)
        if joined in known and joined not in (a, b):
            extra.append(joined)
    return terms + extra
