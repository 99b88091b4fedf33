"""Drive the real discord.py command tree offline: raw payloads in, captured HTTP out."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.client.deadline import BUSY_AT, DEFER_AFTER, DeadlineGuard
from bot.client.tree import SidelineTree
from bot.delivery.pace import UNPACED, Pace
from bot.run.app import SidelineBot
from tests.harness.fake_discord import Call, FakeDiscord, Fault, fresh_snowflake, next_id, settle
from tests.harness.fake_gateway import FakeGateway
from tests.harness.rate_limits import RateLimits

__all__ = ["Attachment", "Call", "FakeDiscord", "FakeGateway", "Fault", "Harness", "Member", "Reply", "connect"]

MANAGE_GUILD = 1 << 5
#: The deadline guard's delay in tests that don't opt in: longer than any test's interaction takes.
UNHURRIED_S = 60.0
BASE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 31)  # view channel, send messages, use commands


@dataclass(frozen=True)
class Member:
    """A server member as Discord describes them in an interaction."""

    id: int
    name: str
    role_ids: tuple[int, ...] = ()
    manage_guild: bool = False

    def user_payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name.lower().replace(" ", "_")[:32] or "user",
                "global_name": self.name, "discriminator": "0", "avatar": None}

    def member_payload(self, guild_id: int) -> dict[str, Any]:
        perms = BASE_PERMISSIONS | (MANAGE_GUILD if self.manage_guild else 0)
        return {"user": self.user_payload(), "roles": [str(r) for r in self.role_ids],
                "joined_at": "2024-01-01T00:00:00+00:00", "flags": 0, "deaf": False,
                "mute": False, "nick": None, "permissions": str(perms)}


def discord_refuses(param: app_commands.Parameter, value: Any, *, typing: bool = False) -> str | None:
    """Why Discord would not send this option value, or None: Discord's client and server hold an
    option to its max_length, min_length, min_value, max_value and choices (discord.py checks none of
    them), so a test can't send what no user could. While an option is typed (autocomplete) it may
    still be shorter than its minimum and be none of its choices."""
    if param.type is AppCommandOptionType.string and isinstance(value, str):
        if param.max_value is not None and len(value) > param.max_value:
            return f"{len(value)} characters, over its max_length {param.max_value}"
        if param.min_value is not None and len(value) < param.min_value and not typing:
            return f"{len(value)} characters, under its min_length {param.min_value}"
    elif param.type in (AppCommandOptionType.integer, AppCommandOptionType.number) and isinstance(value, int | float):
        if param.max_value is not None and value > param.max_value:
            return f"{value} is over its max_value {param.max_value}"
        if param.min_value is not None and value < param.min_value and not typing:
            return f"{value} is under its min_value {param.min_value}"
    if param.choices and not typing and value not in [c.value for c in param.choices]:
        return f"{value!r} is none of its choices"
    return None


def connect(client: discord.Client, fake: FakeDiscord) -> None:
    """Make any discord.py client's login talk to ``fake``: the bot, or a benchmark's minimal client."""

    async def static_login(token: str) -> dict[str, Any]:
        http = client.http
        http._HTTPClient__session = fake  # type: ignore[attr-defined]
        http._global_over = asyncio.Event()
        http._global_over.set()
        http.token = token
        return await http.request(discord.http.Route("GET", "/users/@me"))

    client.http.static_login = static_login  # type: ignore[method-assign]
    if client.http.http_trace is not None:  # as aiohttp.ClientSession does with its trace_configs
        client.http.http_trace.freeze()
        fake.trace_configs = [client.http.http_trace]


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    content_type: str = "text/csv; charset=utf-8"


@dataclass
class Reply:
    """Everything the bot sent while handling one interaction."""

    calls: list[Call] = field(default_factory=list)

    @property
    def responses(self) -> list[Call]:
        return [c for c in self.calls if c.is_interaction_response and c.method != "DELETE"]

    @property
    def first(self) -> Call:
        if not self.responses:
            raise AssertionError(f"the bot did not answer the interaction; calls: {self.calls}")
        return self.responses[0]

    @property
    def last(self) -> Call:
        """The final visible answer (after a defer, the followup or edit)."""
        visible = [c for c in self.responses if c.body and (c.payload or c.body.get("type") != 5)]
        return visible[-1] if visible else self.first

    @property
    def content(self) -> str:
        return self.last.content

    @property
    def text(self) -> str:
        return "\n".join(c.text for c in self.responses if c.text)

    @property
    def ephemeral(self) -> bool:
        return any(c.ephemeral for c in self.responses)

    @property
    def response_type(self) -> int | None:
        return self.first.body.get("type") if isinstance(self.first.body, dict) else None

    @property
    def autocomplete_choices(self) -> list[dict[str, Any]]:
        return (self.first.body.get("data") or {}).get("choices", [])

    def sent_messages(self) -> list[Call]:
        return [c for c in self.calls if c.channel_id is not None and c.method == "POST"]


class Harness:
    """A logged-in SidelineBot over a fake Discord, with a server per configured league."""

    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.discord = FakeDiscord(
            bot_user={"id": str(next_id()), "username": "Sideline", "discriminator": "0",
                      "avatar": None, "bot": True, "global_name": None},
            application_id=next_id(),
        )
        self.channels: dict[int, list[int]] = {}
        self.league_guilds: list[int] = []
        self.member_queries: list[tuple[int, str | None, list[int]]] = []  # (server, name, ids) asked
        # The fake has no rate limits unless a test sets them (``limit_rates``), so the courier sends
        # unpaced, one row at a time, as tests have always seen it.
        bot.courier.pace = UNPACED
        # Nor Discord's 3-second deadline (``keep_deadline``): on a loaded machine a test's command may
        # take seconds, and a deferral would change the calls the test expects. The guard still watches.
        self.deadline.defer_after = UNHURRIED_S

    @property
    def deadline(self) -> DeadlineGuard:
        tree = self.bot.tree
        assert isinstance(tree, SidelineTree)
        return tree.deadline

    def keep_deadline(self, defer_after: float = DEFER_AFTER, busy_at: int = BUSY_AT) -> DeadlineGuard:
        """The bot's deadline guard as in production (or shrunk, for a test that should not wait)."""
        self.deadline.defer_after, self.deadline.busy_at = defer_after, busy_at
        return self.deadline

    def limit_rates(self, limits: RateLimits | None = None, pace: Pace | None = None) -> RateLimits:
        """Discord's rate limits on the fake (real size unless given), and the courier paced to them:
        at ``pace``, or without one as the bot paces itself ([bot] send_rate shared by its processes)."""
        self.discord.rate_limits = limits or RateLimits()
        if pace is None:
            self.bot.courier.pace_from_settings()
        else:
            self.bot.courier.pace = pace
        return self.discord.rate_limits

    async def start(self, *, extra_channels: dict[int, Iterable[int]] | None = None) -> Harness:
        self.install()
        await self.bot.login("offline-test-token")
        self.add_league_guilds(extra_channels)
        return self

    def install(self) -> None:
        """Make the bot's login talk to the fake Discord (whoever calls ``bot.login``)."""
        connect(self.bot, self.discord)
        self.bot._connection.query_members = self._query_members  # type: ignore[method-assign]

    def add_league_guilds(self, extra_channels: dict[int, Iterable[int]] | None = None) -> None:
        """A server per configured league, as the gateway's GUILD_CREATE after login."""
        for payload in self._league_guild_payloads(extra_channels):
            self.bot._connection.parsers["GUILD_CREATE"](payload)

    def serve_gateway(self, extra_channels: dict[int, Iterable[int]] | None = None) -> FakeGateway:
        """Discord's gateway, for discord.py's own connection code: ``bot.connect()`` identifies (with
        its shard, if sharded) and gets the servers of the configured leagues on its shards."""
        gateway = FakeGateway(self.discord.bot_user, self.discord.application_id)
        gateway.guilds = {int(p["id"]): p for p in self._league_guild_payloads(extra_channels)}
        self.discord.gateway = gateway
        return gateway

    def _league_guild_payloads(self, extra_channels: dict[int, Iterable[int]] | None) -> list[dict[str, Any]]:
        self.league_guilds = [lg.guild_id for lg in self.bot.settings.leagues]  # in the config's order
        payloads = []
        for league in self.bot.settings.leagues:
            channels = {c for c in (league.channels.announcements, league.channels.standings,
                                    league.channels.referees) if c}
            channels |= set((extra_channels or {}).get(league.guild_id, ()))
            payloads.append(self.guild_payload(league.guild_id, league.name,
                                               [r for r in (league.roles.captain, league.roles.referee,
                                                            league.roles.commissioner, league.roles.timekeeper)
                                                if r], channels))
        return payloads

    async def _query_members(self, guild: discord.Guild, query: str | None, limit: int, user_ids: Any,
                             cache: bool, presences: bool) -> list[discord.Member]:
        """Guild.query_members' gateway request (op 8), answered from the members this server has: by
        the start of a name, or by id (``user_ids``)."""
        folded = (query or "").casefold()
        wanted = {int(i) for i in user_ids or ()}
        self.member_queries.append((guild.id, query, sorted(wanted)))
        found = []
        for payload in self.discord.members.get(guild.id, {}).values():
            user = payload["user"]
            names = (user["username"], user.get("global_name") or "", payload.get("nick") or "")
            if int(user["id"]) in wanted or (folded and any(n.casefold().startswith(folded) for n in names)):
                found.append(discord.Member(data=payload, guild=guild, state=self.bot._connection))
        return found[:limit]

    async def close(self) -> None:
        """Log out; fail if the bot sent anything real Discord would have refused."""
        await self.bot.close()
        self.discord.check()

    def add_guild(self, guild_id: int, name: str, role_ids: Iterable[int], channel_ids: Iterable[int]) -> None:
        """Feed GUILD_CREATE so roles and channels resolve like on a real server."""
        self.bot._connection.parsers["GUILD_CREATE"](self.guild_payload(guild_id, name, role_ids, channel_ids))

    def guild_payload(self, guild_id: int, name: str, role_ids: Iterable[int],
                      channel_ids: Iterable[int]) -> dict[str, Any]:
        """A server's GUILD_CREATE, as the gateway sends it; its channels are where interactions come from."""
        roles = [{"id": str(guild_id), "name": "@everyone", "permissions": str(BASE_PERMISSIONS),
                  "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False}]
        roles += [{"id": str(r), "name": f"role-{r}", "permissions": "0", "position": i + 1,
                   "color": 0, "hoist": False, "managed": False, "mentionable": True}
                  for i, r in enumerate(role_ids)]
        channel_list = sorted(set(channel_ids))
        self.channels[guild_id] = channel_list
        return {
            "id": str(guild_id), "name": name, "owner_id": "1", "roles": roles,
            "channels": [self._channel(guild_id, c) for c in channel_list],
            "members": [], "member_count": 10, "unavailable": False, "features": [],
            "emojis": [], "stickers": [], "threads": [], "voice_states": [], "presences": [],
            "large": False, "icon": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "preferred_locale": "en-US",
            "system_channel_flags": 0, "joined_at": "2024-01-01T00:00:00+00:00",
        }

    def add_channel(self, guild_id: int, channel_id: int) -> None:
        guild = self.bot.get_guild(guild_id)
        assert guild is not None
        guild._add_channel(discord.TextChannel(state=self.bot._connection, guild=guild,
                                               data=self._channel(guild_id, channel_id)))

    @staticmethod
    def _channel(guild_id: int, channel_id: int) -> dict[str, Any]:
        return {"id": str(channel_id), "type": 0, "name": f"channel-{channel_id}",
                "guild_id": str(guild_id), "position": 0, "permission_overwrites": [],
                "nsfw": False, "parent_id": None, "topic": None, "last_message_id": None,
                "rate_limit_per_user": 0}

    # --- interactions -----------------------------------------------------------------------
    async def _feed(self, payload: dict[str, Any]) -> Reply:
        start = len(self.discord.calls)
        baseline = set(asyncio.all_tasks())
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        await settle(baseline)
        return Reply(self.discord.calls[start:])

    def _base(self, kind: int, member: Member, guild_id: int | None, channel_id: int | None,
              data: dict[str, Any], message: dict[str, Any] | None = None) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(fresh_snowflake()), "application_id": str(self.discord.application_id),
            "type": kind, "token": f"tok-{next_id()}", "version": 1,
            "attachment_size_limit": 8 * 1024 * 1024, "data": data, "locale": "en-US",
            "app_permissions": str((1 << 53) - 1), "entitlements": [],
            "authorizing_integration_owners": {}, "context": 0 if guild_id else 1,
        }
        if guild_id is not None:
            channel = channel_id or (self.channels.get(guild_id) or [next_id()])[0]
            payload["guild_id"] = str(guild_id)
            payload["guild_locale"] = "en-US"
            payload["channel"] = self._channel(guild_id, channel)
            payload["channel_id"] = str(channel)
            payload["member"] = member.member_payload(guild_id)
            # whoever uses a command on a server is a member of it
            self.discord.members.setdefault(guild_id, {})[member.id] = payload["member"]
        else:
            payload["user"] = member.user_payload()
            payload["channel"] = {"id": str(next_id()), "type": 1}
        if message is not None:
            payload["message"] = message
        return payload

    def _command(self, path: str, guild_id: int | None) -> tuple[app_commands.Command[Any, ..., Any], list[str]]:
        names = path.lstrip("/").split()
        guild = discord.Object(id=guild_id) if guild_id else None
        cmd: Any = self.bot.tree.get_command(names[0], guild=guild) or self.bot.tree.get_command(names[0])
        if cmd is None:
            raise KeyError(f"no command /{names[0]}")
        for name in names[1:]:
            cmd = cmd.get_command(name)
            if cmd is None:
                raise KeyError(f"no command {path}")
        return cmd, names

    def _options(self, cmd: app_commands.Command[Any, ..., Any], values: dict[str, Any],
                 resolved: dict[str, Any], guild_id: int | None,
                 focused: str | None = None, forged: bool = False) -> list[dict[str, Any]]:
        options = []
        params = {p.display_name: p for p in cmd.parameters} | {p.name: p for p in cmd.parameters}
        for name, value in values.items():
            if value is None:
                continue
            param = params.get(name)
            if param is None:
                raise KeyError(f"/{cmd.qualified_name} has no option {name!r}")
            if not forged and (why := discord_refuses(param, value, typing=focused == name)):
                raise ValueError(f"/{cmd.qualified_name} {param.display_name}: {why}; Discord would not send it "
                                 "(slash(..., forged=True) sends it anyway)")
            opt: dict[str, Any] = {"name": param.display_name, "type": param.type.value}
            is_member_option = param.type in (AppCommandOptionType.user, AppCommandOptionType.mentionable)
            if is_member_option and isinstance(value, Member):
                resolved.setdefault("users", {})[str(value.id)] = value.user_payload()
                if guild_id:
                    m = value.member_payload(guild_id)
                    m.pop("user")
                    resolved.setdefault("members", {})[str(value.id)] = m
                opt["value"] = str(value.id)
            elif param.type is AppCommandOptionType.attachment:
                att_id = str(next_id())
                resolved.setdefault("attachments", {})[att_id] = self.attachment(att_id, value)
                opt["value"] = att_id
            elif param.type in (AppCommandOptionType.role, AppCommandOptionType.channel) and guild_id:
                opt["value"] = str(value.id)
                resolved.setdefault(f"{param.type.name}s", {})[str(value.id)] = self.resolved(
                    param.type, guild_id, value.id)
            elif isinstance(value, discord.Object | Member):
                opt["value"] = str(value.id)
            else:
                opt["value"] = value
            if focused == name:
                opt["focused"] = True
            options.append(opt)
        return options

    def resolved(self, kind: AppCommandOptionType, guild_id: int, object_id: int) -> dict[str, Any]:
        """A role or channel option as Discord resolves it: what the server has by that id."""
        guild = self.bot.get_guild(guild_id)
        if kind is AppCommandOptionType.role:
            role = guild and guild.get_role(object_id)
            return {"id": str(object_id), "name": role.name if role else f"role-{object_id}",
                    "permissions": "0", "position": 1, "color": 0, "hoist": False, "managed": False,
                    "mentionable": True}
        return {"id": str(object_id), "type": 0, "name": f"channel-{object_id}", "parent_id": None,
                "permissions": str(BASE_PERMISSIONS)}

    def _command_data(self, path: str, values: dict[str, Any], guild_id: int | None,
                      focused: str | None = None, forged: bool = False) -> dict[str, Any]:
        cmd, names = self._command(path, guild_id)
        resolved: dict[str, Any] = {}
        options = self._options(cmd, values, resolved, guild_id, focused, forged)
        for name in reversed(names[1:]):
            options = [{"name": name, "type": 1 if name == names[-1] else 2, "options": options}]
        data: dict[str, Any] = {"id": str(next_id()), "name": names[0], "type": 1, "options": options}
        if guild_id:
            data["guild_id"] = str(guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, path: str, *, as_: Member, guild_id: int | None = None,
                    channel_id: int | None = None, forged: bool = False, **options: Any) -> Reply:
        """A slash command as Discord sends it; ``forged``: with option values Discord would refuse to
        send (over an option's max_length or max_value, none of its choices), for the services' own checks."""
        guild_id = guild_id if guild_id is not None else self.default_guild
        data = self._command_data(path, options, guild_id, forged=forged)
        return await self._feed(self._base(2, as_, guild_id, channel_id, data))

    async def autocomplete(self, path: str, *, focused: str, as_: Member,
                           guild_id: int | None = None, **options: Any) -> Reply:
        guild_id = guild_id if guild_id is not None else self.default_guild
        data = self._command_data(path, options, guild_id, focused=focused)
        return await self._feed(self._base(4, as_, guild_id, None, data))

    async def press(self, custom_id: str, *, as_: Member, guild_id: int | None = None,
                    channel_id: int | None = None, ephemeral: bool = False, message_id: int | None = None) -> Reply:
        """A button press on a message the bot sent (component type 2); ``ephemeral``: one only the
        presser sees (Discord's flag 64); ``message_id``: the message's own id, which a view that is not
        persistent is found by (``view_message_id``)."""
        guild_id = guild_id if guild_id is not None else self.default_guild
        channel = channel_id or (self.channels.get(guild_id or 0) or [next_id()])[0]
        message = {"id": str(message_id or next_id()), "channel_id": str(channel), "type": 0, "content": "",
                   "author": self.discord.bot_user, "embeds": [], "attachments": [],
                   "mentions": [], "mention_roles": [], "mention_everyone": False,
                   "pinned": False, "tts": False, "timestamp": datetime.now(UTC).isoformat(),
                   "edited_timestamp": None, "flags": 64 if ephemeral else 0,
                   # the pressed message carries the button: discord.py rebuilds DynamicItems from it
                   "components": [{"type": 1, "components": [
                       {"type": 2, "style": 2, "label": "Button", "custom_id": custom_id}]}]}
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._feed(self._base(3, as_, guild_id, channel, data, message))

    async def choose(self, custom_id: str, values: list[str], *, as_: Member, guild_id: int | None = None,
                     channel_id: int | None = None) -> Reply:
        """A choice in a select menu on a message the bot sent (component type 3)."""
        guild_id = guild_id if guild_id is not None else self.default_guild
        channel = channel_id or (self.channels.get(guild_id or 0) or [next_id()])[0]
        message = {"id": str(next_id()), "channel_id": str(channel), "type": 0, "content": "",
                   "author": self.discord.bot_user, "embeds": [], "attachments": [], "mentions": [],
                   "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
                   "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None, "flags": 64,
                   "components": [{"type": 1, "components": [
                       {"type": 3, "custom_id": custom_id, "options": [{"label": v, "value": v} for v in values],
                        "min_values": 1, "max_values": 1}]}]}
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return await self._feed(self._base(3, as_, guild_id, channel, data, message))

    async def submit_modal(self, custom_id: str, values: dict[str, str], *, as_: Member,
                           guild_id: int | None = None) -> Reply:
        guild_id = guild_id if guild_id is not None else self.default_guild
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
                for k, v in values.items()]
        data = {"custom_id": custom_id, "components": rows}
        return await self._feed(self._base(5, as_, guild_id, None, data))

    def attachment(self, att_id: str, value: Attachment | bytes) -> dict[str, Any]:
        """Host the file on the fake CDN and describe it as Discord would."""
        att = value if isinstance(value, Attachment) else Attachment("upload.csv", value)
        url = f"https://cdn.discordapp.com/attachments/1/{att_id}/{att.filename}"
        self.discord.files[url] = att.data
        return {"id": att_id, "filename": att.filename, "size": len(att.data), "url": url,
                "proxy_url": url, "content_type": att.content_type}

    @property
    def default_guild(self) -> int | None:
        guilds = self.league_guilds or [lg.guild_id for lg in self.bot.settings.all_leagues]
        return guilds[0] if guilds else None

    # --- people -----------------------------------------------------------------------------
    def member(self, name: str, *, roles: Iterable[str] = (), league: int = 0,
               member_id: int | None = None, manage_guild: bool = False) -> Member:
        cfg = self.bot.settings.league_for_guild(self.league_guilds[league])
        assert cfg is not None
        role_ids = tuple(getattr(cfg.roles, r) for r in roles if getattr(cfg.roles, r))
        member = Member(id=member_id or next_id(), name=name, role_ids=role_ids, manage_guild=manage_guild)
        self.join(member, cfg.guild_id)
        return member

    def join(self, member: Member, guild_id: int) -> None:
        """Make someone a member of a server, as Discord's member lookup will then find them."""
        self.discord.members.setdefault(guild_id, {})[member.id] = member.member_payload(guild_id)
