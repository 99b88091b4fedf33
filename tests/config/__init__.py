"""Tests of bot/config/: the settings, the environment and shard settings."""
