"""A Discord server with no league yet, as a test's starting point for /setup: roles, channels and the
bot itself as a member (so the bot's channel permissions resolve as on a live gateway)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.config.settings import Settings, parse_settings
from bot.run.app import SidelineBot
from bot.services.setup.stored import CHANNEL_NAMES, ROLE_NAMES
from storage.models import LeagueSetup
from tests.harness import Call, Harness, Member
from tests.harness.fake_discord import next_id, settle

GUILD = 333_333_333_333_333_333
ROLE_IDS = {"captain": 5001, "referee": 5002, "commissioner": 5003, "timekeeper": 5004, "sideline": 5009}
CHANNEL_IDS = {"announcements": 6001, "standings": 6002, "referees": 6003, "admin": 6004, "locked": 6005, "draft": 6006,
               "hawks": 6101, "owls": 6102}
VIEW, SEND, EMBED = 1 << 10, 1 << 11, 1 << 14


def no_leagues(url: str = "sqlite+aiosqlite:///unused.db") -> Settings:
    """A config with only the [bot] table: the default path (README)."""
    return parse_settings({"bot": {"database_url": url}}, "test-config.toml")


@dataclass
class Server:
    harness: Harness
    guild_id: int = GUILD
    members: dict[str, Member] = field(default_factory=dict)

    def admin(self) -> Member:
        return self.person("Ada Admin", manage_guild=True)

    def person(self, name: str, *roles: str, manage_guild: bool = False) -> Member:
        key = f"{name}|{','.join(roles)}|{manage_guild}"
        if key not in self.members:
            member = Member(id=next_id(), name=name, role_ids=tuple(ROLE_IDS[r] for r in roles),
                            manage_guild=manage_guild)
            self.harness.join(member, self.guild_id)
            self.members[key] = member
        return self.members[key]

    async def slash(self, path: str, *, as_: Member, **options: Any) -> Any:
        return await self.harness.slash(path, as_=as_, guild_id=self.guild_id, **options)


def open_server(h: Harness, guild_id: int = GUILD, *, joined: bool = False, may_welcome: bool = True) -> Server:
    """GUILD_CREATE for a server with no league: in #locked the bot may not send messages. ``joined``: as
    Discord sends it when the bot was just added (discord.py then dispatches on_guild_join); the system
    channel is #announcements, or #locked when the bot may not post there."""
    bot_id = int(h.discord.bot_user["id"])

    def role(role_id: int, name: str, perms: int) -> dict[str, Any]:
        return {"id": str(role_id), "name": name, "permissions": str(perms), "position": 1, "color": 0,
                "hoist": False, "managed": False, "mentionable": True}

    roles = [role(guild_id, "@everyone", VIEW | SEND | (1 << 31))]
    roles += [role(rid, name, EMBED if name == "sideline" else 0) for name, rid in ROLE_IDS.items()]
    channels = []
    for name, cid in CHANNEL_IDS.items():
        channel = h._channel(guild_id, cid) | {"name": name}
        if name == "locked":
            channel["permission_overwrites"] = [{"id": str(bot_id), "type": 1, "allow": "0", "deny": str(SEND)}]
        channels.append(channel)
    h.channels[guild_id] = sorted(CHANNEL_IDS.values())
    me = {"user": h.discord.bot_user, "roles": [str(ROLE_IDS["sideline"])], "joined_at": "2024-01-01T00:00:00+00:00",
          "deaf": False, "mute": False, "flags": 0, "nick": None}
    h.bot._connection.parsers["GUILD_CREATE"]({
        "id": str(guild_id), "name": "Empty server", "owner_id": "1", "roles": roles, "channels": channels,
        "members": [me], "member_count": 2, "features": [], "emojis": [], "stickers": [],
        "threads": [], "voice_states": [], "presences": [], "large": False, "icon": None, "afk_timeout": 300,
        "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
        "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0, "preferred_locale": "en-US",
        "system_channel_flags": 0, "joined_at": "2024-01-01T00:00:00+00:00",
        "system_channel_id": str(CHANNEL_IDS["announcements" if may_welcome else "locked"]),
    } | ({} if joined else {"unavailable": False}))
    return Server(h, guild_id)


async def hand_to_discord(bot: SidelineBot, index: int = 0) -> None:
    """Make one of the bot's configured leagues one set up in Discord, as if /setup had made it: its settings
    go into the database and out of this bot's copy of the file (no other bot shares that copy)."""
    league = bot.settings.leagues[index]
    async with bot.sessions.begin() as session:
        session.add(LeagueSetup(
            league_id=bot.league_ids[league.guild_id], timezone=league.timezone.key, rule_overrides={},
            created_by=1, **{f"{r}_role_id": getattr(league.roles, r) for r in ROLE_NAMES},
            **{f"{c}_channel_id": getattr(league.channels, c) for c in CHANNEL_NAMES}))
    kept = tuple(lg for lg in bot.settings.leagues if lg is not league)
    object.__setattr__(bot.settings, "leagues", kept)  # frozen for the bot's code, not for this test's
    vars(bot.settings).pop("_file_leagues", None)  # and its cached lookup by server follows
    await bot.services.setup.load()
    assert bot.settings.league_for_guild(league.guild_id) is not None


async def join_server(h: Harness, *, may_welcome: bool = True) -> list[Call]:
    """The bot is added to a new server: what it sent in answer."""
    start, baseline = len(h.discord.calls), set(asyncio.all_tasks())
    open_server(h, joined=True, may_welcome=may_welcome)
    await settle(baseline)
    return h.discord.calls[start:]
