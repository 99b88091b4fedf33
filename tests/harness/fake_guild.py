"""The fake Discord's guild side: scheduled events, roles and members' roles, with Discord's checks.

Like real Discord it refuses (403 Missing Permissions, code 50013) a scheduled event change without
Manage Events, a role change without Manage Roles, and giving or taking a role at or above the bot's
highest role (the role hierarchy); and it allows an event's status to go only where Discord lets it
(SCHEDULED to ACTIVE or CANCELED, ACTIVE to COMPLETED).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ADMINISTRATOR = 1 << 3
MANAGE_ROLES = 1 << 28
MANAGE_EVENTS = 1 << 33
EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 31)
STATUS_MOVES = {1: {2, 4}, 2: {3}}  # Discord: scheduled -> active or canceled; active -> completed
MISSING_PERMISSIONS = (403, {"message": "Missing Permissions", "code": 50013}, {})

Answer = tuple[int, Any, dict[str, str]]


@dataclass
class Guild:
    """One server as the bot's REST calls see it."""

    id: int
    bot_id: int
    roles: dict[int, dict[str, Any]] = field(default_factory=dict)
    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    bot_role: int = 0

    def role(self, role_id: int, name: str, *, permissions: int = 0, position: int = 1,
             managed: bool = False) -> dict[str, Any]:
        role = {"id": str(role_id), "name": name, "permissions": str(permissions), "position": position,
                "color": 0, "hoist": False, "managed": managed, "mentionable": False, "flags": 0,
                "icon": None, "unicode_emoji": None, "description": None}
        self.roles[role_id] = role
        return role

    def bot_permissions(self) -> int:
        return int(self.roles[self.id]["permissions"]) | int(self.roles[self.bot_role]["permissions"])

    def may(self, permission: int) -> bool:
        granted = self.bot_permissions()
        return bool(granted & ADMINISTRATOR or granted & permission)

    def bot_top(self) -> int:
        return int(self.roles[self.bot_role]["position"])


class FakeGuilds:
    """Guild state for ``FakeDiscord``: ``answer`` takes the calls under /guilds/ it knows."""

    def __init__(self, bot_id: Callable[[], int], members: dict[int, dict[int, dict[str, Any]]],
                 next_id: Callable[[], int]) -> None:
        self._bot_id = bot_id
        self.members = members  # FakeDiscord's: guild id -> user id -> member payload
        self.next_id = next_id
        self.guilds: dict[int, Guild] = {}

    def guild(self, guild_id: int) -> Guild:
        """The server, made on first use: @everyone, and the bot's own role (Manage Roles and Events) on top."""
        if guild_id not in self.guilds:
            g = Guild(guild_id, self._bot_id())
            g.role(guild_id, "@everyone", permissions=EVERYONE_PERMISSIONS, position=0)
            g.bot_role = self.next_id()
            g.role(g.bot_role, "Sideline", permissions=MANAGE_ROLES | MANAGE_EVENTS, position=10, managed=True)
            self.guilds[guild_id] = g
            self.members.setdefault(guild_id, {})[g.bot_id] = {
                "user": {"id": str(g.bot_id), "username": "Sideline", "discriminator": "0", "avatar": None,
                         "bot": True}, "roles": [str(g.bot_role)], "joined_at": "2024-01-01T00:00:00+00:00",
                "deaf": False, "mute": False, "flags": 0}
        return self.guilds[guild_id]

    def member_roles(self, guild_id: int, user_id: int) -> set[int]:
        member = self.members.get(guild_id, {}).get(user_id)
        return {int(r) for r in (member or {}).get("roles", [])}

    def answer(self, method: str, path: str, body: Any) -> Answer | None:
        m = re.match(r"^/guilds/(\d+)/(scheduled-events|roles|members)(/.*)?$", path)
        if m is None:
            return None
        g, what, rest = self.guild(int(m.group(1))), m.group(2), m.group(3) or ""
        if what == "scheduled-events":
            return self._events(g, method, rest, body)
        if what == "roles" and not rest:
            return self._roles(g, method, body)
        m = re.match(r"^/(\d+)/roles/(\d+)$", rest) if what == "members" else None
        if m is not None and method in ("PUT", "DELETE"):
            return self._member_role(g, method, int(m.group(1)), int(m.group(2)))
        return None

    # --- scheduled events ---------------------------------------------------------------------
    def _events(self, g: Guild, method: str, rest: str, body: Any) -> Answer | None:
        if method == "GET" and not rest:
            return 200, list(g.events.values()), {}
        if method != "GET" and not g.may(MANAGE_EVENTS):
            return MISSING_PERMISSIONS
        if method == "POST" and not rest:
            event = {"id": str(self.next_id()), "guild_id": str(g.id), "channel_id": None,
                     "creator_id": str(g.bot_id), "status": 1, "entity_id": None, "image": None,
                     "recurrence_rule": None, "user_count": 0, **body}
            g.events[int(event["id"])] = event
            return 200, event, {}
        m = re.match(r"^/(\d+)$", rest)
        if m is None:
            return None
        event = g.events.get(int(m.group(1)))
        if event is None:
            return 404, {"message": "Unknown Guild Scheduled Event", "code": 10070}, {}
        if method == "GET":
            return 200, event, {}
        if method == "DELETE":
            del g.events[int(event["id"])]
            return 204, None, {}
        if method == "PATCH":
            status = body.get("status")
            if status is not None and status != event["status"] and status not in STATUS_MOVES.get(event["status"], ()):
                return 400, {"message": f"Cannot move an event from status {event['status']} to {status}",
                             "code": 180000}, {}
            event.update({k: v for k, v in body.items() if v is not None or k == "description"})
            return 200, event, {}
        return None

    # --- roles --------------------------------------------------------------------------------
    def _roles(self, g: Guild, method: str, body: Any) -> Answer | None:
        if method == "GET":
            return 200, sorted(g.roles.values(), key=lambda r: r["position"]), {}
        if method == "POST":
            if not g.may(MANAGE_ROLES):
                return MISSING_PERMISSIONS
            for role in g.roles.values():  # a new role goes in just above @everyone
                if role["position"] >= 1:
                    role["position"] += 1
            role = g.role(self.next_id(), body.get("name") or "new role", permissions=int(body.get("permissions") or 0))
            role.update({k: body[k] for k in ("mentionable", "hoist") if k in body})
            return 200, role, {}
        return None

    def _member_role(self, g: Guild, method: str, user_id: int, role_id: int) -> Answer:
        if not g.may(MANAGE_ROLES):
            return MISSING_PERMISSIONS
        role = g.roles.get(role_id)
        if role is None:
            return 404, {"message": "Unknown Role", "code": 10011}, {}
        if role["position"] >= g.bot_top() or role["managed"]:
            return MISSING_PERMISSIONS  # the role hierarchy: Discord says no more than this
        member = self.members.get(g.id, {}).get(user_id)
        if member is None:
            return 404, {"message": "Unknown Member", "code": 10007}, {}
        roles = [r for r in member.get("roles", []) if int(r) != role_id]
        member["roles"] = [*roles, str(role_id)] if method == "PUT" else roles
        return 204, None, {}
