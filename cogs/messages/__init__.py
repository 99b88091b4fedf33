"""Relays to referees, disputes and notes to captains."""
