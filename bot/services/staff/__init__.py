"""A team's staff: assistant coaches and stand-in captains (assistants.py), and who is put forward and
confirmed as a team's coach, assistant coach or captain before the draft (nominations.py)."""

from bot.services.staff.assistants import AssistantChange, StaffService, StandInChange

__all__ = ["AssistantChange", "StaffService", "StandInChange"]
