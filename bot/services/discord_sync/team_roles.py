"""A Discord role per team, kept in step with the roster (roster add/remove, trades, /join, imports).

Choices the spec leaves open, decided here:
- The role is the team's exact name. An existing role of that name is adopted when it grants no
  permission and no integration manages it; otherwise the bot leaves it alone and says so. A new role
  gets no permission (0) and is mentionable, so anyone can @ the team. Managed roles are stored
  (``team_roles``); the bot never touches another role.
- Each change queues one action row per (team, member) unless one waits; the row compares the
  roster with whom the bot gave the role (``team_role_members``) when it runs: on the roster and
  without it, PUT; off the roster and given it by the bot, DELETE. A trade (off one team, onto
  another) is two rows, one per team.
- A 403 is diagnosed (the bot's own member and roles): no Manage Roles, or the team's role at or
  above the bot's highest role (role hierarchy). Either is told to the commissioners once and the row
  fails; it is not retried. ``/setup discord team-roles:True`` after the fix brings every team up to
  date, as does a restart for what was not refused.
- Making the role lists the server's roles first, so a role made just before a kill is adopted, not
  made twice; while another process holds a row of the same team that may be making it, the row waits.
- Turning the setting off leaves the roles as they are; a removed team's role stays on Discord.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.services import outbox
from bot.services.discord_sync import problems
from bot.services.discord_sync.api import (
    ADMINISTRATOR,
    MANAGE_ROLES,
    UNKNOWN_MEMBER,
    UNKNOWN_ROLE,
    DiscordCalls,
    Gone,
    Refused,
)
from bot.services.outbox import ActionOutcome, ActionRow
from storage.db import upsert_insert
from storage.models import Player, RosterEntry, Team, TeamRole, TeamRoleMember

log = logging.getLogger("sideline.discord_sync")

ROLE_KIND = "team_role"
SCOPE = "team-roles"  # the whole feature: Manage Roles
AGAIN = "then run `/setup discord team-roles:True` to bring every team's role up to date."


def team_scope(team_id: int) -> str:
    """One team's role: above the bot's, or a same-named role the bot won't adopt."""
    return f"{SCOPE}:{team_id}"


def role_prefix(team_id: int, discord_id: int) -> str:
    return f"team-role:{team_id}:{discord_id}:"


class NotAdoptable(Exception):
    """A role has the team's name but grants permissions or belongs to an integration."""


async def follow(session: AsyncSession, league: LeagueSettings, league_id: int, team_id: int, discord_id: int,
                 now: datetime) -> bool:
    """Queue the member's role for the team to follow the roster; True when a row was queued."""
    if not league.team_roles:
        return False
    if await outbox.has_pending(session, league_id, role_prefix(team_id, discord_id)):
        return False
    await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id,
                         key=f"{role_prefix(team_id, discord_id)}{uuid.uuid4().hex[:16]}", due_at=now,
                         kind=ROLE_KIND, args={"team_id": team_id, "discord_id": discord_id}, action=True)
    return True


async def follow_roster(session: AsyncSession, league: LeagueSettings, league_id: int, now: datetime) -> int:
    """Every member whose team role differs from the roster (turned on, a restart, after a fix): queued.
    Teams with a problem still reported are left until the commissioners fix it."""
    if not league.team_roles:
        return 0
    desired = {(team_id, discord_id) for team_id, discord_id in (await session.execute(
        select(RosterEntry.team_id, Player.discord_id).join(Player, Player.id == RosterEntry.player_id)
        .where(RosterEntry.league_id == league_id))).all() if discord_id is not None}
    applied = {(team_id, discord_id) for team_id, discord_id in (await session.execute(
        select(TeamRoleMember.team_id, TeamRoleMember.discord_id)
        .where(TeamRoleMember.league_id == league_id))).all()}
    held = await problems.open_scopes(session, league_id)
    if SCOPE in held:
        return 0
    queued = 0
    for team_id, discord_id in sorted(desired ^ applied):
        if team_scope(team_id) not in held:
            queued += await follow(session, league, league_id, team_id, discord_id, now)
    return queued


class TeamRoleSync:
    """The action behind each queued row: give or take one member's team role."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    async def __call__(self, api: DiscordCalls, row: ActionRow) -> ActionOutcome:
        team_id, discord_id = int(row.args["team_id"]), int(row.args["discord_id"])
        league = self.settings.league_for_guild(row.guild_id)
        async with self.sessions() as session:
            team = await session.get(Team, team_id)
            if team is None or team.league_id != row.league_id or league is None or not league.team_roles:
                return ActionOutcome("skipped", "the team or the setting is gone")
            on_roster = await session.scalar(
                select(RosterEntry.id).join(Player, Player.id == RosterEntry.player_id)
                .where(RosterEntry.team_id == team_id, Player.discord_id == discord_id)) is not None
            given = await session.get(TeamRoleMember, (team_id, discord_id))
            managed = await session.get(TeamRole, team_id)
            given_role = given.role_id if given else None
            role_id = managed.role_id if managed else None
            team_name = team.name
            if on_roster and role_id is None and await outbox.others_sending(session, row, f"team-role:{team_id}:"):
                return ActionOutcome("later", "another process is making the team's role")
        if on_roster == (given_role is not None):
            return ActionOutcome("skipped", "the role already follows the roster")
        try:
            if on_roster:
                return await self._give(api, row, league, team_id, team_name, discord_id, role_id)
            return await self._take(api, row, team_id, discord_id, given_role or 0)
        except Refused as exc:
            await self._report(api, row, league, team_id, team_name, role_id)
            return ActionOutcome("failed", str(exc))
        except NotAdoptable as exc:
            async with self.sessions.begin() as session:
                await problems.report_once(session, league, row.league_id, team_scope(team_id), str(exc),
                                           self.clock.now())
            return ActionOutcome("failed", str(exc))

    async def _give(self, api: DiscordCalls, row: ActionRow, league: LeagueSettings, team_id: int, team_name: str,
                    discord_id: int, role_id: int | None) -> ActionOutcome:
        for _ in range(2):  # a role deleted on Discord is made again, once
            if role_id is None:
                role_id = await self._ensure_role(api, row, team_id, team_name)
            try:
                await api.add_member_role(row.guild_id, discord_id, role_id)
            except Gone as exc:
                if exc.code == UNKNOWN_MEMBER:
                    return ActionOutcome("skipped", "not a member of the server")
                if exc.code != UNKNOWN_ROLE:
                    raise
                async with self.sessions.begin() as session:
                    await session.execute(delete(TeamRole).where(TeamRole.team_id == team_id))
                role_id = None
                continue
            async with self.sessions.begin() as session:
                values = {"league_id": row.league_id, "role_id": role_id}
                await session.execute(upsert_insert(session)(TeamRoleMember).values(
                    team_id=team_id, discord_id=discord_id, **values).on_conflict_do_update(
                    index_elements=["team_id", "discord_id"], set_=values))
                await problems.clear(session, row.league_id, SCOPE, team_scope(team_id))
            return ActionOutcome("sent")
        return ActionOutcome("failed", "the team's role keeps disappearing on Discord")

    async def _take(self, api: DiscordCalls, row: ActionRow, team_id: int, discord_id: int,
                    role_id: int) -> ActionOutcome:
        with contextlib.suppress(Gone):  # the member left, or the role was deleted: nothing to take back
            await api.remove_member_role(row.guild_id, discord_id, role_id)
        async with self.sessions.begin() as session:
            await session.execute(delete(TeamRoleMember).where(TeamRoleMember.team_id == team_id,
                                                               TeamRoleMember.discord_id == discord_id))
            await problems.clear(session, row.league_id, SCOPE, team_scope(team_id))
        return ActionOutcome("sent")

    async def _ensure_role(self, api: DiscordCalls, row: ActionRow, team_id: int, team_name: str) -> int:
        """The team's role: one of the team's exact name that grants nothing, else a new one."""
        name = team_name[:100]
        same = [r for r in await api.roles(row.guild_id) if r.get("name") == name]
        usable = [r for r in same if not r.get("managed") and int(r["id"]) != row.guild_id
                  and int(r.get("permissions") or 0) == 0]
        if same and not usable:
            raise NotAdoptable(f"A role named **{name}** already exists and grants permissions (or an "
                               "integration manages it), so Sideline won't hand it out as the team's role. "
                               f"Rename that role, {AGAIN}")
        if usable:
            role_id, adopted = int(usable[0]["id"]), True
        else:
            created = await api.create_role(row.guild_id, {"name": name, "permissions": 0, "mentionable": True,
                                                           "hoist": False})
            role_id, adopted = int(created["id"]), False
            log.info("team %s: created role %s", name, role_id)
        async with self.sessions.begin() as session:
            await session.execute(upsert_insert(session)(TeamRole).values(
                team_id=team_id, league_id=row.league_id, role_id=role_id, adopted=adopted,
                created_at=self.clock.now()).on_conflict_do_nothing(index_elements=["team_id"]))
            stored = await session.get(TeamRole, team_id)
            return stored.role_id if stored else role_id

    async def _report(self, api: DiscordCalls, row: ActionRow, league: LeagueSettings, team_id: int,
                      team_name: str, role_id: int | None) -> None:
        """Say which permission is missing: Manage Roles, or the role hierarchy for this team's role."""
        async with self.sessions() as session:
            stored = await session.get(TeamRole, team_id)
        role_id = stored.role_id if stored else role_id
        why = await self._diagnose(api, row.guild_id, role_id)
        if why == "hierarchy":
            scope = team_scope(team_id)
            text = (f"Sideline couldn't give or take <@&{role_id}> ({team_name}'s team role): that role is at or "
                    "above Sideline's own highest role (the role hierarchy, Server Settings > Roles). Drag "
                    f"Sideline's role above it, {AGAIN}")
        else:
            scope = SCOPE
            text = ("Sideline couldn't create, give or take the team roles: it needs the **Manage Roles** "
                    f"permission (Server Settings > Roles > Sideline). Give it that, {AGAIN}")
        async with self.sessions.begin() as session:
            await problems.report_once(session, league, row.league_id, scope, text, self.clock.now())

    @staticmethod
    async def _diagnose(api: DiscordCalls, guild_id: int, role_id: int | None) -> str:
        """"permission" (no Manage Roles) or "hierarchy" (the role is at or above the bot's highest)."""
        bot_id = api.bot_user_id
        try:
            me = await api.member(guild_id, bot_id) if bot_id else None
            roles = await api.roles(guild_id)
        except (Refused, Gone):
            return "permission"
        by_id: dict[int, dict[str, Any]] = {int(r["id"]): r for r in roles}
        mine = [by_id[int(r)] for r in (me or {}).get("roles", []) if int(r) in by_id]
        everyone = by_id.get(guild_id)
        granted = 0
        for r in [*mine, *([everyone] if everyone else [])]:
            granted |= int(r.get("permissions") or 0)
        if not granted & (ADMINISTRATOR | MANAGE_ROLES):
            return "permission"
        top = max((int(r.get("position") or 0) for r in mine), default=0)
        target = by_id.get(role_id or 0)
        if target is not None and int(target.get("position") or 0) >= top:
            return "hierarchy"
        return "permission"
