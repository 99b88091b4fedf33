"""/setup rulebook: upload the league's rulebook as a text file, go back to the preset's, or see which
one `/rule` answers from. The glue only: the service checks, imports and audits."""

from __future__ import annotations

import discord

from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, defer, reply
from bot.discord_text import clip
from bot.errors import InvalidInput
from bot.services.rulebooks.choice import RulebookChanged, upload_name
from bot.services.setup.league_setup import Actor

UPLOAD = "/setup rulebook file:"
RESET = "/setup rulebook reset:True"


def example_line(changed: RulebookChanged) -> str:
    if changed.example is None:
        return ""
    return (f" For example **{clip(changed.example.label, 100)}**: see it with "
            f"/rulebook section citation:{clip(changed.example.citation, 100)}.")


def uploaded_text(changed: RulebookChanged, filename: str) -> str:
    after = changed.after
    return (f"Read {after.sections} sections from {upload_name(filename)}: /rule in {changed.league_name} answers "
            f"from it now, in place of {changed.before.describe(in_discord=True)}.{example_line(changed)} "
            f"Go back to the {after.preset} preset's rulebook with {RESET}.")


def reset_text(changed: RulebookChanged) -> str:
    if not changed.changed:
        return (f"{changed.league_name} already answers /rule from {changed.after.describe(in_discord=True)}; "
                "nothing changed.")
    return (f"{changed.league_name} answers /rule from {changed.after.describe(in_discord=True)} again, in place "
            f"of {changed.before.describe(in_discord=True)}.{example_line(changed)}")


async def answer(bot: SidelineBot, interaction: discord.Interaction, actor: Actor,
                 file: discord.Attachment | None, reset: bool) -> None:
    service = bot.services.rulebooks
    guild_id = interaction.guild_id
    if file is not None and reset:
        raise InvalidInput(f"Upload a file or go back to the preset's rulebook, not both: use {UPLOAD} or "
                           f"{RESET}. Nothing changed.")
    if file is None and not reset:
        league, in_use = await service.show(guild_id, actor)
        text = (f"{league.name} answers /rule from {in_use.describe(in_discord=True)}. Upload the league's own "
                f"with {UPLOAD} (a .txt or .md file), or go back to the preset's with {RESET}.")
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)
        return
    if file is None:
        text = reset_text(await service.reset(guild_id, actor))
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)
        return
    service.check_upload(guild_id, actor, file.filename, file.size)  # refuse before downloading anything
    await defer(interaction, ephemeral=True)
    data = await file.read()
    changed = await service.upload(guild_id, actor, file.filename, data)
    await reply(interaction, clip(uploaded_text(changed, file.filename), 2000), ephemeral=True,
                allowed_mentions=NO_MENTIONS)
