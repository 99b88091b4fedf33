"""What a /setup team may change: one captain per member and one channel per team in a league, and a
team's channel, captain or division overwritten only when the commissioner says so (``replace``).

Two commissioners setting up the same team, or one picking last week's name by mistake, would
otherwise silently replace a captain; a member captaining two teams, or two teams sharing one
channel, breaks reminders and captain commands weeks later. Pure: the league's teams in, the
refusal or the changes (in words for the reply) out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

GO_AHEAD = "Nothing changed. To go ahead, run /setup team again with replace:True."


@dataclass(frozen=True)
class TeamNow:
    """A team as the league has it."""

    name: str
    channel_id: int | None = None
    division: str | None = None
    captain_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class TeamAsked:
    """What one /setup team gives (None: left as it is)."""

    channel_id: int | None = None
    division: str | None = None
    captain_id: int | None = None


@dataclass
class TeamPlan:
    """The refusal (empty when it may go ahead), else what changes, for the reply and the write."""

    refusal: str = ""
    changes: list[str] = field(default_factory=list)
    channel_from: str | None = None  # the team that gives up the channel
    captain_from: str | None = None  # the team the captain leaves
    captain_added: bool = False
    captains_replaced: tuple[int, ...] = ()  # this team's captains the new one replaces


def plan_team(current: TeamNow | None, asked: TeamAsked, others: Sequence[TeamNow], *,
              replace: bool) -> TeamPlan:
    """``current``: the team of that name (None: it is created); ``others``: the league's other teams;
    ``asked.division``: the division's name as the league spells it."""
    plan = TeamPlan()
    reasons: list[str] = []
    overwritten: list[str] = []
    now = current or TeamNow("")
    channel_owner = next((t for t in others if asked.channel_id is not None and t.channel_id == asked.channel_id),
                         None)
    captain_team = next((t for t in others if asked.captain_id in t.captain_ids), None)
    new_channel = asked.channel_id is not None and asked.channel_id != now.channel_id
    new_division = asked.division is not None and asked.division != now.division
    new_captain = asked.captain_id is not None and asked.captain_id not in now.captain_ids
    if new_channel and now.channel_id is not None:
        overwritten.append(f"the channel <#{now.channel_id}>")
    if new_captain and now.captain_ids:
        overwritten.append("the captain " + " and ".join(f"<@{c}>" for c in now.captain_ids))
    if new_division and now.division is not None:
        overwritten.append(f"the division {now.division}")
    if overwritten:
        reasons.append(f"{now.name} already has {_and(overwritten)}.")
    if new_captain and captain_team is not None:
        reasons.append(f"<@{asked.captain_id}> is already captain of {captain_team.name} (a member captains one "
                       "team in a league).")
    if new_channel and channel_owner is not None:
        reasons.append(f"<#{asked.channel_id}> is already the channel of {channel_owner.name} (each team has its "
                       "own).")
    if reasons and not replace:
        plan.refusal = f"{' '.join(reasons)} {GO_AHEAD}"
        return plan
    if new_division:
        plan.changes.append(f"division {asked.division}" + (f" (was {now.division})" if now.division else ""))
    if new_channel:
        notes = [f"was <#{now.channel_id}>"] if now.channel_id is not None else []
        if channel_owner is not None:
            plan.channel_from = channel_owner.name
            notes.append(f"taken from {channel_owner.name}, which now has no channel")
        plan.changes.append(f"channel <#{asked.channel_id}>" + (f" ({'; '.join(notes)})" if notes else ""))
    if new_captain:
        plan.captain_added = True
        plan.captains_replaced = now.captain_ids
        notes = ["replaces " + " and ".join(f"<@{c}>" for c in now.captain_ids)] if now.captain_ids else []
        if captain_team is not None:
            plan.captain_from = captain_team.name
            notes.append(f"no longer captain of {captain_team.name}")
        plan.changes.append(f"captain <@{asked.captain_id}>" + (f" ({'; '.join(notes)})" if notes else ""))
    return plan


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True)
class TeamLine:
    """One team of an imported teams file, as the file gives it."""

    line: int
    name: str
    captain_ids: tuple[int, ...]
    channel_id: int | None


def file_clashes(lines: Sequence[TeamLine], others: Sequence[TeamNow]) -> list[tuple[int, str]]:
    """(line, problem) for a member the file makes captain of two teams, or a channel it gives two
    teams, counting the league's teams the file leaves as they are (``others``): the same mistakes
    /setup team refuses, refused by line before anything is imported."""
    named = {t.name.casefold() for t in lines}
    kept = [t for t in others if t.name.casefold() not in named]
    captain_of = {c: t.name for t in kept for c in t.captain_ids}
    channel_of = {t.channel_id: t.name for t in kept if t.channel_id is not None}
    first_line: dict[str, int] = {}
    problems = []
    for t in lines:
        for captain in dict.fromkeys(t.captain_ids):
            owner = captain_of.get(captain)
            if owner is not None and owner.casefold() != t.name.casefold():
                where = f" (line {first_line[owner]})" if owner in first_line else ""
                problems.append((t.line, f"{t.name}: captain {captain} is already captain of {owner}{where} "
                                         "(a member captains one team in a league)"))
            else:
                captain_of[captain] = t.name
        if t.channel_id is not None:
            owner = channel_of.get(t.channel_id)
            if owner is not None and owner.casefold() != t.name.casefold():
                where = f" (line {first_line[owner]})" if owner in first_line else ""
                problems.append((t.line, f"{t.name}: channel {t.channel_id} is already the channel of {owner}{where} "
                                         "(each team has its own)"))
            else:
                channel_of[t.channel_id] = t.name
        first_line.setdefault(t.name, t.line)
    return problems
