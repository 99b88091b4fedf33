"""/replace request|decide|pending: replacing a long-term injured or absent player (youth 1.16). The
conditions and their verdicts are bot/league/replacements/'s; who may ask and decide, the service's."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.league.replacements.conditions import money
from bot.services.replacements.requests import Decided, Pending, RequestFiled

WHERE = {"admin": "The commissioners have it in their channel to approve or decline.",
         "announcements": "The commissioners are told it's waiting for their decision.",
         "dm": "The commissioners are told by DM.",
         "nowhere": "The commissioners will see it in their list of waiting requests."}


def filed_text(filed: RequestFiled) -> str:
    verdicts = "\n".join(f"{'✅' if v.holds else '❌'} {v.message} ({v.rule})" for v in filed.assessment.verdicts)
    if filed.assessment.met:
        head = (f"Request #{filed.id} to replace {filed.player} on {filed.team} ({filed.assessment.reason}) "
                "meets the rule:")
    else:
        head = (f"Request #{filed.id} to replace {filed.player} on {filed.team} ({filed.assessment.reason}) "
                "does NOT meet the rule:")
    tail = WHERE[filed.notified]
    if not filed.assessment.met:
        tail += " They can still approve it in an emergency, giving their reason."
    return clip(f"{head}\n{verdicts}\n{tail}", 2000)


def decided_text(done: Decided) -> str:
    if not done.approved:
        return clip(f"Declined request #{done.id} to replace {done.player} on {done.team}."
                    + (f" Note: {done.note}" if done.note else "") + " The captain who asked is told.", 2000)
    if done.offered_to is not None:
        lines = [f"Approved request #{done.id}: {done.player}'s place on {done.team} ({done.reason}, {done.citation}) "
                 f"is offered to {done.offered_to}, first on {done.division}'s waiting list. {done.player} is off the "
                 "roster.",
                 "They're asked by DM; if they decline or don't answer in time, the next on the list is asked. Whoever "
                 f"accepts joins {done.team}; the captain who asked is told."]
        if done.named_unused:
            lines.append(f"The waiting list comes first, so {done.named_unused} (whom you named) wasn't used.")
    else:
        lines = [f"Approved request #{done.id}: {done.replacement} replaces {done.player} on {done.team} "
                 f"({done.reason}, {done.citation}). {done.player} is off the roster.",
                 (f"No one is on {done.division}'s waiting list" if done.division
                  else "This team's division has no registration waiting list")
                 + f", so {done.replacement} is the one you named: add them to {done.team} with /roster add."]
    if done.override_reason:
        lines.append(f"Emergency approval past the rule's conditions: {done.override_reason}")
    if done.reason == "injury":
        lines.append(f"Partial refund to {done.player}: {money(done.refund_cents)}." if done.refund_cents is not None
                     else f"Partial refund to {done.player}: not recorded yet.")
    else:
        lines.append(f"No refund for an absence ({done.citation}).")
    share = f"{done.games_left} of {done.season_games} games left"
    if done.offered_to is not None:
        lines.append(f"The replacement's prorated fee ({share} now) is recorded on their registration when they "
                     "accept, due before their first game.")
    elif done.fee_cents is not None:
        due = f", due before their first game ({timestamp(done.fee_due_at)})" if done.fee_due_at else ""
        lines.append(f"{done.replacement}'s prorated fee: {money(done.fee_cents)} ({share}){due}.")
    else:
        lines.append(f"{done.replacement} pays the season's fee prorated ({share}) before their first game; "
                     "the bot doesn't know this league's fee, so work out the amount yourselves.")
    if done.note:
        lines.append(f"Note: {done.note}")
    return clip("\n".join(lines), 2000)


def pending_text(rows: list[Pending]) -> str:
    if not rows:
        return "No replacement requests are waiting."
    return clip("Replacement requests waiting for a decision:\n" + "\n".join(
        f"#{r.id} · {r.team}: replace {r.player} ({r.reason}) · "
        f"{'meets the rule' if r.conditions_met else 'does NOT meet the rule'} · asked {timestamp(r.requested_at)}"
        for r in rows), 2000)


@app_commands.guild_only()
class ReplacementCog(commands.GroupCog, group_name="replace",
                     group_description="Replace a long-term injured or absent player."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.replacements

    @app_commands.command(name="request", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(player="The player to replace (on your team)",
                           reason="injury: hurt until the season's end; absence: missed the first games",
                           injured_on="For an injury: the day it was disclosed, YYYY-MM-DD")
    @app_commands.guild_only()
    async def request(self, interaction: discord.Interaction, player: discord.Member,
                      reason: Literal["injury", "absence"],
                      injured_on: app_commands.Range[str, 1, 20] | None = None) -> None:
        """Ask to replace a player of your team (captains): says which conditions of the rule hold."""
        filed = await self.service.request(self.bot.caller(interaction), discord_id=player.id, reason=reason,
                                           injured_on=injured_on)
        await reply(interaction, filed_text(filed), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="decide", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(request="The request's number", decision="approve or decline",
                           replacement="Only when no one is on the waiting list: who replaces the player",
                           refund="Injury only: the partial refund to the replaced player, e.g. 40.00",
                           override="Approving a request that doesn't meet the rule: the emergency's reason",
                           note="A note to keep with the decision")
    @app_commands.guild_only()
    async def decide(self, interaction: discord.Interaction, request: app_commands.Range[int, 1, 2_000_000_000],
                     decision: Literal["approve", "decline"],
                     replacement: app_commands.Range[str, 1, 100] | None = None,
                     refund: app_commands.Range[str, 1, 20] | None = None,
                     override: app_commands.Range[str, 1, 300] | None = None,
                     note: app_commands.Range[str, 1, 300] | None = None) -> None:
        """Approve or decline a replacement request (commissioners)."""
        done = await self.service.decide(self.bot.caller(interaction), request_id=request,
                                         approve=decision == "approve", replacement=replacement, refund=refund,
                                         override=override, note=note)
        await reply(interaction, decided_text(done), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="pending", extras=requires(Role.COMMISSIONER))
    @app_commands.guild_only()
    async def pending(self, interaction: discord.Interaction) -> None:
        """Replacement requests waiting for a decision (commissioners)."""
        rows = await self.service.pending(self.bot.caller(interaction))
        await reply(interaction, pending_text(rows), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(ReplacementCog(bot))
