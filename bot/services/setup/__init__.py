"""Leagues set up and changed from Discord (/setup): stored settings, audit trail, teams."""
