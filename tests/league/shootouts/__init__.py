"""Tests of bot/league/shootouts/."""
