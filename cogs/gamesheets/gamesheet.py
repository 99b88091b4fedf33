"""/gamesheet show|add|remove|confirm: each team's game sheet, pre-filled from its answers and changed by hand."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, reply, requires
from bot.discord_text import clip, local_label, timestamp
from bot.services.gamesheets.sheet import MAX_NUMBER, SheetChanged, SheetView, TeamSheetView, change_words
from cogs._common import (
    ManagedName,
    accountless_autocomplete,
    bot_of,
    member_or_name,
    suggesting_for,
    team_autocomplete,
)
from cogs.gamesheets._buttons import LateStartButton

SHEET_ROLES = (Role.CAPTAIN, Role.REFEREE, Role.TIMEKEEPER, Role.COMMISSIONER)


def team_field(sheet: TeamSheetView) -> tuple[str, str]:
    """A team's sheet as an embed field: its lines, then whether it is confirmed and the latest changes."""
    name = f"{sheet.team} ({len(sheet.lines)})"
    body = "\n".join(f"• {line.label}" for line in sheet.lines) or "Nobody yet."
    if sheet.confirmed_at is not None:
        body += f"\n✔ Confirmed by {sheet.confirmed_by}, {timestamp(sheet.confirmed_at, 'R')}."
    elif not sheet.frozen:
        body += "\n*Follows the team's check-ins until it is confirmed.*"
    if sheet.changes:
        body += "\n" + "\n".join(change_words(c) for c in sheet.changes)
    return clip(name, 256), clip(body, 1024)


def sheet_embed(view: SheetView) -> discord.Embed:
    game = view.game
    embed = discord.Embed(title=clip(f"Game sheet · {game.title}", 256),
                          description=f"{timestamp(game.starts_at)} · `{game.code}`")
    for sheet in view.teams:
        name, value = team_field(sheet)
        embed.add_field(name=name, value=value, inline=False)
    return embed


def changed_text(done: SheetChanged) -> str:
    where = f"{done.team}'s sheet for `{done.game.code}`"
    at_start = where[:1].upper() + where[1:]
    return {
        "added": f"{done.name} is on {where}.",
        "numbered": f"{done.name}'s number on {where} is updated.",
        "already": f"{done.name} was already on {where}.",
        "removed": f"{done.name} is off {where} (logged; their check-in won't put them back).",
        "confirmed": f"{at_start} is confirmed: it no longer follows check-ins.",
        "already-confirmed": f"{at_start} was already confirmed by {done.name}.",
    }[done.action]


async def sheet_game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Games from two weeks back onwards, soonest first."""
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    games = await bot_of(interaction).services.gamesheets.games(caller, current[:100])
    tz = caller.league.timezone
    return [app_commands.Choice(name=clip(f"{local_label(g.starts_at, tz)} · {g.home.name} vs {g.away.name} "
                                          f"({g.code})", 100), value=g.code[:100]) for g in games[:25]]


async def line_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The named game's sheet lines."""
    caller = suggesting_for(interaction)
    game = getattr(interaction.namespace, "game", None)
    if caller is None or not isinstance(game, str) or not game.strip():
        return []
    found = await bot_of(interaction).services.gamesheets.names(caller, game[:64], current[:100])
    return [app_commands.Choice(name=clip(label, 100), value=value[:100]) for label, value in found]


@app_commands.guild_only()
class GameSheetCog(commands.GroupCog, group_name="gamesheet",
                   group_description="Each team's game sheet: who played."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.gamesheets

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LateStartButton)  # the late-start prompts' buttons, after a restart too

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LateStartButton)

    @app_commands.command(name="show", extras=answers(writes=False))
    @app_commands.describe(game="The game", team="One team only; leave empty for both")
    @app_commands.autocomplete(game=sheet_game_autocomplete, team=team_autocomplete)
    async def show(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 64],
                   team: app_commands.Range[str, 1, 100] | None = None) -> None:
        """Each team's game sheet: who is down to play, and the changes made to it."""
        view = await self.service.show(self.bot.caller(interaction), game, team)
        await reply(interaction, embed=sheet_embed(view), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="add", extras=requires(*SHEET_ROLES))
    @app_commands.describe(game="The game", player="The player to put on the sheet",
                           team="Their team in this game, if it isn't their roster team",
                           number="Their sweater number, e.g. 17",
                           name="Or the player by name: one without a Discord account")
    @app_commands.autocomplete(game=sheet_game_autocomplete, team=team_autocomplete, name=accountless_autocomplete)
    async def add(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 64],
                  player: discord.Member | None = None, team: app_commands.Range[str, 1, 100] | None = None,
                  number: app_commands.Range[int, 0, MAX_NUMBER] | None = None,
                  name: ManagedName | None = None) -> None:
        """Put a player on a game sheet (captains before the start; officials, commissioners)."""
        who = member_or_name(player, name, "player")
        assert who is not None  # required
        done = await self.service.add(self.bot.caller(interaction), game, who, team_name=team, number=number)
        await reply(interaction, changed_text(done), embed=sheet_embed(SheetView(done.game, (done.sheet,))),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="remove", extras=requires(*SHEET_ROLES))
    @app_commands.describe(game="The game", player="Who to take off, from the suggestions (or a mention)")
    @app_commands.autocomplete(game=sheet_game_autocomplete, player=line_autocomplete)
    async def remove(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 64],
                     player: app_commands.Range[str, 1, 100]) -> None:
        """Take someone off a game sheet (captains before the start; officials, commissioners)."""
        done = await self.service.remove(self.bot.caller(interaction), game, player)
        await reply(interaction, changed_text(done), embed=sheet_embed(SheetView(done.game, (done.sheet,))),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="confirm", extras=requires(*SHEET_ROLES))
    @app_commands.describe(game="The game", team="The team whose sheet is right")
    @app_commands.autocomplete(game=sheet_game_autocomplete, team=team_autocomplete)
    async def confirm(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 64],
                      team: app_commands.Range[str, 1, 100]) -> None:
        """Confirm a team's game sheet: it stops following check-ins (captain, officials)."""
        done = await self.service.confirm(self.bot.caller(interaction), game, team)
        await reply(interaction, changed_text(done), embed=sheet_embed(SheetView(done.game, (done.sheet,))),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(GameSheetCog(bot))
