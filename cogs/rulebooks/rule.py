"""/rule question:<text>, /rulebook section citation:<citation>, and the commissioners' /rulebook
unanswered|link|dismiss|askers and /rulebook words add|remove|list.

Discord can't give one command both options and subcommands, so `/rule question:` (docs/product.md §3,
a stable name) stays a plain command and the exact lookup by citation is `/rulebook section`.
Choosing an autocomplete suggestion in `/rule` fills in a citation, which also shows that section.
How answers look and the buttons under them: cogs/rulebooks/_answers.py.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip
from bot.errors import NoLeague
from bot.services.rulebooks.answers import CitedSection
from bot.services.rulebooks.feedback import MAX_WORD
from bot.services.rulebooks.lookup import MAX_QUESTION_CHARS
from cogs._common import suggesting_for
from cogs.rulebooks._answers import BUTTONS, CHOICE, RuleButton, RuleFeedbackButton, send_answer
from cogs.rulebooks._lists import linked_text, unanswered_embed, words_embed

log = logging.getLogger("sideline.rules")


def _choices(sections: list[CitedSection]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=clip(s.caption, CHOICE), value=s.citation)
            for s in sections if len(s.citation) <= CHOICE][:25]


class RuleCog(commands.Cog):
    rulebook = app_commands.Group(name="rulebook", description="Look up the league's rulebook by citation.",
                                  guild_only=True, allowed_contexts=app_commands.AppCommandContext(guild=True))
    words = app_commands.Group(name="words", description="The league's own words for what its rulebook says.",
                               parent=rulebook)

    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.rules
        self.feedback = bot.services.rule_feedback

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*BUTTONS)
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
        self.bot.remove_dynamic_items(*BUTTONS)

    async def _suggest(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            caller = self.bot.caller(interaction)
        except NoLeague:
            return []
        return _choices(await self.service.suggest(caller.league_id, current))

    # --- everyone -------------------------------------------------------------------------------

    @app_commands.command(name="rule")
    @app_commands.describe(question="Your question in your own words, or a section number like 2.7")
    @app_commands.guild_only()
    async def rule(self, interaction: discord.Interaction,
                   question: app_commands.Range[str, 1, MAX_QUESTION_CHARS]) -> None:
        """Ask a rules question; get the rulebook section that answers it."""
        caller = self.bot.caller(interaction)
        answer = await self.service.ask(caller.league_id, question, caller.league.rules)
        await send_answer(interaction, answer, await self.feedback.record(caller, answer))

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

    # --- commissioners: the questions it couldn't answer ----------------------------------------

    @rulebook.command(name="unanswered", extras=requires(Role.COMMISSIONER))
    async def unanswered(self, interaction: discord.Interaction) -> None:
        """Questions /rule wasn't sure of or that players marked not what they asked (commissioners)."""
        found = await self.feedback.unanswered(self.bot.caller(interaction))
        await reply(interaction, embed=unanswered_embed(found), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @rulebook.command(name="link", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(asked="The question, from the suggestions (its number, e.g. #12)",
                           citation="The section that answers it; start typing to pick one")
    async def link(self, interaction: discord.Interaction, asked: app_commands.Range[str, 1, 20],
                   citation: app_commands.Range[str, 1, CHOICE]) -> None:
        """Link a question to the section that answers it; questions like it find it first (commissioners)."""
        linked = await self.feedback.link(self.bot.caller(interaction), asked, citation)
        await reply(interaction, linked_text(linked), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @rulebook.command(name="dismiss", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(asked="The question, from the suggestions (its number, e.g. #12)")
    async def dismiss(self, interaction: discord.Interaction, asked: app_commands.Range[str, 1, 20]) -> None:
        """Take a question that isn't about the rules off the unanswered list (commissioners)."""
        text = await self.feedback.dismiss(self.bot.caller(interaction), asked)
        await reply(interaction, f"Set aside “{clip(text, 200)}”: it's off the unanswered list.", ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @link.autocomplete("asked")
    @dismiss.autocomplete("asked")
    async def _asked(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        caller = suggesting_for(interaction)
        if caller is None:
            return []
        found = await self.feedback.question_choices(caller, current[:100])
        return [app_commands.Choice(name=label, value=value) for label, value in found]

    @link.autocomplete("citation")
    async def _link_citation(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current)

    @rulebook.command(name="askers", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(show="Show who asked each unanswered question (off unless you turn it on)")
    async def askers(self, interaction: discord.Interaction, show: bool) -> None:
        """Whether commissioners see who asked the questions /rule couldn't answer (commissioners)."""
        changed = await self.feedback.set_show_askers(self.bot.caller(interaction), show)
        now = "now see" if show else "no longer see"
        text = (f"Commissioners {now} who asked each question in /rulebook unanswered and the weekly digest."
                if changed else f"No change: commissioners already {'see' if show else 'do not see'} who asked.")
        await reply(interaction, text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    # --- commissioners: the league's own words ----------------------------------------------------

    @words.command(name="add", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(word="The word your players use, e.g. biscuit",
                           means="What the rulebook calls it, e.g. ball")
    async def words_add(self, interaction: discord.Interaction, word: app_commands.Range[str, 1, MAX_WORD],
                        means: app_commands.Range[str, 1, MAX_WORD]) -> None:
        """Teach /rule a word your league uses for something the rulebook names otherwise (commissioners)."""
        said, meant, before = await self.feedback.add_word(self.bot.caller(interaction), word, means)
        was = f" (it meant “{before}” before)" if before and before != meant else ""
        await reply(interaction, f"/rule now reads “{said}” as “{meant}”{was}.", ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @words.command(name="remove", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(word="One of the league's words; start typing to pick one")
    async def words_remove(self, interaction: discord.Interaction,
                           word: app_commands.Range[str, 1, MAX_WORD]) -> None:
        """Forget one of the league's own words (commissioners)."""
        said = await self.feedback.remove_word(self.bot.caller(interaction), word)
        await reply(interaction, f"/rule no longer reads “{said}” as anything special.", ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @words_remove.autocomplete("word")
    async def _word(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        caller = suggesting_for(interaction)
        if caller is None:
            return []
        return [app_commands.Choice(name=w, value=w) for w in await self.feedback.word_choices(caller, current)]

    @words.command(name="list", extras=requires(Role.COMMISSIONER))
    async def words_list(self, interaction: discord.Interaction) -> None:
        """The league's own words /rule reads (commissioners)."""
        found = await self.feedback.league_words(self.bot.caller(interaction))
        await reply(interaction, embed=words_embed(found), ephemeral=True, allowed_mentions=NO_MENTIONS)


__all__ = ["RuleButton", "RuleCog", "RuleFeedbackButton"]


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(RuleCog(bot))
