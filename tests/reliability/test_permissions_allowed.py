"""The permission matrix, allowed side: each role a privileged command names gets it done.

``test_permissions.py`` proves everyone else is refused with nothing written. Here every
(command, role in its ``requires``) pair runs in a fresh league prepared by its scenario, and must
pass the server-side checks, print what only a success prints and write what it should. The table
is checked against the live command tree, so a new privileged command cannot skip the matrix.
"""

from __future__ import annotations

import pytest

from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness
from tests.reliability.commands import leaf_commands
from tests.reliability.permission_scenarios import NOT_FOR_COMMISSIONERS, SCENARIOS, Run
from tests.reliability.snapshot import changed_tables, snapshot

CO_ED = make_settings(league_config())
PAIRS = [pytest.param(path, role, scenario.settings or CO_ED, id=f"{path} as {role}")
         for path, scenario in SCENARIOS.items() for role in scenario.by]


async def test_every_privileged_command_has_a_scenario_for_exactly_its_roles(harness: Harness) -> None:
    """A new privileged command (or a new role on one) fails here until its scenario is written."""
    live = {c.path: set(c.requires) for c in leaf_commands(harness.bot) if c.privileged}
    problems = {
        "privileged commands without a scenario": sorted(live.keys() - SCENARIOS.keys()),
        "scenarios for commands that no longer exist (or are for everyone)": sorted(SCENARIOS.keys() - live.keys()),
        "scenario roles differ from requires (scenario, requires)": {
            path: (sorted(SCENARIOS[path].by), sorted(roles)) for path, roles in live.items()
            if path in SCENARIOS and set(SCENARIOS[path].by) != roles},
    }
    assert {k: v for k, v in problems.items() if v} == {}


async def test_commissioners_may_use_every_privileged_command_but_the_listed_ones(harness: Harness) -> None:
    """docs/product.md §1: commissioners do everything; an exception must be written down with its reason."""
    live = {c.path: c.requires for c in leaf_commands(harness.bot) if c.privileged}
    without = sorted(path for path, roles in live.items() if "commissioner" not in roles)
    assert without == sorted(NOT_FOR_COMMISSIONERS)


@pytest.mark.parametrize(("path", "role", "settings"), PAIRS)
async def test_the_roles_a_command_names_succeed(harness: Harness, league: SampleLeague, path: str,
                                                 role: str) -> None:
    scenario = SCENARIOS[path]
    run = Run(harness, league)
    for step in scenario.setup:
        await step(run)
    before = await snapshot(harness.bot.sessions)
    reply = await run.slash(path, scenario.by[role], scenario.options)
    assert scenario.expect in reply.text, f"{path} as {role} answered: {reply.text[:500]}"
    changed = changed_tables(before, await snapshot(harness.bot.sessions))
    missing = [table for table in scenario.writes if table not in changed]
    assert missing == [], f"{path} as {role} did not write {missing} (changed: {changed})"
