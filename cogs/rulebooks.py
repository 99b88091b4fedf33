"""/rule question:<text> and /rulebook section citation:<citation>: the league's rulebook, looked up.

Answers are ephemeral: rules are public, but a lookup is one person's question and a busy game
night channel should not fill up with rulebook embeds. Whoever wants to share one quotes it.

Discord can't give one command both options and subcommands, so `/rule question:` (docs/product.md §3,
a stable name) stays a plain command and the exact lookup by citation is `/rulebook section`.
Choosing an autocomplete suggestion in `/rule` fills in a citation, which also shows that section.

Related sections come as buttons whose custom_id carries the league and the citation
(``sideline:rule:<league id>:<citation>``), so they keep working after a restart; a press is
answered from the league of the server it came from, never another league's rulebook.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, ReportingItem, reply
from bot.discord_text import clean_user_text, clip
from bot.errors import NoLeague, NotFound
from bot.services.rulebooks.lookup import MAX_QUESTION_CHARS, CitedSection, RuleAnswer, RulesLookupService
from cogs._common import bot_of

log = logging.getLogger("sideline.rules")

CUSTOM_ID_PREFIX = "sideline:rule:"
TEMPLATE = re.compile(r"sideline:rule:(?P<league>\d{1,19}):(?P<citation>.+)")
MAX_CUSTOM_ID = 100
EMBED_TITLE, EMBED_DESCRIPTION, FIELD_VALUE, BUTTON_LABEL, CHOICE = 256, 4096, 1024, 80, 100
COLOUR = discord.Colour.blurple()
EXAMPLES = "*how long is overtime*, *can I kick the ball in*, or a section number like `2.7`"


def custom_id_for(league_id: int, citation: str) -> str | None:
    """The button's custom_id, or None when the citation is too long to fit in one."""
    custom_id = f"{CUSTOM_ID_PREFIX}{league_id}:{citation}"
    return custom_id if len(custom_id) <= MAX_CUSTOM_ID and TEMPLATE.fullmatch(custom_id) else None


def _list(sections: tuple[CitedSection, ...]) -> str:
    return clip("\n".join(f"• {clip(s.caption, CHOICE)}" for s in sections), FIELD_VALUE)


def section_embed(section: CitedSection, *, contents: tuple[CitedSection, ...] = ()) -> discord.Embed:
    text = "" if section.heading_only else section.text  # the title already says it
    embed = discord.Embed(title=clip(section.label, EMBED_TITLE), colour=COLOUR,
                          description=clip(text, EMBED_DESCRIPTION) or None)
    if contents:
        embed.add_field(name="In this part", value=_list(contents), inline=False)
    return embed


def answer_embed(answer: RuleAnswer) -> discord.Embed:
    """The best section; or, for an empty or unmatched question, how to ask and where to start."""
    if answer.best is not None:
        embed = section_embed(answer.best, contents=answer.contents)
        if answer.related:
            embed.add_field(name="Related", value=_list(answer.related), inline=False)
        if not answer.exact:
            footer = "Not it? Try other words, or look a section up with /rulebook section."
            if answer.clipped:
                footer = f"Only the first {MAX_QUESTION_CHARS} characters of your question were read. " + footer
            embed.set_footer(text=footer)
        return embed
    if answer.empty_question:
        title = "Ask me about the rules"
        text = f"Type your question in your own words, e.g. {EXAMPLES}. Suggestions appear as you type."
    else:
        title = "No section matched"
        text = (f"I couldn't find a section about “{clean_user_text(answer.question, 200)}”. "
                f"Try other words, e.g. {EXAMPLES}, or pick one of the suggestions as you type.")
    embed = discord.Embed(title=title, description=text, colour=COLOUR)
    if answer.contents:
        parts = all(s.kind == "heading" for s in answer.contents)
        embed.add_field(name="Parts of the rulebook (see one with /rulebook section)" if parts
                        else "Sections to start with", value=_list(answer.contents), inline=False)
    return embed


def related_view(answer: RuleAnswer) -> discord.ui.View | None:
    """Up to two buttons for related sections (or a heading's first sections); None if there are none."""
    if answer.best is None:
        return None
    view = discord.ui.View(timeout=None)
    for section in (answer.related or answer.contents)[:2]:
        if custom_id_for(answer.league_id, section.citation) is not None:
            view.add_item(RuleButton(answer.league_id, section.citation, section.caption))
    view.stop()  # DynamicItems answer the clicks: nothing for discord.py to hold (15 min per ephemeral reply)
    return view if view.children else None


async def send_answer(interaction: discord.Interaction, answer: RuleAnswer) -> None:
    extra: dict[str, Any] = {}
    view = related_view(answer)
    if view is not None:
        extra["view"] = view
    await reply(interaction, embed=answer_embed(answer), ephemeral=True,
                allowed_mentions=NO_MENTIONS, **extra)


def _choices(sections: list[CitedSection]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=clip(s.caption, CHOICE), value=s.citation)
            for s in sections if len(s.citation) <= CHOICE][:25]


class RuleButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A related section; rebuilt from its custom_id on every press, so it survives restarts."""

    def __init__(self, league_id: int, citation: str, label: str | None = None) -> None:
        custom_id = custom_id_for(league_id, citation)
        if custom_id is None:
            raise ValueError(f"citation {citation!r} does not fit in a button's custom_id")
        super().__init__(discord.ui.Button(label=clip(label or citation, BUTTON_LABEL),
                                           style=discord.ButtonStyle.secondary, emoji="📖",
                                           custom_id=custom_id))
        self.league_id = league_id
        self.citation = citation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RuleButton:
        return cls(int(match["league"]), match["citation"])

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        caller = bot.caller(interaction)
        if caller.league_id != self.league_id:
            raise NotFound("That button belongs to another league's rulebook. Ask here with /rule instead.")
        found = await rules_service(bot).section(caller.league_id, self.citation)
        assert found.best is not None  # section() refuses a citation it can't find
        await reply(interaction, embed=section_embed(found.best, contents=found.contents),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)


def rules_service(bot: SidelineBot) -> RulesLookupService:
    """The loaded cog's service (it holds the per-league index cache)."""
    # by name and duck type: load_extension executes this module afresh, so classes differ by identity
    service = getattr(bot.get_cog("RuleCog"), "service", None)
    if not isinstance(service, RulesLookupService):
        raise RuntimeError("the rule cog is not loaded")
    return service


class RuleCog(commands.Cog):
    rulebook = app_commands.Group(name="rulebook", description="Look up the league's rulebook by citation.",
                                  guild_only=True, allowed_contexts=app_commands.AppCommandContext(guild=True))

    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.rules

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RuleButton)
        leagues = [(lg, self.bot.league_ids[lg.guild_id]) for lg in self.bot.settings.all_leagues
                   if lg.guild_id in self.bot.league_ids]
        for outcome in await self.service.sync_configured(leagues):
            if outcome.status == "imported":
                log.info("league %s: rulebook %s imported (%s)", outcome.league_key, outcome.path, outcome.detail)
        for league, league_id in leagues:  # warm the configured leagues' indexes so the first /rule is quick
            if league.rulebook is None:
                continue  # a CLI-imported rulebook is indexed on first use; no start-up query for it
            try:
                await self.service.index(league_id)
            except Exception:
                log.exception("could not load the rulebook index of league %s", league_id)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RuleButton)

    async def _suggest(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            caller = self.bot.caller(interaction)
        except NoLeague:
            return []
        return _choices(await self.service.suggest(caller.league_id, current))

    @app_commands.command(name="rule")
    @app_commands.describe(question="Your question in your own words, or a section number like 2.7")
    @app_commands.guild_only()
    async def rule(self, interaction: discord.Interaction,
                   question: app_commands.Range[str, 1, MAX_QUESTION_CHARS]) -> None:
        """Ask a rules question; get the rulebook section that answers it."""
        caller = self.bot.caller(interaction)
        await send_answer(interaction, await self.service.ask(caller.league_id, question))

    @rule.autocomplete("question")
    async def _rule_question(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current)

    @rulebook.command(name="section")
    @app_commands.describe(citation="The section's citation; start typing to pick one")
    async def section(self, interaction: discord.Interaction,
                      citation: app_commands.Range[str, 1, CHOICE]) -> None:
        """Show one rulebook section by its citation, e.g. 2.7."""
        caller = self.bot.caller(interaction)
        await send_answer(interaction, await self.service.section(caller.league_id, citation))

    @section.autocomplete("citation")
    async def _section_citation(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(RuleCog(bot))
