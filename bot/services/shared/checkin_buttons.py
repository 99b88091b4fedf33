"""The custom_ids of the In / Out / Maybe buttons that answer for a player without a Discord account:
built here, where reminders queue them, and read by the check-in cog's DynamicItem
(cogs/checkins/_buttons.py), so a DM queued before a restart still works."""

from __future__ import annotations

PREFIX = "sideline:checkin"
STATUSES = (("in", "In"), ("out", "Out"), ("maybe", "Maybe"))
MAX_CUSTOM_ID = 100


def managed_button_id(game_code: str, status: str, league_id: int, player_id: int) -> str:
    """``sideline:checkin@<league>:<game code>:<status>:p<player id>``: the player a guardian answers for."""
    return f"{PREFIX}@{league_id}:{game_code}:{status}:p{player_id}"


def managed_buttons(game_code: str, league_id: int, player_id: int, name: str) -> tuple[tuple[str, str], ...]:
    """(label, custom_id) of the three buttons for one managed player; none when the game's code is too
    long to fit (the guardian answers with /checkin then)."""
    ids = [managed_button_id(game_code, status, league_id, player_id) for status, _ in STATUSES]
    if any(len(i) > MAX_CUSTOM_ID for i in ids):
        return ()
    who = name[:60]
    return tuple((f"{label}: {who}", custom_id) for (_, label), custom_id in zip(STATUSES, ids, strict=True))
