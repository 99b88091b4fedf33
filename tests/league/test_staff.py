"""Youth 1.6: "In case of absence of a Coach, the Assistant Coach will assume the coaching duties": a coach
is absent when every captain's answer for the game reads out or away (bot/league/staff/__init__.py)."""

from __future__ import annotations

import pytest

from bot.league.availability import AWAY
from bot.league.staff import coach_absent


@pytest.mark.parametrize(("answers", "absent"), [
    (["out"], True),
    ([AWAY], True),
    (["out", AWAY], True),
    (["in"], False),
    (["maybe"], False),
    ([None], False),  # no answer (or on no roster): not known to be absent
    (["out", "in"], False),  # a co-captain is there
    (["out", None], False),
    ([], True),  # a team without a captain: its assistant coach acts
])
def test_absence_is_every_captain_out_or_away(answers: list[str | None], absent: bool) -> None:
    assert coach_absent(answers) is absent
