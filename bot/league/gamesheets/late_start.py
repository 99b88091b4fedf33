"""A team short at the start (youth 2.4): "Should a team not have enough players at the scheduled start time,
they will receive a 5-minute grace period in which to have the required number of players, after which they
will serve a 2-minute bench minor to start the game. If the team is still short after 10 minutes, they will
forfeit the game."

Choices the rulebook leaves open, decided here:
- The bot never decides: at the end of the grace period (``start_grace_minutes``) and at the forfeit time
  (``forfeit_after_minutes``) the game's referee and timekeeper are asked, with buttons, for each team whose
  game sheet (pre-filled from its check-ins) is below the minimum to start then; nothing happens without a
  press, and what a press records can be undone by an official.
- "Short" is the lineup check's minimum to start (bot/league/checkins/lineup.py) on the team's sheet.
- Each prompt belongs to the game's start time (a moved game is asked about at its new time), goes once, and
  is of no use two hours after the start.
- The bench minor is youth 3.7's "team not ready at the scheduled start time" (``bench_minor_not_ready``),
  ``late_start_bench_minor_minutes`` long; the forfeit is the preset's (youth 2.4: 5-0, and a point).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, get_args

from bot.league.checkins.presets import LineupRules

Stage = Literal["minor", "forfeit"]
STAGES: tuple[Stage, ...] = get_args(Stage)
Action = Literal["minor", "forfeit", "undo-minor", "undo-forfeit"]
ACTIONS: tuple[Action, ...] = get_args(Action)
#: The bench minor a short team serves (youth 3.7 (7): "Team not being ready at the scheduled start time").
NOT_READY = "bench_minor_not_ready"
#: A prompt is no use once the game is long under way (the bot was down in the meantime).
USEFUL_FOR = timedelta(hours=2)


@dataclass(frozen=True)
class Prompt:
    stage: Stage
    due_at: datetime
    expires_at: datetime


def applies(rules: LineupRules) -> bool:
    """The league has a grace period and a forfeit time (youth 2.4): there is something to prompt."""
    return rules.start_grace_minutes is not None and rules.forfeit_after_minutes is not None


def prompts(rules: LineupRules, starts_at: datetime, now: datetime) -> tuple[Prompt, ...]:
    """The prompts still to come for a game starting at ``starts_at`` (none where the rules have no grace
    period and forfeit time)."""
    if rules.start_grace_minutes is None or rules.forfeit_after_minutes is None:
        return ()
    expires = starts_at + USEFUL_FOR
    if now >= expires:
        return ()
    out = []
    if rules.late_start_bench_minor_minutes:
        out.append(Prompt("minor", starts_at + timedelta(minutes=rules.start_grace_minutes), expires))
    out.append(Prompt("forfeit", starts_at + timedelta(minutes=rules.forfeit_after_minutes), expires))
    return tuple(out)


def question(stage: Stage, team: str, minutes: int | None) -> str:
    """The button's words: "Assess the 2-minute bench minor to Hawks", "Record a forfeit by Hawks"."""
    if stage == "minor":
        return f"Assess the {minutes}-minute bench minor to {team}"
    return f"Record a forfeit by {team}"
