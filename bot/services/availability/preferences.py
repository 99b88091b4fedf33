"""How a player hears about games: reminders in the team channel or by DM, and kinds muted.

Choices the spec leaves open, decided here:
- No row means the defaults: the team channel, nothing muted.
- ``dm``: the team's game reminders still go to the channel, but the player is not pinged there; they get
  the reminder (with the check-in buttons) by DM instead. A team without a channel reminds everyone
  by DM whatever they chose.
- Muting game reminders: no ping and no DM for any game reminder. Muting deadline nudges: no nudge of a
  deadline whose audience is that one player. Neither touches what a captain or commissioner must
  get: captains' lineup alerts, late drop-outs, notes and relays, a team's or the commissioners'
  deadline nudges, and a nudge to a player who captains a team are never muted. Game notices
  (cancelled, new time) are never muted either: they change plans.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Player, ReminderPreference


@dataclass(frozen=True)
class Preference:
    delivery: str = "channel"
    mute_game_reminders: bool = False
    mute_deadline_nudges: bool = False


DEFAULT = Preference()


async def preferences(session: AsyncSession, league_id: int, player_ids: Sequence[int]) -> dict[int, Preference]:
    """Player id -> preference, for those of ``player_ids`` who set one."""
    if not player_ids:
        return {}
    rows = await session.execute(select(
        ReminderPreference.player_id, ReminderPreference.delivery, ReminderPreference.mute_game_reminders,
        ReminderPreference.mute_deadline_nudges).where(ReminderPreference.league_id == league_id,
                                                       ReminderPreference.player_id.in_(list(player_ids))))
    return {r.player_id: Preference(r.delivery, r.mute_game_reminders, r.mute_deadline_nudges) for r in rows}


async def preference_of(session: AsyncSession, league_id: int, discord_id: int) -> Preference:
    """One member's preference in a league (the defaults when they have no player row or set none)."""
    player_id = await session.scalar(select(Player.id).where(Player.league_id == league_id,
                                                             Player.discord_id == discord_id))
    if player_id is None:
        return DEFAULT
    return (await preferences(session, league_id, [player_id])).get(player_id, DEFAULT)
