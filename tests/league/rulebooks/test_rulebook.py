"""Rulebook importer: the three real rulebooks, Markdown, and messy edge cases."""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.rulebooks.rulebook import Section, parse_rulebook, rulebook_fingerprint

# The leagues' real rulebooks, as the presets ship them (tests/league/rulebooks/test_layouts.py checks
# that they are ../shared/rulebooks' own files, where that folder is present).
RULEBOOKS = Path(__file__).resolve().parents[3] / "bot" / "league" / "rulebooks"
COED = "coed-ball-hockey.txt"
YOUTH = "youth-ball-hockey.txt"
SOCCER = "indoor-soccer.txt"

needs_rulebooks = pytest.mark.skipif(not RULEBOOKS.is_dir(), reason=f"the shipped rulebooks are not at {RULEBOOKS}")


def _read(name: str) -> str:
    return (RULEBOOKS / name).read_text(encoding="utf-8")


def _by_citation(sections: list[Section]) -> dict[str, Section]:
    return {s.citation: s for s in sections}


def assert_no_line_lost(text: str, sections: list[Section]) -> None:
    """Every non-blank line is in exactly one section, or repeats a line kept earlier."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    owners = Counter(n for s in sections for n in s.line_numbers)
    assert all(count == 1 for count in owners.values()), "a line landed in two sections"
    kept = {lines[n - 1].strip() for n in owners}
    for number, line in enumerate(lines, start=1):
        if line.strip() and number not in owners:
            assert line.strip() in kept, f"line {number} lost: {line!r}"
    for s in sections:
        assert s.lines == tuple(lines[n - 1].rstrip() for n in s.line_numbers)


# --- the real rulebooks ----------------------------------------------------------------------


@needs_rulebooks
@pytest.mark.parametrize(("name", "count"), [(COED, 77), (YOUTH, 58), (SOCCER, 9)])
def test_section_counts_are_stable(name: str, count: int) -> None:
    assert len(parse_rulebook(_read(name))) == count


@needs_rulebooks
@pytest.mark.parametrize("name", [COED, YOUTH, SOCCER])
def test_no_line_of_a_real_rulebook_is_lost(name: str) -> None:
    text = _read(name)
    sections = parse_rulebook(text)
    assert_no_line_lost(text, sections)
    assert [s.ordinal for s in sections] == list(range(len(sections)))
    assert len({s.citation.casefold() for s in sections}) == len(sections)


@needs_rulebooks
def test_youth_rulebook_repeated_half_is_indexed_once() -> None:
    text = _read(YOUTH)
    lines = text.split("\n")
    starts = [n for n, line in enumerate(lines, start=1) if line.startswith("1.1 - Divisions")]
    assert len(starts) == 2, "the youth rulebook repeats itself from its second 1.1"
    sections = parse_rulebook(text)
    assert all(n < starts[1] for s in sections for n in s.line_numbers)
    assert [s.citation for s in sections].count("1.1") == 1
    # The repeat of 3.12 is cut short; the full first copy is the one kept.
    assert "8) Player of the opposing team" in _by_citation(sections)["3.12"].text


@needs_rulebooks
def test_youth_sub_numbered_and_lettered_citations_are_kept() -> None:
    sections = _by_citation(parse_rulebook(_read(YOUTH)))
    assert sections["2.13A"].title == "Tie in regular season game"
    assert sections["2.13B"].title == "Tie in playoff game"
    assert sections["1.20.1"].title == "Suspensions"
    assert sections["1.20.2"].text.startswith("1.20.2 – Suspensions Once suspensions")
    assert sections["2.12.2"].title == "End of Game"
    assert "3) Arena rental time has expired" in sections["2.12.2"].text


@needs_rulebooks
@pytest.mark.parametrize(
    ("citation", "title"),
    [
        ("2.7", "Offsides"),
        ("1.11", "Tie in standings"),
        ("1.5", "Selection of Team Management"),
        ("2.15", "Cleaning up"),
        ("3.12", "Penalty Shot"),
        ("3.7", "Minor penalties (2-minutes)"),
        ("Section 2", "Game Format"),
    ],
)
def test_youth_rule_titles_are_split_from_their_text(citation: str, title: str) -> None:
    assert _by_citation(parse_rulebook(_read(YOUTH)))[citation].title == title


@needs_rulebooks
def test_youth_penalty_lists_stay_with_their_rule() -> None:
    sections = _by_citation(parse_rulebook(_read(YOUTH)))
    minors = sections["3.7"].text
    assert "Too many men on the floor" in minors
    assert "\nHooking\n" in minors  # a bare line inside a numbered rule is not a heading
    assert "Tripping" in minors
    assert sections["3.10"].text.count("•") == 2


@needs_rulebooks
def test_coed_bullets_are_cited_by_heading_and_position() -> None:
    sections = _by_citation(parse_rulebook(_read(COED)))
    third = sections["GOALIE SAFETY 3"]
    assert third.text.startswith("In all cases in which an attacking player")
    assert (third.parent, third.kind) == ("GOALIE SAFETY", "bullet")
    assert sections["GOALIE SAFETY"].heading_only
    assert sections["Overtime"].title == "Overtime (OT)"


@needs_rulebooks
def test_coed_sub_items_stay_with_their_lead_in() -> None:
    sections = _by_citation(parse_rulebook(_read(COED)))
    assert "Teams will select 3 players to shoot" in sections["Overtime 2"].text
    assert sections["Overtime 2"].title == "Shootouts"
    assert len(sections["BRINGING A BALL INBOUNDS 1"].lines) == 5
    assert "4. goalie covering out of crease" in sections["Minor offenses"].text
    assert "verbal abuse of refs" in sections["Extreme offenses 1"].text
    assert "12. any infraction covered by the rules" in sections["PROHIBITED ACTIONS"].text


@needs_rulebooks
def test_soccer_bare_headings_keep_their_wrapped_lines() -> None:
    sections = parse_rulebook(_read(SOCCER))
    assert [s.citation for s in sections] == [
        "Game", "Overtime", "General", "Substitutions", "Goalies",
        "Spectators", "Miscellaneous", "Walls", "Nets",
    ]  # fmt: skip
    overtime = _by_citation(sections)["Overtime"]
    assert "4-person shootout" in overtime.text
    assert "after each shot)" in overtime.lines


# --- fingerprint -----------------------------------------------------------------------------


def test_fingerprint_is_a_stable_sha256_that_follows_the_text() -> None:
    fingerprint = rulebook_fingerprint("2.7 - Offsides\n")
    assert len(fingerprint) == 64
    assert int(fingerprint, 16) >= 0
    assert fingerprint == rulebook_fingerprint("2.7 - Offsides\n")
    assert fingerprint != rulebook_fingerprint("2.7 - Offside\n")
    assert fingerprint != hashlib.sha256(b"").hexdigest()


def test_fingerprint_ignores_line_endings_and_bom() -> None:
    assert rulebook_fingerprint("a\r\nb") == rulebook_fingerprint("\ufeffa\nb")


# --- synthetic layouts and edge cases --------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "   \n\t\n", "\ufeff"])
def test_empty_text_gives_no_sections(text: str) -> None:
    assert parse_rulebook(text) == []


def test_markdown_headings_bullets_and_emphasis_are_stripped() -> None:
    text = (
        "# House rules\n\n## Overtime\n- OT is **5 minutes**\n- Sudden death:\n"
        "  - first goal wins\n\n## Equipment\n* Helmets required\n---\nBring water.\n"
    )
    sections = _by_citation(parse_rulebook(text))
    assert sections["House rules"].heading_only
    assert sections["Overtime 1"].text == "OT is 5 minutes"
    assert sections["Overtime 2"].text == "Sudden death:\n  • first goal wins"
    assert sections["Equipment 1"].text == "Helmets required"
    assert sections["Equipment 2"].text == "Bring water."
    assert_no_line_lost(text, list(sections.values()))


def test_markdown_numbered_headings_become_rules() -> None:
    text = "## 2.7 Offsides\nStay onside.\n\n## 2.8 - Icing\nNo icing.\n### Section 3 - Penalties\n"
    sections = parse_rulebook(text)
    assert [(s.citation, s.title) for s in sections] == [
        ("2.7", "Offsides"),
        ("2.8", "Icing"),
        ("Section 3", "Penalties"),
    ]
    assert sections[0].text == "2.7 Offsides\nStay onside."


def test_lines_before_any_heading_form_a_preamble() -> None:
    sections = parse_rulebook("Welcome to the league.\nPlay fair.\n\nOVERTIME\nFive minutes.\n")
    assert [(s.citation, s.kind) for s in sections] == [
        ("Preamble", "preamble"),
        ("OVERTIME", "heading"),
    ]


def test_bullets_without_a_heading_are_numbered() -> None:
    sections = parse_rulebook("• first\n• second\n   • nested\n")
    assert [s.citation for s in sections] == ["1", "2"]
    assert sections[1].text == "second\n   • nested"


def test_exact_repeat_is_dropped_but_a_changed_repeat_is_kept_apart() -> None:
    text = "OVERTIME\nFive minutes.\nOVERTIME\nFive minutes.\nOVERTIME\nTen minutes.\n"
    sections = parse_rulebook(text)
    assert [s.citation for s in sections] == ["OVERTIME", "OVERTIME (2)"]
    assert sections[1].text == "OVERTIME\nTen minutes."
    assert_no_line_lost(text, sections)


def test_windows_line_endings_tabs_and_decoration_lines() -> None:
    text = "RULES\r\n\t• one\r\n***\r\n\t• two\r\n"
    sections = parse_rulebook(text)
    assert [s.text for s in sections] == ["RULES", "one", "two"]
    assert_no_line_lost(text, sections)


def test_sections_are_frozen() -> None:
    section = parse_rulebook("1.1 - Divisions Two divisions.\n1.2 - Teams Four teams.")[0]
    assert (section.citation, section.title) == ("1.1", "Divisions")
    with pytest.raises(dataclasses.FrozenInstanceError):
        section.citation = "9.9"  # type: ignore[misc]


_LINES = st.sampled_from(
    [
        "", "   ", "GOALIE SAFETY", "Overtime", "# Heading", "## 2.7 Offsides",
        "2.7 - Offsides For senior games.", "2.13B - Tie in playoff game If tied.",
        "1.20.1 - Suspensions Served in a row.", "Section 2 - Game Format",
        "• A bullet.", "  • A nested bullet.", "- markdown bullet", "1) First item",
        "2. Second item", "Plain sentence that wraps", "onto a lowercase line.",
        "Lead-in line:", "---", "\t• tabbed", "**bold** text", "é ü ñ 🏒",
    ]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINES, max_size=40), st.sampled_from(["\n", "\r\n"]))
def test_any_mix_of_layouts_parses_without_losing_a_line(lines: list[str], newline: str) -> None:
    text = newline.join(lines)
    sections = parse_rulebook(text)
    assert_no_line_lost(text, sections)
    assert len({s.citation.casefold() for s in sections}) == len(sections)
