"""Relays, disputes and notes to captains through the command tree."""
