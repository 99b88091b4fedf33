"""Tests of bot/league/checkins/: lineups."""
