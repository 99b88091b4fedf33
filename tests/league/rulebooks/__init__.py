"""Tests of bot/league/rulebooks/: reading rulebooks and answering questions."""
