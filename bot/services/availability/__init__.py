"""Availability beyond check-ins: ``away`` (players out for a range of days), ``guests`` (non-roster
players cleared for one game) and ``preferences`` (how each player hears reminders)."""
