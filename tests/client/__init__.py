"""Tests of bot/client/: the discord.py client."""
