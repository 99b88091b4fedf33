"""Turn a league's rulebook (plain text or Markdown) into citable sections for `/rule`.

Real rulebooks come in three layouts, sometimes mixed:

* numbered rules: ``2.7 - Offsides For senior games ...``, ``2.13B - Tie in playoff game``,
  ``1.20.1 - Suspensions``; every line up to the next number belongs to the rule, and lines like
  ``Section 2 - Game Format`` are headings;
* headings with bullets: ``GOALIE SAFETY`` then ``• ...`` bullets, each bullet its own section
  cited as ``GOALIE SAFETY 3``; indented bullets and numbered lists stay with their lead-in;
* bare headings (``Overtime``) followed by plain lines, all of which belong to the heading;
* whole-number titles (``7. Equipment``) with their own text below: a section cited ``7``, told
  from a numbered list (``1. Holding`` then ``2. Hooking``) by what follows and what leads in.

Nothing is lost: every non-blank line lands in exactly one section, except that a section
repeated word for word (or a truncated repeat of one) under the same citation is kept once.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

MAX_QUERY_CHARS = 300  # the longest question the search reads (bot/league/rulebooks/search.py)


def _word_set(text: str) -> frozenset[str]:
    """A set of words written as one block of text (easier to read and edit than a list)."""
    return frozenset(text.split())


# Bump when parsing changes, so a stored fingerprint no longer matches and the league re-imports.
PARSER_VERSION = 2

SectionKind = Literal["preamble", "heading", "rule", "bullet", "paragraph"]


@dataclass(frozen=True, slots=True)
class Section:
    """One citable piece of a rulebook, with the source lines it came from."""

    citation: str
    title: str
    text: str
    lines: tuple[str, ...]
    line_numbers: tuple[int, ...]
    ordinal: int
    kind: SectionKind = "rule"
    parent: str = ""

    @property
    def heading_only(self) -> bool:
        """True for a heading whose content lives in its bullet sections."""
        return self.kind == "heading" and len(self.lines) == 1


def rulebook_fingerprint(text: str) -> str:
    """sha256 of the normalised text and parser version: re-import only when either changed."""
    normalised = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    payload = f"sideline-rulebook-v{PARSER_VERSION}\n{normalised}"
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


# --- line classification -------------------------------------------------------------------

_DASHES = "-–—"
_NUMBERED_RULE = re.compile(
    r"^(?:(?:rule|art(?:icle)?\.?)\s+|§\s*)?"
    r"(?P<num>\d{1,3}(?:\.\d{1,3})+[A-Za-z]?)\.?"
    r"(?:\s*[" + _DASHES + r":]\s*|\s+(?=[A-Z(\"“'])|\s*$)"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
# "Rule 12 - Fighting" / "§ 4 Equipment": a single number needs the word in front of it.
_WORDED_RULE = re.compile(
    r"^(?:rule|art(?:icle)?\.?|§)\s*(?P<num>\d{1,3}[A-Za-z]?)\.?"
    r"(?:\s*[" + _DASHES + r":]\s*|\s+|$)(?P<rest>.*)$",
    re.IGNORECASE,
)
_PART_HEADING = re.compile(
    r"^(?P<word>section|part|chapter)\s+(?P<num>[0-9IVXivx]{1,5}[A-Za-z]?)\.?"
    r"(?:\s*[" + _DASHES + r":.]\s*|\s+|$)(?P<rest>.*)$",
    re.IGNORECASE,
)
# "7. Equipment": a whole number and a title; a section only where it isn't a list item.
_NUMBERED_TITLE = re.compile(r"^(?P<num>\d{1,3})\.\s+(?P<rest>\S.*)$")
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_RULE_LINE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_BULLET = re.compile(r"^(?P<indent>\s*)(?:[•·▪‣◦●○■□➢►]\s*|[-*+](?=\s)\s*|-(?=[A-Z]))(?P<rest>.*)$")
_LIST_ITEM = re.compile(r"^(?P<indent>\s*)(?:\d{1,2}[.)]|[a-zA-Z]\)|\(\w{1,3}\))\s+(?P<rest>.*)$")
_EMPHASIS = re.compile(r"(\*\*|__|`)")
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)")
_CONNECTORS = _word_set(
    """
    a an and as at by for from in of on or the to vs with without
    """
)
# Words that open the first sentence after a numbered rule's title: "2.7 - Offsides For senior".
_SENTENCE_STARTERS = _word_set(
    """
    a all an any after at before during each either every for from if in it its no none once
    only should since the there these this those to two three four five under unless until upon
    when where whenever while with within
    """
)

_LineKind = Literal["blank", "decoration", "heading", "rule", "bullet", "list", "text"]


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    raw: str
    kind: _LineKind
    content: str  # markers stripped
    indent: int = 0
    citation: str = ""
    title: str = ""
    rest: str = ""  # a numbered rule's text after the citation


def _clean(text: str) -> str:
    return " ".join(_EMPHASIS.sub("", text).split())


def _indent_of(raw: str) -> int:
    expanded = raw.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def _has_letters(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _is_all_caps(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 3 and all(ch.isupper() for ch in letters)


def _looks_like_title(text: str) -> bool:
    """A short Title line such as ``Overtime`` or ``Minor offenses (warning)``."""
    if not text or len(text) > 60 or not text[0].isupper() or text[-1] in ".,;:!?":
        return False
    words = _PARENTHETICAL.sub("", text).split()
    if not words or not _has_letters(" ".join(words)):
        return False
    if words[-1].lower() in _CONNECTORS:
        return False
    if len(words) <= 3:
        return True
    content = [w for w in words if w.lower() not in _CONNECTORS]
    return len(words) <= 6 and all(w[0].isupper() or not w[0].isalpha() for w in content)


def _heading_citation(text: str) -> str:
    citation = _PARENTHETICAL.sub("", text).strip(" :-–—")
    return citation or text.strip()


def _split_rule_title(rest: str) -> tuple[str, str]:
    """Split ``Tie in standings Should two or more ...`` into its title and its text."""
    words = rest.split()
    for i in range(1, min(len(words), 12)):
        word = words[i]
        if not word[0].isupper():
            continue
        bare = word.strip("()[]“”\"'.,:;").lower()
        following = words[i + 1] if i + 1 < len(words) else ""
        starts_sentence = bare in _SENTENCE_STARTERS or following[:1].islower()
        if starts_sentence:
            return " ".join(words[:i]).rstrip(" :-–—"), " ".join(words[i:])
    # No sentence found: short lines are all title; long ones keep their words as text.
    if len(words) <= 12:
        return rest.rstrip(" :-–—."), ""
    return " ".join(words[:6]), rest


def _classify(number: int, raw: str) -> _Line:
    stripped = raw.strip()
    if not stripped:
        return _Line(number, raw, "blank", "")
    if _MD_RULE_LINE.match(stripped):
        return _Line(number, raw, "decoration", "")
    md = _MD_HEADING.match(raw)
    if md:
        inner = _clean(md.group(2))
        numbered = _numbered(number, raw, inner)
        if numbered is not None:
            return numbered
        part = _part(number, raw, inner)
        if part is not None:
            return part
        titled = _NUMBERED_TITLE.match(inner)
        if titled:  # "## 7. Equipment" is section 7
            return _Line(number, raw, "heading", inner, citation=titled["num"], title=titled["rest"].strip())
        return _Line(number, raw, "heading", inner, citation=_heading_citation(inner), title=inner)
    text = _clean(stripped)
    numbered = _numbered(number, raw, text)
    if numbered is not None:
        return numbered
    part = _part(number, raw, text)
    if part is not None:
        return part
    bullet = _BULLET.match(raw)
    if bullet and bullet.group("rest").strip():
        return _Line(number, raw, "bullet", _clean(bullet.group("rest")), _indent_of(raw))
    item = _LIST_ITEM.match(raw)
    if item:
        return _Line(number, raw, "list", text, _indent_of(raw))
    return _Line(number, raw, "text", text, _indent_of(raw))


def _numbered(number: int, raw: str, text: str) -> _Line | None:
    match = _NUMBERED_RULE.match(text) or _WORDED_RULE.match(text)
    if not match:
        return None
    citation = match.group("num").upper()
    rest = match.group("rest").strip()
    title, body = _split_rule_title(rest) if rest else ("", "")
    return _Line(number, raw, "rule", text, citation=citation, title=title, rest=body)


def _part(number: int, raw: str, text: str) -> _Line | None:
    match = _PART_HEADING.match(text)
    if not match:
        return None
    citation = f"{match.group('word').capitalize()} {match.group('num').upper()}"
    title = match.group("rest").strip() or citation
    return _Line(number, raw, "heading", text, citation=citation, title=title)


def _numbered_titles(lines: list[_Line]) -> list[_Line]:
    """``7. Equipment`` at the margin is rule 7 when it has text of its own below it, no lead-in
    (``...include:``) above it and doesn't go on from the item above; a run of such lines
    (``1. Holding``, ``2. Hooking``, ``3. Lofting``) stays a list."""
    body = [i for i, line in enumerate(lines) if line.kind not in ("blank", "decoration")]
    out = list(lines)
    for at, i in enumerate(body):
        line = lines[i]
        titled = _NUMBERED_TITLE.match(line.content) if line.kind == "list" and line.indent == 0 else None
        if titled is None:
            continue
        title = titled["rest"].strip()
        if not (_looks_like_title(title) or (_is_all_caps(title) and title[-1] not in ".,;:")):
            continue
        before = lines[body[at - 1]] if at else None
        after = lines[body[at + 1]] if at + 1 < len(body) else None
        if before is not None and before.content.endswith(":"):
            continue  # the first item of a list its lead-in announces
        if after is None or after.kind == "list":
            continue  # nothing of its own below, or the next item of the same list
        if before is not None and before.kind == "list" and before.content.startswith(f"{int(titled['num']) - 1}."):
            continue  # the last item of a list: "2. Hooking", then "3. Lofting"
        out[i] = _Line(line.number, line.raw, "rule", line.content, citation=titled["num"], title=title)
    return out


# --- grouping --------------------------------------------------------------------------------


@dataclass(slots=True)
class _Draft:
    citation: str
    title: str
    kind: SectionKind
    parent: str
    lead_indent: int = 0
    lines: list[_Line] | None = None
    has_list: bool = False
    leadin_open: bool = False  # last text line ended with ':' so bullets below are its items

    def add(self, line: _Line) -> None:
        if self.lines is None:
            self.lines = []
        self.lines.append(line)


def _promote_titles(lines: list[_Line], numbered_layout: bool) -> list[_Line]:
    """Bare Title/ALL CAPS lines are headings, except inside numbered rules (penalty lists)."""
    promoted = []
    for line in lines:
        if line.kind == "text" and line.indent == 0:
            is_heading = _is_all_caps(line.content) and line.content[-1] not in ".,;"
            if not numbered_layout:
                is_heading = is_heading or _looks_like_title(line.content)
            if is_heading:
                line = _Line(
                    line.number,
                    line.raw,
                    "heading",
                    line.content,
                    citation=_heading_citation(line.content),
                    title=line.content,
                )
        promoted.append(line)
    return promoted


def _group(lines: list[_Line], numbered_layout: bool) -> list[_Draft]:
    drafts: list[_Draft] = []
    heading: _Draft | None = None
    current: _Draft | None = None
    counter = 0
    after_blank = False

    def start(draft: _Draft, line: _Line) -> _Draft:
        draft.add(line)
        drafts.append(draft)
        return draft

    def child_citation() -> str:
        if heading is None:
            return str(counter)
        # under "## 7. Equipment", bullet 1 is "Equipment 1": "7 1" reads as nothing, "7.1" as a rule it isn't
        named = heading.title if heading.citation.isdigit() and heading.title else heading.citation
        return f"{named} {counter}"

    for line in lines:
        if line.kind == "blank":
            after_blank = True
            continue
        if line.kind == "heading":
            heading = current = start(_Draft(line.citation, line.title, "heading", "", line.indent), line)
            counter = 0
        elif line.kind == "rule":
            current = start(
                _Draft(
                    line.citation,
                    line.title or line.citation,
                    "rule",
                    heading.citation if heading else "",
                    line.indent,
                ),
                line,
            )
        elif current is None and (numbered_layout or line.kind != "bullet"):
            current = start(_Draft("Preamble", line.content[:80], "preamble", ""), line)
            current.leadin_open = line.content.endswith(":")
        elif current is not None and (
            line.kind == "decoration" or numbered_layout or current.kind in ("rule", "preamble")
        ):
            current.add(line)
            current.has_list |= line.kind in ("bullet", "list")
            if line.kind == "decoration":  # a Markdown break ends the paragraph above it
                current.leadin_open = False
                after_blank = True
                continue
        elif line.kind == "bullet" or current is None:
            nested = (
                current is not None and current.kind in ("bullet", "paragraph") and line.indent > current.lead_indent
            )
            if current is not None and (nested or current.leadin_open):
                current.add(line)
                current.has_list = True
            else:
                counter += 1
                title = heading.title if heading else ""
                label, sep, _ = line.content.partition(":")
                if sep and 0 < len(label.split()) <= 4:
                    title = label.strip()
                current = start(
                    _Draft(
                        child_citation(),
                        title,
                        "bullet",
                        heading.citation if heading else "",
                        line.indent,
                    ),
                    line,
                )
        elif line.kind == "list":
            current.add(line)
            current.has_list = True
        else:  # text
            new_paragraph = after_blank and (current.kind == "bullet" or current.has_list)
            if new_paragraph:
                counter += 1
                current = start(
                    _Draft(
                        child_citation(),
                        heading.title if heading else "",
                        "paragraph",
                        heading.citation if heading else "",
                        line.indent,
                    ),
                    line,
                )
            else:
                current.add(line)
            current.leadin_open = line.content.endswith(":")
        after_blank = False
    return drafts


def _section_text(draft: _Draft) -> str:
    out: list[str] = []
    for i, line in enumerate(draft.lines or []):
        if line.kind == "decoration":
            continue
        if line.kind == "bullet":
            out.append(line.content if i == 0 else f"{' ' * line.indent}• {line.content}")
        elif line.kind == "list":
            out.append(f"{' ' * line.indent}{line.content}")
        else:
            out.append(line.content)
    return "\n".join(out)


def parse_rulebook(text: str) -> list[Section]:
    """Split a rulebook into sections in reading order, each once, losing no line."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = _numbered_titles([_classify(n, raw) for n, raw in enumerate(text.split("\n"), start=1)])
    numbered_layout = sum(line.kind == "rule" for line in lines) >= 2
    drafts = _group(_promote_titles(lines, numbered_layout), numbered_layout)

    sections: list[Section] = []
    seen: dict[str, list[set[str]]] = {}
    for draft in drafts:
        source = [line for line in draft.lines or [] if line.kind != "decoration"] or (draft.lines or [])
        content = {line.raw.strip() for line in source}
        key = draft.citation.casefold()
        copies = seen.setdefault(key, [])
        if any(content <= earlier for earlier in copies):
            # A repeat (or truncated repeat) of a section we already have; its Markdown breaks
            # are not text, but they stay with the section before so no input line goes missing.
            breaks = [line for line in draft.lines or [] if line.kind == "decoration"]
            if breaks and sections:
                last = sections[-1]
                sections[-1] = replace(
                    last,
                    lines=last.lines + tuple(line.raw.rstrip() for line in breaks),
                    line_numbers=last.line_numbers + tuple(line.number for line in breaks),
                )
            continue
        citation = draft.citation if not copies else f"{draft.citation} ({len(copies) + 1})"
        copies.append(content)
        sections.append(
            Section(
                citation=citation,
                title=draft.title,
                text=_section_text(draft),
                lines=tuple(line.raw.rstrip() for line in draft.lines or []),
                line_numbers=tuple(line.number for line in draft.lines or []),
                ordinal=len(sections),
                kind=draft.kind,
                parent=draft.parent,
            )
        )
    return sections


def example_section(sections: Sequence[Section]) -> Section | None:
    """One section to show as an example citation after an import: the first rule with text of its
    own, preferring one whose title says more than its citation."""
    candidates = [s for s in sections if s.kind != "preamble" and not s.heading_only and s.text.strip()]
    titled = [s for s in candidates if s.title and s.title.casefold() not in s.citation.casefold()]
    for found in (titled, candidates, list(sections)):
        if found:
            return found[0]
    return None
