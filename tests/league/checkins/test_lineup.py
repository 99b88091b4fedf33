"""Lineup rules, one test per rulebook rule (the citation is in each test's name or docstring)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.checkins.lineup import (
    BELOW_MINIMUM_TO_START,
    EXCLUDED_GUEST_UNAPPROVED,
    EXCLUDED_SUSPENDED,
    EXCLUDED_UNROSTERED,
    FINDING_CODES,
    NO_GOALIE,
    ROSTER_LIMIT,
    SHORT_OF_SKATERS,
    SHORT_OF_WOMEN,
    CheckedInPlayer,
    LineupReport,
    check_lineup,
    check_roster_limit,
)
from bot.league.checkins.presets import LINEUP_PRESETS, LineupRules, lineup_rules_for

COED = LINEUP_PRESETS["coed-ball-hockey"]
YOUTH = LINEUP_PRESETS["youth-ball-hockey"]
JUNIOR = lineup_rules_for(YOUTH, "junior")
SENIOR = lineup_rules_for(YOUTH, "senior")
SOCCER = LINEUP_PRESETS["indoor-soccer"]

_ids = itertools.count(1)


def player(gender: str | None = "man", position: str = "skater", **flags: bool) -> CheckedInPlayer:
    """A checked-in player with a fresh id."""
    player_id = next(_ids)
    return CheckedInPlayer(player_id, f"P{player_id}", position, gender, **flags)  # type: ignore[arg-type]


def goalie(gender: str | None = "man", **flags: bool) -> CheckedInPlayer:
    return player(gender, "goalie", **flags)


def skaters(count: int, gender: str | None = "man", **flags: bool) -> list[CheckedInPlayer]:
    return [player(gender, **flags) for _ in range(count)]


def finding(report: LineupReport, code: str):
    (match,) = [f for f in report.findings if f.code == code]
    return match


# --- Co-ed rules: Teams — two women/non-binary skaters on the court, or play short -------------


@pytest.mark.parametrize(
    ("women", "skaters_allowed", "short_of_women"),
    [(0, 3, True), (1, 4, True), (2, 5, False), (3, 5, False)],
    ids=["0-women-3-skaters", "1-woman-4-skaters", "2-women-full", "3-women-full"],
)
def test_coed_teams_plays_short_by_women_nonbinary_checked_in(
    women: int, skaters_allowed: int, short_of_women: bool
) -> None:
    """Co-ed rules: Teams — 2 women/non-binary required, else at most 5 - (2 - available)."""
    report = check_lineup(COED, [goalie(), *skaters(women, "woman"), *skaters(5)])
    assert report.skater_spots == 5
    assert report.skaters_allowed == skaters_allowed
    assert report.short_by == 5 - skaters_allowed
    assert report.short_because_of_women_rule == 5 - skaters_allowed
    assert (SHORT_OF_WOMEN in report.codes) is short_of_women
    assert report.goalie is not None and report.goalie.position == "goalie"
    assert report.minimum_to_start_met


def test_coed_teams_short_of_women_message_and_citation() -> None:
    team = [goalie(), player("woman"), *skaters(5)]
    short = finding(check_lineup(COED, team), SHORT_OF_WOMEN)
    # Both sections are cited (they disagree on counting the goalie), and which reading applies.
    assert short.rule == ("Co-ed rules: Teams; Co-ed rules: Game Structure reads it the other way: this league "
                          "doesn't count the goalie")
    assert short.message == (
        "1 woman/non-binary skater checked in; 2 required on the court (the goalie does not"
        " count): play short, at most 4 skaters plus the goalie."
    )
    assert not any(p.name in short.message for p in team)  # never names who is a woman


@pytest.mark.parametrize(
    ("gender", "counts"),
    [("woman", True), ("non-binary", True), ("man", False), ("prefer-not-to-say", False),
     (None, False)],
)
def test_coed_teams_woman_and_nonbinary_count_toward_the_minimum(
    gender: str | None, counts: bool
) -> None:
    """Co-ed rules: Teams — "female/non-binary players"; unknown or undisclosed don't count."""
    report = check_lineup(COED, [goalie(), player("woman"), player(gender), *skaters(4)])
    assert report.women_nonbinary_available == (2 if counts else 1)
    assert report.skaters_allowed == (5 if counts else 4)


def test_coed_teams_woman_in_goal_does_not_count_toward_the_skater_minimum() -> None:
    """Co-ed rules: Teams — two women/non-binary on the court "(not including the goalie)"."""
    report = check_lineup(COED, [goalie("woman"), player("woman"), *skaters(5)])
    assert report.goalie is not None and report.goalie.gender == "woman"
    assert report.women_nonbinary_available == 1
    assert report.skaters_allowed == 4
    assert SHORT_OF_WOMEN in report.codes


def test_coed_teams_a_woman_may_play_as_a_skater() -> None:
    """Co-ed rules: Teams — women/non-binary skaters fill the required spots first."""
    women = skaters(2, "woman")
    report = check_lineup(COED, [goalie(), *skaters(5), *women])
    assert report.skaters_allowed == 5
    assert set(women) <= set(report.starting_skaters)
    assert report.ok


def test_two_goalies_one_plays_goal_the_other_skates() -> None:
    """Co-ed rules: Game Structure — one goalie each; a second goalie counts as a skater."""
    first, second = goalie(), goalie()
    report = check_lineup(COED, [first, second, *skaters(2, "woman"), *skaters(2)])
    assert report.goalie is first
    assert second in report.eligible_skaters
    assert report.skaters_allowed == 5


def test_two_goalies_the_woman_skates_when_that_ends_the_shortfall() -> None:
    """Co-ed rules: Teams — a woman goalie skates if the other goalie can take the net."""
    woman_goalie, man_goalie = goalie("woman"), goalie("man")
    report = check_lineup(COED, [woman_goalie, man_goalie, player("woman"), *skaters(4)])
    assert report.goalie is man_goalie
    assert woman_goalie in report.starting_skaters
    assert report.skaters_allowed == 5
    assert SHORT_OF_WOMEN not in report.codes


def test_two_goalies_the_first_keeps_goal_when_nobody_is_short() -> None:
    woman_goalie, man_goalie = goalie("woman"), goalie("man")
    report = check_lineup(COED, [woman_goalie, man_goalie, *skaters(2, "woman"), *skaters(3)])
    assert report.goalie is woman_goalie
    assert report.skaters_allowed == 5


def test_coed_game_structure_no_goalie_a_skater_stands_in() -> None:
    """Co-ed rules: Game Structure — 6 on the court "including a goalie"."""
    women = skaters(2, "woman")
    men = skaters(4)
    report = check_lineup(COED, [*women, *men])
    no_goalie = finding(report, NO_GOALIE)
    assert no_goalie.rule == "Co-ed rules: Game Structure"
    assert report.goalie_is_stand_in
    assert report.goalie is men[0]  # a stand-in who does not count toward the women minimum
    assert report.skaters_allowed == 5
    assert SHORT_OF_WOMEN not in report.codes


def test_coed_has_no_minimum_to_start_it_plays_short() -> None:
    """Co-ed rules: no minimum to start; a short team plays short (docs/product.md §2)."""
    report = check_lineup(COED, [goalie(), player()])
    assert report.minimum_to_start_met
    assert BELOW_MINIMUM_TO_START not in report.codes
    assert report.skaters_allowed == 1
    assert {SHORT_OF_WOMEN, SHORT_OF_SKATERS} <= report.codes


def test_short_of_skaters_is_separate_from_the_women_rule() -> None:
    """Co-ed rules: Teams — one spot lost to the women rule, one to too few skaters."""
    report = check_lineup(COED, [goalie(), player("woman"), *skaters(2)])
    assert report.skaters_allowed == 3
    assert report.short_because_of_women_rule == 1
    assert report.short_because_too_few_skaters == 1
    assert report.short_by == 2
    assert {SHORT_OF_WOMEN, SHORT_OF_SKATERS} <= report.codes
    assert finding(report, SHORT_OF_SKATERS).rule == "Co-ed rules: Game Structure"


# --- Youth 2.4 to 2.6 — court sizes and the minimum to start ------------------------------------


@pytest.mark.parametrize(
    ("division", "players_on_court"),
    [("junior", 5), ("senior", 6), ("Junior", 5), (" SENIOR ", 6), (None, 6)],
)
def test_youth_2_5_and_2_6_court_size_by_division(
    division: str | None, players_on_court: int
) -> None:
    """Youth 2.5 — junior 4-on-4 with a goalie; Youth 2.6 — senior 5-on-5 with a goalie."""
    assert lineup_rules_for(YOUTH, division).players_on_court == players_on_court


def test_youth_unknown_division_is_refused() -> None:
    with pytest.raises(ValueError, match="court_sizes_by_division"):
        lineup_rules_for(YOUTH, "bantam")


def test_divisions_do_not_change_presets_without_division_sizes() -> None:
    assert lineup_rules_for(COED, "A") is COED


@pytest.mark.parametrize(
    ("rules", "skaters_checked_in", "skaters_allowed"),
    [(JUNIOR, 6, 4), (SENIOR, 6, 5), (JUNIOR, 3, 3), (SENIOR, 3, 3)],
    ids=["junior-4-on-4", "senior-5-on-5", "junior-3-plus-goalie", "senior-3-plus-goalie"],
)
def test_youth_2_5_2_6_skaters_on_court(
    rules: LineupRules, skaters_checked_in: int, skaters_allowed: int
) -> None:
    report = check_lineup(rules, [goalie(), *skaters(skaters_checked_in)])
    assert report.skaters_allowed == skaters_allowed
    assert report.minimum_to_start_met
    assert BELOW_MINIMUM_TO_START not in report.codes


@pytest.mark.parametrize("rules", [JUNIOR, SENIOR], ids=["junior", "senior"])
def test_youth_2_4_three_skaters_and_a_goalie_to_start(rules: LineupRules) -> None:
    """Youth 2.4 — junior and senior teams need 3 players and a goalie to start."""
    assert check_lineup(rules, [goalie(), *skaters(3)]).minimum_to_start_met
    short = check_lineup(rules, [goalie(), *skaters(2)])
    assert not short.minimum_to_start_met
    below = finding(short, BELOW_MINIMUM_TO_START)
    assert below.rule == "Youth 2.4"
    assert "Not enough to start: needs 3 skaters and a goalie; has 2 skaters and a goalie." in below.message


def test_youth_2_4_grace_bench_minor_and_forfeit_in_the_message() -> None:
    """Youth 2.4 — 5-minute grace, then a 2-minute bench minor; forfeit after 10 minutes."""
    assert (YOUTH.start_grace_minutes, YOUTH.late_start_bench_minor_minutes) == (5, 2)
    assert YOUTH.forfeit_after_minutes == 10
    message = finding(check_lineup(SENIOR, [goalie(), player()]), BELOW_MINIMUM_TO_START).message
    assert "5-minute grace period, then a 2-minute bench minor" in message
    assert "10 minutes after the scheduled start: the team forfeits" in message


@pytest.mark.parametrize("count", [3, 4, 7])
def test_youth_2_4_a_goalie_is_needed_to_start(count: int) -> None:
    """Youth 2.4 "a minimum of 3 players and one goalie to start the game": a skater would stand in goal for
    the court's counts, but a stand-in is no goalie, however many skaters are in: one check says so."""
    report = check_lineup(SENIOR, skaters(count))
    assert report.goalie_is_stand_in
    assert not report.minimum_to_start_met
    assert {NO_GOALIE, BELOW_MINIMUM_TO_START} <= report.codes
    assert finding(report, NO_GOALIE).rule == "Youth 2.4"
    assert "A goalie is needed to start the game: a skater standing in doesn't count." in finding(
        report, NO_GOALIE).message
    below = finding(report, BELOW_MINIMUM_TO_START)
    assert below.rule == "Youth 2.4"
    assert below.message.startswith(f"Not enough to start: needs 3 skaters and a goalie; has {count} skaters and "
                                    "no goalie.")
    assert check_lineup(SENIOR, [goalie(), *skaters(3)]).minimum_to_start_met


def test_a_stand_in_counts_where_the_rulebook_needs_no_goalie_to_start() -> None:
    """Indoor soccer rules: Game — "at least 4 players": a field player in goal is one of them."""
    report = check_lineup(SOCCER, skaters(4))
    assert report.goalie_is_stand_in and report.minimum_to_start_met


def test_youth_nobody_checked_in() -> None:
    report = check_lineup(JUNIOR, [])
    assert report.goalie is None
    assert not report.minimum_to_start_met
    assert "no skater to stand in goal" in finding(report, NO_GOALIE).message


def test_youth_has_no_women_nonbinary_requirement() -> None:
    report = check_lineup(SENIOR, [goalie(), *skaters(5)])
    assert report.ok


# --- Indoor soccer rules: Game — 5 + goalie, 4 to start, roster only, approved guests ------------


@pytest.mark.parametrize(
    ("checked_in", "met"),
    [
        (lambda: [goalie(), *skaters(3)], True),
        (lambda: [goalie(), *skaters(2)], False),
        (lambda: skaters(4), True),
        (lambda: skaters(3), False),
    ],
    ids=["3-and-goalie", "2-and-goalie", "4-field-players", "3-field-players"],
)
def test_indoor_soccer_game_four_players_to_start(checked_in, met: bool) -> None:
    """Indoor soccer rules: Game — at least 4 players on the field to start the game."""
    report = check_lineup(SOCCER, checked_in())
    assert report.minimum_to_start_met is met
    assert (BELOW_MINIMUM_TO_START in report.codes) is not met
    if not met:
        below = finding(report, BELOW_MINIMUM_TO_START)
        assert below.rule == "Indoor soccer rules: Game"
        assert below.message == "Not enough to start: needs 4 players; has 3 players."


def test_indoor_soccer_game_five_field_players_and_a_goalie() -> None:
    report = check_lineup(SOCCER, [goalie(), *skaters(7)])
    assert report.skaters_allowed == 5
    assert report.ok


def test_indoor_soccer_game_approved_guest_plays() -> None:
    """Indoor soccer rules: Game — guests play once cleared by staff."""
    guest = player(rostered=False, guest_approved=True)
    report = check_lineup(SOCCER, [goalie(), guest])
    assert guest in report.eligible_skaters
    assert not report.excluded


def test_indoor_soccer_game_unapproved_guest_is_excluded() -> None:
    """Indoor soccer rules: Game — "Only players on roster may play" unless cleared."""
    guest = player(rostered=False)
    report = check_lineup(SOCCER, [goalie(), *skaters(5), guest])
    assert guest not in report.eligible_skaters
    assert [(e.player, e.code) for e in report.excluded] == [(guest, EXCLUDED_GUEST_UNAPPROVED)]
    excluded = finding(report, EXCLUDED_GUEST_UNAPPROVED)
    assert excluded.rule == "Indoor soccer rules: Game"
    assert guest.name in excluded.message


# --- Eligibility: suspended and unrostered players are never counted -----------------------------


@pytest.mark.parametrize(
    ("rules", "rule"),
    [(COED, "Co-ed rules: Major offenses, severe offenses"), (SENIOR, "Youth 1.20.1"), (SOCCER, "League suspension")],
    ids=["coed", "youth", "soccer"],
)
def test_suspended_players_are_never_counted(rules: LineupRules, rule: str) -> None:
    """Co-ed rules: Major offenses, severe offenses (1-5 game suspensions), Youth 1.20.1 — a suspended player sits
    out."""
    suspended_goalie = goalie(suspended=True)
    suspended_woman = player("woman", suspended=True)
    report = check_lineup(rules, [suspended_goalie, suspended_woman, *skaters(3)])
    assert report.goalie not in (suspended_goalie, suspended_woman)
    assert suspended_woman not in report.eligible_skaters
    assert report.women_nonbinary_available == 0
    assert [e.code for e in report.excluded] == [EXCLUDED_SUSPENDED, EXCLUDED_SUSPENDED]
    assert [f.rule for f in report.findings if f.code == EXCLUDED_SUSPENDED] == [rule, rule]


@pytest.mark.parametrize(
    ("rules", "rule"),
    [(COED, "League setting: guests_allowed"), (SENIOR, "League setting: guests_allowed")],
    ids=["coed", "youth"],
)
def test_unrostered_players_are_never_counted_where_there_are_no_guests(
    rules: LineupRules, rule: str
) -> None:
    """Neither the co-ed nor the youth rulebook has guests: only the roster plays, a league setting."""
    ringer = player(rostered=False, guest_approved=True)
    report = check_lineup(rules, [goalie(), ringer, *skaters(3)])
    assert ringer not in report.eligible_skaters
    assert finding(report, EXCLUDED_UNROSTERED).rule == rule


def test_a_suspended_guest_is_reported_as_suspended() -> None:
    guest = player(rostered=False, suspended=True, guest_approved=True)
    report = check_lineup(SOCCER, [goalie(), guest])
    assert [e.code for e in report.excluded] == [EXCLUDED_SUSPENDED]


def test_a_player_checked_in_twice_counts_once() -> None:
    twice = player("woman")
    report = check_lineup(COED, [goalie(), twice, twice, *skaters(4)])
    assert report.women_nonbinary_available == 1
    assert report.eligible_skaters.count(twice) == 1


# --- Roster limit: Co-ed rules: Teams — 20 active players ----------------------------------------


@pytest.mark.parametrize(
    ("rules", "roster_size", "breach"),
    [(COED, 20, False), (COED, 21, True), (SENIOR, 40, False), (SOCCER, 40, False)],
    ids=["coed-20", "coed-21", "youth-draft", "soccer"],
)
def test_roster_limit(rules: LineupRules, roster_size: int, breach: bool) -> None:
    """Co-ed rules: Teams — "Rosters will be limited to 20 active players"."""
    result = check_roster_limit(rules, roster_size)
    if not breach:
        assert result is None
        return
    assert result is not None
    assert (result.code, result.rule) == (ROSTER_LIMIT, "Co-ed rules: Teams")
    assert result.message == "The roster has 21 players; the limit is 20."


def test_check_lineup_reports_the_roster_limit_when_given_the_roster_size() -> None:
    team = [goalie(), *skaters(2, "woman"), *skaters(3)]
    assert ROSTER_LIMIT in check_lineup(COED, team, roster_size=21).codes
    assert check_lineup(COED, team, roster_size=20).ok


# --- Overrides and validation ------------------------------------------------------------------


def test_an_override_without_a_rulebook_rule_cites_the_league_setting() -> None:
    rules = replace(SENIOR, women_nonbinary_on_court=1)
    report = check_lineup(rules, [goalie(), *skaters(5)])
    assert report.skaters_allowed == 4
    assert finding(report, SHORT_OF_WOMEN).rule == "League setting: women_nonbinary_on_court"


def test_without_playing_short_a_shortfall_of_women_means_the_team_cannot_start() -> None:
    rules = replace(COED, plays_short_when_short_of_women=False)
    report = check_lineup(rules, [goalie(), player("woman"), *skaters(5)])
    assert report.skaters_allowed == 5
    assert not report.minimum_to_start_met
    assert "does not allow playing short" in finding(report, SHORT_OF_WOMEN).message


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"women_nonbinary_on_court": 6}, "women_nonbinary_on_court"),
        ({"players_on_court": 0}, "players_on_court"),
        ({"roster_limit": -1}, "roster_limit"),
        ({"forfeit_after_minutes": 3}, "forfeit_after_minutes"),
    ],
)
def test_impossible_settings_are_refused_naming_the_key(overrides: dict, key: str) -> None:
    base = YOUTH if key == "forfeit_after_minutes" else COED
    with pytest.raises(ValueError, match=rf"rules\.{key}"):
        replace(base, **overrides)


def test_women_requirement_must_fit_the_smallest_division_court() -> None:
    with pytest.raises(ValueError, match="women_nonbinary_on_court"):
        replace(YOUTH, women_nonbinary_on_court=5)


def test_finding_codes_are_distinct() -> None:
    assert len(set(FINDING_CODES)) == len(FINDING_CODES)


# --- Property: never more skaters than the court, never an ineligible player --------------------


def _eligible(rules: LineupRules, p: CheckedInPlayer) -> bool:
    if p.suspended:
        return False
    if p.rostered:
        return True
    return rules.guests_allowed and (p.guest_approved or not rules.guests_need_approval)


_rules = st.sampled_from([COED, JUNIOR, SENIOR, SOCCER]).flatmap(
    lambda base: st.builds(
        replace,
        st.just(base),
        plays_short_when_short_of_women=st.booleans(),
        guests_allowed=st.booleans(),
        guests_need_approval=st.booleans(),
        women_nonbinary_on_court=st.integers(
            0, min([base.players_on_court, *base.court_sizes_by_division.values()]) - 1
        ),
    )
)
_check_ins = st.lists(
    st.builds(
        CheckedInPlayer,
        player_id=st.integers(1, 30),
        name=st.just("X"),
        position=st.sampled_from(["skater", "goalie"]),
        gender=st.sampled_from(["woman", "non-binary", "man", "prefer-not-to-say", None]),
        rostered=st.booleans(),
        suspended=st.booleans(),
        guest_approved=st.booleans(),
    ),
    max_size=25,
)


@given(rules=_rules, check_ins=_check_ins)
def test_property_skaters_allowed_never_exceed_the_court_nor_include_the_ineligible(
    rules: LineupRules, check_ins: list[CheckedInPlayer]
) -> None:
    report = check_lineup(rules, check_ins)
    assert 0 <= report.skaters_allowed <= rules.skater_spots
    assert len(report.starting_skaters) == report.skaters_allowed
    assert set(report.starting_skaters) <= set(report.eligible_skaters)
    on_court = [*report.starting_skaters, *([report.goalie] if report.goalie else [])]
    assert len(on_court) <= rules.players_on_court
    assert len({p.player_id for p in on_court}) == len(on_court)
    assert all(_eligible(rules, p) for p in on_court)
    assert all(_eligible(rules, p) for p in report.eligible_skaters)
    assert not any(_eligible(rules, e.player) for e in report.excluded)
    assert report.goalie not in report.eligible_skaters
    unique = {p.player_id for p in check_ins}
    accounted = [*on_court[len(report.starting_skaters):], *report.eligible_skaters]
    accounted += [e.player for e in report.excluded]
    assert sorted(p.player_id for p in accounted) == sorted(unique)
    if rules.plays_short_when_short_of_women:
        men = sum(not p.counts_toward_women_nonbinary for p in report.starting_skaters)
        assert men <= rules.skater_spots - rules.women_nonbinary_on_court
    assert {f.code for f in report.findings} <= set(FINDING_CODES)


def test_coed_goalie_counting_is_a_setting_and_a_captain_is_told_which_reading_applies() -> None:
    """Co-ed Teams: "(not including the goalie)" vs Game Structure: two women/non-binary "players on the court"."""
    from dataclasses import replace

    team = [goalie("woman"), player("woman"), *skaters(5)]
    short = finding(check_lineup(COED, team), SHORT_OF_WOMEN)
    assert ("Your woman/non-binary goalie would count under Co-ed rules: Game Structure; this league applies "
            "Co-ed rules: Teams (not the goalie). A commissioner can change it: /setup rule "
            "key:goalie_counts_toward_women_nonbinary value:true") in short.message
    counted = replace(COED, goalie_counts_toward_women_nonbinary=True)
    report = check_lineup(counted, team)
    assert SHORT_OF_WOMEN not in report.codes and report.skaters_allowed == 5
    alone = finding(check_lineup(counted, [goalie("woman"), *skaters(5)]), SHORT_OF_WOMEN)
    assert "1 woman/non-binary player checked in" in alone.message and "the goalie counts too" in alone.message
    assert alone.rule.endswith("this league counts the goalie")
    men_in_goal = finding(check_lineup(COED, [goalie(), player("woman"), *skaters(5)]), SHORT_OF_WOMEN)
    assert "would count under" not in men_in_goal.message
