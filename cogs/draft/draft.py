"""/draft setup, lottery, start, pick, undo and board (youth 1.7).

The rules are bot/league/draft/; the use cases, the board and its clock are bot/services/draft/. The board
itself is one message in the draft channel, posted and edited through the outbox; replies here are private
except the lottery's, which everyone sees.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, reply, requires
from bot.discord_text import clip
from bot.services.draft.board import Board, board_text
from cogs._common import bot_of, division_autocomplete, suggesting_for


async def draft_players(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The players still to pick in this season's running drafts."""
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    found = await bot_of(interaction).services.draft.suggestions(caller, current[:100])
    return [app_commands.Choice(name=clip(label, 100), value=value) for label, value in found]


def recompute_note(board: Board) -> str:
    return (f"Seed `{board.seed}`: anyone can check the order. Each team's key is the SHA-256 of "
            f"“seed:team name” in lower case; the order is the keys from smallest to largest.")


@app_commands.guild_only()
class DraftCog(commands.GroupCog, group_name="draft", group_description="The season draft (youth 1.7)."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.drafts = bot.services.draft

    @app_commands.command(name="setup", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(division="The division drafting", rounds="How many rounds",
                           pick_seconds="Seconds each team has for a pick (default: the league's rule)")
    @app_commands.autocomplete(division=division_autocomplete)
    async def setup_(self, interaction: discord.Interaction, division: app_commands.Range[str, 1, 100],
                     rounds: app_commands.Range[int, 1, 50],
                     pick_seconds: app_commands.Range[int, 10, 86_400] | None = None) -> None:
        """Set up a division's draft for the running season (commissioners)."""
        board = await self.drafts.setup(self.bot.caller(interaction), division, rounds, pick_seconds)
        await reply(interaction, clip(f"The {board.division} draft is set up: {board.rounds} rounds. Next, draw the "
                                      "order with /draft lottery.", 2000),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="lottery", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(division="The division (needed when two drafts are set up)")
    @app_commands.autocomplete(division=division_autocomplete)
    async def lottery(self, interaction: discord.Interaction,
                      division: app_commands.Range[str, 1, 100] | None = None) -> None:
        """Draw the draft order, recorded so anyone can check it (commissioners; everyone sees it)."""
        board = await self.drafts.lottery(self.bot.caller(interaction), division)
        order = "\n".join(f"{i}. {team}" for i, team in enumerate(board.order, 1))
        await reply(interaction, clip(f"🎲 **{board.division} draft lottery**\n{order}\n{recompute_note(board)}",
                                      2000), allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="start", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(division="The division (needed when two drafts are set up)")
    @app_commands.autocomplete(division=division_autocomplete)
    async def start(self, interaction: discord.Interaction,
                    division: app_commands.Range[str, 1, 100] | None = None) -> None:
        """Start the draft: the board is posted and the first team is on the clock (commissioners)."""
        board = await self.drafts.start(self.bot.caller(interaction), division, interaction.channel_id)
        text = f"The {board.division} draft has started: the board is posted in the draft channel."
        if board.status == "done":
            text = f"The {board.division} draft is over already: no player can be picked."
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="pick")
    @app_commands.describe(player="The player to pick")
    @app_commands.autocomplete(player=draft_players)
    async def pick(self, interaction: discord.Interaction, player: app_commands.Range[str, 1, 100]) -> None:
        """Pick a player for the team on the clock (its captain or coach, or a commissioner)."""
        done = await self.drafts.pick(self.bot.caller(interaction), player)
        nxt = (f" Next: {done.board.on_the_clock}." if done.board.on_the_clock
               else " The draft is over." if done.board.status == "done" else "")
        await reply(interaction, clip(f"{done.team} picks {done.player}.{nxt}", 2000), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="undo", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(division="The division (needed when two drafts are set up)")
    @app_commands.autocomplete(division=division_autocomplete)
    async def undo(self, interaction: discord.Interaction,
                   division: app_commands.Range[str, 1, 100] | None = None) -> None:
        """Take back the latest pick (commissioners)."""
        board = await self.drafts.undo(self.bot.caller(interaction), division)
        await reply(interaction, clip(f"The latest pick is taken back: {board.on_the_clock} is on the clock again "
                                      f"(pick {board.pick_number}).", 2000),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="board", extras=answers(writes=False))
    @app_commands.describe(division="The division (needed when two drafts are set up)")
    @app_commands.autocomplete(division=division_autocomplete)
    async def board(self, interaction: discord.Interaction,
                    division: app_commands.Range[str, 1, 100] | None = None) -> None:
        """The draft board as it stands."""
        board = await self.drafts.board(self.bot.caller(interaction), division)
        await reply(interaction, board_text(board), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(DraftCog(bot))
