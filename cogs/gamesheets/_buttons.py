"""The late-start prompt's buttons (youth 2.4) and the Undo under what a press recorded, working after a
restart: the state lives in the custom_id (``sideline:late@<league>:<game>:<team>:<action>``) and the
gamesheet cog registers them with ``bot.add_dynamic_items``. The service checks everything again on every
press (bot/services/gamesheets/late_start.py): the presser is one of the game's officials or a commissioner,
the game and team still fit, the record is still standing."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.client.tree import NO_MENTIONS, ReportingItem, reply
from bot.errors import NotAllowed
from bot.league.gamesheets.late_start import ACTIONS
from bot.services.gamesheets.late_start import PREFIX, button_id
from cogs._common import bot_of
from cogs.results import STANDINGS_CHANGED

TEMPLATE = re.compile(rf"{PREFIX}@(?P<league>[0-9]{{1,19}}):(?P<game>[0-9]{{1,19}}):(?P<team>[0-9]{{1,19}}):"
                      rf"(?P<action>{'|'.join(ACTIONS)})")
STYLES = {"minor": discord.ButtonStyle.primary, "forfeit": discord.ButtonStyle.danger}


class LateStartButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Record (or undo) a late start's bench minor or forfeit; rebuilt from its custom_id on every press."""

    def __init__(self, league_id: int, game_id: int, team_id: int, action: str, label: str = "Record") -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=STYLES.get(action, discord.ButtonStyle.secondary),
                                           custom_id=button_id(league_id, game_id, team_id, action)))
        self.league_id, self.game_id, self.team_id, self.action = league_id, game_id, team_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LateStartButton:
        return cls(int(match["league"]), int(match["game"]), int(match["team"]), match["action"])

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if interaction.guild_id is not None:
            caller = bot.caller(interaction)
            if caller.league_id != self.league_id:
                raise NotAllowed("That prompt belongs to another server's league; nothing changed.")
        else:  # the prompt came by DM: the presser's roles on the league's server
            found = await bot.member_with_roles(interaction, self.league_id)
            if found is None:
                raise NotAllowed("That prompt belongs to a league you're not part of; nothing changed.")
            caller = found
        done = await bot.services.late_starts.press(caller, self.game_id, self.team_id, self.action)
        view = None
        if done.undo is not None:
            label, custom_id = done.undo
            match = TEMPLATE.fullmatch(custom_id)
            assert match is not None
            view = discord.ui.View(timeout=None)
            view.add_item(LateStartButton(int(match["league"]), int(match["game"]), int(match["team"]),
                                          match["action"], label))
        await reply(interaction, done.text, ephemeral=True, view=view, allowed_mentions=NO_MENTIONS)
        if done.standings_changed:
            bot.dispatch(STANDINGS_CHANGED, caller.league.guild_id)
