"""Check that a citation points at a section of its rulebook that says what it is cited for.

A citation names its rulebook, then one or more sections, in the words `/rule` shows them (the
sections ``parse_rulebook`` cuts the shipped text into):

* ``Youth 2.4``, ``Youth 2.5, 2.6``, ``Youth rules 2.13B``, ``youth 1.12``: numbered rules;
* ``Co-ed rules: Teams``, ``Co-ed rules: Game Structure 8``, ``Co-ed rules: Shootouts``,
  ``Indoor soccer rules: Game``: a heading (with its bullets), one bullet, or a bullet's own title;
* ``Youth 3.11 (1)``, ``Co-ed rules: Minor offenses (3)``: an item of the section's numbered list;
  ``Youth 3.7 delay of game (2)``, ``Co-ed rules: Major offenses, severe offenses (1)``: an item of
  the list under a line of the section (``Delay of game :``, ``3. Severe offenses ...:``);
* ``; `` starts another reference (in the same rulebook unless it names another), a parenthesis
  that isn't a list item is a reader's note (``Youth 3.9 (note)``), and a quotation after a section
  (``Co-ed rules: Ref interaction 2, “the referee’s call stands”``) must be found in it.

``league default``, ``league setting`` and ``rulebook silent`` are no citation. `check` returns the
problems of one citation: a rulebook or section that isn't there, a list item the section hasn't,
a quotation or a key word the section doesn't contain. `find_citations` finds the citations written
in prose (comments, docstrings, docs/), where only a quotation can say what the rule is cited for.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from bot.league.rulebooks.rulebook import Section

#: How a citation names each preset's rulebook (longest first: "Youth rules" before "Youth").
BOOKS: tuple[tuple[str, str], ...] = (
    ("indoor soccer rules", "indoor-soccer"),
    ("indoor soccer", "indoor-soccer"),
    ("indoor", "indoor-soccer"),
    ("co-ed rules", "coed-ball-hockey"),
    ("co-ed", "coed-ball-hockey"),
    ("youth rules", "youth-ball-hockey"),
    ("youth rule", "youth-ball-hockey"),
    ("youth", "youth-ball-hockey"),
)
#: Where a citation is no citation: the preset's value is the league's own choice.
NOT_CITATIONS = ("league default", "league setting", "rulebook silent")

_NUMBER = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3})+[A-Za-z]?)(?:\s+(?P<sub>[^()“\"]+?))?\s*$")
_ITEM = re.compile(r"^\((?P<item>\d{1,2})\)")
_QUOTE = re.compile(r"[“\"](?P<text>[^”\"]+)[”\"]")
_LIST_MARK = re.compile(r"^\s*(?:\d{1,2}[.)]|[•·-])\s*")


@dataclass(frozen=True)
class Reference:
    """One section of one rulebook, as a citation names it."""

    preset: str
    section: str  # "2.4", "Game Structure 8", "Major offenses"
    sub: str = ""  # a line of the section whose list ``item`` belongs to ("delay of game")
    item: int | None = None
    quotes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Citation:
    """Where a citation was written, what it says and what it must contain."""

    where: str  # "bot/league/checkins/presets.py:171", "youth-ball-hockey lineup.guests"
    text: str
    key_words: tuple[str, ...] = ()  # each "word|other": one of them in the cited text
    default_preset: str = ""  # the rulebook of a citation that names none (a preset's own)


@dataclass
class Rulebooks:
    """Each preset's sections, parsed once, with lookups by citation and by title."""

    sections: Mapping[str, Sequence[Section]]
    _index: dict[str, dict[str, list[Section]]] = field(default_factory=dict)

    def find(self, preset: str, name: str) -> list[Section]:
        """The section(s) a citation names: by citation ("2.4", "game structure 8"), else by title
        ("Shootouts", "Teams"), else by a bullet's opening words ("Shoot-Out Format past first 3
        shooters"); any case, dashes alike."""
        index = self._index.get(preset)
        if index is None:
            index = self._index[preset] = {}
            for s in self.sections.get(preset, ()):
                index.setdefault(_key(s.citation), []).append(s)
            for s in self.sections.get(preset, ()):
                for title in (s.title, re.sub(r"\s*\([^)]*\)", "", s.title)):
                    if title and _key(title) not in index:
                        index.setdefault("title:" + _key(title), []).append(s)
        key = _key(name)
        found = index.get(key) or index.get("title:" + key)
        if found:
            return found
        opening = normalise(name)
        if not opening or not opening[0].isalpha():
            return []
        return [s for s in self.sections.get(preset, ())
                if s.kind != "heading" and normalise(s.text).startswith(opening)]

    def text(self, preset: str, section: Section) -> str:
        """A section's words: a heading with every bullet and paragraph under it."""
        if section.kind != "heading":
            return section.text
        children = [s.text for s in self.sections.get(preset, ()) if s.parent == section.citation]
        return "\n".join([section.text, *children])


def _key(text: str) -> str:
    return " ".join(text.casefold().replace("–", "-").replace("—", "-").strip(" :").split())


def normalise(text: str) -> str:
    """Words only, any case, curly quotes and dashes alike: what key words and quotations are matched on."""
    text = text.casefold().replace("’", "'").replace("‘", "'").replace("'", "")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def contains(text: str, words: str) -> bool:
    """``words`` ("guest", "time out|timeout") starts a word run of ``text``: "suspen" finds "suspensions"."""
    haystack = f" {normalise(text)} "
    return any(f" {normalise(alt)}" in haystack for alt in words.split("|") if normalise(alt))


# --- reading a citation ------------------------------------------------------------------------------
def _split_top(text: str, separator: str) -> list[str]:
    """Split at ``separator`` outside parentheses and quotations."""
    parts: list[str] = []
    current: list[str] = []
    depth, quoted = 0, False
    for ch in text:
        if ch in "“”\"":
            quoted = not quoted if ch == "\"" else ch == "“"
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth = max(0, depth - 1)
        if ch == separator and depth == 0 and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _book(text: str) -> tuple[str, str] | None:
    lowered = text.casefold()
    for name, preset in BOOKS:
        if lowered.startswith(name) and (len(text) == len(name) or not text[len(name)].isalpha()):
            return preset, text[len(name):].lstrip(" :")
    return None


def parse(text: str, default_preset: str = "") -> list[Reference]:
    """The references of a citation, in order; [] for none ("league default ...", "")."""
    if text.strip().casefold().startswith(NOT_CITATIONS) or not text.strip():
        return []
    refs: list[Reference] = []
    preset = default_preset
    for chunk in _split_top(text, ";"):
        named = _book(chunk)
        if named is not None:
            preset, chunk = named
        elif chunk.casefold().startswith(NOT_CITATIONS) or not preset:
            continue  # "the limits are a league default": a note, not a section
        for part in _split_top(chunk, ","):
            quotes = tuple(m["text"] for m in _QUOTE.finditer(part))
            if refs and quotes and not _QUOTE.sub("", part).strip():
                # a quotation after a section is that section's words
                refs[-1] = dataclasses.replace(refs[-1], quotes=refs[-1].quotes + quotes)
                continue
            ref = _part(preset, part, quotes)
            if ref is not None:
                refs.append(ref)
    return refs


def _part(preset: str, part: str, quotes: tuple[str, ...]) -> Reference | None:
    rest = _QUOTE.sub("", part).strip()
    item = None
    name = re.sub(r"\s*\([^)]*\)", "", rest).strip(" :")
    for note in re.findall(r"\(([^)]*)\)", rest):
        found = _ITEM.match(f"({note})")
        if found and item is None:
            item = int(found["item"])
    if not name:  # co-ed “Ref interaction”: words of the rulebook, wherever they are
        return Reference(preset, "", "", None, quotes) if quotes else None
    number = _NUMBER.match(name)
    if number:
        return Reference(preset, number["num"].upper(), (number["sub"] or "").strip(), item, quotes)
    return Reference(preset, name, "", item, quotes)


# --- checking it ---------------------------------------------------------------------------------------
def _lines_under(text: str, sub: str) -> list[str] | None:
    """The lines from the one that opens with ``sub`` ("delay of game", "severe offenses") to the end."""
    lines = text.split("\n")
    wanted = normalise(sub)
    for i, line in enumerate(lines):
        if normalise(_LIST_MARK.sub("", line)).startswith(wanted):
            return lines[i:]
    return None


def _item(lines: list[str], number: int) -> str | None:
    """List item ``number`` ("3)" or "3.") of these lines, with the lines that go on from it."""
    mark = re.compile(rf"^\s*{number}[.)]\s")
    for i, line in enumerate(lines):
        if mark.match(line):
            out = [line]
            for more in lines[i + 1:]:
                if _LIST_MARK.match(more) or more.rstrip().endswith(":"):
                    break
                out.append(more)
            return "\n".join(out)
    return None


def resolve(books: Rulebooks, ref: Reference) -> tuple[str | None, str]:
    """The words a reference points at, or None and why not."""
    if ref.preset not in books.sections:
        return None, f"no rulebook for {ref.preset!r}"
    if not ref.section:
        return "\n".join(s.text for s in books.sections[ref.preset]), ""
    found = books.find(ref.preset, ref.section)
    if not found:
        return None, f"{ref.preset} has no section {ref.section!r}"
    text = "\n".join(books.text(ref.preset, s) for s in found)
    lines = text.split("\n")
    if ref.sub:
        under = _lines_under(text, ref.sub)
        if under is None:
            return None, f"{ref.preset} {ref.section} has no line {ref.sub!r}"
        lines = under
        text = "\n".join(under)
    if ref.item is not None:
        item = _item(lines, ref.item)
        if item is None:
            where = f"{ref.section} {ref.sub}".strip()
            return None, f"{ref.preset} {where} has no item ({ref.item})"
        text = item
    return text, ""


def check(books: Rulebooks, citation: Citation) -> list[str]:
    """What is wrong with one citation ([] when nothing): sections, items, quotations, key words."""
    refs = parse(citation.text, citation.default_preset)
    where = f"{citation.where}: {citation.text!r}"
    if not refs:
        return []  # "", "league default": the rulebook is silent
    problems: list[str] = []
    texts: list[str] = []
    for i, ref in enumerate(refs):
        text, why = resolve(books, ref)
        before = refs[i - 1] if i else None
        if text is None and before is not None and before.preset == ref.preset and not ref.sub and ref.section \
                and not ref.section[0].isdigit() and not books.find(ref.preset, ref.section):
            # "Major offenses, severe offenses (1)": a line of the section before, and its list
            text, why = resolve(books, Reference(ref.preset, before.section, ref.section, ref.item, ref.quotes))
        if text is None:
            problems.append(f"{where}: {why}")
            continue
        texts.append(text)
        for quote in ref.quotes:
            fragments = [f for f in re.split(r"\.\.\.|…", quote) if normalise(f)]
            missing = [f.strip() for f in fragments if normalise(f) not in normalise(text)]
            if missing:
                problems.append(f"{where}: {ref.section} doesn't say “{missing[0]}”")
    if problems:
        return problems
    cited = "\n".join(texts)
    return [f"{where}: the cited text has none of {words!r}" for words in citation.key_words
            if not contains(cited, words)]


def check_all(books: Rulebooks, citations: Iterable[Citation]) -> list[str]:
    return [problem for citation in citations for problem in check(books, citation)]


# --- citations in prose ----------------------------------------------------------------------------------
_RULE_NUMBER = r"\d{1,2}\.\d{1,2}(?:\.\d{1,2})?[A-D]?(?![\d.]*\d)"
_ITEM_AFTER = r"(?:\s*\(\d{1,2}\)(?:-\(\d{1,2}\))?)?"
_YOUTH = re.compile(
    rf"\b(?:youth(?:'s)?(?:\s+rules?)?|(?<![-\w.])rules?)\s+(?P<refs>{_RULE_NUMBER}{_ITEM_AFTER}"
    rf"(?:\s*(?:,|/|and|or)\s*{_RULE_NUMBER}{_ITEM_AFTER})*)",
    re.IGNORECASE)
_NAMED = re.compile(
    r"\b(?P<book>(?i:co-ed|indoor soccer|indoor))(?:\s+(?i:rules))?"
    r"(?::\s+(?P<title>[A-Z][A-Za-z0-9/ –-]*?[A-Za-z0-9])(?=\s*(?:[—(,;.:”\"`]|\s-\s|\s–\s|$))"
    r"|\s+[“\"](?P<quoted>[A-Z][^”\"]{1,60})[”\"])"
    r"(?::\s*[“\"](?P<quote>[^”\"]{3,200})[”\"])?")
_AFTER_QUOTE = re.compile(r"^(?:\s*[—:–-]\s*|\s+)[“\"](?P<quote>[^”\"]{3,200})[”\"]")


def find_citations(text: str, where: str) -> Iterator[Citation]:
    """Citations written in prose, each with the quotation that follows it (its key words), one per line
    and place: "youth 2.4", "Youth 2.5, 2.6", "rule 1.11 (3)", "Co-ed rules: Teams", co-ed "Shootouts"."""
    for number, line in enumerate(text.split("\n"), start=1):
        for m in _YOUTH.finditer(line):
            refs = re.sub(r"\s*(?:/|\band\b|\bor\b)\s*", ", ", m["refs"])
            refs = re.sub(r"\((\d{1,2})\)-\(\d{1,2}\)", r"(\1)", refs)
            quoted = _AFTER_QUOTE.match(line[m.end():])
            quote = f", “{quoted['quote']}”" if quoted and "," not in refs else ""
            yield Citation(f"{where}:{number}", f"Youth {refs}{quote}")
        for m in _NAMED.finditer(line):
            quote = m["quote"] or ""
            if not quote:
                quoted = _AFTER_QUOTE.match(line[m.end():])
                quote = quoted["quote"] if quoted else ""
            book = "Co-ed rules" if m["book"].casefold() == "co-ed" else "Indoor soccer rules"
            if m["title"]:
                cited = m["title"]
            elif quote:  # co-ed "Shootouts": "Teams will select ...": a section, then its words
                cited = m["quoted"]
            else:  # co-ed "the referee's call stands": the rulebook's words, wherever they are
                cited = f"“{m['quoted']}”"
            yield Citation(f"{where}:{number}", f"{book}: {cited}" + (f", “{quote}”" if quote else ""))
