"""Find the rulebook section a player means when typing casually into `/rule`.

BM25F over title, heading and body fields of Snowball stems, with the players' vocabulary of the
league's preset (slang, synonyms, situations: bot/league/rulebooks/vocabulary/, read by lexicon.py)
and the league's own words, typo correction against the rulebook's own vocabulary (OSA distance),
compound words (``slap shot``/``slapshot``/``slap-shot``), a bonus for phrases found intact and one for a
section whose own title names what was asked (a rulebook titles a section by what it answers).
Each thing the player asks about is one "concept" (the word plus its synonyms) scored as a single
BM25 term: its best alternative counts fully and the others a little, so a synonym never outscores
the word the player typed and a rule that says the same thing three ways does not win three times.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.league.rulebooks.found import Found, Hit, Link
from bot.league.rulebooks.lexicon import (
    HYPHENATED,
    NUMBER,
    PHRASE_FILLERS,
    SPELLED_NUMBERS,
    STOP_STEMS,
    STOPWORDS,
    SYNONYM_WEIGHT,
    Alternative,
    Concept,
    Lexicon,
    field_terms,
    is_number,
    lexicon_for,
    normalise,
    sequence,
    stem,
    with_compounds,
    words,
)
from bot.league.rulebooks.rulebook import MAX_QUERY_CHARS, Section
from bot.league.rulebooks.suggest import Labels, citation_key
from bot.league.typos import closest

CORRECTION_WEIGHT = 0.85
OTHER_ALTERNATIVES = 0.3
TITLE_WEIGHT = 2.5
HEADING_WEIGHT = 1.0
BODY_WEIGHT = 1.0
#: Players' words for a section (bot/league/rulebooks/vocabulary/<preset>.sections.toml): how people name
#: what it governs, weighed as a synonym of its own words.
PLAYERS_WEIGHT = 0.3
K1 = 1.2
B_TITLE = 0.3
B_BODY = 0.75
B_PLAYERS = 0.5
PHRASE_BONUS = 0.35
#: How much a section gains when the things asked about stand together in one of its sentences or list
#: items (a long list of penalties names "ball" in one item and "player" in another).
TOGETHER_BOOST = 0.25
#: Word pairs, and each section's set of them, shared by every index in the process: a thousand leagues'
#: rulebooks repeat the same few thousand pairs and, but for their house rules, the same sections.
_PAIRS: dict[tuple[str, str], tuple[str, str]] = {}
_SECTION_PAIRS: dict[frozenset[tuple[str, str]], frozenset[tuple[str, str]]] = {}
_PASSAGE_BREAK = re.compile(r"\n|(?<=[.;!?])\s+")
COVERAGE_BOOST = 0.5
#: How much a section gains when its own title names what was asked (its share of the concepts, squared).
TITLE_COVERAGE = 0.8
MAX_QUERY_WORDS = 40
MAX_CORRECTED_LENGTH = 24  # longer "words" are noise, not typos
#: A question shares at least this part of its words with a linked one (Jaccard) to take its section.
LINK_LIKENESS = 0.75
# --- index -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Analysis:
    concepts: list[Concept]
    phrases: list[tuple[str, str]]
    facts: tuple[str, ...]
    signature: frozenset[str]


def _idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


class RuleIndex:
    """Search, autocomplete and lookup over one league's rulebook sections."""

    def __init__(self, sections: tuple[Section, ...], lexicon: Lexicon | None = None) -> None:
        self._sections = sections
        self._lexicon = lexicon if lexicon is not None else lexicon_for(None)
        self._by_citation = {citation_key(s.citation): s for s in sections}
        self._listed = tuple(i for i, s in enumerate(sections) if not s.heading_only)
        self._labels = Labels(sections, self._listed)
        # term -> {section index: weighted, length-normalised term frequency}
        self._postings: dict[str, dict[int, float]] = {}
        self._bigrams: list[frozenset[tuple[str, str]]] = [frozenset()] * len(sections)
        self._titled: dict[str, frozenset[int]] = {}  # term -> sections whose own title says it
        self._term_idf: dict[str, float] = {}
        self._vocabulary: dict[str, list[str]] = {}
        self._documents = 1
        self._passages: dict[str, tuple[int, ...]] = {}
        self._passage_doc: list[int] = []
        self._corrections: dict[tuple[int, str], str | None] = {}
        self._index_fields()

    @property
    def sections(self) -> tuple[Section, ...]:
        return self._sections

    @property
    def lexicon(self) -> Lexicon:
        """The vocabulary a search reads unless it is given a league's own."""
        return self._lexicon

    @classmethod
    def build(cls, sections: Iterable[Section], lexicon: Lexicon | None = None) -> RuleIndex:
        """Index a rulebook's sections once, so a search reads the index, not every section's text.
        ``lexicon``: the preset's vocabulary (default: every sport's)."""
        return cls(tuple(sections), lexicon)

    def _index_fields(self) -> None:
        titles = {s.citation: s.title for s in self._sections}
        searchable = self._listed
        fields: list[tuple[list[str], ...]] = []
        # Sentences and list items, each with its section's title and heading: term -> passages using it.
        passages: dict[str, set[int]] = defaultdict(set)
        titled: dict[str, set[int]] = defaultdict(set)
        self._passage_doc = []
        own_words: list[str] = []  # each section's players' words, for the typo vocabulary below
        for i in searchable:
            s = self._sections[i]
            heading = titles.get(s.parent, "") if s.parent else ""
            title = s.title
            if heading == title:
                # A bullet's title is its heading's: it says what part of the rulebook the bullet is in,
                # not what the bullet says, so it weighs as a heading (its siblings all share it).
                title = "" if s.kind in ("bullet", "paragraph") else title
                heading = heading if not title else ""
            title_terms, heading_terms = field_terms(title), field_terms(heading)
            known = self._lexicon.section_words(s.citation, s.title)
            said = (*known.words, *known.asks) if known is not None else ()
            own_words.append(" ".join(known.words) if known is not None else "")  # not the asks: they may carry typos
            body: list[str] = []
            for piece in _PASSAGE_BREAK.split(s.text):
                terms = field_terms(piece)
                if terms:
                    body += terms
                    self._add_passage(passages, i, (*terms, *title_terms, *heading_terms))
            players = [t for phrase in said for t in field_terms(phrase)]
            if players:  # the players' words together are one more passage of the section
                self._add_passage(passages, i, (*players, *title_terms, *heading_terms))
            fields.append((title_terms, heading_terms, body, players))
            # A bullet names what it answers by its heading's title (its siblings' too).
            for term in (title_terms if title else field_terms(s.title)):
                titled[term].add(i)
            pairs = frozenset(
                _PAIRS.setdefault(pair, pair)
                for text in (s.title, heading, s.text, *said)
                for seq in (sequence(text),)
                for pair in itertools.pairwise(seq)
            )
            self._bigrams[i] = _SECTION_PAIRS.setdefault(pairs, pairs)
        # Join neighbours the rulebook also writes as one word (slap shot / slapshot).
        single = {t for f in fields for field in f for t in field}
        prefixes = {t[:k] for t in single for k in range(3, len(t) + 1)}
        fields = [tuple(with_compounds(field, single, prefixes) for field in f) for f in fields]

        n = max(len(fields), 1)
        avg = [max(sum(len(f[k]) for f in fields) / n, 1.0) for k in range(4)]
        weights = (TITLE_WEIGHT, HEADING_WEIGHT, BODY_WEIGHT, PLAYERS_WEIGHT)
        bs = (B_TITLE, B_TITLE, B_BODY, B_PLAYERS)
        postings: dict[str, dict[int, float]] = defaultdict(dict)
        for doc, f in zip(searchable, fields, strict=True):
            for k, field in enumerate(f):
                norm = 1 - bs[k] + bs[k] * len(field) / avg[k]
                for term, count in Counter(field).items():
                    postings[term][doc] = postings[term].get(doc, 0.0) + weights[k] * count / norm
        self._postings = dict(postings)
        self._documents = n
        self._term_idf = {t: _idf(n, len(docs)) for t, docs in postings.items()}

        self._passages = {t: tuple(sorted(p)) for t, p in passages.items()}
        self._titled = {t: frozenset(d) for t, d in titled.items()}

        surface: Counter[str] = Counter()
        for i, own in zip(searchable, own_words, strict=True):
            s = self._sections[i]
            surface.update(w for w in words(f"{s.title} {s.text} {own}") if len(w) >= 3)
        vocabulary: dict[str, list[str]] = defaultdict(list)
        for word, _ in surface.most_common():
            if word.isalpha():
                vocabulary[word[0]].append(word)
        self._vocabulary = dict(vocabulary)

    def _add_passage(self, passages: dict[str, set[int]], doc: int, terms: Iterable[str]) -> None:
        number = len(self._passage_doc)
        self._passage_doc.append(doc)
        for term in terms:
            passages[term].add(number)

    # --- lookup ------------------------------------------------------------------------------

    def get(self, citation: str) -> Section | None:
        """The section with this citation ("2.13b", "goalie safety 3", "Rule 2.7"), if any."""
        return self._by_citation.get(citation_key(citation))

    # --- search ------------------------------------------------------------------------------

    def search(self, query: str, limit: int = 3, lexicon: Lexicon | None = None) -> list[Hit]:
        """Best sections for a casual question, best first; [] when nothing matches."""
        return list(self.find(query, limit, lexicon).hits)

    def find(self, query: str, limit: int = 3, lexicon: Lexicon | None = None,
             links: Sequence[Link] = ()) -> Found:
        """Best sections for a casual question with how sure the search is; no hits when nothing matches.
        ``lexicon``: the league's words (default: the index's); ``links``: the league's linked questions."""
        if limit <= 0 or not query or not query.strip():
            return Found(())
        lex = lexicon if lexicon is not None else self._lexicon
        query = query[:MAX_QUERY_CHARS]
        exact = self.get(query.strip())
        if exact is not None and exact.heading_only:
            exact = None
        analysis = self._analyse(query, lex)
        concepts, phrases = analysis.concepts, analysis.phrases
        scores: dict[int, float] = defaultdict(float)
        matched: dict[int, int] = defaultdict(int)
        ideal = 0.0
        titled: Counter[int] = Counter()
        for concept in concepts:
            values = self._concept_scores(concept)
            ideal += max(values.values(), default=0.0)
            for doc, value in values.items():
                scores[doc] += value
                matched[doc] += 1
            titled.update(self._named(concept))
        total = max(len(concepts), 1)
        together = self._together(concepts) if len(concepts) > 1 else {}
        for doc in scores:
            bonus = sum(PHRASE_BONUS * self._pair_idf(pair) for pair in phrases if pair in self._bigrams[doc])
            coverage = 1 + COVERAGE_BOOST * (matched[doc] / total) ** 2
            near = 1 + TOGETHER_BOOST * max(together.get(doc, 1) - 1, 0) / (total - 1) if total > 1 else 1
            named = 1 + TITLE_COVERAGE * (titled[doc] / total) ** 2
            scores[doc] = (scores[doc] + bonus) * coverage * near * named
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        hits = [Hit(self._sections[doc], round(score, 4)) for doc, score in ranked[:limit]]
        ideal *= 1 + COVERAGE_BOOST
        strength = min(hits[0].score / ideal, 1.0) if hits and ideal > 0 else 0.0
        margin = hits[1].score / hits[0].score if len(hits) > 1 and hits[0].score > 0 else 0.0
        if exact is not None:
            top = hits[0].score + 1.0 if hits else 1.0
            hits = [Hit(exact, top), *(h for h in hits if h.section is not exact)][:limit]
            return Found(tuple(hits), 1.0, 0.0, analysis.facts, exact=True)
        linked = self._linked(analysis.signature, links)
        if linked is not None:
            top = hits[0].score + 1.0 if hits else 1.0
            hits = [Hit(linked, top), *(h for h in hits if h.section is not linked)][:limit]
            return Found(tuple(hits), 1.0, 0.0, analysis.facts, linked=True)
        return Found(tuple(hits), strength, margin, analysis.facts)

    def signature(self, query: str, lexicon: Lexicon | None = None) -> frozenset[str]:
        """The words that make a question the question it is (what a link compares)."""
        return self._analyse(query[:MAX_QUERY_CHARS], lexicon if lexicon is not None else self._lexicon).signature

    def _linked(self, signature: frozenset[str], links: Sequence[Link]) -> Section | None:
        best: tuple[float, Section] | None = None
        for link in links:
            if not link.words or not signature:
                continue
            alike = len(link.words & signature) / len(link.words | signature)
            section = self.get(link.citation)
            if alike >= LINK_LIKENESS and section is not None and not section.heading_only \
                    and (best is None or alike > best[0]):
                best = (alike, section)
        return best[1] if best else None

    def _together(self, concepts: list[Concept]) -> dict[int, int]:
        """Per section, the most concepts found in one of its passages."""
        counts: Counter[int] = Counter()
        for concept in concepts:
            found: set[int] = set()
            for alt in concept:
                lists = [self._passages.get(term, ()) for term in alt.terms]
                if all(lists):
                    found.update(set(lists[0]).intersection(*lists[1:]) if len(lists) > 1 else lists[0])
            counts.update(found)
        best: dict[int, int] = {}
        for passage, count in counts.items():
            doc = self._passage_doc[passage]
            if count > best.get(doc, 0):
                best[doc] = count
        return best

    def _named(self, concept: Concept) -> set[int]:
        """Sections whose own title says the concept, in any of its ways."""
        found: set[int] = set()
        for alt in concept:
            if alt.weight < SYNONYM_WEIGHT:  # an alias only hints at the rulebook's words
                continue
            sets = [self._titled.get(term, frozenset()) for term in alt.terms]
            if sets and all(sets):
                found.update(frozenset.intersection(*sets))
        return found

    def _pair_idf(self, pair: tuple[str, str]) -> float:
        values = [self._term_idf.get(t, 0.0) for t in pair if t not in STOP_STEMS]
        return sum(values) / len(values) if values else 0.0

    def _concept_scores(self, concept: Concept) -> dict[int, float]:
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

    def _alternative_tf(self, alt: Alternative) -> dict[int, float]:
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

    def _analyse(self, query: str, lex: Lexicon) -> _Analysis:
        said: list[str] = []
        for word in words(query)[:MAX_QUERY_WORDS]:
            said.extend(lex.spellings.get(word, word).split())
        corrected: list[bool] = []
        tokens: list[str] = []
        for word in said:
            if word in PHRASE_FILLERS:
                continue
            fixed = self._correct(word, lex)
            for part in fixed.split():
                tokens.append(part)
                corrected.append(fixed != word)
        stems = [stem(w) for w in tokens]
        shapes = [NUMBER if is_number(w) else s for w, s in zip(tokens, stems, strict=True)]
        concepts: list[Concept] = []
        asking: set[int] = set()
        i = 0
        while i < len(tokens):
            step, key, concept = self._lexicon_match(lex, stems, shapes, i)
            if concept is not None and lex.asking(key):
                asking.update(range(i, i + step))
            if concept is None:
                step, concept = self._compound_match(tokens, stems, i)
            if concept is None and stems[i] not in STOP_STEMS and tokens[i] not in STOPWORDS:
                concept = (Alternative((stems[i],), (stems[i],), 1.0),)
                other = SPELLED_NUMBERS.get(tokens[i])
                if other is not None:
                    concept += (Alternative((stem(other),), (stem(other),), 1.0),)
            if concept is not None:
                if any(corrected[i : i + step]):
                    concept = tuple(Alternative(a.terms, a.phrase, a.weight * CORRECTION_WEIGHT) for a in concept)
                concepts.append(concept)
            i += step
        for compound in HYPHENATED.findall(normalise(query)):
            joined = stem(re.sub(r"[-‐–]", "", compound))
            if joined in self._postings:
                concepts.append((Alternative((joined,), (joined,), 1.0),))
        phrases = [(a, b) for k, (a, b) in enumerate(itertools.pairwise(stems))
                   if (a not in STOP_STEMS or b not in STOP_STEMS) and not {k, k + 1} <= asking]
        signature = frozenset(s for s, w in zip(stems, tokens, strict=True)
                              if s not in STOP_STEMS and w not in STOPWORDS)
        return _Analysis(concepts, phrases, lex.facts(stems, shapes), signature)

    def _lexicon_match(self, lex: Lexicon, stems: list[str], shapes: list[str],
                       i: int) -> tuple[int, tuple[str, ...], Concept | None]:
        for size in range(min(lex.max_length, len(stems) - i), 0, -1):
            key = tuple(stems[i : i + size])
            alts = lex.get(key)
            if alts is None and NUMBER in shapes[i : i + size]:
                key = tuple(shapes[i : i + size])
                alts = lex.get(key)
            if alts is not None:
                return size, key, alts
        return 1, (), None

    def _compound_match(self, tokens: list[str], stems: list[str], i: int) -> tuple[int, Concept | None]:
        for size in (3, 2):
            if i + size <= len(tokens):
                joined = stem("".join(tokens[i : i + size]))
                if joined in self._postings:
                    parts = tuple(stems[i : i + size])
                    terms = tuple(s for s in parts if s not in STOP_STEMS) or parts
                    return size, (
                        Alternative((joined,), (joined,), 1.0),
                        Alternative(terms, parts, 1.0),
                    )
        return 1, None

    def _correct(self, word: str, lex: Lexicon) -> str:
        """Fix a typo against the rulebook's words; leave known, short and slang words alone."""
        if (
            not 4 <= len(word) <= MAX_CORRECTED_LENGTH
            or word in STOPWORDS
            or not word.isalpha()
            or lex.knows_stem(stem(word))
            or stem(word) in self._postings
        ):
            return word
        cache_key = (lex.serial, word)
        if cache_key in self._corrections:
            return self._corrections[cache_key] or word
        fixed = self._split_compound(word) or self._closest(word, lex)
        if len(self._corrections) < 4096:
            self._corrections[cache_key] = fixed
        return fixed or word

    def _closest(self, word: str, lex: Lexicon) -> str | None:
        max_distance = 1 if len(word) < 8 else 2
        own = self._vocabulary.get(word[0], [])
        candidates = own + [w for w in lex.candidates(word[0]) if w not in own]
        return closest(word, candidates, max_distance)

    def _split_compound(self, word: str) -> str | None:
        """``slapshot`` -> ``slap shot`` when the rulebook has both words."""
        known = self._labels.body_words
        for cut in range(3, len(word) - 2):
            if word[:cut] in known and word[cut:] in known:
                return f"{word[:cut]} {word[cut:]}"
        return None

    # --- autocomplete ------------------------------------------------------------------------

    def suggest(self, prefix: str, limit: int = 25) -> list[Section]:
        """Sections for an autocomplete box: citations first ("2.1" -> 2.1, 2.10, ...), then
        titles, then words of the text, then search results for what is typed so far."""
        return self._labels.suggest(prefix[:MAX_QUERY_CHARS], limit,
                                   lambda typed: [h.section for h in self.search(typed, limit=limit)])
