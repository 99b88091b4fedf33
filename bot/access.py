"""Who is calling, in the league's terms: plain data that services can check without Discord."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.config.settings import LeagueSettings
from bot.errors import NotAllowed


class Role(StrEnum):
    PLAYER = "player"
    CAPTAIN = "captain"
    REFEREE = "referee"
    TIMEKEEPER = "timekeeper"
    COMMISSIONER = "commissioner"


@dataclass(frozen=True)
class Caller:
    discord_id: int
    display_name: str
    league: LeagueSettings
    league_id: int
    role_ids: frozenset[int] = frozenset()
    manages_server: bool = False

    @property
    def is_commissioner(self) -> bool:
        role = self.league.roles.commissioner
        return self.manages_server or (role is not None and role in self.role_ids)

    @property
    def is_referee(self) -> bool:
        role = self.league.roles.referee
        return role is not None and role in self.role_ids

    @property
    def is_timekeeper(self) -> bool:
        """Youth 2.2: the timekeeper records statistics, keeps time and monitors penalties."""
        role = self.league.roles.timekeeper
        return role is not None and role in self.role_ids

    @property
    def has_captain_role(self) -> bool:
        role = self.league.roles.captain
        return role is not None and role in self.role_ids

    def require(self, *allowed: Role) -> None:
        """Refuse unless the caller holds one of the league roles (captain: the role only)."""
        held = {
            Role.COMMISSIONER: self.is_commissioner,
            Role.REFEREE: self.is_referee,
            Role.TIMEKEEPER: self.is_timekeeper,
            Role.CAPTAIN: self.has_captain_role,
            Role.PLAYER: True,
        }
        if not any(held[r] for r in allowed):
            names = " or ".join(r.value for r in allowed)
            raise NotAllowed(f"Only a {names} of {self.league.name} can do that.")
