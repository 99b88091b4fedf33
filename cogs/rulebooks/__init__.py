"""The league's rulebook: /rule and /rulebook, the buttons under an answer, and what commissioners
do with the questions the bot couldn't answer."""

from cogs.rulebooks._answers import custom_id_for, rules_service

__all__ = ["custom_id_for", "rules_service"]
