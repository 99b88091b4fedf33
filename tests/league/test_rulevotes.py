"""Rule-change votes' pure rules (youth 1.23): the threshold is a share of the eligible voters, not of the
votes cast, and the presets' numbers come from the rulebooks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.league.rules import RulesError, build_rules, preset
from bot.league.rulevotes import RULEVOTE_PRESETS, RuleVoteRules, Tally


def test_youth_needs_60_percent_of_everyone_eligible_and_cites_1_23() -> None:
    youth = preset("youth-ball-hockey").rulevotes
    assert youth.rulevote_threshold_percent == 60
    assert youth.rulevote_citations.threshold == "Youth 1.23"
    # The other rulebooks are silent: the same share, as a league setting.
    for name in ("coed-ball-hockey", "indoor-soccer"):
        assert RULEVOTE_PRESETS[name].rulevote_threshold_percent == 60
        assert RULEVOTE_PRESETS[name].rulevote_citations.threshold == ""


@pytest.mark.parametrize(("yes", "no", "eligible", "passes", "needed"), [
    (3, 2, 5, True, 3),   # exactly 60%
    (2, 3, 5, False, 3),  # 40%
    (2, 0, 4, False, 3),  # every vote cast is Yes, but only half of the eligible
    (3, 0, 4, True, 3),   # 75%
    (2, 1, 3, True, 2),   # 66.7%
    (1, 2, 3, False, 2),
    (6, 0, 10, True, 6),  # exactly 60% again
    (5, 5, 10, False, 6),
])
def test_the_threshold_counts_the_eligible_voters_not_the_votes_cast(
        yes: int, no: int, eligible: int, passes: bool, needed: int) -> None:
    tally = Tally(yes, no, eligible, 60)
    assert tally.passes is passes
    assert tally.needed == needed


@given(st.integers(0, 200).flatmap(lambda eligible: st.tuples(
    st.just(eligible), st.integers(0, eligible), st.integers(1, 100))))
def test_passing_is_exactly_reaching_the_needed_yes_votes(case: tuple[int, int, int]) -> None:
    eligible, yes, threshold = case
    tally = Tally(yes, 0, eligible, threshold)
    assert tally.passes == (eligible > 0 and yes >= tally.needed)
    assert tally.needed * 100 >= threshold * eligible  # enough
    assert tally.needed == 0 or (tally.needed - 1) * 100 < threshold * eligible  # and no more than enough


def test_a_tally_counts_each_eligible_voter_once() -> None:
    with pytest.raises(ValueError, match="at most one answer"):
        Tally(3, 3, 5, 60)


def test_the_settings_are_checked_like_every_rule_override() -> None:
    raised = build_rules("youth-ball-hockey", {"rulevote_threshold_percent": 75})
    assert raised.rulevotes.rulevote_threshold_percent == 75
    assert build_rules("youth-ball-hockey", {"rulevote_period": "48h"}).rulevotes.rulevote_period == "48h"
    with pytest.raises(RulesError, match="must be between 1 and 100"):
        build_rules("youth-ball-hockey", {"rulevote_threshold_percent": 0})
    with pytest.raises(RulesError, match="is not a duration"):
        build_rules("youth-ball-hockey", {"rulevote_period": "a week"})
    with pytest.raises(RulesError, match="at least an hour"):
        build_rules("youth-ball-hockey", {"rulevote_period": "30m"})
    with pytest.raises(ValueError):
        RuleVoteRules(rulevote_threshold_percent=101)
