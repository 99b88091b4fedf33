"""How a /rule answer looks, and the buttons under it, which keep working after a restart.

Answers are ephemeral: rules are public, but a lookup is one person's question and a busy game
night channel should not fill up with rulebook embeds. Whoever wants to share one quotes it.

A sure answer shows its section (with the league's own numbers where the question asked for them), and
buttons for up to two related sections. An unsure one says so and offers the three closest sections as
buttons. Under both, "Helped" and "Not what I asked" tell the commissioners which questions the bot
couldn't answer. A section button's custom_id carries the league and the citation
(``sideline:rule:<league id>:<citation>``), a feedback button's the league and the question
(``sideline:rulefb:<league id>:<question id>:<yes|no>``); a press is answered from the league of the
server it came from, never another league's.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, ReportingItem, reply
from bot.discord_text import clean_user_text, clip
from bot.errors import NotFound
from bot.services.rulebooks.answers import CitedSection, RuleAnswer
from bot.services.rulebooks.lookup import MAX_QUESTION_CHARS, RulesLookupService
from cogs._common import bot_of

CUSTOM_ID_PREFIX = "sideline:rule:"
TEMPLATE = re.compile(r"sideline:rule:(?P<league>\d{1,19}):(?P<citation>.+)")
FEEDBACK_TEMPLATE = re.compile(r"sideline:rulefb:(?P<league>\d{1,19}):(?P<question>\d{1,19}):(?P<helped>yes|no)")
MAX_CUSTOM_ID = 100
EMBED_TITLE, EMBED_DESCRIPTION, FIELD_VALUE, BUTTON_LABEL, CHOICE = 256, 4096, 1024, 80, 100
COLOUR = discord.Colour.blurple()
UNSURE_COLOUR = discord.Colour.gold()
EXAMPLES = "*how long is overtime*, *can I kick the ball in*, or a section number like `2.7`"
ASK_CAPTAIN = "If the rulebook doesn't say, ask your captain: they can take it to the referee."
OTHER_LEAGUE = "That button belongs to another league's rulebook. Ask here with /rule instead."


def custom_id_for(league_id: int, citation: str) -> str | None:
    """The button's custom_id, or None when the citation is too long to fit in one."""
    custom_id = f"{CUSTOM_ID_PREFIX}{league_id}:{citation}"
    return custom_id if len(custom_id) <= MAX_CUSTOM_ID and TEMPLATE.fullmatch(custom_id) else None


def _list(sections: tuple[CitedSection, ...]) -> str:
    return clip("\n".join(f"• {clip(s.caption, CHOICE)}" for s in sections), FIELD_VALUE)


def _facts(embed: discord.Embed, answer: RuleAnswer) -> None:
    if answer.facts:
        embed.add_field(name="In this league", value=clip("\n".join(f"• {f}" for f in answer.facts), FIELD_VALUE),
                        inline=False)


def section_embed(section: CitedSection, *, contents: tuple[CitedSection, ...] = ()) -> discord.Embed:
    text = "" if section.heading_only else section.text  # the title already says it
    embed = discord.Embed(title=clip(section.label, EMBED_TITLE), colour=COLOUR,
                          description=clip(text, EMBED_DESCRIPTION) or None)
    if contents:
        embed.add_field(name="In this part", value=_list(contents), inline=False)
    return embed


def _footer(answer: RuleAnswer, text: str) -> str:
    if answer.clipped:
        return f"Only the first {MAX_QUESTION_CHARS} characters of your question were read. " + text
    return text


def answer_embed(answer: RuleAnswer) -> discord.Embed:
    """The best section; the closest few when unsure; or, for an empty or unmatched question, how to ask
    and where to start (or the league's numbers, when the question is about them)."""
    asked = clean_user_text(answer.question, 200)
    if answer.confidence == "unsure" and answer.choices:
        embed = discord.Embed(title="I'm not sure which rule answers that", colour=UNSURE_COLOUR,
                              description=f"These sections come closest to “{asked}”. Open the one you mean:")
        for choice in answer.choices:
            words = " ".join(choice.text.split())
            embed.add_field(name=clip(choice.label, EMBED_TITLE), value=clip(words, 300) or "—", inline=False)
        _facts(embed, answer)
        embed.set_footer(text=_footer(answer, "None of them? " + ASK_CAPTAIN))
        return embed
    if answer.best is not None:
        embed = section_embed(answer.best, contents=answer.contents)
        _facts(embed, answer)
        if answer.related:
            embed.add_field(name="Related", value=_list(answer.related), inline=False)
        if not answer.exact:
            embed.set_footer(text=_footer(answer, "Not it? Try other words, or look a section up with "
                                                  "/rulebook section."))
        return embed
    if answer.empty_question:
        title = "Ask me about the rules"
        text = f"Type your question in your own words, e.g. {EXAMPLES}. Suggestions appear as you type."
    elif answer.facts:  # the rulebook leaves it to the league's settings (points for a win, say)
        title = "Your rulebook leaves that to the league"
        text = f"No section of the rulebook is about “{asked}”. This league's settings answer it. {ASK_CAPTAIN}"
    else:
        title = "No section matched"
        text = (f"I couldn't find a section about “{asked}”. Try other words, e.g. {EXAMPLES}, or pick one of "
                f"the suggestions as you type. {ASK_CAPTAIN}")
    embed = discord.Embed(title=title, description=text, colour=COLOUR)
    _facts(embed, answer)
    if answer.contents:
        parts = all(s.kind == "heading" for s in answer.contents)
        embed.add_field(name="Parts of the rulebook (see one with /rulebook section)" if parts
                        else "Sections to start with", value=_list(answer.contents), inline=False)
    return embed


def answer_view(answer: RuleAnswer, question_id: int | None = None) -> discord.ui.View | None:
    """The sections to open (the choices when unsure, else up to two related ones) and, under an answer to
    a question, "Helped" and "Not what I asked"; None when there is nothing to press."""
    if answer.best is None:
        return None
    view = discord.ui.View(timeout=None)
    sections = answer.choices if answer.confidence == "unsure" else (answer.related or answer.contents)[:2]
    for section in sections:
        if custom_id_for(answer.league_id, section.citation) is not None:
            view.add_item(RuleButton(answer.league_id, section.citation, section.caption))
    if question_id is not None:
        view.add_item(RuleFeedbackButton(answer.league_id, question_id, helped=True))
        view.add_item(RuleFeedbackButton(answer.league_id, question_id, helped=False))
    view.stop()  # DynamicItems answer the clicks: nothing for discord.py to hold (15 min per ephemeral reply)
    return view if view.children else None


async def send_answer(interaction: discord.Interaction, answer: RuleAnswer, question_id: int | None = None) -> None:
    extra: dict[str, Any] = {}
    view = answer_view(answer, question_id)
    if view is not None:
        extra["view"] = view
    await reply(interaction, embed=answer_embed(answer), ephemeral=True, allowed_mentions=NO_MENTIONS, **extra)


class RuleButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A section to open; rebuilt from its custom_id on every press, so it survives restarts."""

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
            raise NotFound(OTHER_LEAGUE)
        found = await rules_service(bot).section(caller.league_id, self.citation)
        assert found.best is not None  # section() refuses a citation it can't find
        await reply(interaction, embed=section_embed(found.best, contents=found.contents),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)


class RuleFeedbackButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=FEEDBACK_TEMPLATE):
    """"Helped" or "Not what I asked" under an answer: recorded once per person."""

    def __init__(self, league_id: int, question_id: int, *, helped: bool) -> None:
        custom_id = f"sideline:rulefb:{league_id}:{question_id}:{'yes' if helped else 'no'}"
        super().__init__(discord.ui.Button(
            label="Helped" if helped else "Not what I asked", emoji="👍" if helped else "👎",
            style=discord.ButtonStyle.success if helped else discord.ButtonStyle.secondary, custom_id=custom_id))
        self.league_id, self.question_id, self.helped = league_id, question_id, helped

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RuleFeedbackButton:
        return cls(int(match["league"]), int(match["question"]), helped=match["helped"] == "yes")

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        caller = bot.caller(interaction)
        if caller.league_id != self.league_id:
            raise NotFound(OTHER_LEAGUE)
        outcome = await bot.services.rule_feedback.press(caller, self.question_id, self.helped)
        if outcome == "already":
            text = "You've already told me about this answer. Thanks!"
        elif self.helped:
            text = "Thanks! Glad it helped."
        else:
            text = ("Thanks for saying so: the commissioners will see this question and can point it to the right "
                    f"rule. {ASK_CAPTAIN}")
        await reply(interaction, text, ephemeral=True, allowed_mentions=NO_MENTIONS)


def rules_service(bot: SidelineBot) -> RulesLookupService:
    """The loaded cog's service (it holds the per-league index cache)."""
    # by name and duck type: load_extension executes the cog's module afresh, so classes differ by identity
    service = getattr(bot.get_cog("RuleCog"), "service", None)
    if not isinstance(service, RulesLookupService):
        raise RuntimeError("the rule cog is not loaded")
    return service


#: The buttons the rule cog registers: they answer presses on any message, after any restart.
BUTTONS = (RuleButton, RuleFeedbackButton)
