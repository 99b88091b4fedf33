"""Discipline: penalty escalations, suspension serving and appeals, one test per rulebook rule."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.discipline.appeals import (
    Appeal,
    appeal_allowed,
    appeal_decision_due,
    appeal_window_closes,
    decide_appeal,
    is_final,
)
from bot.league.discipline.catalogues import PENALTY_CATALOGUES
from bot.league.discipline.infractions import CATEGORIES, DisciplineError, Infraction, find_infraction
from bot.league.discipline.lengths import suspension_length
from bot.league.discipline.penalties import PenaltyRecord, apply_penalty
from bot.league.discipline.presets import DISCIPLINE_PRESETS, DisciplineRules
from bot.league.discipline.suspensions import Suspension, games_remaining

COED = DISCIPLINE_PRESETS["coed-ball-hockey"]
YOUTH = DISCIPLINE_PRESETS["youth-ball-hockey"]
SOCCER = DISCIPLINE_PRESETS["indoor-soccer"]
COED_CAT = PENALTY_CATALOGUES["coed-ball-hockey"]
YOUTH_CAT = PENALTY_CATALOGUES["youth-ball-hockey"]
SOCCER_CAT = PENALTY_CATALOGUES["indoor-soccer"]
YOUTH_GAME = 45  # Youth 2.5, 2.6: three 15-minute periods
COED_GAME = 40  # Co-ed rules: Game Structure, two 20-minute halves
SOCCER_GAME = 50  # Indoor soccer rules: Game, two 25-minute halves

RULEBOOKS = Path(__file__).resolve().parents[3] / "shared" / "rulebooks"


def rec(key: str, category: str, minute: int | None = None) -> PenaltyRecord:
    return PenaltyRecord(key, category, minute)  # type: ignore[arg-type]


def youth(key: str, prior: list[PenaltyRecord] | None = None, minute: int | None = 10):
    return apply_penalty(YOUTH, YOUTH_CAT, prior or [], key, minute, YOUTH_GAME)


def cites(outcome) -> str:
    return " | ".join(c.citation for c in outcome.consequences)


# --------------------------------------------------------------------------- catalogues


def test_catalogue_sizes() -> None:
    assert {k: len(v) for k, v in PENALTY_CATALOGUES.items()} == {
        "coed-ball-hockey": 23,  # 16 offences plus 7 prohibited actions not named among them
        "youth-ball-hockey": 69,
        "indoor-soccer": 4,
    }
    assert set(PENALTY_CATALOGUES) == set(DISCIPLINE_PRESETS)


@pytest.mark.parametrize("preset", sorted(PENALTY_CATALOGUES))
def test_catalogue_keys_unique_cited_and_repeats_resolve(preset: str) -> None:
    catalogue = PENALTY_CATALOGUES[preset]
    keys = [i.key for i in catalogue]
    assert len(keys) == len(set(keys))
    for infraction in catalogue:
        assert infraction.citation and infraction.name
        assert re.fullmatch(r"[a-z0-9_]+", infraction.key)
        assert infraction.category in CATEGORIES
        if infraction.repeat_becomes:
            target = find_infraction(catalogue, infraction.repeat_becomes)
            assert infraction.category == "warning" and target.category == "minor"


@pytest.mark.parametrize(
    ("category", "count", "minutes", "ejection"),
    [
        ("warning", 8, 0, False),  # Youth 3.2 — warnings
        ("bench_minor", 8, 2, False),  # Youth 3.7 — bench minors (1)-(8)
        ("minor", 25, 2, False),  # Youth 3.7 — minors, plus 3.4 (1) not on the game sheet
        ("double_minor", 7, 4, False),  # Youth 3.8 — double minors (4 minutes)
        ("major", 15, 5, True),  # Youth 3.9 — majors (five minutes/ejection), 3.1
        ("misconduct_10", 2, 10, False),  # Youth 3.10 — 10-minute misconducts
        ("game_misconduct", 2, 0, True),  # Youth 3.11 (4), (5)
    ],
)
def test_youth_catalogue_follows_section_3(category: str, count: int, minutes: int, ejection: bool) -> None:
    entries = [i for i in YOUTH_CAT if i.category == category]
    assert len(entries) == count
    assert {(i.minutes, i.ejection) for i in entries} == {(minutes, ejection)}


COED_PROHIBITED_ONLY = {"intentional_contact", "checking", "chopping", "hacking", "spearing", "stick_end_butting",
                        "verbal_taunts"}


def test_coed_prohibited_actions_can_all_be_called() -> None:
    """Co-ed rules: Prohibited actions 1-11 (12 is "any infraction covered by ... USA Hockey"): each can be
    recorded, under its own entry or the offence that already names it, and cites the list."""
    keys = {i.key for i in COED_CAT}
    named = {"slashing", "tripping", "hooking", "high_sticking", "verbal_abuse", "pushing_roughing_fighting"}
    assert COED_PROHIBITED_ONLY | named <= keys
    cited = {i.key: i.citation for i in COED_CAT if i.key in COED_PROHIBITED_ONLY}
    assert all(c.startswith("Co-ed rules: Prohibited actions (") for c in cited.values())
    outcome = apply_penalty(COED, COED_CAT, [], "checking", 10, COED_GAME)
    assert outcome.minutes == 2 and "Prohibited actions (2)" in " ".join(c.citation for c in outcome.consequences)


def test_coed_catalogue_follows_the_penalties_list() -> None:
    """Co-ed rules: Penalties — warnings, 2-minute majors, severe offences 1-5 games."""
    by_category: dict[str, set[str]] = {}
    for i in COED_CAT:
        by_category.setdefault(i.category, set()).add(i.key)
    assert by_category["warning"] == {
        "holding",
        "hooking",
        "lofting",
        "goalie_covering_out_of_crease",
        "goalie_delay_of_game",
    }
    assert by_category["major"] == {"high_sticking", "slapshot", *COED_PROHIBITED_ONLY}
    assert by_category["severe"] == {
        "slashing",
        "throwing_smashing_stick",
        "tripping",
        "verbal_abuse",
    }
    assert by_category["extreme"] == {"ref_abuse", "pushing_roughing_fighting"}
    assert all(i.suspension_games == (1, 5) and i.minutes == 2 for i in COED_CAT if i.category == "severe")
    assert {i.minutes for i in COED_CAT if i.category == "misconduct_5"} == {5}


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="../shared/rulebooks is not on this machine")
def test_youth_citations_name_real_sections() -> None:
    text = (RULEBOOKS / "youth-ball-hockey-league-2012-13.txt").read_text(encoding="utf-8")
    headings = set(re.findall(r"^(\d+\.\d+(?:\.\d+)?)\s*[-–]", text, flags=re.MULTILINE))
    for infraction in YOUTH_CAT:
        for section in re.findall(r"\b(\d+\.\d+)\b", infraction.citation):
            assert section in headings, (infraction.key, section)


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="../shared/rulebooks is not on this machine")
def test_coed_infractions_appear_in_the_rulebook() -> None:
    text = (RULEBOOKS / "coed-ball-hockey-tournament.txt").read_text(encoding="utf-8").casefold()
    for word in ("holding", "hooking", "lofting", "slapshot", "tripping", "verbal abuse"):
        assert word in text
    assert "5-minute misconduct" in text and "1 game – 5 game suspensions" in text


def test_find_infraction_forgives_case_and_dashes() -> None:
    assert find_infraction(SOCCER_CAT, " Slide-Tackle ").key == "slide_tackle"


def test_unknown_infraction_lists_the_valid_ones() -> None:
    with pytest.raises(DisciplineError) as info:
        apply_penalty(SOCCER, SOCCER_CAT, [], "offside", 3, SOCCER_GAME)
    assert isinstance(info.value, ValueError)
    assert info.value.valid == ("slide_tackle", "jewelry", "yellow_card", "ejection")
    assert "slide_tackle, jewelry, yellow_card, ejection" in str(info.value)


def test_negative_minute_refused() -> None:
    with pytest.raises(DisciplineError):
        youth("tripping", minute=-1)


def test_bad_infraction_data_refused() -> None:
    with pytest.raises(ValueError):
        Infraction("x", "X", "minor", -2, "here")
    with pytest.raises(ValueError):
        Infraction("x", "X", "penalty", 2, "here")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Infraction("x", "X", "severe", 2, "here", suspension_games=(5, 1))


# --------------------------------------------------------------------------- youth escalations

M = "minor"
DM = "double_minor"
MAJ = "major"
MIS = "misconduct_10"


@pytest.mark.parametrize(
    ("key", "prior", "minute", "minutes", "ejected", "gm", "games", "citation"),
    [
        pytest.param("tripping", [], 10, 2, False, False, 0, "Youth 3.7", id="3.7-minor"),
        pytest.param(
            "tripping",
            [rec("hooking", M)],
            10,
            2,
            False,
            False,
            0,
            "Youth 3.7",
            id="3.11(3)-second-minor-no-misconduct",
        ),
        pytest.param(
            "slashing",
            [rec("tripping", M), rec("hooking", M)],
            10,
            2,
            True,
            True,
            0,
            "Youth 3.11 (3)",
            id="3.11(3)-third-minor-game-misconduct",
        ),
        pytest.param(
            "punching",
            [rec("hooking", M)],
            10,
            4,
            True,
            True,
            0,
            "Youth 3.11 (3)",
            id="3.8+3.11(3)-double-minor-counts-as-two",
        ),
        pytest.param(
            "punching",
            [],
            10,
            4,
            False,
            False,
            0,
            "Youth 3.8 (3)",
            id="3.8-double-minor",
        ),
        pytest.param(
            "tripping",
            [rec("hooking", M), rec("bench_minor_too_many_players", "bench_minor")],
            10,
            2,
            False,
            False,
            0,
            "Youth 3.7",
            id="3.7-bench-minor-not-the-players",
        ),
        pytest.param(
            "boarding",
            [],
            10,
            5,
            True,
            True,
            0,
            "Youth 3.11 (1)",
            id="3.9+3.11(1)-major",
        ),
        pytest.param(
            "fighting",
            [],
            40,
            5,
            True,
            True,
            1,
            "Youth 3.9 (note)",
            id="3.9-major-at-start-of-last-5-minutes",
        ),
        pytest.param(
            "fighting",
            [],
            44,
            5,
            True,
            True,
            1,
            "Youth 3.9 (note)",
            id="3.9-major-in-last-minute",
        ),
        pytest.param(
            "fighting",
            [],
            39,
            5,
            True,
            True,
            0,
            "Youth 3.9 (4)",
            id="3.9-major-before-last-5-minutes",
        ),
        pytest.param(
            "fighting",
            [],
            48,
            5,
            True,
            True,
            1,
            "Youth 3.9 (note)",
            id="3.9-major-in-overtime-is-late",
        ),
        pytest.param(
            "unsportsmanlike_misconduct",
            [],
            10,
            10,
            False,
            False,
            0,
            "Youth 3.10",
            id="3.10-misconduct",
        ),
        pytest.param(
            "unsportsmanlike_misconduct",
            [rec("referee_abuse_verbal_misconduct", MIS)],
            10,
            10,
            True,
            True,
            0,
            "Youth 3.11 (2)",
            id="3.11(2)-second-misconduct",
        ),
        pytest.param(
            "referee_abuse_verbal_misconduct",
            [],
            35,
            10,
            True,
            False,
            1,
            "Youth 3.10 (note)",
            id="3.10-misconduct-in-last-10-minutes",
        ),
        pytest.param(
            "referee_abuse_verbal_misconduct",
            [],
            34,
            10,
            False,
            False,
            0,
            "Youth 3.10",
            id="3.10-misconduct-before-last-10-minutes",
        ),
        pytest.param(
            "referee_abuse_physical",
            [],
            10,
            0,
            True,
            True,
            1,  # 15 games asked (3.11 (4)), held at the referee's 1 until reviewed (1.12)
            "Youth 3.11 (4)",
            id="3.11(4)-physical-ref-abuse-15-games",
        ),
        pytest.param(
            "referee_abuse_verbal_game_misconduct",
            [],
            10,
            0,
            True,
            True,
            0,
            "Youth 3.11 (5)",
            id="3.11(5)-verbal-ref-abuse-game-misconduct",
        ),
    ],
)
def test_youth_escalations(
    key: str,
    prior: list[PenaltyRecord],
    minute: int,
    minutes: int,
    ejected: bool,
    gm: bool,
    games: int,
    citation: str,
) -> None:
    outcome = youth(key, prior, minute)
    assert (outcome.minutes, outcome.ejected, outcome.game_misconduct) == (minutes, ejected, gm)
    assert outcome.suspension_games == games
    assert citation in cites(outcome)
    assert all(c.citation for c in outcome.consequences)


def test_third_minor_summary_for_the_referee() -> None:
    """Youth 3.11 (3): the referee reads "third minor: game misconduct, ejected"."""
    outcome = youth("slashing", [rec("tripping", M), rec("hooking", M)])
    assert outcome.summary.startswith("Slashing: minor, 2 minutes; ")
    assert "third minor: game misconduct, ejected" in outcome.summary
    assert outcome.record == PenaltyRecord("slashing", "minor", 10)


def test_fourth_minor_is_not_a_second_game_misconduct() -> None:
    """Youth 3.11 (3): the game misconduct comes when the third minor is reached, once."""
    prior = [rec("a", M), rec("b", M), rec("c", M)]
    outcome = youth("tripping", prior)
    assert not outcome.game_misconduct
    assert "game misconduct" not in outcome.summary


def test_major_in_last_5_minutes_is_ejection_and_one_game() -> None:
    """Youth 3.9 note: a major in the last 5 minutes = ejection + automatic 1-game suspension."""
    outcome = youth("spearing", minute=41)
    assert outcome.ejected and outcome.suspension_games == 1
    assert "major in the last 5 minutes: automatic 1-game suspension" in outcome.summary
    # 3.1 / 1.20.1: majors are reported for a possible (longer) suspension.
    assert outcome.pending_review


def test_late_misconduct_is_pending_commissioner_review() -> None:
    """Youth 3.10 note: ejection + 1-game suspension, pending commissioner(s) review."""
    outcome = youth("unsportsmanlike_misconduct", minute=36)
    assert outcome.ejected and outcome.suspension_games == 1 and outcome.pending_review
    assert "pending the commissioner's review" in outcome.summary


def test_late_rule_uses_the_game_length_given() -> None:
    """Youth 3.9 note, in a 40-minute game: minute 35 is in the last 5 minutes."""
    outcome = apply_penalty(YOUTH, YOUTH_CAT, [], "kneeing", 35, 40)
    assert outcome.suspension_games == 1
    assert apply_penalty(YOUTH, YOUTH_CAT, [], "kneeing", 35, 45).suspension_games == 0


def test_major_without_a_minute_says_the_late_rule_was_not_checked() -> None:
    outcome = youth("kneeing", minute=None)
    assert outcome.suspension_games == 0
    notes = [c for c in outcome.consequences if c.kind == "note"]
    assert notes and notes[0].citation == "Youth 3.9 (note)"


def test_physical_referee_abuse_needs_the_commissioner() -> None:
    """Youth 3.11 (4): 15 games; 1.12: a referee alone suspends for at most one game."""
    outcome = youth("referee_abuse_physical")
    assert outcome.suspension_asked == 15 and outcome.pending_review
    assert outcome.suspension_games == 1, "held at the referee's limit until the commissioner reviews it"
    assert "Youth 1.12" in cites(outcome)
    assert any("held at 1 game" in c.text and "15 games asked" in c.text for c in outcome.consequences)


def test_a_referees_own_suspension_over_the_limit_is_held_at_one_game_pending_review() -> None:
    """Youth 1.12: suspensions up to one game by the referee; more is discussed with the commissioner."""
    outcome = apply_penalty(YOUTH, PENALTY_CATALOGUES["youth-ball-hockey"], [], "roughing", 10, YOUTH_GAME,
                            referee_games=3)
    assert (outcome.suspension_asked, outcome.suspension_games, outcome.pending_review) == (3, 1, True)
    one = apply_penalty(YOUTH, PENALTY_CATALOGUES["youth-ball-hockey"], [], "roughing", 10, YOUTH_GAME,
                        referee_games=1)
    assert (one.suspension_asked, one.suspension_games, one.pending_review) == (1, 1, False)
    coed = apply_penalty(COED, PENALTY_CATALOGUES["coed-ball-hockey"], [], "hooking", 10, 40, referee_games=3)
    assert coed.suspension_games == 3, "the co-ed rulebook sets no referee limit"


@pytest.mark.parametrize(
    ("action", "games", "after", "lifted"),
    [("confirm", None, 1, False), ("set-games", 3, 3, False), ("lift", None, 0, True)],
)
def test_a_commissioners_review_confirms_sets_or_lifts(action: str, games: int | None, after: int,
                                                        lifted: bool) -> None:
    from bot.league.discipline.reviews import review_suspension

    decision = review_suspension(YOUTH, current_games=1, pending=True, reviewed=False, action=action, games=games)
    assert (decision.games_before, decision.games_after, decision.lifted) == (1, after, lifted)
    assert decision.citation == "Youth 1.12"


@pytest.mark.parametrize(
    ("pending", "reviewed", "action", "games", "says"),
    [
        (True, True, "set-games", 1, "only an appeal's decision"),
        (False, False, "confirm", None, "isn't waiting"),
        (True, False, "set-games", None, "Give the number"),
        (True, False, "set-games", 0, "1 to 100"),
        (True, False, "lift", 2, "goes only with"),
        (True, False, "shorten", None, "one of"),
    ],
)
def test_a_review_that_cant_be_done_is_refused(pending: bool, reviewed: bool, action: str, games: int | None,
                                               says: str) -> None:
    from bot.league.discipline.reviews import review_suspension

    with pytest.raises(DisciplineError) as info:
        review_suspension(YOUTH, current_games=1, pending=pending, reviewed=reviewed, action=action, games=games)
    assert says in str(info.value)


@pytest.mark.parametrize(
    ("warning", "minor"),
    [
        ("goalie_holding_ball_outside_crease", "delay_of_game_goalie_outside_crease"),  # 3.2 (1)
        ("corralling_ball", "delay_of_game_corralling"),  # 3.2 (5) / 3.7 DoG (3)
        ("holding_up_play", "delay_of_game_holding_up_play"),  # 3.2 (6) / 3.7 DoG (7)
        ("stepping_on_ball", "delay_of_game_stepping_on_ball"),  # 3.2 (7) / 3.7 DoG (6)
        ("improper_equipment", "equipment_infraction"),  # 3.2 (8) / 3.7 equipment
    ],
)
def test_youth_warning_first_time_minor_when_repeated(warning: str, minor: str) -> None:
    """Youth 3.2: a warning the first time; the same act again in the game is the 3.7 minor."""
    first = youth(warning)
    assert first.infraction.category == "warning" and first.minutes == 0
    second = youth(warning, [first.record])
    assert second.called == warning and second.infraction.key == minor
    assert second.minutes == 2 and second.record.category == "minor"
    assert "instead of a warning" in second.summary
    third = youth(warning, [first.record, second.record])
    assert third.infraction.key == minor


def test_repeated_warning_counts_toward_three_minors() -> None:
    """Youth 3.2 + 3.11 (3): a warning turned minor is a minor like any other."""
    prior = [rec("stepping_on_ball", "warning"), rec("tripping", M), rec("hooking", M)]
    outcome = youth("stepping_on_ball", prior)
    assert outcome.game_misconduct and outcome.ejected


def test_double_minor_weight_is_a_setting() -> None:
    rules = replace(YOUTH, discipline_minors_per_double_minor=1)
    outcome = apply_penalty(rules, YOUTH_CAT, [rec("hooking", M)], "punching", 10, YOUTH_GAME)
    assert not outcome.game_misconduct


# --------------------------------------------------------------------------- co-ed, indoor


def coed(key: str, prior: list[PenaltyRecord] | None = None, minute: int | None = 10):
    return apply_penalty(COED, COED_CAT, prior or [], key, minute, COED_GAME)


def test_coed_minor_offence_is_a_warning() -> None:
    """Co-ed rules: Penalties — minor offences (holding, hooking, ...) are warnings."""
    outcome = coed("holding")
    assert (outcome.minutes, outcome.ejected, outcome.pending_review) == (0, False, False)


def test_coed_major_sits_two_minutes_even_late() -> None:
    """Co-ed rules: Penalties — majors sit 2 minutes; no ejection or late-game rule."""
    outcome = coed("slapshot", minute=39)
    assert (outcome.minutes, outcome.ejected, outcome.suspension_games) == (2, False, 0)


def test_coed_three_majors_are_not_a_game_misconduct() -> None:
    prior = [rec("slapshot", MAJ), rec("high_sticking", MAJ)]
    assert not coed("slapshot", prior).game_misconduct


def test_coed_severe_offence_is_one_to_five_games() -> None:
    """Co-ed rules: Penalties — severe offences, 1 game - 5 game suspensions."""
    outcome = coed("tripping")
    assert outcome.minutes == 2 and not outcome.ejected
    assert outcome.suspension_range == (1, 5) and outcome.suspension_games == 1
    assert outcome.pending_review
    assert "suspension of 1-5 games" in outcome.summary


def test_coed_extreme_offence_ejects_and_is_written_up() -> None:
    outcome = coed("pushing_roughing_fighting")
    assert outcome.ejected and outcome.pending_review


def test_coed_five_minute_misconduct() -> None:
    """Co-ed rules: a 5-minute misconduct, e.g. a penalty on a breakaway."""
    outcome = coed("penalty_on_breakaway")
    assert outcome.minutes == 5 and not outcome.ejected


def test_coed_repeated_infraction_is_written_up() -> None:
    """Co-ed rules: Penalties — "severe enough, intentional, or repeated ... written up"."""
    assert not coed("hooking").pending_review
    outcome = coed("hooking", [rec("holding", "warning")])
    assert outcome.pending_review and "second infraction in this game: written up" in outcome.summary


def test_soccer_yellow_card_is_two_minutes_down() -> None:
    """Indoor soccer rules: General — yellow card = leave the field, team down 2 minutes."""
    prior = [rec("slide_tackle", "yellow_card")] * 3
    outcome = apply_penalty(SOCCER, SOCCER_CAT, prior, "jewelry", 49, SOCCER_GAME)
    assert (outcome.minutes, outcome.ejected, outcome.suspension_games) == (2, False, 0)
    assert "team plays down 2 minutes" in outcome.summary


def test_soccer_ejection() -> None:
    """Indoor soccer rules: Substitutions — no substitute for an ejected player."""
    outcome = apply_penalty(SOCCER, SOCCER_CAT, [], "ejection", 5, SOCCER_GAME)
    assert outcome.ejected and outcome.game_misconduct


_PRESET_NAMES = sorted(PENALTY_CATALOGUES)


@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(_PRESET_NAMES),
    picks=st.lists(st.integers(min_value=0, max_value=200), min_size=1, max_size=8),
    minutes=st.lists(st.one_of(st.none(), st.integers(0, 60)), min_size=8, max_size=8),
)
def test_any_sequence_of_calls_is_cited_and_consistent(
    preset: str, picks: list[int], minutes: list[int | None]
) -> None:
    rules, catalogue = DISCIPLINE_PRESETS[preset], PENALTY_CATALOGUES[preset]
    records: list[PenaltyRecord] = []
    game_misconducts = 0
    for pick, minute in zip(picks, minutes, strict=False):
        key = catalogue[pick % len(catalogue)].key
        outcome = apply_penalty(rules, catalogue, records, key, minute, 45)
        assert all(c.citation and c.text for c in outcome.consequences)
        assert outcome.summary.count(";") == len(outcome.consequences) - 1
        assert outcome.minutes >= 0 and outcome.suspension_games >= 0
        if outcome.game_misconduct:
            assert outcome.ejected
        if outcome.infraction.category != "game_misconduct":
            game_misconducts += outcome.game_misconduct
        records.append(outcome.record)
    # Each count-based game misconduct fires once per threshold at most.
    assert game_misconducts <= 3


# --------------------------------------------------------------------------- rules data


def test_youth_preset_numbers() -> None:
    assert (
        YOUTH.discipline_game_misconduct_after_majors,
        YOUTH.discipline_game_misconduct_after_misconducts,
        YOUTH.discipline_game_misconduct_after_minors,
        YOUTH.discipline_late_major_minutes,
        YOUTH.discipline_late_major_suspension_games,
        YOUTH.discipline_late_misconduct_minutes,
        YOUTH.appeal_window_days,
        YOUTH.appeal_decision_days,
        YOUTH.appeals_allowed,
        YOUTH.suspensions_carry_into_playoffs,
        YOUTH.suspensions_carry_into_next_season,
    ) == (1, 2, 3, 5, 1, 10, 7, 5, 1, True, True)


def test_rules_validation_names_the_key() -> None:
    with pytest.raises(ValueError, match=r"rules\.appeal_window_days"):
        DisciplineRules(appeal_window_days=-1)
    with pytest.raises(ValueError, match=r"rules\.discipline_game_misconduct_after_minors"):
        DisciplineRules(discipline_game_misconduct_after_minors=0)
    with pytest.raises(ValueError, match="discipline_review_categories"):
        DisciplineRules(discipline_review_categories=("tantrum",))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- suspensions

ISSUED = datetime(2024, 3, 1, 20, 0, tzinfo=UTC)


def suspension(games: int = 3, status: str = "active", sid: int = 1) -> Suspension:
    return Suspension(sid, 42, 7, games, ISSUED, "fighting", status)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("games", "played", "remaining"),
    [(3, 0, 3), (3, 1, 2), (3, 3, 0), (3, 5, 0), (1, 1, 0), (0, 0, 0)],
)
def test_served_in_the_teams_next_games(games: int, played: int, remaining: int) -> None:
    """Youth 1.20.1 / docs/product.md §2: served in the team's next (consecutive) games."""
    assert games_remaining(suspension(games), played) == remaining


def test_playoff_and_next_season_games_count_toward_serving() -> None:
    """Youth 1.20.1 (carry into the playoffs) and 1.20.2 (carry into the next season)."""
    team_games_since_issue = ["regular", "playoff", "playoff", "next-season regular"]
    assert YOUTH.suspensions_carry_into_playoffs and YOUTH.suspensions_carry_into_next_season
    assert games_remaining(suspension(5), len(team_games_since_issue)) == 1
    assert games_remaining(suspension(4), len(team_games_since_issue)) == 0


def test_overturned_suspension_has_nothing_left() -> None:
    assert games_remaining(suspension(3, "overturned"), 0) == 0


def test_suspension_input_checks() -> None:
    with pytest.raises(ValueError):
        games_remaining(suspension(), -1)
    with pytest.raises(ValueError, match="timezone-aware"):
        Suspension(1, 1, 1, 2, datetime(2024, 3, 1), "x")
    with pytest.raises(ValueError):
        Suspension(1, 1, 1, -2, ISSUED, "x")


# --------------------------------------------------------------------------- appeals

WEEK = timedelta(days=7)


def appeal(outcome: str | None = None, filed: datetime = ISSUED + timedelta(days=1), sid: int = 1) -> Appeal:
    return Appeal(10, sid, filed, "it was an accident", outcome)  # type: ignore[arg-type]


@pytest.mark.parametrize("after", [timedelta(0), timedelta(days=6, hours=23), WEEK], ids=["at-issue", "day-6", "day-7"])
def test_appeal_allowed_within_one_week(after: timedelta) -> None:
    """Youth 1.21: appeals within 1 week after the suspension is issued (exactly 7 days: yes)."""
    appeal_allowed(suspension(), ISSUED + after, [], rules=YOUTH)


def test_appeal_refused_after_the_window() -> None:
    """Youth 1.21: no appeal within the week, the suspension is finalized."""
    with pytest.raises(DisciplineError, match="window to appeal") as info:
        appeal_allowed(suspension(), ISSUED + WEEK + timedelta(seconds=1), [], rules=YOUTH)
    assert info.value.citation == "Youth 1.21"


def test_second_appeal_refused() -> None:
    """Youth 1.12, 1.13: a suspension may be appealed once."""
    with pytest.raises(DisciplineError, match="already been appealed") as info:
        appeal_allowed(suspension(), ISSUED + timedelta(days=3), [appeal("upheld")], rules=YOUTH)
    assert info.value.citation == "Youth 1.12, 1.13"


def test_appeal_refused_while_one_is_pending() -> None:
    with pytest.raises(DisciplineError, match="already waiting"):
        appeal_allowed(suspension(), ISSUED + timedelta(days=3), [appeal()], rules=YOUTH)


def test_other_suspensions_appeals_do_not_count() -> None:
    appeal_allowed(suspension(), ISSUED + timedelta(days=3), [appeal("upheld", sid=2)], rules=YOUTH)


@pytest.mark.parametrize("status", ["served", "overturned"])
def test_nothing_to_appeal(status: str) -> None:
    with pytest.raises(DisciplineError):
        appeal_allowed(suspension(status=status), ISSUED, [], rules=YOUTH)


def test_league_without_appeals_and_with_two() -> None:
    with pytest.raises(DisciplineError, match="cannot be appealed"):
        appeal_allowed(suspension(), ISSUED, [], rules=replace(YOUTH, appeals_allowed=0))
    two = replace(YOUTH, appeals_allowed=2)
    appeal_allowed(suspension(), ISSUED + timedelta(days=2), [appeal("upheld")], rules=two)


def test_naive_now_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        appeal_allowed(suspension(), datetime(2024, 3, 2), [], rules=YOUTH)


@pytest.mark.parametrize(
    ("after", "appeals", "final"),
    [
        pytest.param(timedelta(days=1), [], False, id="inside-window"),
        pytest.param(WEEK, [], False, id="exactly-7-days"),
        pytest.param(WEEK + timedelta(seconds=1), [], True, id="window-passed-1.21"),
        pytest.param(timedelta(days=30), [appeal()], False, id="appeal-pending"),
        pytest.param(timedelta(days=2), [appeal("upheld")], True, id="appeal-decided-1.21"),
        pytest.param(timedelta(days=2), [appeal("upheld", sid=9)], False, id="other-suspension"),
    ],
)
def test_is_final(after: timedelta, appeals: list[Appeal], final: bool) -> None:
    """Youth 1.20.2, 1.21: final when the window passes unappealed or the appeal is decided."""
    assert is_final(suspension(), ISSUED + after, appeals, rules=YOUTH) is final


def test_overturned_is_final() -> None:
    assert is_final(suspension(status="overturned"), ISSUED, [], rules=YOUTH)


def test_window_and_decision_due() -> None:
    """Youth 1.21: 1 week to appeal; the case concludes within 5 days of submission."""
    assert appeal_window_closes(suspension(), rules=YOUTH) == ISSUED + WEEK
    filed = ISSUED + timedelta(days=6)
    assert appeal_decision_due(appeal(filed=filed), rules=YOUTH) == filed + timedelta(days=5)


DECIDE_AT = ISSUED + timedelta(days=3)


@pytest.mark.parametrize(
    ("outcome", "games", "new_games", "status"),
    [
        ("upheld", None, 3, "active"),
        ("upheld", 3, 3, "active"),
        ("reduced", 1, 1, "active"),
        ("reduced", 2, 2, "active"),
        ("overturned", None, 0, "overturned"),
        ("overturned", 0, 0, "overturned"),
    ],
)
def test_decide_appeal(outcome: str, games: int | None, new_games: int, status: str) -> None:
    decision = decide_appeal(suspension(3), outcome, games, now=DECIDE_AT, appeals=[appeal()], rules=YOUTH)
    assert (decision.outcome, decision.games, decision.status) == (outcome, new_games, status)
    assert decision.appeal_id == 10 and not decision.late and decision.decided_at == DECIDE_AT


@pytest.mark.parametrize(
    ("outcome", "games"),
    [
        ("reduced", None),
        ("reduced", 0),
        ("reduced", 3),
        ("reduced", 4),
        ("upheld", 2),
        ("overturned", 1),
        ("dismissed", None),
    ],
)
def test_decide_appeal_bad_requests(outcome: str, games: int | None) -> None:
    with pytest.raises(DisciplineError):
        decide_appeal(suspension(3), outcome, games, now=DECIDE_AT, appeals=[appeal()], rules=YOUTH)


def test_one_game_suspension_cannot_be_reduced() -> None:
    with pytest.raises(DisciplineError, match="cannot be reduced"):
        decide_appeal(suspension(1), "reduced", 0, now=DECIDE_AT, appeals=[appeal()], rules=YOUTH)


@pytest.mark.parametrize(
    ("now", "appeals"),
    [
        pytest.param(DECIDE_AT, [appeal("upheld")], id="appeal-already-decided"),
        pytest.param(ISSUED + WEEK + timedelta(days=1), [], id="window-passed-unappealed"),
    ],
)
@pytest.mark.parametrize("outcome", ["reduced", "overturned"])
def test_final_suspension_cannot_be_shortened(now: datetime, appeals: list[Appeal], outcome: str) -> None:
    """Youth 1.20.2: once issued and finalized, suspensions cannot be shortened."""
    with pytest.raises(DisciplineError, match="final") as info:
        decide_appeal(suspension(3), outcome, 1, now=now, appeals=appeals, rules=YOUTH)
    assert info.value.citation == "Youth 1.20.2, 1.21"


def test_decide_without_pending_appeal_refused() -> None:
    with pytest.raises(DisciplineError, match="no appeal waiting"):
        decide_appeal(suspension(3), "upheld", now=DECIDE_AT, appeals=[], rules=YOUTH)


def test_appeal_filed_in_time_can_be_decided_after_the_window() -> None:
    """Youth 1.21: the window limits filing; a pending appeal is decided even a week later."""
    filed = ISSUED + WEEK
    now = filed + timedelta(days=6)
    decision = decide_appeal(suspension(3), "reduced", 1, now=now, appeals=[appeal(filed=filed)], rules=YOUTH)
    assert decision.games == 1 and decision.late  # due within 5 days: late, still valid


def test_rule_switched_on_by_override_is_cited_as_a_league_setting() -> None:
    """A co-ed league that adds a two-major rule in config: the consequence still cites."""
    rules = replace(COED, discipline_game_misconduct_after_majors=2)
    prior = [rec("high_sticking", MAJ)]
    outcome = apply_penalty(rules, COED_CAT, prior, "slapshot", 5, COED_GAME)
    assert outcome.game_misconduct and outcome.ejected
    assert all(c.citation for c in outcome.consequences)
    assert "league setting" in cites(outcome)


# --- a suspension follows the person (youth 1.20.1) ------------------------------------------------
def _at(day: int) -> datetime:
    return datetime(2030, 1, day, tzinfo=UTC)


def test_a_moved_player_was_on_the_old_team_until_she_left_and_on_the_new_one_after() -> None:
    from bot.league.discipline.suspensions import Departure, RosterHistory

    history = RosterHistory(departures=(Departure(1, _at(10)),), current_team_id=2, current_since=_at(10))
    assert history.team_at(_at(9), issued_on=1) == 1
    assert history.team_at(_at(11), issued_on=1) == 2


def test_between_teams_a_player_is_on_none_and_off_every_roster_too() -> None:
    from bot.league.discipline.suspensions import Departure, RosterHistory

    history = RosterHistory(departures=(Departure(1, _at(10)),), current_team_id=2, current_since=_at(15))
    assert history.team_at(_at(12), issued_on=1) is None
    assert history.team_at(_at(16), issued_on=1) == 2
    gone = RosterHistory(departures=(Departure(1, _at(10)),))
    assert gone.team_at(_at(12), issued_on=1) is None and gone.team_at(_at(9), issued_on=1) == 1


def test_with_no_history_kept_the_team_it_was_issued_on_counts_before_the_current_place() -> None:
    from bot.league.discipline.suspensions import RosterHistory

    history = RosterHistory(current_team_id=2, current_since=_at(15))
    assert history.team_at(_at(12), issued_on=1) == 1
    assert history.team_at(_at(16), issued_on=1) == 2


def test_two_moves_are_followed_in_order() -> None:
    from bot.league.discipline.suspensions import Departure, RosterHistory

    history = RosterHistory(departures=(Departure(2, _at(20)), Departure(1, _at(10))), current_team_id=3,
                            current_since=_at(20))
    assert [history.team_at(_at(d), issued_on=1) for d in (5, 15, 25)] == [1, 2, 3]


def test_a_player_who_sat_out_and_came_back_was_on_no_team_in_the_gap() -> None:
    """Cleared at a season's start (day 10), back on team 1 on day 20, moved to team 2 on day 25: a team-1
    game on day 15 is not hers, which only the stint's arrival (``joined_at``) can say."""
    from bot.league.discipline.suspensions import Departure, RosterHistory

    history = RosterHistory(departures=(Departure(1, _at(10), _at(1)), Departure(1, _at(25), _at(20))),
                            current_team_id=2, current_since=_at(25))
    assert [history.team_at(_at(d), issued_on=1) for d in (5, 15, 22, 27)] == [1, None, 1, 2]
    legacy = RosterHistory(departures=(Departure(1, _at(10)), Departure(1, _at(25))), current_team_id=2,
                           current_since=_at(25))
    assert legacy.team_at(_at(15), issued_on=1) == 1  # recorded before arrivals were: as it always was


def test_an_indoor_ejection_says_no_substitute_may_be_made() -> None:
    """Indoor soccer rules, Substitutions: "Substitutions may not be made for ejected players"."""
    indoor = DISCIPLINE_PRESETS["indoor-soccer"]
    outcome = apply_penalty(indoor, PENALTY_CATALOGUES["indoor-soccer"], [], "ejection", 10, 50)
    notes = [c for c in outcome.consequences if c.kind == "note"]
    assert outcome.ejected and len(notes) == 1
    assert notes[0].text.startswith("Substitutions may not be made for ejected players")
    assert notes[0].citation == "Indoor soccer rules: Substitutions"
    yellow = apply_penalty(indoor, PENALTY_CATALOGUES["indoor-soccer"], [], "slide_tackle", 10, 50)
    assert not any("Substitutions" in c.text for c in yellow.consequences)
    coed = apply_penalty(COED, COED_CAT, [], "game_misconduct", 10, COED_GAME)
    assert coed.ejected and not any("Substitutions" in c.text for c in coed.consequences)


# --- suspension lengths: the range the rulebook gives an infraction (bot/league/discipline/lengths.py) --------
SLASHING = find_infraction(COED_CAT, "slashing")
PHYSICAL_REF_ABUSE = find_infraction(YOUTH_CAT, "referee_abuse_physical")


@pytest.mark.parametrize("games", [1, 3, 5])
def test_coed_severe_offence_suspension_inside_its_range_stands(games: int) -> None:
    length = suspension_length(COED, SLASHING, games, by_commissioner=True)
    assert (length.games, length.beyond, length.note) == (games, "", "")


@pytest.mark.parametrize("games", [6, 8, 100])
def test_coed_severe_offence_suspension_beyond_1_to_5_games_is_refused(games: int) -> None:
    """Co-ed "Severe offenses (1 game – 5 game suspensions)", and no rule lets anyone go beyond it."""
    for by_commissioner in (True, False):
        with pytest.raises(DisciplineError) as info:
            suspension_length(COED, SLASHING, games, by_commissioner=by_commissioner)
        assert str(info.value).startswith(f"A suspension for slashing is 1 to 5 games (Co-ed rules: Major offenses, "
                                          f"severe offenses (1)), not {games}")
        assert ("the commissioners" if by_commissioner else "a referee") in str(info.value)


@pytest.mark.parametrize("games", [1, 20])
def test_youth_commissioners_may_go_beyond_the_15_games_and_say_by_which_rule(games: int) -> None:
    """Youth 3.11 (4): "plus 15 game suspension"; 1.12: the commissioners "may decrease/increase the
    suspension"; 1.13: they "hold the final decision on all suspensions". A referee may not."""
    length = suspension_length(YOUTH, PHYSICAL_REF_ABUSE, games, by_commissioner=True)
    assert length.beyond == "Youth 1.12, 1.13"
    assert length.note == ("That is outside the 15 games the rulebook gives physical referee abuse (Youth 3.11 (4)); "
                           "the commissioners may set it (Youth 1.12, 1.13).")
    with pytest.raises(DisciplineError):
        suspension_length(YOUTH, PHYSICAL_REF_ABUSE, games, by_commissioner=False)
    assert suspension_length(YOUTH, PHYSICAL_REF_ABUSE, 15, by_commissioner=True).note == ""


def test_no_range_no_limit() -> None:
    """An infraction the rulebook gives no length (a co-ed extreme offence), or no infraction at all."""
    assert suspension_length(COED, find_infraction(COED_CAT, "ref_abuse"), 40, by_commissioner=True).note == ""
    assert suspension_length(COED, None, 40, by_commissioner=True).games == 40


def test_a_league_may_give_its_commissioners_the_power() -> None:
    free = replace(COED, discipline_commissioner_may_exceed_range=True)
    assert "the commissioners may set it (a league setting)" in suspension_length(
        free, SLASHING, 8, by_commissioner=True).note


def test_a_referees_suspension_keeps_to_the_range_too() -> None:
    with pytest.raises(DisciplineError) as info:
        apply_penalty(COED, COED_CAT, [], "slashing", 10, COED_GAME, referee_games=8)
    assert "1 to 5 games" in str(info.value) and "a referee" in str(info.value)
    five = apply_penalty(COED, COED_CAT, [], "slashing", 10, COED_GAME, referee_games=5)
    assert five.suspension_games == 5 and five.suspension_range == (1, 5)


@pytest.mark.parametrize(("action", "games"), [("set-games", 8), ("set-games", 6)])
def test_a_review_of_a_severe_offence_keeps_to_1_to_5_games(action: str, games: int) -> None:
    from bot.league.discipline.reviews import review_suspension

    with pytest.raises(DisciplineError) as info:
        review_suspension(COED, current_games=1, pending=True, reviewed=False, action=action, games=games,
                          infraction=SLASHING)
    assert "1 to 5 games" in str(info.value) and f"not {games}" in str(info.value)
    decision = review_suspension(COED, current_games=1, pending=True, reviewed=False, action=action, games=5,
                                 infraction=SLASHING)
    assert (decision.games_after, decision.note) == (5, "")


def test_a_youth_review_beyond_the_range_says_which_rule_allows_it() -> None:
    from bot.league.discipline.reviews import review_suspension

    confirmed = review_suspension(YOUTH, current_games=1, pending=True, reviewed=False, action="confirm",
                                  games=None, infraction=PHYSICAL_REF_ABUSE)
    assert confirmed.games_after == 1 and "(Youth 1.12, 1.13)" in confirmed.note
