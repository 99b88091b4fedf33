"""The features' forms are taken back by one listener of interactions, which discord.py runs as a task
for every interaction of any kind (each check-in too): one for all forms, none while no form is
registered. That a submitted form still reaches its feature, before and after a restart, is in
tests/commands/messages/test_relays.py and tests/commands/registration/."""

from __future__ import annotations

from tests.harness import Harness


async def test_the_registration_and_relay_forms_share_one_listener(harness: Harness) -> None:
    bot = harness.bot
    assert bot.extra_events.get("on_interaction") == [bot.forms.on_interaction]
    assert {handler.__name__ for handler in bot.forms.handlers} == {"handle_answer", "handle_form"}


async def test_a_cog_unloaded_takes_its_form_away_and_the_last_one_the_listener(harness: Harness) -> None:
    bot = harness.bot
    await bot.unload_extension("cogs.messages.relays")
    assert [handler.__name__ for handler in bot.forms.handlers] == ["handle_form"]
    assert bot.extra_events.get("on_interaction") == [bot.forms.on_interaction]
    await bot.unload_extension("cogs.registration.registration")
    assert bot.forms.handlers == []
    assert not bot.extra_events.get("on_interaction")
    await bot.load_extension("cogs.messages.relays")
    assert bot.extra_events.get("on_interaction") == [bot.forms.on_interaction]
