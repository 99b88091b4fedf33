"""/register (everyone: the registration form) and /registration (commissioners: open and close a division's
registration, record age exceptions, list and export registrants, reject one, record payments).

What the rules are is bot/league/registration/; the use cases are bot/services/registration/.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, answers, reply, requires
from bot.discord_text import clip, timestamp
from bot.league.registration.forms import EXCEPTION_REASONS, PAYMENT_STATES, money
from bot.services.registration.forms import Window
from bot.services.registration.shared import Line
from cogs._common import bot_of, suggesting_for
from cogs.registration._buttons import OfferButton, ReplaceButton
from cogs.registration._form import handle_form, registration_form

PAYMENT_WORDS = {"unpaid": "unpaid", "in_person": "paid in person", "online": "paid online", "waived": "waived",
                 "refunded": "refunded", "partial": "partly paid"}


Suggest = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]


def division_choices(*, open_only: bool) -> Suggest:
    """An autocomplete of divisions: those open for registration, or every one a window may be opened for."""
    async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        caller = suggesting_for(interaction)
        if caller is None:
            return []
        names = await bot_of(interaction).services.registration.division_names(caller, current[:100],
                                                                               open_only=open_only)
        return [app_commands.Choice(name=clip(n, 100), value=n[:100]) for n in names]
    return suggest


open_divisions = division_choices(open_only=True)
any_division = division_choices(open_only=False)


async def registrants(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    found = await bot_of(interaction).services.registration.search(caller, current[:100])
    return [app_commands.Choice(name=label, value=value) for label, value in found]


def window_text(window: Window, verb: str) -> str:
    text = f"Registration for **{window.division}** ({window.season}) is {verb}."
    if verb == "open":
        text += f" Fee: {money(window.fee_cents)}" if window.fee_cents else " No fee."
        if window.payment_link:
            text += f" Payment page: <{window.payment_link}>."
        if window.draft_date:
            text += f" Fees are due before the draft on {window.draft_date.isoformat()}."
        text += " Members register with /register."
    return clip(text, 2000)


def line_text(ln: Line) -> str:
    """One registrant for a commissioner's private list: the date of birth is shown here only."""
    where = f"waiting #{ln.queue_position}" if ln.status == "waiting" else ln.status
    pay = PAYMENT_WORDS.get(ln.payment_state, ln.payment_state)
    if ln.fee_cents:
        pay += f" ({money(ln.paid_cents)} of {money(ln.fee_cents)})"
        if ln.payment_due_at and ln.status == "registered":
            pay += f", due {timestamp(ln.payment_due_at, 'd')}"
    extra = f" · guardian {ln.guardian}" if ln.guardian else ""
    if ln.exception_reason:
        extra += f" · exception: {ln.exception_reason}"
    return clip(f"**#{ln.id}** {ln.name} · {ln.division} · {where} · born {ln.date_of_birth.isoformat()} · "
                f"{pay} · <@{ln.discord_id}>{extra}", 300)


class RegisterCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReplaceButton, OfferButton)
        self.bot.forms.add(handle_form)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ReplaceButton, OfferButton)
        self.bot.forms.remove(handle_form)

    @app_commands.command(name="register", description="Register a player (yourself or, as guardian, a minor).",
                          extras=answers(opens_form=True))
    @app_commands.describe(division="The division (default: the one the player's age fits)")
    @app_commands.autocomplete(division=open_divisions)
    @app_commands.guild_only()
    async def register(self, interaction: discord.Interaction,
                       division: app_commands.Range[str, 1, 100] | None = None) -> None:
        caller = self.bot.caller(interaction)
        windows = await self.bot.services.registration.windows(caller)
        if not windows:
            await reply(interaction, "Registration isn't open right now: a commissioner opens it for each division.",
                        ephemeral=True)
            return
        window_id = None
        title = f"Register — {windows[0].season}"
        if division:
            chosen = next((w for w in windows if w.division.casefold() == division.strip().casefold()), None)
            if chosen is None:
                open_names = ", ".join(w.division for w in windows)
                await reply(interaction, clip(f"Registration isn't open for that division (open: {open_names}).",
                                              2000), ephemeral=True, allowed_mentions=NO_MENTIONS)
                return
            window_id, title = chosen.id, f"Register — {chosen.division}, {chosen.season}"
        await interaction.response.send_modal(registration_form(window_id, title))


@app_commands.guild_only()
class RegistrationCog(commands.GroupCog, group_name="registration",
                      group_description="Open and close registration, registrants, dues (commissioners)."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.forms = bot.services.registration
        self.waiting = bot.services.registration_waiting

    @app_commands.command(name="open", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(division="The division", fee="The fee in dollars, e.g. 120 or 120.50 (default: none)",
                           payment_link="The league's payment page (https://…)",
                           draft_date="The draft day (YYYY-MM-DD): fees are due before it")
    @app_commands.autocomplete(division=any_division)
    async def open(self, interaction: discord.Interaction, division: app_commands.Range[str, 1, 100],
                   fee: app_commands.Range[str, 1, 12] | None = None,
                   payment_link: app_commands.Range[str, 1, 300] | None = None,
                   draft_date: app_commands.Range[str, 1, 20] | None = None) -> None:
        """Open a division's registration for the running season (commissioners)."""
        window = await self.forms.open(self.bot.caller(interaction), division, fee or "0", payment_link, draft_date)
        await reply(interaction, window_text(window, "open"), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="close", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(division="The division")
    @app_commands.autocomplete(division=open_divisions)
    async def close(self, interaction: discord.Interaction, division: app_commands.Range[str, 1, 100]) -> None:
        """Close a division's registration (commissioners)."""
        window = await self.forms.close(self.bot.caller(interaction), division)
        await reply(interaction, window_text(window, "closed"), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="exception", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(member="Who sends the form (the player, or their guardian)", division="The division",
                           reason="Why the player may play outside the division's ages")
    @app_commands.choices(reason=[app_commands.Choice(name=r, value=r) for r in EXCEPTION_REASONS])
    @app_commands.autocomplete(division=any_division)
    async def exception(self, interaction: discord.Interaction, member: discord.Member,
                        division: app_commands.Range[str, 1, 100], reason: str) -> None:
        """Let a player register outside a division's age band (commissioners)."""
        window = await self.forms.exception(self.bot.caller(interaction), member.id, division, reason)
        await reply(interaction, f"Recorded: the next player {member.mention} registers may play in "
                    f"**{window.division}** outside its ages ({reason}). They can send the form with /register now.",
                    ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="list", extras={**requires(Role.COMMISSIONER), **answers(writes=False)})
    @app_commands.describe(division="Only this division")
    @app_commands.autocomplete(division=any_division)
    async def list_(self, interaction: discord.Interaction,
                    division: app_commands.Range[str, 1, 100] | None = None) -> None:
        """The running season's registrants, with dates of birth (commissioners, privately)."""
        lines = await self.forms.lines(self.bot.caller(interaction), division)
        body = "\n".join(line_text(ln) for ln in lines) or "Nobody has registered yet."
        embed = discord.Embed(title=f"Registrations ({len(lines)})", description=clip(body, 4000))
        if len(body) > 4000:
            embed.set_footer(text="More than fits here: /registration export has everyone.")
        await reply(interaction, embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="export", extras={**requires(Role.COMMISSIONER), **answers(writes=False)})
    async def export(self, interaction: discord.Interaction) -> None:
        """The running season's registrations as a spreadsheet file (commissioners, privately)."""
        data = await self.forms.export(self.bot.caller(interaction))
        await reply(interaction, "The season's registrations (with dates of birth: keep the file private).",
                    ephemeral=True, file=discord.File(io.BytesIO(data), filename="registrations.csv"))

    @app_commands.command(name="reject", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(registration="The registration", reason="Why: sent to them privately")
    @app_commands.autocomplete(registration=registrants)
    async def reject(self, interaction: discord.Interaction, registration: app_commands.Range[str, 1, 100],
                     reason: app_commands.Range[str, 1, 500]) -> None:
        """Reject a registrant, telling them why by DM (commissioners)."""
        done = await self.waiting.reject(self.bot.caller(interaction), registration, reason)
        text = f"Rejected #{done.line.id} {done.line.name} ({done.line.division}); they're told why by DM."
        if done.offered_to:
            text += f" The spot is offered to {done.offered_to}, first on the waiting list."
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="payment", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(registration="The registration", state="How it stands",
                           amount="Dollars received so far (default: the whole fee when paid, none otherwise)")
    @app_commands.choices(state=[app_commands.Choice(name=PAYMENT_WORDS[s], value=s) for s in PAYMENT_STATES])
    @app_commands.autocomplete(registration=registrants)
    async def payment(self, interaction: discord.Interaction, registration: app_commands.Range[str, 1, 100],
                      state: str, amount: app_commands.Range[str, 1, 12] | None = None) -> None:
        """Record a registrant's payment: recorded here, never processed (commissioners)."""
        ln = await self.waiting.payment(self.bot.caller(interaction), registration, state, amount)
        await reply(interaction, clip(f"#{ln.id} {ln.name}: {PAYMENT_WORDS[ln.payment_state]}, "
                                      f"{money(ln.paid_cents)} of {money(ln.fee_cents)} recorded.", 2000),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(RegisterCog(bot))
    await bot.add_cog(RegistrationCog(bot))

