"""Autocomplete over a rulebook's sections: what a player has typed so far, matched against citations,
titles and words, before the search (bot/league/rulebooks/search.py) understands the rest."""

from __future__ import annotations

import bisect
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from bot.league.rulebooks.lexicon import words
from bot.league.rulebooks.rulebook import Section


def citation_key(text: str) -> str:
    """A citation as people type it: any case, any dash, with or without "Rule" or "§" in front."""
    text = " ".join(text.casefold().replace("–", "-").replace("—", "-").split())
    return re.sub(r"^(rule|§)\s*", "", text)


class Labels:
    """Each section's citation and title, and the words of its label and text, for autocomplete."""

    def __init__(self, sections: Sequence[Section], listed: Sequence[int]) -> None:
        self._sections = sections
        self._listed = listed
        self._labels = [citation_key(f"{s.citation} {s.title}") for s in sections]
        self._label_words = _WordFinder(words(label) for label in self._labels)
        self._body_words = _WordFinder(words(s.text) for s in sections)
        self._title_keys = [citation_key(s.title) for s in sections]
        self._citation_keys = [citation_key(s.citation) for s in sections]

    @property
    def body_words(self) -> frozenset[str]:
        """Every word of the sections' text."""
        return self._body_words.words

    def suggest(self, prefix: str, limit: int, search: Callable[[str], Iterable[Section]]) -> list[Section]:
        """Sections for an autocomplete box: citations first ("2.1" -> 2.1, 2.10, ...), then
        titles, then words of the text, then search results for what is typed so far."""
        if limit <= 0:
            return []
        key = citation_key(prefix)
        if not key:
            return [self._sections[i] for i in self._listed[:limit]]
        typed = words(key)
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
            for section in search(prefix):
                if all(section is not s for s in result):
                    result.append(section)
        for i in in_text:
            if len(result) >= limit:
                break
            if all(self._sections[i] is not s for s in result):
                result.append(self._sections[i])
        return result[:limit]



class _WordFinder:
    """Which sections use all the typed words, the last one possibly half-typed."""

    def __init__(self, per_section: Iterable[Iterable[str]]) -> None:
        found: dict[str, set[int]] = defaultdict(set)
        for i, section_words in enumerate(per_section):
            for word in section_words:
                found[word].add(i)
        # tuples: a thousand leagues' indexes hold these, and a set of two numbers is three times a tuple's size
        self._sections: dict[str, tuple[int, ...]] = {w: tuple(sorted(s)) for w, s in found.items()}
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
            found.update(self._sections[word])
        for word in complete:
            found.intersection_update(self._sections.get(word, ()))
        return found


