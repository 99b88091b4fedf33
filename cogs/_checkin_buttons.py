"""In / Out / Maybe buttons that work under any message about a game, even after a restart.

The state lives in the custom_id (``sideline:checkin:<game code>:<in|out|maybe>``), so nothing
is kept in memory: the check-in cog registers ``CheckInButton`` with ``bot.add_dynamic_items``,
and discord.py rebuilds the button from the custom_id on every press. The game code is looked up
in the league of the server the press came from, so a press never reaches another league's data.

Other features attach the buttons with ``checkin_view(game.code)``.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app import NO_MENTIONS, report_error
from bot.discord_text import clip, timestamp
from bot.services.checkins import CheckInResult
from cogs._common import bot_of

CUSTOM_ID_PREFIX = "sideline:checkin:"
TEMPLATE = re.compile(r"sideline:checkin:(?P<code>.{1,64}):(?P<status>in|out|maybe)")
MAX_CUSTOM_ID = 100

BUTTONS: tuple[tuple[str, str, str, discord.ButtonStyle], ...] = (
    ("in", "In", "✅", discord.ButtonStyle.success),
    ("out", "Out", "❌", discord.ButtonStyle.danger),
    ("maybe", "Maybe", "❔", discord.ButtonStyle.secondary),
)
STATUS_WORDS = {"in": "**in** ✅", "out": "**out** ❌", "maybe": "a **maybe** ❔"}


def custom_id_for(game_code: str, status: str) -> str:
    custom_id = f"{CUSTOM_ID_PREFIX}{game_code}:{status}"
    if len(custom_id) > MAX_CUSTOM_ID or not TEMPLATE.fullmatch(custom_id):
        raise ValueError(f"game code {game_code!r} does not fit in a check-in button's custom_id")
    return custom_id


def checkin_reply(result: CheckInResult) -> str:
    """What the player reads after answering, by command or by button."""
    game = result.game
    when = f"{game.title}, {timestamp(game.starts_at)} (`{game.code}`)"
    if not result.changed:
        text = f"You were already {STATUS_WORDS[result.status]} for {when}."
    elif result.previous is None:
        text = f"You're {STATUS_WORDS[result.status]} for {when}."
    else:
        text = f"Changed: you're now {STATUS_WORDS[result.status]} for {when} (was {result.previous})."
    if result.late_dropout:
        text += " That's close to game time, so your captains are told."
    return clip(text, 2000)


class CheckInButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """One answer for one game; rebuilt from its custom_id on every press."""

    def __init__(self, game_code: str, status: str) -> None:
        label, emoji, style = next((lbl, em, st) for s, lbl, em, st in BUTTONS if s == status)
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=style,
                                           custom_id=custom_id_for(game_code, status)))
        self.game_code = game_code
        self.status = status

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CheckInButton:
        return cls(match["code"], match["status"])

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        # discord.py only logs errors raised here; route them to the user like command errors.
        try:
            bot = bot_of(interaction)
            result = await bot.services.checkins.check_in(
                bot.caller(interaction), self.status, self.game_code)
            await interaction.response.send_message(checkin_reply(result), ephemeral=True,
                                                    allowed_mentions=NO_MENTIONS)
        except Exception as error:
            await report_error(interaction, error)


def checkin_view(game_code: str) -> discord.ui.View:
    """The In / Out / Maybe buttons for a game, to attach to any message (they never time out)."""
    view = discord.ui.View(timeout=None)
    for status, *_ in BUTTONS:
        view.add_item(CheckInButton(game_code, status))
    view.stop()  # DynamicItems answer the clicks: nothing for discord.py to hold (15 min per ephemeral reply)
    return view
