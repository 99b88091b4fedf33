"""Every rule setting has bounds, and a value outside them is one config line.

A league's rule override is either accepted, and then every rule function the bot runs with it
works (a shootout order can still be suggested), or `check-config` prints `file: key: problem` and
exits 2: never a traceback.
"""

from __future__ import annotations

import dataclasses
import typing
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main as cli
from bot.config.settings import SettingsError, parse_settings
from bot.league import deadlines
from bot.league.checkins.lineup import CheckedInPlayer, check_lineup
from bot.league.checkins.presets import lineup_rules_for
from bot.league.discipline.catalogues import PENALTY_CATALOGUES
from bot.league.discipline.penalties import PenaltyRecord, apply_penalty
from bot.league.rules import PRESET_NAMES, preset
from bot.league.shootouts.eligibility import Shooter, ShootoutPool
from bot.league.shootouts.order import validate_order
from bot.league.shootouts.presets import ShootoutError
from bot.league.shootouts.scoring import score_shootout
from bot.league.shootouts.suggestion import suggest_order
from bot.league.standings.table import GameResult, compute_standings
from tests.conftest import GUILD, league_config

ROOT = Path(__file__).resolve().parents[2]


def rule_keys() -> list[str]:
    """Every flat rule setting a config may override (citations are not settings)."""
    rules = preset(PRESET_NAMES[0])
    keys = []
    for section in ("lineup", "game_format", "shootout", "standings", "discipline", "deadlines"):
        for f in dataclasses.fields(getattr(rules, section)):
            if not f.name.endswith("citations"):
                keys.append(f.name)
    return keys


RULE_KEYS = rule_keys()


def write_config(tmp_path: Path, rules_toml: str) -> Path:
    path = tmp_path / "league.toml"
    path.write_text(
        f'[bot]\ndatabase_url = "sqlite+aiosqlite:///{tmp_path / "none.db"}"\n'
        f'[[leagues]]\nkey = "coed"\nguild_id = {GUILD}\npreset = "coed-ball-hockey"\n'
        f'timezone = "America/Toronto"\n[leagues.rules]\n{rules_toml}\n')
    return path


@pytest.mark.parametrize(("setting", "key"), [
    ("players_on_court = 0", "players_on_court"),
    ('standings_tiebreakers = ["bogus"]', "standings_tiebreakers"),
    ('default_nudge_offsets = ["bogus"]', "default_nudge_offsets"),
    ('court_sizes_by_division = {North = "six"}', "court_sizes_by_division"),
    ("shootout_block_size = 1000", "shootout_block_size"),
    ("relay_window_hours = 100000000000", "relay_window_hours"),
    ("periods = 0", "periods"),
    ("shootout_min_women_initial = 4", "shootout_min_women_initial"),
    ("standings_forfeit_score = [0, 5]", "standings_forfeit_score"),
    ('discipline_review_categories = ["rude"]', "discipline_review_categories"),
    ("appeal_window_days = -1", "appeal_window_days"),
    ("roster_limit = 1.5", "roster_limit"),
])
def test_out_of_range_rule_values_are_one_config_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      setting: str, key: str) -> None:
    config = write_config(tmp_path, setting)
    code = cli.main(["check-config", str(config)])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"sideline: {config}: leagues[0].rules.{key}: "), lines[0]


def test_shootout_suggestion_with_long_blocks_does_not_recurse() -> None:
    """The order search walks a block without recursing, whatever the block size."""
    rules = dataclasses.replace(preset("coed-ball-hockey").shootout, shootout_block_size=1000)
    pool = _pool(12, women=3)
    order = suggest_order(rules, pool, _pool(10, women=2, first_id=100))
    assert not validate_order(rules, pool, _pool(10, women=2, first_id=100), order)


# --- the whole settings schema ------------------------------------------------------------------

_WORDS = ["points", "wins", "win_pct", "head_to_head", "goal_diff", "regular", "seeding", "playoff",
          "minor", "major", "48h", "2h", "30m", "1d12h", "bogus", "", "-1h", "999999w"]
_SCALARS = st.one_of(
    st.integers(min_value=-3, max_value=40),
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(_WORDS),
    st.text(max_size=12),
    st.datetimes(),
)
_VALUES = st.one_of(
    _SCALARS,
    st.lists(st.one_of(st.sampled_from(_WORDS), st.integers(min_value=-3, max_value=40), st.integers(),
                       st.text(max_size=6)), max_size=5),
    st.dictionaries(st.sampled_from(["North", "South", " ", "Élite"]) | st.text(max_size=6),
                    st.integers(min_value=-3, max_value=40) | _SCALARS, max_size=3),
    st.lists(st.lists(st.integers(), max_size=2), max_size=2),
)


def _hints() -> dict[str, Any]:
    rules = preset(PRESET_NAMES[0])
    hints: dict[str, Any] = {}
    for section in ("lineup", "game_format", "shootout", "standings", "discipline", "deadlines"):
        hints.update(typing.get_type_hints(type(getattr(rules, section))))
    return hints


HINTS = _hints()
_SMALL = st.integers(min_value=-1, max_value=12) | st.sampled_from([20, 21, 30, 60, 100, 1000, 10**12])


def _plausible(key: str) -> st.SearchStrategy[Any]:
    """Values of the setting's own type, mostly small, so that accepted overrides are common too."""
    hint = str(HINTS[key])
    if "Mapping" in hint:
        return st.dictionaries(st.sampled_from(["North", "south", "Élite"]), _SMALL, max_size=3)
    if "tuple[int, int]" in hint:
        return st.lists(_SMALL, min_size=1, max_size=3)
    if "tuple" in hint:
        return st.lists(st.sampled_from([*_WORDS, "minor", "major", "misconduct_10", "fewest_losses"]),
                        max_size=4)
    if "int" in hint:
        return _SMALL
    return st.booleans()


def _setting(key: str) -> st.SearchStrategy[tuple[str, Any]]:
    plausible = _plausible(key)
    return st.tuples(st.just(key), st.integers(0, 3).flatmap(lambda i: _VALUES if i == 0 else plausible))


@given(
    preset_name=st.sampled_from(PRESET_NAMES),
    overrides=st.lists(st.sampled_from(RULE_KEYS).flatmap(_setting), min_size=1, max_size=4,
                       unique_by=lambda kv: kv[0]).map(dict),
)
def test_every_rule_setting_is_accepted_and_usable_or_one_config_line(
    preset_name: str, overrides: dict[str, Any],
) -> None:
    try:
        settings = parse_settings({"leagues": [league_config(preset=preset_name, rules=overrides)]},
                                  "fuzz.toml")
    except SettingsError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith("fuzz.toml: leagues[0].rules."), message
        assert exc.key.removeprefix("leagues[0].rules.").split(".")[0] in overrides, message
        return
    exercise(settings.leagues[0].rules)


# --- what the bot does with a league's rules ------------------------------------------------------

def _pool(n: int, women: int, first_id: int = 1) -> ShootoutPool:
    return ShootoutPool(tuple(
        Shooter(first_id + i, f"P{first_id + i}", counts_as_woman=i < women,
                position="goalie" if i == n - 1 else "skater", on_floor=i % 5 != 4)
        for i in range(n)))


def exercise(rules: Any) -> None:
    """The rule functions the commands call, with ordinary inputs: none of them may crash."""
    game = rules.game_format
    assert game.regulation_minutes >= 1
    for kind in ("regular", "seeding", "playoff"):
        game.overtime_for(kind)

    players = [CheckedInPlayer(i, f"P{i}", "goalie" if i == 0 else "skater",
                               "woman" if i % 3 == 0 else "man") for i in range(9)]
    for division in (None, *rules.lineup.court_sizes_by_division):
        check_lineup(lineup_rules_for(rules.lineup, division), players, roster_size=12)

    for own, other in ((_pool(12, 4), _pool(9, 2, 100)), (_pool(5, 1), None), (_pool(8, 0), _pool(8, 3, 100))):
        for playoff in (False, True):
            try:
                order = suggest_order(rules.shootout, own, other, playoff=playoff)
            except ShootoutError:
                continue  # a polite "not enough shooters", not a crash
            validate_order(rules.shootout, own, other, order, playoff=playoff)
            score_shootout(rules.shootout, [], playoff=playoff)

    teams = {"Hawks": "North", "Owls": "North", "Bees": "South"}
    results = [GameResult("g1", "Hawks", "Owls", 3, 3),
               GameResult("g2", "Owls", "Hawks", 2, 2, decided="shootout", shootout_home=2,
                          shootout_away=1),
               GameResult("g3", "Hawks", "Owls", 0, 0, decided="forfeit", forfeit_team="Owls"),
               GameResult("g4", "Bees", "Owls", 1, 4, kind="seeding")]
    compute_standings(rules.standings, teams, results)

    catalogue = PENALTY_CATALOGUES[rules.preset]
    prior: list[PenaltyRecord] = []
    for infraction in catalogue[:12]:
        outcome = apply_penalty(rules.discipline, catalogue, prior, infraction.key, 40,
                                game.regulation_minutes)
        prior.append(PenaltyRecord(infraction.key, infraction.category, 40))
        assert outcome is not None

    now = datetime(2026, 6, 1, 18, tzinfo=UTC)
    rules_d = rules.deadlines
    deadlines.nudge_times(now + timedelta(days=3), rules_d.default_nudge_offsets, now)
    deadlines.parse_offsets(rules_d.game_reminder_offsets)
    deadlines.parse_offsets(rules_d.captain_alert_lead_times)
    deadlines.check_relay(now + timedelta(hours=1), now, 1, rules_d)
    deadlines.dispute_decision_due(now, rules_d)
    deadlines.trade_deadline(date(2026, 5, 1), "America/Toronto", rules_d)
