"""Shootout rules of the three rulebooks: orders, the order generator, and scoring."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.league.shootouts.eligibility import Shooter, ShootoutPool, eligible_shooters, shootout_requirements
from bot.league.shootouts.order import validate_goalie_change, validate_order
from bot.league.shootouts.presets import SHOOTOUT_PRESETS, ShootoutError, ShootoutRules
from bot.league.shootouts.scoring import Attempt, ShootoutState, record_attempt, score_shootout
from bot.league.shootouts.suggestion import suggest_order

COED = SHOOTOUT_PRESETS["coed-ball-hockey"]
YOUTH = SHOOTOUT_PRESETS["youth-ball-hockey"]
INDOOR = SHOOTOUT_PRESETS["indoor-soccer"]
COED_SHOOTOUTS = "Co-ed rules: Shootouts"
COED_PAST_3 = "Co-ed rules: Shoot-Out Format past first 3 shooters"


def team(women: int, others: int, first_id: int = 1) -> ShootoutPool:
    """Women/non-binary players W1.. (ids first), then others M1..."""
    shooters = [Shooter(first_id + i, f"W{i + 1}", True) for i in range(women)]
    shooters += [Shooter(first_id + women + i, f"M{i + 1}", False) for i in range(others)]
    return ShootoutPool(tuple(shooters))


def ids(pool: ShootoutPool, *names: str) -> list[int]:
    by_name = {s.name: s.player_id for s in pool.eligible}
    return [by_name[n] for n in names]


def codes(violations) -> list[tuple[str, int | None]]:
    return [(v.code, v.position) for v in violations]


# --------------------------------------------------------------------------------------------------
# Presets


def test_presets_carry_every_rulebook_number():
    assert set(SHOOTOUT_PRESETS) == {"coed-ball-hockey", "youth-ball-hockey", "indoor-soccer"}
    assert (COED.shootout_initial_shooters, COED.shootout_min_women_initial) == (3, 1)
    assert (COED.shootout_block_size, COED.shootout_min_women_per_block) == (3, 1)
    assert COED.shootout_match_smaller_team and COED.shootout_no_repeat_until_all_shot
    assert (YOUTH.shootout_initial_shooters, YOUTH.shootout_initial_shooters_playoff) == (3, 5)
    assert YOUTH.shootout_min_women_initial == 0 and not YOUTH.shootout_match_smaller_team
    assert INDOOR.shootout_initial_shooters == INDOOR.shootout_initial_shooters_playoff == 4
    assert INDOOR.shootout_only_players_on_floor and not INDOOR.shootout_goalie_may_change
    assert all(r.shootout_alternating for r in SHOOTOUT_PRESETS.values())


def test_rules_are_flat_shootout_prefixed_overridable_fields():
    for name in ShootoutRules.__dataclass_fields__:
        assert name.startswith("shootout_")
    overridden = replace(COED, shootout_min_women_per_block=0)
    assert overridden.shootout_min_women_per_block == 0


# --------------------------------------------------------------------------------------------------
# Co-ed: "Shootouts" and "Shoot-Out Format past first 3 shooters"


def test_coed_first_3_shooters_need_a_woman_or_non_binary_player():
    """Co-ed Shootouts: "at least 1 of these 3 shooters must be female or non-binary"."""
    pool = team(2, 6)
    found = validate_order(COED, pool, None, ids(pool, "M1", "M2", "M3"))
    assert len(found) == 1
    assert found[0].message == (
        "Shooter 3: the first 3 shooters must include at least 1 woman or non-binary player "
        "(Co-ed rules: Shootouts)"
    )
    assert (found[0].code, found[0].rule, found[0].position) == (
        "initial_women",
        COED_SHOOTOUTS,
        3,
    )
    assert validate_order(COED, pool, None, ids(pool, "M1", "M2", "W1")) == []


def test_coed_first_3_shooters_are_3_different_players():
    """Co-ed Shootouts: "Teams will select 3 players to shoot"."""
    pool = team(2, 6)
    found = validate_order(COED, pool, None, ids(pool, "W1", "M1", "W1"))
    assert codes(found) == [("initial_repeat", 3)]
    assert "must be 3 different players" in found[0].message


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # shooters 4-6 and 7-9 each have a woman/non-binary player
        (["W1", "M1", "M2", "M3", "W2", "M4", "M5", "M6", "W3"], []),
        # shooters 4-6: three men
        (["W1", "M1", "M2", "M3", "M4", "M5", "W2"], [("block_women", 6)]),
        # shooters 4-6 and 7-9 both without a woman/non-binary player
        (["W1", "W2", "M1", "M3", "M4", "M5", "M6", "M7", "M8"], [
            ("block_women", 6),
            ("block_women", 9),
        ]),
        # an unfinished block (shooters 7-8) is not judged yet
        (["W1", "M1", "M2", "W2", "M3", "M4", "M5", "M6"], []),
    ],
)
def test_coed_every_3_shooters_after_the_first_3_include_a_woman_or_non_binary_player(
    order, expected
):
    """Co-ed "Shoot-Out Format past first 3 shooters": "For every 3 shooters after the initial 3,
    at least 1 must be female or non-binary"."""
    pool = team(3, 9)
    found = validate_order(COED, pool, None, ids(pool, *order))
    assert codes(found) == expected
    for v in found:
        assert v.rule == COED_PAST_3
        assert "must include at least 1 woman or non-binary player" in v.message


def test_coed_block_violation_names_the_shooters_it_covers():
    pool = team(3, 9)
    [v] = validate_order(COED, pool, None, ids(pool, "W1", "M1", "M2", "M3", "M4", "M5"))
    assert v.message == (
        "Shooters 4-6: every 3 shooters after the first 3 must include at least 1 woman or "
        "non-binary player (Co-ed rules: Shoot-Out Format past first 3 shooters)"
    )


def test_coed_nobody_repeats_until_every_eligible_teammate_has_shot():
    """Co-ed: "all of your players have to shoot before you can repeat a player (male or
    female)"."""
    pool = team(2, 4)  # 6 players
    everyone = ["W1", "M1", "M2", "W2", "M3", "M4"]
    assert validate_order(COED, pool, team(2, 4, 100), ids(pool, *everyone, "M1")) == []
    found = validate_order(COED, pool, team(2, 4, 100), ids(pool, "W1", "M1", "M2", "W2", "M1"))
    assert codes(found) == [("repeat", 5)]
    assert found[0].message.startswith(
        "Shooter 5: M1 already shot; 4 other teammates and 2 women or non-binary players must "
        "shoot before anyone repeats (so far 2 and 2; not yet: M3, M4)"
    )


def test_coed_rulebook_example_14_present_may_repeat_after_10_shooters():
    """Co-ed: "if one team has 10 people present and the other team has 14, the team with 14 can
    repeat players after 10 shooters"."""
    fourteen = team(4, 10)
    ten = team(3, 7, 100)
    first_ten = ["W1", "M1", "M2", "W2", "M3", "M4", "W3", "M5", "M6", "M7"]
    order = ids(fourteen, *first_ten, "M1")
    assert validate_order(COED, fourteen, ten, order) == []
    # against another team of 14 the same order repeats M1 too early
    found = validate_order(COED, fourteen, team(4, 10, 100), order)
    assert codes(found) == [("repeat", 11)]
    req = shootout_requirements(COED, fourteen, ten)
    assert (req.women_per_round, req.others_per_round, req.shooters_per_round) == (3, 7, 10)
    assert req.matched


def test_coed_rulebook_example_team_with_6_women_only_has_3_of_them_shoot():
    """Co-ed: "one team only has 3 women and the other team has 6, the team with 6 only has to have
    3 of their women shoot"."""
    six = team(6, 8)
    three = team(3, 8, 100)
    # W1-W3 shoot, then W1 shoots again (as the one woman shooters 10-12 need) before W4-W6
    order = ids(six, "W1", "M1", "M2", "W2", "M3", "M4", "W3", "M5", "M6", "W1", "M7", "M8")
    assert validate_order(COED, six, three, order) == []
    # against a team with 6 women, all 6 must shoot before one of them repeats
    found = validate_order(COED, six, team(6, 8, 100), order)
    assert codes(found) == [("women_take_turns", 10)]
    assert "3 more women or non-binary players must take a turn" in found[0].message
    # the team with 3 matches its own make-up: nothing changes for it
    assert shootout_requirements(COED, three, six).women_per_round == 3


def test_coed_a_lone_woman_shoots_every_block_before_the_men_have_all_shot():
    """The block rule needs her in shooters 4-6 long before 13 men have shot: W/NB players cycle on
    their own count (our reading of the two co-ed rules together)."""
    pool = team(1, 13)
    order = ["W1", "M1", "M2", "M3", "M4", "W1", "M5", "M6", "W1", "M7", "M8", "W1"]
    assert validate_order(COED, pool, None, ids(pool, *order)) == []


def test_coed_a_repeated_woman_must_be_the_one_her_block_needs():
    """An early repeat is allowed only to fill a block's quota, not to stack women."""
    pool = team(3, 11)
    order = ["W1", "M1", "M2", "W2", "M3", "M4", "W3", "M5", "M6", "W1", "W2", "M7"]
    found = validate_order(COED, pool, None, ids(pool, *order))
    assert codes(found) == [("women_repeat_not_needed", 11)]
    assert "only to fill the quota of shooters 10-12" in found[0].message
    # a fresh woman joining a block that already has a repeated woman: the repeat is flagged
    pool = team(4, 10)
    order = ["W1", "M1", "M2", "W2", "M3", "M4", "W3", "M5", "M6"]
    six = team(3, 10, 100)  # matched: 3 women per round
    found = validate_order(COED, pool, six, ids(pool, *order, "W1", "W4"))
    assert codes(found) == [("women_repeat_not_needed", 10)]
    assert "W4 (shooter 11) already fills it" in found[0].message


def test_coed_women_take_turns_before_one_shoots_a_third_time():
    pool = team(2, 12)
    order = ["W1", "M1", "M2", "W2", "M3", "M4", "W1", "M5", "M6", "W1"]
    found = validate_order(COED, pool, None, ids(pool, *order))
    assert codes(found) == [("women_take_turns", 10)]
    assert "before W1 shoots again (not yet: W2)" in found[0].message
    fixed = [*order[:-1], "W2"]
    assert validate_order(COED, pool, None, ids(pool, *fixed)) == []


def test_coed_quota_waived_when_the_matched_make_up_has_no_women():
    """A team with no eligible W/NB players cannot meet the quota; the other team matches that
    make-up, so the quota is waived for both."""
    no_women = team(0, 8)
    mixed = team(3, 8, 100)
    req = shootout_requirements(COED, no_women, mixed)
    assert req.women_quota_waived and req.min_women_initial == req.min_women_per_block == 0
    order = ids(no_women, "M1", "M2", "M3", "M4", "M5", "M6", "M7")
    assert validate_order(COED, no_women, mixed, order) == []
    assert shootout_requirements(COED, mixed, no_women).women_quota_waived
    men_first = ids(mixed, "M1", "M2", "M3", "M4", "M5", "M6")
    assert validate_order(COED, mixed, no_women, men_first) == []
    # with women on both sides the quota stands
    assert codes(validate_order(COED, mixed, team(1, 8, 100), men_first)) == [
        ("initial_women", 3),
        ("block_women", 6),
    ]


def test_coed_waived_quota_means_women_do_not_repeat_early():
    mixed = team(2, 3)
    found = validate_order(COED, mixed, team(0, 5, 100), ids(mixed, "W1", "M1", "M2", "W1"))
    assert codes(found) == [("repeat", 4)]


def test_coed_a_round_is_never_smaller_than_the_initial_group():
    """All women against all men have no make-up in common: each team still cycles through at
    least 3 different shooters."""
    women = team(4, 0)
    men = team(0, 4, 100)
    assert shootout_requirements(COED, women, men).shooters_per_round == 3
    order = ids(women, "W1", "W2", "W3", "W1", "W1")
    assert codes(validate_order(COED, women, men, order)) == [("repeat", 5)]


def test_coed_opponent_unknown_means_no_matching():
    fourteen = team(4, 10)
    assert shootout_requirements(COED, fourteen, None).shooters_per_round == 14
    assert shootout_requirements(COED, fourteen, ShootoutPool()).shooters_per_round == 14


# --------------------------------------------------------------------------------------------------
# Eligibility and counts (all presets)


def test_shooter_not_in_the_eligible_pool_is_rejected():
    pool = team(2, 4)
    other = team(2, 4, 100)
    suspended = 999  # suspended or not checked in: the service leaves them out of the pool
    found = validate_order(COED, pool, other, [1, 3, suspended, 100])
    assert codes(found) == [("not_eligible", 3), ("other_team", 4)]
    assert found[0].message.startswith("Shooter 3: player 999 is not one of your eligible")
    assert found[1].message.startswith("Shooter 4: W1 plays for the other team")


def test_goalies_may_shoot_unless_the_league_excludes_them():
    """No rulebook excludes goalies; a league may."""
    goalie = Shooter(50, "Goalie", False, position="goalie")
    pool = ShootoutPool((*team(2, 2).eligible, goalie))
    order = [1, 3, 50]
    assert validate_order(COED, pool, None, order) == []
    strict = replace(COED, shootout_goalies_may_shoot=False)
    found = validate_order(strict, pool, None, order)
    assert ("goalie_may_not_shoot", 3) in codes(found)
    assert goalie not in eligible_shooters(strict, pool)


def test_fewer_shooters_than_the_initial_count():
    pool = team(1, 1)
    found = validate_order(COED, pool, None, [1, 2])
    assert codes(found) == [("pool_too_small", None), ("too_few_shooters", None)]
    assert found[0].message == (
        "Only 2 eligible shooters; the shootout needs 3 different players to start "
        "(Co-ed rules: Shootouts)"
    )
    assert found[1].message == (
        "The order lists 2 shooters; the first 3 are required (Co-ed rules: Shootouts)"
    )


def test_every_violation_is_returned_at_once():
    pool = team(2, 8)
    order = [*ids(pool, "M1", "M2", "M2", "M3", "M4", "M5"), 777]
    found = validate_order(COED, pool, None, order)
    assert codes(found) == [
        ("initial_repeat", 3),
        ("initial_women", 3),
        ("block_women", 6),
        ("not_eligible", 7),
    ]


# --------------------------------------------------------------------------------------------------
# Youth: 2.13B, 2.14, 1.19


def test_youth_2_13B_three_shooters_then_sudden_death_without_quotas():
    pool = team(0, 6)
    assert validate_order(YOUTH, pool, None, ids(pool, "M1", "M2", "M3", "M4")) == []
    found = validate_order(YOUTH, pool, None, ids(pool, "M1", "M2"))
    assert codes(found) == [("too_few_shooters", None)]
    assert found[0].rule == "Youth rules 2.13B"


def test_youth_1_19_five_round_shootout_in_playoffs_is_a_setting():
    pool = team(0, 6)
    four = ids(pool, "M1", "M2", "M3", "M4")
    found = validate_order(YOUTH, pool, None, four, playoff=True)
    assert codes(found) == [("too_few_shooters", None)]
    # Both sections are cited, and which one the league applies.
    assert found[0].rule == "Youth rules 1.19; Youth rules 2.13B says 3: this league applies 5"
    assert "Your order follows" not in found[0].message, "four shooters is neither reading"
    as_2_13b = replace(YOUTH, shootout_initial_shooters_playoff=3)
    assert validate_order(as_2_13b, pool, None, four, playoff=True) == []


def test_a_youth_playoff_order_of_three_is_told_which_reading_the_league_applies():
    """Youth 1.19 ("a 5-round shootout") contradicts 2.13B (three shooters): the preset applies 1.19."""
    pool = team(0, 6)
    three = ids(pool, "M1", "M2", "M3")
    (found,) = validate_order(YOUTH, pool, None, three, playoff=True)
    assert found.code == "too_few_shooters"
    assert ("Your order follows Youth rules 2.13B (3 shooters); this league applies Youth rules 1.19 (5). "
            "A commissioner can change it: /setup rule key:shootout_initial_shooters_playoff value:3") in found.message
    assert validate_order(YOUTH, pool, None, three, playoff=False) == []  # 2.13B in a regular game
    as_2_13b = replace(YOUTH, shootout_initial_shooters_playoff=3)
    assert as_2_13b.initial_citation(playoff=True) == (
        "Youth rules 2.13B; Youth rules 1.19 differs: this league applies 3")


def test_youth_2_14_no_second_shot_until_all_shooters_have_shot():
    """Youth 2.14: "a player cannot take more than one shot until all shooters on his team have
    shot"."""
    pool = team(1, 4)
    found = validate_order(YOUTH, pool, None, ids(pool, "M1", "M2", "M3", "M4", "M1"))
    assert codes(found) == [("repeat", 5)]
    assert found[0].message == (
        "Shooter 5: M1 already shot; 5 different teammates must shoot before anyone repeats "
        "(so far 4; not yet: W1) (Youth rules 2.14)"
    )
    fine = ids(pool, "M1", "M2", "M3", "M4", "W1", "M1")
    assert validate_order(YOUTH, pool, team(0, 3, 100), fine) == []  # no matching in youth


# --------------------------------------------------------------------------------------------------
# Indoor soccer: "Overtime" and "Substitutions"


def test_indoor_four_person_shootout():
    pool = team(0, 6)
    assert codes(validate_order(INDOOR, pool, None, ids(pool, "M1", "M2", "M3"))) == [
        ("too_few_shooters", None)
    ]
    assert validate_order(INDOOR, pool, None, ids(pool, "M1", "M2", "M3", "M4", "M5")) == []


def test_indoor_only_players_on_the_floor_at_the_end_of_the_second_overtime_may_shoot():
    on = [Shooter(i, f"P{i}", False) for i in range(1, 6)]
    bench = Shooter(9, "Bench", False, on_floor=False)
    pool = ShootoutPool((*on, bench))
    found = validate_order(INDOOR, pool, None, [1, 2, 9, 3])
    assert codes(found) == [("not_on_floor", 3)]
    assert found[0].rule == "Indoor soccer rules: Overtime"
    # the bench player is not counted either: 5 on the floor must all shoot before a repeat
    assert validate_order(INDOOR, pool, None, [1, 2, 3, 4, 5, 1]) == []
    # elsewhere being off the floor does not matter
    assert validate_order(YOUTH, pool, None, [1, 2, 9]) == []


def test_indoor_goalie_may_not_be_substituted_during_the_shootout():
    started = Shooter(1, "Ana", False, position="goalie")
    backup = Shooter(2, "Bo", False, position="goalie")
    [v] = validate_goalie_change(INDOOR, started, backup)
    assert v.code == "goalie_change" and v.rule.startswith("Indoor soccer rules: Substitutions")
    assert "“Goalies may not be substituted during shootout”" in v.message, "the rule is quoted"
    assert v.message.startswith("Bo may not replace Ana in goal")
    assert validate_goalie_change(INDOOR, started, started) == []
    assert validate_goalie_change(COED, started, backup) == []


# --------------------------------------------------------------------------------------------------
# The order generator


def test_suggest_keeps_the_captains_preferred_shooters():
    pool = team(2, 6)
    preferred = ids(pool, "M3", "W2", "M1")
    order = suggest_order(COED, pool, None, preferred)
    assert order[:3] == preferred
    assert validate_order(COED, pool, None, order) == []


def test_suggest_moves_a_preferred_shooter_who_would_break_the_quota():
    pool = team(2, 6)
    order = suggest_order(COED, pool, None, ids(pool, "M1", "M2", "M3", "M4"), length=6)
    names = {s.player_id: s.name for s in pool.eligible}
    assert [names[i] for i in order[:4]] == ["M1", "M2", "W1", "M3"]
    assert len(order) == 6
    assert validate_order(COED, pool, None, order) == []


def test_suggest_covers_a_full_round_by_default():
    pool = team(3, 9)
    order = suggest_order(COED, pool, team(3, 5, 100))
    assert len(set(order)) >= 8  # 3 women + 5 others: the matched round
    assert validate_order(COED, pool, team(3, 5, 100), order) == []
    youth = suggest_order(YOUTH, team(0, 5), None, playoff=True)
    assert len(youth) == 10 and youth[:5] == youth[5:]  # 5 playoff shooters, then again


def test_suggest_raises_when_no_legal_order_exists():
    with pytest.raises(ShootoutError, match="No eligible shooters"):
        suggest_order(COED, ShootoutPool(), None)
    with pytest.raises(ShootoutError, match="Only 3 eligible shooters; the shootout needs 4"):
        suggest_order(INDOOR, team(0, 3), None)
    with pytest.raises(ShootoutError, match="at least the first 3"):
        suggest_order(COED, team(2, 5), None, length=2)


# Random pools: others and women/non-binary players 0-20 each, a goalie, some off the floor.
@st.composite
def pools(draw: st.DrawFn, first_id: int) -> ShootoutPool:
    women = draw(st.integers(0, 20))
    others = draw(st.integers(0, 20))
    genders = draw(st.permutations([True] * women + [False] * others))
    goalie = draw(st.integers(-1, len(genders) - 1)) if genders else -1
    off_floor = draw(st.sets(st.integers(0, max(len(genders) - 1, 0)), max_size=6))
    return ShootoutPool(
        tuple(
            Shooter(
                first_id + i,
                f"P{first_id + i}",
                woman,
                position="goalie" if i == goalie else "skater",
                on_floor=i not in off_floor,
            )
            for i, woman in enumerate(genders)
        )
    )


rules_strategy = st.builds(
    lambda preset, goalies: replace(SHOOTOUT_PRESETS[preset], shootout_goalies_may_shoot=goalies),
    st.sampled_from(sorted(SHOOTOUT_PRESETS)),
    st.booleans(),
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rules_strategy,
    own=pools(1),
    other=st.one_of(st.none(), pools(1000)),
    preferred=st.lists(st.integers(1, 45), max_size=12),
    length=st.one_of(st.none(), st.integers(0, 40)),
    playoff=st.booleans(),
)
def test_every_suggested_order_passes_the_validator(rules, own, other, preferred, length, playoff):
    first = rules.initial_shooters(playoff)
    eligible = [s.player_id for s in eligible_shooters(rules, own)]
    try:
        order = suggest_order(rules, own, other, preferred, length, playoff)
    except ShootoutError:
        # genuinely impossible: too few different players, or too short an order asked for
        assert len(eligible) < first or (length is not None and length < first)
        too_short = length is not None and length < first
        attempt = (eligible * first)[: length if too_short else max(first, len(eligible))]
        assert validate_order(rules, own, other, attempt, playoff) != []
        return
    assert validate_order(rules, own, other, order, playoff) == []
    assert len(order) == length if length is not None else len(order) >= first
    wanted = [pid for pid in preferred if pid in eligible]
    if wanted:
        assert order[0] == wanted[0]


@settings(max_examples=100, deadline=None)
@given(
    rules=rules_strategy,
    own=pools(1),
    other=st.one_of(st.none(), pools(1000)),
    order=st.lists(st.integers(0, 45), max_size=30),
)
def test_validator_positions_point_into_the_order(rules, own, other, order):
    for v in validate_order(rules, own, other, order):
        assert v.position is None or 1 <= v.position <= len(order)
        assert v.rule in v.message and v.message.endswith(f"({v.rule})")


# --------------------------------------------------------------------------------------------------
# Scoring


def play(rules: ShootoutRules, shots: str, playoff: bool = False) -> ShootoutState:
    """Alternate home/away from home; 'x' = goal, '.' = miss."""
    state = ShootoutState.begin(rules, playoff=playoff)
    for i, shot in enumerate(shots):
        side = "home" if i % 2 == 0 else "away"
        state = record_attempt(state, side, i, shot == "x")
    return state


@pytest.mark.parametrize(
    ("shots", "winner", "score"),
    [
        ("x.x.", "home", (2, 0)),  # decided after 2 of 3 rounds: away can make 1 at most
        (".x.x", "away", (0, 2)),
        ("x.xxx", "home", (3, 1)),  # decided before away's 3rd shot
        ("x.", None, (1, 0)),  # away can still tie
        ("x..x", None, (1, 1)),
        ("xx..xx", None, (2, 2)),  # tied after 3 rounds: sudden death
        ("xx..xxx.", "home", (3, 2)),  # sudden death, decided after the complete round
        ("xx..xx.x", "away", (2, 3)),
        ("xx..xxx", None, (3, 2)),  # first sudden-death shooter scores: away can still answer
        ("xx..xxxx..", None, (3, 3)),  # sudden death continues while tied
    ],
)
def test_shootout_is_decided_when_one_team_cannot_catch_up(shots, winner, score):
    state = play(COED, shots)
    assert state.winner == winner
    assert state.decided is (winner is not None)
    assert (state.home_goals, state.away_goals) == score


def test_sudden_death_follows_the_initial_rounds():
    state = play(COED, "x.x.")
    assert not state.sudden_death
    state = play(COED, "xx..xx")
    assert state.sudden_death and state.next_side == "home"


def test_youth_playoff_shootout_has_5_rounds():
    assert play(YOUTH, "x.x.", playoff=True).winner is None  # 2-0, away has 3 shots left
    assert play(YOUTH, "x.x.", playoff=False).winner == "home"  # 2-0, away has 1 shot left
    assert play(YOUTH, "x.x.x.", playoff=True).winner == "home"  # 3-0, away has 2 shots left


def test_indoor_four_person_shootout_scoring():
    assert play(INDOOR, "x.x.x").winner == "home"  # 3-0, away has 2 shots left
    assert play(INDOOR, "x.x.").winner is None  # 2-0, away has 2 shots left


def test_no_attempt_after_the_shootout_is_decided():
    state = play(COED, "x.x.")
    with pytest.raises(ShootoutError, match="already decided: home won 2-0"):
        record_attempt(state, "home", 9, True)


def test_teams_alternate():
    state = ShootoutState.begin(COED, first="away")
    assert state.next_side == "away"
    with pytest.raises(ShootoutError, match="not the home team's turn"):
        record_attempt(state, "home", 1, True)
    state = record_attempt(state, "away", 1, True)
    assert state.next_side == "home" and state.may_shoot("home") and not state.may_shoot("away")


def test_without_alternation_a_team_may_take_its_initial_shots_in_a_row():
    rules = replace(COED, shootout_alternating=False)
    state = ShootoutState.begin(rules)
    for i in range(3):
        state = record_attempt(state, "home", i, True)
    assert not state.may_shoot("home") and state.may_shoot("away")
    state = record_attempt(state, "away", 10, False)
    assert state.winner == "home"  # 3-0 with 2 away shots left


def test_replaying_a_game_sheet_gives_the_shootout_goals():
    sheet = [
        Attempt("home", 1, True),
        Attempt("away", 101, False),
        Attempt("home", 2, False),
        Attempt("away", 102, True),
        Attempt("home", 3, True),
        Attempt("away", 103, False),
    ]
    state = score_shootout(COED, sheet)
    assert (state.winner, state.goals("home"), state.goals("away")) == ("home", 2, 1)
    assert state.shots("home") == 3 and state.rounds_completed == 3


@settings(max_examples=100, deadline=None)
@given(
    rules=st.sampled_from(list(SHOOTOUT_PRESETS.values())),
    shots=st.lists(st.booleans(), max_size=30),
    playoff=st.booleans(),
)
def test_a_decided_shootout_has_a_winner_ahead_who_cannot_be_caught(rules, shots, playoff):
    state = ShootoutState.begin(rules, playoff=playoff)
    for i, scored in enumerate(shots):
        if state.decided:
            break
        state = record_attempt(state, state.next_side, i, scored)
    home, away = state.shots("home"), state.shots("away")
    if state.decided:
        win, lose = state.winner, "away" if state.winner == "home" else "home"
        left = max(state.initial_rounds, home, away) - state.shots(lose)
        assert state.goals(win) > state.goals(lose) + left
        assert abs(home - away) <= 1
    else:
        assert state.next_side is not None
        if home == away >= state.initial_rounds:
            assert state.home_goals == state.away_goals  # tied rounds go on in sudden death
