"""The custom_ids of the spares' buttons: built here, where the services queue them (a spare's offer,
a captain's lineup alert asking the spare list), and read by the cog's DynamicItems
(cogs/spares/_buttons.py), so a message queued before a restart still works."""

from __future__ import annotations

ACCEPT, DECLINE = "accept", "decline"
OFFER_PREFIX = "sideline:spare"
REQUEST_PREFIX = "sideline:sparereq"


def offer_button_id(league_id: int, offer_id: int, action: str) -> str:
    """Accept or Decline under one offer (a DM to a spare)."""
    return f"{OFFER_PREFIX}@{league_id}:{offer_id}:{action}"


def request_button_id(league_id: int, game_id: int, team_id: int) -> str:
    """"Ask the spare list" under a captain's lineup alert."""
    return f"{REQUEST_PREFIX}@{league_id}:{game_id}:{team_id}"
