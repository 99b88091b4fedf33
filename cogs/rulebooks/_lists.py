"""What commissioners see of the questions /rule couldn't answer, and of the league's own words."""

from __future__ import annotations

import discord

from bot.discord_text import clip, timestamp
from bot.services.rulebooks.feedback import Linked, Unanswered

COLOUR = discord.Colour.blurple()


def unanswered_embed(found: Unanswered) -> discord.Embed:
    """The newest open questions, each with its number to link it by; who asked only where the league
    shows it."""
    if not found.questions:
        return discord.Embed(title="No unanswered rules questions", colour=COLOUR,
                             description="Every question /rule was asked lately found its section, and nobody "
                                         "marked an answer as not what they asked.")
    lines = []
    for q in found.questions:
        who = f" · asked by <@{q.asked_by}>" if found.show_askers and q.asked_by else ""
        lines.append(f"`#{q.id}` “{clip(q.question, 150)}” · {timestamp(q.asked_at, 'R')} · {q.why}{who}")
    more = f"\n…and {found.total - len(lines)} older." if found.total > len(lines) else ""
    embed = discord.Embed(title=f"Rules questions the bot couldn't answer ({found.total})", colour=COLOUR,
                          description=clip("\n".join(lines) + more, 4000))
    hidden = "" if found.show_askers else " Who asked is hidden (/rulebook askers shows it)."
    embed.set_footer(text="Link one to the section that answers it with /rulebook link, or set it aside with "
                          f"/rulebook dismiss.{hidden}")
    return embed


def linked_text(linked: Linked) -> str:
    before = f" (it was linked to {linked.replaced})" if linked.replaced else ""
    return (f"Linked “{clip(linked.question, 200)}” to {clip(linked.section.label, 150)}{before}. From now on, "
            "questions like it in this league find that section first.")


def words_embed(found: tuple[tuple[str, str], ...]) -> discord.Embed:
    if not found:
        return discord.Embed(title="No words of the league's own yet", colour=COLOUR,
                             description="Teach /rule one with /rulebook words add, e.g. word: biscuit, "
                                         "means: ball.")
    lines = "\n".join(f"• “{word}” means “{means}”" for word, means in found)
    return discord.Embed(title=f"The league's own words ({len(found)})", colour=COLOUR,
                         description=clip(lines, 4000))
