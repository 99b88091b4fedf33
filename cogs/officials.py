"""/game-card and /game duty: the officials' game card, and a commissioner's word on a team's arena duty;
and the card's "didn't do its duty" buttons, which work after a restart, in the referees channel and in DMs.

The card is a command of its own, not a ``/game`` subcommand: ``/game`` is commissioner-only, so Discord
hides it from players (bot/client/tree.py ``hide_commissioner_commands``), and captains and referees read
the card too. ``/game duty`` is the commissioners': the ``/game`` group belongs to cogs/games.py, which loads
first (extensions load alphabetically), and this module adds the subcommand to it, as cogs/referees.py
does; without the group it falls back to its own ``/officials duty``.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, ReportingItem, reply, requires
from bot.discord_text import clip
from bot.league.discipline.cleanup import DOING
from bot.services.discipline.cleanup import DutyChanged, Presser
from bot.services.officials import BUTTON_PREFIX, duty_button_id
from cogs._common import bot_of, game_autocomplete, team_autocomplete
from cogs.discipline.cleanup import missed_reply

DutyName = Literal["setup", "cleanup"]
Setting = Literal["on", "off", "rule"]
TEMPLATE = re.compile(rf"{BUTTON_PREFIX}(?P<duty>setup|cleanup):(?P<game>[0-9]{{1,20}}):(?P<team>[0-9]{{1,20}})")
SETTING_WORDS = {"on": "on duty", "off": "off duty", "rule": "as the league's rule says"}


def duty_text(changed: DutyChanged) -> str:
    """What the commissioner reads: the word, and the game's rota now."""
    rota = " · ".join(f"{'set up' if d == 'setup' else 'clean up'}: {', '.join(t) or 'nobody'}"
                      for d, t in changed.rota.items())
    head = (f"{changed.team} {'is now' if changed.changed else 'was already'} {SETTING_WORDS[changed.setting]} to "
            f"{DOING[changed.duty]} `{changed.game.code}` ({changed.game.home} vs {changed.game.away}).")
    return clip(f"{head}\nDuties for this game now: {rota}.", 2000)


@app_commands.command(name="game-card", extras=requires(Role.CAPTAIN, Role.REFEREE, Role.TIMEKEEPER,
                                                       Role.COMMISSIONER))
@app_commands.describe(game="The game")
@app_commands.autocomplete(game=game_autocomplete)
@app_commands.guild_only()
async def game_card(interaction: discord.Interaction, game: app_commands.Range[str, 1, 64]) -> None:
    """A game's card: format, clock, timeouts, overtime, duties, equipment (officials, captains)."""
    bot = bot_of(interaction)
    card = await bot.services.officials.show(bot.caller(interaction), game)
    view = None
    if card.buttons:
        view = discord.ui.View(timeout=None)
        for label, custom_id in card.buttons:
            view.add_item(DutyButton.from_id(custom_id, label))
        view.stop()  # the DynamicItems answer the clicks: nothing for discord.py to hold
    await reply(interaction, card.text(), ephemeral=True, allowed_mentions=NO_MENTIONS, view=view)


@app_commands.describe(game="The game", team="A team playing it", duty="Setting the arena up, or clearing it",
                       setting="On duty, off duty, or back to the league's rule")
@app_commands.autocomplete(game=game_autocomplete, team=team_autocomplete)
@app_commands.guild_only()
async def game_duty(interaction: discord.Interaction, game: app_commands.Range[str, 1, 64],
                    team: app_commands.Range[str, 1, 100], duty: DutyName, setting: Setting) -> None:
    bot = bot_of(interaction)
    changed = await bot.services.cleanup.set_duty(bot.caller(interaction), game_code=game, team_name=team, duty=duty,
                                                  setting=setting)
    await reply(interaction, duty_text(changed), ephemeral=True, allowed_mentions=NO_MENTIONS)


class DutyButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """"Hawks didn't set up" under a game card: records the missed duty (a bench minor); rebuilt from its
    custom_id on every press, and checked again by the service (forged ids included)."""

    def __init__(self, duty: str, game_id: int, team_id: int, label: str = "Didn't do its duty") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=duty_button_id(duty, game_id, team_id)))
        self.duty, self.game_id, self.team_id = duty, game_id, team_id

    @classmethod
    def from_id(cls, custom_id: str, label: str) -> DutyButton:
        match = TEMPLATE.fullmatch(custom_id)
        assert match is not None
        return cls(match["duty"], int(match["game"]), int(match["team"]), label)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DutyButton:
        return cls(match["duty"], int(match["game"]), int(match["team"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        caller = bot.caller(interaction) if interaction.guild_id is not None else None
        recorded = await bot.services.cleanup.missed_from_card(
            Presser(interaction.user.id, caller), game_id=self.game_id, team_id=self.team_id, duty=self.duty)
        await reply(interaction, missed_reply(recorded), ephemeral=True, allowed_mentions=NO_MENTIONS)


class OfficialsCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DutyButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DutyButton)


def duty_command() -> app_commands.Command[Any, ..., Any]:
    return app_commands.Command(name="duty", description="Put a team on or off a game's arena duty (commissioners).",
                                callback=game_duty, extras=requires(Role.COMMISSIONER))


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(OfficialsCog(bot))
    bot.tree.add_command(game_card)
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        group = app_commands.Group(name="officials", description="Arena duties.", guild_only=True)
        bot.tree.add_command(group)
    group.add_command(duty_command())


async def teardown(bot: SidelineBot) -> None:
    bot.tree.remove_command("game-card")
    group = bot.tree.get_command("game")
    if isinstance(group, app_commands.Group):
        group.remove_command("duty")
    bot.tree.remove_command("officials")
