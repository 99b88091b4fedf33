"""Every citation resolves: in the presets, the code and the docs, each cited section is in that preset's
rulebook (the shipped text, cut by the project's own parser) and says what it is cited for.

- Preset citations (every ``*_citations`` field, the penalty catalogues, the contradictions /setup show
  names) must contain their rule's key words: KEY_WORDS below for a citation field (one of the words
  separated by "|"), the words of the infraction's name for a catalogue row.
- Citations written in prose (bot/, cogs/, docs/settings.md, product.md, commissioner.md) must name a
  section (and list item) that exists, and contain any quotation that follows them.
- The checker itself is shown to catch a planted wrong citation (tests/league/rulebooks/planted/).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.league.discipline.catalogues import PENALTY_CATALOGUES
from bot.league.rulebooks.citations import (
    Citation,
    Reference,
    Rulebooks,
    check,
    check_all,
    contains,
    find_citations,
    normalise,
    parse,
    resolve,
)
from bot.league.rulebooks.presets import preset_rulebook
from bot.league.rulebooks.rulebook import parse_rulebook
from bot.league.rules import PRESET_NAMES, Rules, preset
from bot.league.setup.rule_settings import CONTRADICTIONS

ROOT = Path(__file__).resolve().parents[3]
PLANTED = Path(__file__).resolve().parent / "planted"
#: Where prose citations are read: the code and the docs a league reads.
PROSE = ("bot", "cogs", "docs/settings.md", "docs/product.md", "docs/commissioner.md")

#: What each citation field's rule is about, in the rulebooks' own words: the cited text must hold one
#: of each entry's "|"-separated words (a word matches the start of a rulebook word: "suspen" finds
#: "suspensions"). A new citation field needs its entry here.
KEY_WORDS: dict[str, tuple[str, ...]] = {
    # lineup
    "lineup.court": ("goalie",),
    "lineup.women_nonbinary": ("non-binary",),
    "lineup.goalie_counts_other": ("goalie",),
    "lineup.start": ("start",),
    "lineup.goalie": ("goalie",),
    "lineup.roster": ("roster",),
    "lineup.guests": ("guest",),
    "lineup.suspension": ("suspen",),
    # game format
    "game_format.period": ("half|period",),
    "game_format.clock": ("clock|stoppage",),
    "game_format.intermission": ("half|intermission|break",),
    "game_format.regular_overtime": ("tie",),
    "game_format.regular_shootout": ("tie",),
    "game_format.playoff_overtime": ("overtime",),
    "game_format.playoff_shootout": ("shoot",),
    "game_format.timeout": ("time out|timeout",),
    # shootouts
    "shootout.initial": ("shoot",),
    "shootout.initial_playoff": ("shoot",),
    "shootout.initial_playoff_other": ("shoot",),
    "shootout.women_initial": ("shoot",),
    "shootout.women_blocks": ("shoot",),
    "shootout.no_repeat": ("shoot|shot",),
    "shootout.eligibility": ("shoot",),
    "shootout.goalie_change": ("goalie",),
    # standings
    "standings.points": ("point",),
    "standings.forfeit": ("forfeit",),
    "standings.forfeit_goals": ("forfeit|goals scored",),
    "standings.tiebreakers": ("tie|seeding",),
    "standings.counted": ("season|seeding",),
    "standings.adjustment_points": ("point",),
    "standings.disqualify": ("disqualif",),
    "standings.playoffs_by_division": ("division",),
    "standings.all_teams_qualify": ("playoff",),
    "standings.seeding_games": ("seeding",),
    # discipline
    "discipline.game_misconduct_after_majors": ("major",),
    "discipline.game_misconduct_after_misconducts": ("misconduct",),
    "discipline.game_misconduct_after_minors": ("minor",),
    "discipline.late_major": ("last",),
    "discipline.late_misconduct": ("last",),
    "discipline.referee_max_suspension": ("suspen",),
    "discipline.exceed_range": ("suspen",),
    "discipline.review": ("written up|suspen",),
    "discipline.repeated": ("repeated",),
    "discipline.serving": ("suspen",),
    "discipline.appeal_window": ("appeal",),
    "discipline.appeal_decision": ("appeal",),
    "discipline.appeals_allowed": ("appeal",),
    "discipline.final": ("final",),
    "discipline.no_substitute_for_ejected": ("eject",),
    # deadlines
    "deadlines.trades": ("trade",),
    "deadlines.dispute": ("appeal|dispute",),
    "deadlines.dispute_calls": ("call",),
    "deadlines.relay": ("relay",),
    "deadlines.cleanup": ("clean",),
    "deadlines.setup": ("setup|set up",),
    "deadlines.equipment": ("equip",),
    # game sheets and officials
    "gamesheets.officials": ("official",),
    "gamesheets.off_sheet": ("game sheet",),
    "gamesheets.stats": ("statistic",),
    # registration
    "registration.ages": ("age",),
    "registration.payment": ("pay",),
    # team management
    "staff.coach": ("coach",),
    "staff.captain": ("captain",),
    # replacements
    "replacements.injury": ("injur",),
    "replacements.absence": ("absen",),
    "replacements.emergency": ("emergenc",),
    "replacements.fee": ("prorat",),
    # trades
    "trades.trade": ("trade",),
    # rule-change votes
    "rulevotes.threshold": ("vot",),
    # the draft
    "draft.order": ("lottery",),
    "draft.paid": ("pay",),
    # the schedule generator
    "schedule_builder.games_per_team": ("game",),
}
#: Words of an infraction's name that say nothing about which infraction it is.
GENERIC = frozenset({"bench", "minor", "double", "game", "misconduct", "player", "players", "with", "from", "other",
                     "delay", "team", "than"})


@pytest.fixture(scope="module")
def books() -> Rulebooks:
    return Rulebooks({name: parse_rulebook((preset_rulebook(name) or b"").decode("utf-8")) for name in PRESET_NAMES})


def field_citations(rules: Rules) -> Iterator[Citation]:
    """Every citation field of a preset's rules, with its key words ("" for a field KEY_WORDS lacks)."""
    for part in dataclasses.fields(rules):
        section = getattr(rules, part.name)
        if not dataclasses.is_dataclass(section):
            continue
        for f in dataclasses.fields(section):
            cites = getattr(section, f.name)
            if not f.name.endswith("citations") or not dataclasses.is_dataclass(cites):
                continue
            for c in dataclasses.fields(cites):
                value = getattr(cites, c.name)
                if isinstance(value, str):
                    name = f"{part.name}.{c.name}"
                    yield Citation(f"{rules.preset} {name}", value, KEY_WORDS.get(name, ("",)))


def infraction_words(name: str) -> tuple[str, ...]:
    """The distinctive words of an infraction's name, each cut to its stem's first five letters."""
    return tuple(w[:5] for w in normalise(name).split() if len(w) >= 4 and w not in GENERIC)


def catalogue_problems(books: Rulebooks, name: str) -> list[str]:
    """A catalogue row's citation must resolve and hold at least half the words of the infraction's name."""
    problems = []
    for infraction in PENALTY_CATALOGUES[name]:
        where = Citation(f"{name} penalty {infraction.key}", infraction.citation)
        found = check(books, where)
        if found:
            problems += found
            continue
        cited = "\n".join(t for ref in parse(infraction.citation) for t in [resolve(books, ref)[0]] if t)
        words = infraction_words(infraction.name)
        held = [w for w in words if contains(cited, w)]
        if len(held) < math.ceil(len(words) / 2):
            problems.append(f"{where.where}: {infraction.citation!r} says little of {infraction.name!r} "
                            f"(has {held} of {list(words)})")
    return problems


def prose_citations(paths: tuple[str, ...], root: Path = ROOT) -> Iterator[Citation]:
    for path in paths:
        target = root / path
        files = sorted(target.rglob("*.py")) if target.is_dir() else [target]
        for file in files:
            yield from find_citations(file.read_text(encoding="utf-8"), str(file.relative_to(root)))


# --- the presets -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_citation_field_of_a_preset_resolves_and_says_its_rule(books: Rulebooks, name: str) -> None:
    citations = list(field_citations(preset(name)))
    unlisted = sorted({c.where.split()[1] for c in citations if c.key_words == ("",) and parse(c.text)})
    assert unlisted == [], f"add key words to KEY_WORDS for {unlisted}"
    assert check_all(books, citations) == []


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_penalty_cites_the_line_that_lists_it(books: Rulebooks, name: str) -> None:
    assert catalogue_problems(books, name) == []


def test_both_readings_of_a_contradiction_resolve(books: Rulebooks) -> None:
    citations = [Citation(f"{name} {key}", text, ("goalie|shoot",))
                 for (name, key), sides in CONTRADICTIONS.items() for text in sides[:2]]
    assert len(citations) == 2 * len(CONTRADICTIONS)
    assert check_all(books, citations) == []


# --- the code and the docs -------------------------------------------------------------------------------
def test_every_citation_in_the_code_and_the_docs_resolves(books: Rulebooks) -> None:
    citations = list(prose_citations(PROSE))
    assert len(citations) > 300  # the scan found the code's citations, not nothing
    assert {c.where.split(":")[0] for c in citations} >= {"docs/settings.md", "docs/product.md",
                                                          "bot/league/checkins/presets.py"}
    assert check_all(books, citations) == []


# --- the checker catches what it is for ------------------------------------------------------------------
def test_a_planted_wrong_citation_is_reported_and_nothing_else(books: Rulebooks) -> None:
    # tests/league/rulebooks/planted/ holds right citations of each kind and one wrong one.
    problems = check_all(books, prose_citations(("tests/league/rulebooks/planted",)))
    assert problems == ["tests/league/rulebooks/planted/presets.py:9: 'Youth 2.16, “a minimum of 3 players and one "
                        "goalie”': 2.16 doesn't say “a minimum of 3 players and one goalie”"]


def test_a_planted_wrong_preset_citation_fails_on_its_key_words(books: Rulebooks) -> None:
    # docs/settings.md once cited youth 1.7 (the draft) for guests: 1.7 exists, but says nothing of guests.
    youth = preset("youth-ball-hockey")
    planted = dataclasses.replace(youth, lineup=dataclasses.replace(
        youth.lineup, citations=dataclasses.replace(youth.lineup.citations, guests="Youth 1.7")))
    assert check_all(books, field_citations(planted)) == [
        "youth-ball-hockey lineup.guests: 'Youth 1.7': the cited text has none of 'guest'"]


@pytest.mark.parametrize(("text", "problem"), [
    ("Youth 1.20", "youth-ball-hockey has no section '1.20'"),
    ("Youth 3.11 (6)", "youth-ball-hockey 3.11 has no item (6)"),
    ("Youth 3.7 delay of game (8)", "youth-ball-hockey 3.7 delay of game has no item (8)"),
    ("Co-ed rules: Referees", "coed-ball-hockey has no section 'Referees'"),
    ("Co-ed rules: Penalties, severe offenses (1)", "coed-ball-hockey Penalties has no line 'severe offenses'"),
    ("Indoor soccer rules: Game, “guests must pay”", "Game doesn't say “guests must pay”"),
])
def test_what_the_checker_refuses(books: Rulebooks, text: str, problem: str) -> None:
    assert check(books, Citation("here", text)) == [f"here: {text!r}: {problem}"]


@pytest.mark.parametrize(("text", "words"), [
    ("Youth 2.4", "minimum of 3 players and one goalie"),
    ("Youth 3.11 (4)", "ref abuse physical plus 15 game suspension"),
    ("Youth 3.7 delay of game (2)", "goalie holding the ball outside of his marked crease"),
    ("Co-ed rules: Major offenses, severe offenses (1)", "slashing"),
    ("Co-ed rules: Shootouts", "teams will select 3 players to shoot"),
    ("Co-ed rules: Shoot-Out Format past first 3 shooters", "for every 3 shooters after the initial 3"),
    ("Co-ed rules: Teams", "rosters will be limited to 20 active players"),
    ("Co-ed rules: Ref interaction 2", "the referees call stands"),
    ("Indoor soccer rules: Substitutions", "goalies may not be substituted during shootout"),
])
def test_what_a_citation_points_at(books: Rulebooks, text: str, words: str) -> None:
    (ref, *_) = parse(text)
    cited, why = resolve(books, ref)
    assert why == "" and cited is not None and words in normalise(cited)


def test_a_citation_reads_as_its_rulebook_and_sections() -> None:
    assert parse("Youth 3.7 (6), 2.15") == [Reference("youth-ball-hockey", "3.7", item=6),
                                            Reference("youth-ball-hockey", "2.15")]
    assert parse("Co-ed rules: Extreme offenses (2); Prohibited actions (11)") == [
        Reference("coed-ball-hockey", "Extreme offenses", item=2),
        Reference("coed-ball-hockey", "Prohibited actions", item=11)]
    assert parse("Indoor soccer rules: Substitutions, “Goalies may not be substituted during shootout”") == [
        Reference("indoor-soccer", "Substitutions", quotes=("Goalies may not be substituted during shootout",))]
    assert parse("league default (rulebook silent; youth 1.21 numbers)") == []
    assert parse("Youth 3.9 (note)") == [Reference("youth-ball-hockey", "3.9")]
