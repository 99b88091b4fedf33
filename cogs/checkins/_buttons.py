"""In / Out / Maybe buttons that work under any message about a game, even after a restart.

The state lives in the custom_id (``sideline:checkin@<league id>:<game code>:<in|out|maybe>``),
so nothing is kept in memory: the check-in cog registers ``CheckInButton`` with
``bot.add_dynamic_items``, and discord.py rebuilds the button from the custom_id on every press.

On a server, the game is looked up in that server's league, and a button naming another league is
refused. In a DM (teams without a channel get their reminders there) there is no server, so the
league comes from the button, and the press counts only for a player on one of that game's teams;
anyone else is refused without a word about the game. Buttons sent before they named a league
(``sideline:checkin:<game code>:<status>``) still work: in a DM, in the one league where the
presser plays a game with that code.

Other features attach the buttons with ``checkin_view(game.code, league_id)``. A guardian's reminder for
a player without a Discord account carries buttons that also name the player
(``...:<status>:p<player id>``, bot/services/shared/checkin_buttons.py): they answer for that player, and
only for a presser who manages them in the league the button names.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.access import Caller
from bot.client.tree import NO_MENTIONS, ReportingItem, reply
from bot.discord_text import clean_user_text, clip, timestamp
from bot.errors import NotAllowed
from bot.services.checkins.presses import guards_in, leagues_where_they_play
from bot.services.checkins.service import CheckInResult
from bot.services.shared.checkin_buttons import managed_button_id
from cogs._common import bot_of

if TYPE_CHECKING:
    from bot.client.bot import SidelineBot

CUSTOM_ID_PREFIX = "sideline:checkin"
TEMPLATE = re.compile(r"sideline:checkin(?:@(?P<league>\d{1,19}))?:(?P<code>.{1,64}):(?P<status>in|out|maybe)"
                      r"(?::p(?P<player>\d{1,19}))?")
MAX_CUSTOM_ID = 100
NOT_FOR_YOU = ("That button isn't for you: only players of that game's teams can answer it. "
               "Use /checkin in your league's server.")
CANT_TELL = ("That button is from an older message and you play in more than one league, so I can't tell "
             "which game it means. Use /checkin in your league's server.")
OTHER_SERVER = "That button belongs to another server's league. Use /checkin here instead."

BUTTONS: tuple[tuple[str, str, str, discord.ButtonStyle], ...] = (
    ("in", "In", "✅", discord.ButtonStyle.success),
    ("out", "Out", "❌", discord.ButtonStyle.danger),
    ("maybe", "Maybe", "❔", discord.ButtonStyle.secondary),
)
STATUS_WORDS = {"in": "**in** ✅", "out": "**out** ❌", "maybe": "a **maybe** ❔"}


def custom_id_for(game_code: str, status: str, league_id: int | None) -> str:
    """The button's custom_id; ``league_id`` None only rebuilds a button sent before they named one."""
    league = "" if league_id is None else f"@{league_id}"
    custom_id = f"{CUSTOM_ID_PREFIX}{league}:{game_code}:{status}"
    if len(custom_id) > MAX_CUSTOM_ID or not TEMPLATE.fullmatch(custom_id):
        raise ValueError(f"game code {game_code!r} does not fit in a check-in button's custom_id")
    return custom_id


def checkin_reply(result: CheckInResult) -> str:
    """What the player reads after answering, by command or by button."""
    game = result.game
    when = f"{game.title}, {timestamp(game.starts_at)} (`{game.code}`)"
    if result.managed:
        return clip(_for_player(result, when), 2000)
    if not result.changed:
        text = f"You were already {STATUS_WORDS[result.status]} for {when}."
    elif result.previous is None:
        text = f"You're {STATUS_WORDS[result.status]} for {when}."
    else:
        text = f"Changed: you're now {STATUS_WORDS[result.status]} for {when} (was {result.previous})."
    if result.over_away:
        text += (" You're marked away on this game's day (/away): for this game this answer counts instead; "
                 "your other games in that range stay away.")
    if result.late_dropout:
        text += " That's close to game time, so your captains are told."
    return clip(text, 2000)


def _for_player(result: CheckInResult, when: str) -> str:
    """The reply to a guardian who answered for a player they manage."""
    who = f"**{clean_user_text(result.player, 100)}**"
    if not result.changed:
        text = f"{who} was already {STATUS_WORDS[result.status]} for {when}."
    elif result.previous is None:
        text = f"{who} is {STATUS_WORDS[result.status]} for {when}."
    else:
        text = f"Changed: {who} is now {STATUS_WORDS[result.status]} for {when} (was {result.previous})."
    if result.over_away:
        text += " They're marked away on this game's day: for this game this answer counts instead."
    if result.late_dropout:
        text += " That's close to game time, so the captains are told."
    return text


class CheckInButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """One answer for one game of one league; rebuilt from its custom_id on every press."""

    def __init__(self, game_code: str, status: str, league_id: int | None, player_id: int | None = None) -> None:
        label, emoji, style = next((lbl, em, st) for s, lbl, em, st in BUTTONS if s == status)
        custom_id = (custom_id_for(game_code, status, league_id) if player_id is None or league_id is None
                     else managed_button_id(game_code, status, league_id, player_id))
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=style, custom_id=custom_id))
        self.game_code = game_code
        self.status = status
        self.league_id = league_id
        self.player_id = player_id if league_id is not None else None

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CheckInButton:
        return cls(match["code"], match["status"], int(match["league"]) if match["league"] else None,
                   int(match["player"]) if match["player"] else None)

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        caller = await self.presser(bot, interaction)
        result = await bot.services.checkins.check_in(caller, self.status, self.game_code, player_id=self.player_id)
        await reply(interaction, checkin_reply(result), ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def presser(self, bot: SidelineBot, interaction: discord.Interaction) -> Caller:
        """Who answers, and in which league: the server's; in a DM, the one league where the button's
        game is theirs (the one it names, else any configured league). A button for a managed player
        names its league: the check-in then refuses a presser who doesn't manage the player."""
        if interaction.guild_id is not None:
            caller = bot.caller(interaction)
            if self.league_id is not None and self.league_id != caller.league_id:
                raise NotAllowed(OTHER_SERVER)
            return caller
        if self.player_id is not None and self.league_id is not None:
            member = bot.member_in(interaction, self.league_id)
            if member is None or not await guards_in(bot.sessions, member.discord_id, self.player_id,
                                                     self.game_code, self.league_id):
                raise NotAllowed(NOT_FOR_YOU)
            return member
        candidates = [known for known in bot.league_ids.values() if self.league_id in (None, known)]
        leagues = await leagues_where_they_play(bot.sessions, interaction.user.id, self.game_code, candidates)
        if len(leagues) > 1:
            raise NotAllowed(CANT_TELL)
        member = bot.member_in(interaction, leagues[0]) if leagues else None
        if member is None:
            raise NotAllowed(NOT_FOR_YOU)
        return member


def checkin_view(game_code: str, league_id: int) -> discord.ui.View:
    """The In / Out / Maybe buttons for a game of a league, to attach to any message, in a server
    channel or a DM (they never time out)."""
    view = discord.ui.View(timeout=None)
    for status, *_ in BUTTONS:
        view.add_item(CheckInButton(game_code, status, league_id))
    view.stop()  # DynamicItems answer the clicks: nothing for discord.py to hold (15 min per ephemeral reply)
    return view
