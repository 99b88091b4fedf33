"""A game's officials: who is missing, and when the commissioners hear about it.

Youth 2.2: "Each game will have at least 2 officials, one referee and one timekeeper ... A game cannot
begin without both officials present." Youth 1.14: without a referee, "the commissioner(s) will assume
responsibility for all refereeing duties and/or will assign appropriate personnel".

Choices the rulebooks leave open, decided here:
- Where the preset needs both (``officials_both_required``), the commissioners hear twice about a game
  that lacks one: ``warn_unassigned_hours_before`` hours before its start, and at its start. Each notice
  goes once; none goes when both are assigned by then, or when the game is off.
- Each notice belongs to the game's start time: a moved game is told about again for its new time.
- The game card names each official by role where the league has timekeepers (or one is assigned), and
  where both are needed it says which is still missing and that the game can't begin without them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, get_args

from bot.league.gamesheets.presets import GameSheetRules

OfficialRole = Literal["referee", "timekeeper"]
OFFICIAL_ROLES: tuple[OfficialRole, ...] = get_args(OfficialRole)
Moment = Literal["ahead", "start"]
MOMENTS: tuple[Moment, ...] = get_args(Moment)
#: The notice at the start is no use once the game is well under way (the bot was down meanwhile).
START_NOTICE_USEFUL_FOR = timedelta(minutes=30)


def missing(rules: GameSheetRules, assigned: Iterable[str]) -> tuple[OfficialRole, ...]:
    """The officials the game still lacks (none where the league doesn't need both)."""
    if not rules.officials_both_required:
        return ()
    held = set(assigned)
    return tuple(role for role in OFFICIAL_ROLES if role not in held)


@dataclass(frozen=True)
class Notice:
    """When the commissioners hear about a game's officials, and until when it is still worth saying."""

    moment: Moment
    due_at: datetime
    expires_at: datetime


def notices(rules: GameSheetRules, starts_at: datetime, now: datetime) -> tuple[Notice, ...]:
    """The notices still to come for a game starting at ``starts_at``: one ahead (already due when the game
    is planned late: it goes now) and one at the start; none once the start's notice is of no use."""
    if not rules.officials_both_required:
        return ()
    out = []
    ahead = starts_at - timedelta(hours=rules.warn_unassigned_hours_before)
    if now < starts_at:
        out.append(Notice("ahead", max(ahead, now), starts_at))
    if now < starts_at + START_NOTICE_USEFUL_FOR:
        out.append(Notice("start", starts_at, starts_at + START_NOTICE_USEFUL_FOR))
    return tuple(out)


def role_words(roles: Iterable[str]) -> str:
    """"a referee", "a timekeeper", "a referee or a timekeeper"."""
    return " or ".join(f"a {r}" for r in roles)


def officials_line(rules: GameSheetRules, assigned: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """The game card's officials line and its rule ("" when none): ``assigned`` is (role, name) pairs."""
    named = {role: [name for r, name in assigned if r == role] for role in OFFICIAL_ROLES}
    if not rules.officials_both_required and not named["timekeeper"]:
        return (", ".join(named["referee"]) or "no referee assigned yet"), ""
    text = " · ".join(f"{role.capitalize()}: {', '.join(named[role]) or 'not assigned'}" for role in OFFICIAL_ROLES)
    lacking = missing(rules, (r for r, _ in assigned))
    if not lacking:
        return text, ""
    return (f"{text} — a game can't begin without both officials; without a referee the commissioners "
            "take the duties", rules.gamesheet_citations.officials)
