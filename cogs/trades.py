"""/trade propose|accept|decline|withdraw|veto|list: trades between teams (youth 1.9). When a trade takes
effect and why one is refused are bot/league/trades.py's; who may do what, bot/services/trades.py's."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.services.trades import TradeView
from cogs._common import TeamName, bot_of, suggesting_for, team_autocomplete

PlayerList = app_commands.Range[str, 1, 300]
TradeId = app_commands.Range[int, 1, 2_147_483_647]


def _sides(view: TradeView) -> str:
    return (f"{', '.join(view.leaving) or 'nobody'} ({view.from_team} → {view.to_team}) for "
            f"{', '.join(view.coming) or 'nobody'} ({view.to_team} → {view.from_team})")


def trade_line(view: TradeView) -> str:
    when = {"effective": "took effect", "cancelled": "couldn't take effect"}.get(view.state, "takes effect")
    note = f" · {view.note}" if view.note else ""
    return f"#{view.id} · {view.state} · {_sides(view)} · {when} {timestamp(view.effective_at)}{note}"


async def _players_autocomplete(interaction: discord.Interaction, current: str,
                                team: str | None) -> list[app_commands.Choice[str]]:
    """Complete the last name of a comma-separated list from the team's roster."""
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    done, _, typing = current.rpartition(",")
    head = ", ".join(p.strip() for p in done.split(",") if p.strip())
    names = await bot_of(interaction).services.trades.player_names(caller, team, typing[:100])
    out = []
    for name in names:
        value = f"{head}, {name}" if head else name
        if len(value) <= 100:
            out.append(app_commands.Choice(name=clip(value, 100), value=value))
    return out


async def out_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Players of the proposing team (the caller's own, or from_team)."""
    team = getattr(interaction.namespace, "from_team", None)
    return await _players_autocomplete(interaction, current, team if isinstance(team, str) else None)


async def in_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Players of the other team."""
    team = getattr(interaction.namespace, "team", None)
    if not isinstance(team, str) or not team:
        return []
    return await _players_autocomplete(interaction, current, team)


async def trade_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    found = await bot_of(interaction).services.trades.open_ids(caller, current[:20])
    return [app_commands.Choice(name=clip(label, 100), value=value) for label, value in found]


@app_commands.guild_only()
class TradeCog(commands.GroupCog, group_name="trade", group_description="Trades of players between teams."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.trades

    @app_commands.command(name="propose", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(team="The team you trade with",
                           players_out="Your players who go to that team, separated by commas",
                           players_in="Their players who come to your team, separated by commas",
                           takes_effect="When it should take effect, like 2030-02-01 19:00; empty: the earliest",
                           from_team="Commissioners: the proposing team (captains: your own)")
    @app_commands.autocomplete(team=team_autocomplete, from_team=team_autocomplete, players_out=out_autocomplete,
                               players_in=in_autocomplete)
    @app_commands.guild_only()
    async def propose(self, interaction: discord.Interaction, team: TeamName, players_out: PlayerList,
                      players_in: PlayerList | None = None,
                      takes_effect: app_commands.Range[str, 1, 20] | None = None,
                      from_team: TeamName | None = None) -> None:
        """Propose a trade to another team (captains): it takes effect after the league's notice."""
        view = await self.service.propose(self.bot.caller(interaction), team=team, players_out=players_out,
                                          players_in=players_in, takes_effect=takes_effect, from_team=from_team)
        await reply(interaction, clip(
            f"Trade #{view.id} proposed: {_sides(view)}. If {view.to_team} accepts, it takes effect "
            f"{timestamp(view.effective_at)}{view.cited}; a commissioner may veto it until then. {view.to_team} and "
            "the commissioners are told.", 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="accept", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(trade="The trade's number")
    @app_commands.autocomplete(trade=trade_autocomplete)
    @app_commands.guild_only()
    async def accept(self, interaction: discord.Interaction, trade: TradeId) -> None:
        """Accept a trade proposed to your team (captains)."""
        view = await self.service.accept(self.bot.caller(interaction), trade)
        await reply(interaction, clip(f"Trade #{view.id} accepted: {_sides(view)}. It takes effect "
                                      f"{timestamp(view.effective_at)} unless a commissioner vetoes it before then.",
                                      2000), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="decline", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(trade="The trade's number")
    @app_commands.autocomplete(trade=trade_autocomplete)
    @app_commands.guild_only()
    async def decline(self, interaction: discord.Interaction, trade: TradeId) -> None:
        """Decline a trade proposed to your team (captains)."""
        view = await self.service.decline(self.bot.caller(interaction), trade)
        await reply(interaction, f"Trade #{view.id} declined. Nothing changes.", ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="withdraw", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(trade="The trade's number")
    @app_commands.autocomplete(trade=trade_autocomplete)
    @app_commands.guild_only()
    async def withdraw(self, interaction: discord.Interaction, trade: TradeId) -> None:
        """Withdraw a trade your team proposed, before it takes effect (captains)."""
        view = await self.service.withdraw(self.bot.caller(interaction), trade)
        await reply(interaction, f"Trade #{view.id} withdrawn. Nothing changes.", ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="veto", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(trade="The trade's number", reason="Why (the teams are told)")
    @app_commands.autocomplete(trade=trade_autocomplete)
    @app_commands.guild_only()
    async def veto(self, interaction: discord.Interaction, trade: TradeId,
                   reason: app_commands.Range[str, 1, 300] | None = None) -> None:
        """Veto a trade before it takes effect (commissioners)."""
        view = await self.service.veto(self.bot.caller(interaction), trade, reason)
        await reply(interaction, clip(f"Trade #{view.id} vetoed{view.cited}: {_sides(view)}. Nothing changes; both "
                                      "teams are told.", 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="list", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(team="The team; leave empty for your own (commissioners: every team)")
    @app_commands.autocomplete(team=team_autocomplete)
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction, team: TeamName | None = None) -> None:
        """Open and recent trades of a team (captains: your own; commissioners: any)."""
        views = await self.service.recent(self.bot.caller(interaction), team)
        text = "\n".join(trade_line(v) for v in views) or "No trades yet."
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(TradeCog(bot))
